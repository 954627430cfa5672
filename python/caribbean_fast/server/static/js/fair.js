// Provably fair, in the player's hands, without anyone seeing another seat's cards: the check of
// engine/fairness.py, written again here so that the player's own browser runs it. Before the deal
// every seat is shown one commitment, the SHA-256 of the 52 deck positions' leaves (hex, joined);
// position p's leaf is SHA-256(salt_p + the card's id as one byte). After the round the seat gets
// every leaf, the round's deal (the seats dealt in order, the cards to a hand and to the board,
// each exchange's seat and count) and the openings (card and salt) of the positions it was shown.
// Each opening must sit where the deal puts it and open its leaf, every position of the seat's
// own cards must be opened, the leaves must hash to the commitment seen before the deal, and the
// opened cards must be the cards the table showed. From the rules' fourth edition every dealt seat
// may add a seed (engine/seeding.py): the dealt order is the committed deck cut by `cutOf` (dealt
// position i is committed position cut[i]), each seed must open the commitment its seat made, and
// the seat's own seed must be there as it gave it.

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

/** A card's id (caribbean_fast.cards: rank times 4 plus suit) from its text, and back. */
export const cardId = (text) => (RANKS.indexOf(text[0]) << 2) | SUITS.indexOf(text[1]);
export const cardText = (id) => RANKS[id >> 2] + SUITS[id & 3];

export function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export async function sha256Hex(bytes) {
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

async function hmacKey(seedHex) {
  return crypto.subtle.importKey("raw", hexBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** The 52 card ids in dealing order for this seed (engine/shuffle.py): Fisher-Yates from the top
 * down, each index drawn without bias by rejection from the 32-bit words of HMAC-SHA256(seed,
 * counter as 8 bytes big-endian). */
export async function deckFromSeed(seedHex) {
  const key = await hmacKey(seedHex);
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
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; i--) {
    const limit = 2 ** 32 - (2 ** 32 % (i + 1));
    let word = await nextWord();
    while (word >= limit) word = await nextWord();
    const j = word % (i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** Every position's leaf for the deck this seed shuffles: the shuffle's own proof, shown to a seat
 * that was the only one dealt (no one else's cards follow from it). */
export async function leavesFromSeed(seedHex) {
  const key = await hmacKey(seedHex);
  const deck = await deckFromSeed(seedHex);
  const leaves = [];
  for (let p = 0; p < deck.length; p++) {
    const salt = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`position:${p}`)));
    const bytes = new Uint8Array(salt.length + 1);
    bytes.set(salt);
    bytes[salt.length] = deck[p];
    leaves.push(await sha256Hex(bytes));
  }
  return leaves;
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

/** The cut the seats' seeds make (engine/fairness.py `cut`): the Fisher-Yates order of the key
 * SHA-256("caribbean-fast/seats:" + commitment + "|seat:seed" for each dealt seat in dealing
 * order), or null when no seat gave a seed (the deck is dealt as committed). */
export async function cutOf(commitment, seeds) {
  if (!seeds.some(([, seed]) => seed)) return null;
  const text = "caribbean-fast/seats:" + commitment + seeds.map(([seat, seed]) => `|${seat}:${seed}`).join("");
  return deckFromSeed(await sha256Hex(new TextEncoder().encode(text)));
}

/** Whether a seed (hex) opens a commitment: the SHA-256 of its bytes. */
async function opens(seedHex, commitment) {
  return /^([0-9a-f]{2})+$/.test(seedHex) && (await sha256Hex(hexBytes(seedHex))) === commitment;
}

const sorted = (list) => [...list].sort().join();

/** Checks a finished round's proof against the commitment seen before the deal, the cards the
 * view shows and (`mine`, hex) the seed this page added, if any. Returns {ok, lines}. */
export async function verifyProof(view, shownCommitment, mine = null) {
  const { leaves, openings, deal, seat } = view.proof;
  const seeds = view.proof.seeds || [];
  const order = await cutOf(shownCommitment, seeds.map((s) => [s.seat, s.seed]));
  const at = positions(deal);
  const cutAt = (list) => (order ? list.map((i) => order[i]) : list);
  const where = { you: cutAt(at[String(seat)]), dealer: cutAt(at.dealer), board: cutAt(at.board) };
  const lines = [];
  let seeded = true;
  for (const s of seeds) seeded &&= !s.seed || (await opens(s.seed, s.commitment));
  if (seeds.length) {
    const added = seeds.filter((s) => s.seed).length;
    lines.push(`${added} seat seed${added === 1 ? "" : "s"} cut the deck, each opening its seat's commitment: ${seeded ? "yes" : "NO"}`);
  }
  const used = mine === null || seeds.some((s) => s.seat === seat && s.seed === mine);
  if (mine !== null) lines.push(`your seed was used: ${used ? "yes" : "NO"}`);
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
  const drawn = of("you").map((o) => o.card);
  const yours = all && view.cards.every((c) => drawn.includes(c));
  lines.push(`your cards${drawn.length > view.cards.length ? " and every card you drew" : ""}: ${yours ? "yes" : "NO"}`);
  const dealer = sorted(of("dealer").map((o) => o.card)) === sorted(view.dealer);
  const board = sorted(of("board").map((o) => o.card)) === sorted(view.board);
  lines.push(`the dealer's cards shown: ${dealer ? "yes" : "NO"}`);
  if (view.board.length) lines.push(`the board: ${board ? "yes" : "NO"}`);
  let shuffled = true;
  if (view.proof.seed) {
    shuffled = (await leavesFromSeed(view.proof.seed)).join() === leaves.join();
    lines.push(`the seed (yours alone: no other seat was dealt) shuffles into the committed deck: ${shuffled ? "yes" : "NO"}`);
  }
  return { ok: committed && seeded && used && placed && opened && yours && dealer && board && shuffled, lines };
}
