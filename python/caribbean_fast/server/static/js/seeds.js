// The player's part in a fair deal (engine/seeding.py): the seed this page adds to each round, and
// the commitment it saw before each deal. Both are kept in this browser's storage, by account,
// table and round, so that a check (here, or later on the history page) compares a round's proof
// with what this page saw before the deal, never with what the server sends along with it.

import { hexBytes, sha256Hex } from "./fair.js";

export const SEED_MOST = 64; // bytes (engine/fairness.py SEED_MOST)

const key = (account, table, round) => `cf-fair:${account}:${table}:${round}`;

/** What this browser kept of a round: {commitment, seed, committed} (null: it kept nothing). */
export function remembered(account, table, round) {
  try {
    return JSON.parse(localStorage.getItem(key(account, table, round)) || "null");
  } catch {
    return null; // storage refused or spoiled: nothing kept
  }
}

/** Keeps `fields` for the round; `first` keeps a field already kept as it was (the commitment first seen). */
export function remember(account, table, round, fields, first = false) {
  const old = remembered(account, table, round) || {};
  try {
    localStorage.setItem(key(account, table, round), JSON.stringify(first ? { ...fields, ...old } : { ...old, ...fields }));
  } catch {
    // storage full or refused: the check will say the round was not seen
  }
}

/** 32 random bytes from Web Crypto, as hex: the page's seed when the player sets none. */
export function randomSeed() {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The player's own seed: the UTF-8 bytes of what they typed, as hex (null: empty or over SEED_MOST bytes). */
export function seedOfText(text) {
  const bytes = new TextEncoder().encode(text);
  if (!bytes.length || bytes.length > SEED_MOST) return null;
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What a seat commits to: the SHA-256 of the seed's bytes. */
export function commitmentOf(seedHex) {
  return sha256Hex(hexBytes(seedHex));
}
