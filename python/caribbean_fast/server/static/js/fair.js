// Provably fair, in the player's hands, without anyone seeing another seat's cards (the engine's
// engine/fairness.py): before the deal every seat is shown one commitment, the SHA-256 of the 52
// deck positions' leaves; position p's leaf is SHA-256(salt_p + the card's id as one byte). After
// the round the seat gets every leaf and the openings (card and salt) of the positions it was
// shown: its own cards and draws, the dealer's and the board's. Here each opening is checked
// against its leaf, the leaves against the commitment seen before the deal, and the opened cards
// against the cards the table showed.

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

function cardId(text) {
  return (RANKS.indexOf(text[0]) << 2) | SUITS.indexOf(text[1]);
}

function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The hash of a position's leaf: SHA-256 of its salt and the card's id. */
export async function leafOf(saltHex, card) {
  const salt = hexBytes(saltHex);
  const bytes = new Uint8Array(salt.length + 1);
  bytes.set(salt);
  bytes[salt.length] = cardId(card);
  return sha256Hex(bytes);
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Checks a finished round's proof against the commitment seen before the deal. Returns {ok, lines}. */
export async function verifyProof(view, shownCommitment) {
  const { leaves, openings } = view.proof;
  const lines = [];
  const root = await sha256Hex(new TextEncoder().encode(leaves.join("")));
  const committed = root === shownCommitment;
  lines.push(`the ${leaves.length} positions hash to the commitment shown before the deal: ${committed ? "yes" : "NO"}`);
  let opened = true;
  for (const o of openings) opened &&= (await leafOf(o.salt, o.card)) === leaves[o.position];
  const distinct = new Set(openings.map((o) => o.position)).size === openings.length;
  lines.push(`${openings.length} cards open their committed positions: ${opened && distinct ? "yes" : "NO"}`);
  const of = (whose) => openings.filter((o) => o.of === whose).map((o) => o.card);
  const mine = of("you");
  const yours = view.cards.every((c) => mine.includes(c));
  lines.push(`your cards${mine.length > view.cards.length ? " and every card you drew" : ""} were committed: ${yours ? "yes" : "NO"}`);
  const dealer = sameCards(of("dealer"), view.dealer);
  const board = sameCards(of("board"), view.board);
  lines.push(`the dealer's cards shown were committed: ${dealer ? "yes" : "NO"}`);
  if (view.board.length) lines.push(`the board was committed: ${board ? "yes" : "NO"}`);
  return { ok: committed && opened && distinct && yours && dealer && board, lines };
}
