// Provably fair, in the player's hands, without anyone seeing another seat's cards: the check of
// engine/fairness.py, written again here so that the player's own browser runs it. Before the deal
// every seat is shown one commitment, the SHA-256 of the 52 deck positions' leaves (hex, joined);
// position p's leaf is SHA-256(salt_p + the card's id as one byte). After the round the seat gets
// every leaf, the round's deal (the seats dealt in order, the cards to a hand and to the board,
// each exchange's seat and count) and the openings (card and salt) of the positions it was shown.
// Each opening must sit where the deal puts it and open its leaf, every position of the seat's
// own cards must be opened, the leaves must hash to the commitment seen before the deal, and the
// opened cards must be the cards the table showed.

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

/** Where the deal puts each hand's cards in the deck (engine/fairness.py `positions`): one card
 * at a time from the top to each dealt seat, then the dealer; then the board; then each
 * exchange's draws, from the top, in order. */
export function positions(deal) {
  const width = deal.seats.length + 1;
  const range = (start, count) => Array.from({ length: count }, (_, i) => start + i);
  const found = { dealer: range(0, deal.hand).map((j) => j * width + deal.seats.length) };
  deal.seats.forEach((seat, i) => (found[String(seat)] = range(0, deal.hand).map((j) => j * width + i)));
  let top = deal.hand * width;
  found.board = range(top, deal.board);
  top += deal.board;
  for (const [seat, count] of deal.draws) {
    found[String(seat)].push(...range(top, count));
    top += count;
  }
  return found;
}

const sorted = (list) => [...list].sort().join();

/** Checks a finished round's proof against the commitment seen before the deal and the cards
 * the view shows. Returns {ok, lines}. */
export async function verifyProof(view, shownCommitment) {
  const { leaves, openings, deal, seat } = view.proof;
  const at = positions(deal);
  const where = { you: at[String(seat)], dealer: at.dealer, board: at.board };
  const lines = [];
  const root = await sha256Hex(new TextEncoder().encode(leaves.join("")));
  const committed = leaves.length === 52 && root === shownCommitment;
  lines.push(`the 52 positions hash to the commitment shown before the deal: ${committed ? "yes" : "NO"}`);
  let placed = true;
  let opened = true;
  for (const o of openings) {
    placed &&= o.of in where && where[o.of].includes(o.position);
    opened &&= placed && (await leafOf(o.salt, o.card)) === leaves[o.position];
  }
  lines.push(`${openings.length} cards sit where the deal puts them: ${placed ? "yes" : "NO"}`);
  lines.push(`and open the leaves committed before the deal: ${opened ? "yes" : "NO"}`);
  const of = (whose) => openings.filter((o) => o.of === whose);
  const all = sorted(of("you").map((o) => o.position)) === sorted(where.you);
  const mine = of("you").map((o) => o.card);
  const yours = all && view.cards.every((c) => mine.includes(c));
  lines.push(`your cards${mine.length > view.cards.length ? " and every card you drew" : ""}: ${yours ? "yes" : "NO"}`);
  const dealer = sorted(of("dealer").map((o) => o.card)) === sorted(view.dealer);
  const board = sorted(of("board").map((o) => o.card)) === sorted(view.board);
  lines.push(`the dealer's cards shown: ${dealer ? "yes" : "NO"}`);
  if (view.board.length) lines.push(`the board: ${board ? "yes" : "NO"}`);
  return { ok: committed && placed && opened && yours && dealer && board, lines };
}
