// Provably fair, in the player's hands: the round's seed, revealed after the showdown, must hash
// (SHA-256) to the commitment shown before the deal, and the deck re-derived from it here must
// deal exactly the cards on the table. The algorithm is the engine's (engine/shuffle.py):
// Fisher-Yates from the top down, each index drawn without bias by rejection from 32-bit words of
// HMAC-SHA256(seed, counter as 8 bytes big-endian).

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const DECK_SIZE = 52;

export function cardText(id) {
  return RANKS[id >> 2] + SUITS[id & 3];
}

function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

function hexOf(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function commitmentOf(seedHex) {
  return hexOf(await crypto.subtle.digest("SHA-256", hexBytes(seedHex)));
}

/** The 52 cards in dealing order for this seed, as card texts. */
export async function deckFromSeed(seedHex) {
  const key = await crypto.subtle.importKey("raw", hexBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  let counter = 0n;
  let words = [];
  const nextWord = async () => {
    if (!words.length) {
      const message = new Uint8Array(8);
      new DataView(message.buffer).setBigUint64(0, counter++);
      const block = new DataView(await crypto.subtle.sign("HMAC", key, message));
      words = Array.from({ length: 8 }, (_, i) => block.getUint32(4 * i));
    }
    return words.shift();
  };
  const deck = Array.from({ length: DECK_SIZE }, (_, i) => i);
  for (let i = DECK_SIZE - 1; i > 0; i--) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let word = await nextWord();
    while (word >= limit) word = await nextWord();
    const j = word % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck.map(cardText);
}

/** The cards the engine deals from a deck: one at a time to each dealt seat from seat 0, then
 * the dealer, five rounds (hold'em: two), then hold'em's board; exchanges draw from what is left. */
export function dealFrom(deck, dealtSeats, holdem) {
  const perHand = holdem ? 2 : 5;
  const hands = Object.fromEntries(dealtSeats.map((s) => [s, []]));
  const dealer = [];
  let top = 0;
  for (let k = 0; k < perHand; k++) {
    for (const seat of dealtSeats) hands[seat].push(deck[top++]);
    dealer.push(deck[top++]);
  }
  const board = holdem ? deck.slice(top, top + 5) : [];
  top += board.length;
  return { hands, dealer, board, rest: deck.slice(top) };
}

/** Checks a settled round's view: the commitment shown before the deal, the revealed seed, and
 * every card on the table against the re-derived deck. Returns {ok, lines}. */
export async function verifyRound(view, shownCommitment, holdem) {
  const lines = [];
  const hash = await commitmentOf(view.seed);
  const committed = hash === shownCommitment;
  lines.push(`SHA-256 of the seed ${committed ? "equals" : "DIFFERS FROM"} the commitment shown before the deal`);
  const deck = await deckFromSeed(view.seed);
  const mineDealt = view.cards.length > 0;
  const dealt = [...(mineDealt ? [view.seat] : []), ...view.others.filter((o) => o.dealt).map((o) => o.seat)].sort((a, b) => a - b);
  const deal = dealFrom(deck, dealt, holdem);
  const same = (a, b) => a.length === b.length && a.every((c, i) => c === b[i]);
  const dealerOk = same(deal.dealer, view.dealer);
  lines.push(`the dealer's cards ${dealerOk ? "match" : "DO NOT match"} the deck`);
  let boardOk = true;
  if (holdem) {
    boardOk = same(deal.board, view.board);
    lines.push(`the board ${boardOk ? "matches" : "DOES NOT match"} the deck`);
  }
  const mine = view.exchanges ? deal.rest.slice(5 * (view.exchanges - 1), 5 * view.exchanges) : deal.hands[view.seat];
  const mineOk = !mineDealt || same(mine, view.cards);
  if (mineDealt) lines.push(`your cards ${mineOk ? "match" : "DO NOT match"} the deck` + (view.exchanges ? " (after your exchanges)" : ""));
  let othersOk = true;
  for (const o of view.others.filter((x) => x.dealt && x.cards.length)) {
    const ok = same(deal.hands[o.seat], o.cards);
    othersOk &&= ok;
    lines.push(`seat ${o.seat + 1}'s cards ${ok ? "match" : "DO NOT match"} the deck`);
  }
  return { ok: committed && dealerOk && boardOk && mineOk && othersOk, lines, deck };
}
