// Cards and chips drawn as SVG, with text for screen readers. A card is two characters from the
// protocol (rank 23456789TJQKA, suit cdhs); suits are shown as symbols and in colour.

const SVG = "http://www.w3.org/2000/svg";
const RANK_NAMES = { T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
const NUMBER_NAMES = ["", "", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"];
export const SUITS = {
  c: { symbol: "\u2663", name: "clubs", red: false },
  d: { symbol: "\u2666", name: "diamonds", red: true },
  h: { symbol: "\u2665", name: "hearts", red: true },
  s: { symbol: "\u2660", name: "spades", red: false },
};

export function cardName(card) {
  const rank = card[0];
  return `${RANK_NAMES[rank] || NUMBER_NAMES[Number(rank)]} of ${SUITS[card[1]].name}`;
}

function el(tag, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

/** One card face (or its back when `card` is null), 100 x 140 units, scaled by CSS. */
export function cardSvg(card, { selected = false } = {}) {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card" + (card ? "" : " back") + (selected ? " selected" : "") });
  svg.setAttribute("role", "img");
  if (!card) {
    svg.setAttribute("aria-label", "face-down card");
    svg.append(el("rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, class: "card-back" }));
    svg.append(el("rect", { x: 10, y: 10, width: 80, height: 120, rx: 5, class: "card-back-inner" }));
    svg.append(el("text", { x: 50, y: 82, "text-anchor": "middle", class: "card-back-mark" }, "\u2660\u2665"));
    return svg;
  }
  const suit = SUITS[card[1]];
  const rank = card[0] === "T" ? "10" : card[0];
  svg.setAttribute("aria-label", cardName(card));
  svg.classList.add(suit.red ? "red" : "black");
  svg.append(el("rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, class: "card-face" }));
  svg.append(el("text", { x: 9, y: 36, class: "card-rank" }, rank));
  svg.append(el("text", { x: 9, y: 66, class: "card-suit-small" }, suit.symbol));
  svg.append(el("text", { x: 58, y: 122, "text-anchor": "middle", class: "card-suit-big" }, suit.symbol));
  return svg;
}

/** A row of cards; `hidden` face-down cards drawn after the known ones (or before them). A card
 * that was not in the row before is dealt in (`dealt`), and a face where a back lay is turned
 * (`turned`): short CSS animations, all over within half a second, none under reduced motion.
 * A card already in the row keeps its node, so a view that follows within that half second
 * neither cuts nor replays its animation. `marked`: the cards of the winning hand, outlined (the
 * others dimmed). */
export function cardRow(node, cards, hidden = 0, label = "", hiddenFirst = false, marked = null) {
  const faces = new Map([...node.children].filter((s) => s.dataset.card).map((s) => [s.dataset.card, s]));
  const backsBefore = [...node.children].filter((s) => !s.dataset.card);
  let fresh = 0;
  const enter = (svg, how) => {
    svg.classList.add(how);
    svg.style.setProperty("--i", String(fresh++));
    return svg;
  };
  const shown = cards.map((c) => {
    const svg = faces.get(c) || enter(cardSvg(c), backsBefore.length ? "turned" : "dealt");
    svg.dataset.card = c;
    svg.classList.remove("winning", "out");
    if (marked) svg.classList.add(marked.includes(c) ? "winning" : "out");
    return svg;
  });
  const backs = Array.from({ length: hidden }, (_, k) => backsBefore[k] || enter(cardSvg(null), "dealt"));
  placeChildren(node, hiddenFirst ? [...backs, ...shown] : [...shown, ...backs]);
  const spoken = cards.map(cardName).join(", ") + (hidden ? `${cards.length ? ", " : ""}${hidden} face down` : "");
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", `${label}: ${spoken || "no cards"}`);
}

const CHIP_COLOURS = ["#f4f4f4", "#d22", "#1a8a3a", "#1d4fc4", "#222", "#7a2fb0", "#e08a00"];

export function chipColour(values, value) {
  const i = values.indexOf(value);
  return CHIP_COLOURS[(i < 0 ? 0 : i + 1) % CHIP_COLOURS.length];
}

/** One chip as SVG with its value written on it. */
export function chipSvg(colour, text) {
  const svg = el("svg", { viewBox: "0 0 60 60", class: "chip" });
  svg.setAttribute("aria-hidden", "true");
  svg.append(el("circle", { cx: 30, cy: 30, r: 28, fill: colour, class: "chip-edge" }));
  svg.append(el("circle", { cx: 30, cy: 30, r: 28, class: "chip-stripes" }));
  svg.append(el("circle", { cx: 30, cy: 30, r: 19, class: "chip-inlay" }));
  svg.append(el("text", { x: 30, y: 36, "text-anchor": "middle", class: "chip-text" }, text));
  return svg;
}

/** An amount as a stack of chips (largest first, at most eight drawn). */
export function chipStack(node, amount, values, short) {
  const chips = [];
  let rest = amount;
  for (const value of [...values].reverse()) {
    while (rest >= value && chips.length < 8) {
      chips.push(value);
      rest -= value;
    }
  }
  if (rest > 0 && chips.length < 8) chips.push(rest); // below the smallest chip (a $1 progressive): its own value
  node.replaceChildren(
    ...chips.map((value, k) => {
      const chip = chipSvg(chipColour(values, value), short(value));
      chip.style.setProperty("--k", String(k));
      return chip;
    }),
  );
}

/** `node`'s children made `wanted`, in order, moving no child already in its place: a node taken
 * out and put back would start its animation again. */
export function placeChildren(node, wanted) {
  const keep = new Set(wanted);
  for (const child of [...node.children]) if (!keep.has(child)) child.remove();
  wanted.forEach((child, k) => {
    if (node.children[k] !== child) node.insertBefore(child, node.children[k] || null);
  });
}
