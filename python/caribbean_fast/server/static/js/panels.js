// The side panels of the table page: the provably-fair checks of settled rounds, the last rounds
// (game recall) and the paytables. Each draws into its own node; the table page feeds them views.

import { cardText, verifyProof } from "./fair.js";
import { commitmentOf, randomSeed, remember, remembered, seedOfText } from "./seeds.js";

const CARD = (c) => (typeof c === "number" ? cardText(c) : c); // recall's events name cards by id

/** Commitments seen before each deal (kept in this browser's storage too, for the history page),
 * the seat's own seed added to each round (committed while bets are open, revealed once they
 * close), and each round the seat played checked once against its proof. */
export class FairnessPanel {
  /** `send(type, fields)` sends a table command; `table()` names the table; `seedInput`: where the
   * player may type a seed of their own (empty: a random one each round). */
  constructor(node, { send = null, table = () => "", seedInput = null, seedNote = null } = {}) {
    this.node = node;
    this.send = send;
    this.table = table;
    this.seedInput = seedInput;
    this.seedNote = seedNote;
    this.commitments = new Map(); // round -> the commitment shown before its deal
    this.verified = new Set();
    this.asked = new Set(); // "commit:round" and "reveal:round" sent
    this.last = null;
    if (seedInput) seedInput.addEventListener("change", () => this.last && this.seed(this.last, true));
  }

  /** Remembers the commitment a view shows before the round's deal, and adds the seat's seed. */
  seen(view) {
    if (view.commitment && view.phase === "betting" && !this.commitments.has(view.round)) {
      this.commitments.set(view.round, view.commitment);
      remember(view.player, this.table(), view.round, { commitment: view.commitment }, true);
    }
    this.last = view;
    this.seed(view);
  }

  /** Commits to the seat's seed while bets are open (again when the player changes it), and
   * reveals it once they close. */
  async seed(view, changed = false) {
    if (!this.send || view.seat === null) return;
    const where = [view.player, this.table(), view.round];
    const mine = remembered(...where);
    if (view.seed_open && view.commitment && (changed || (!view.seed_committed && !this.asked.has(`commit:${view.round}`)))) {
      this.asked.add(`commit:${view.round}`);
      const typed = this.seedInput ? this.seedInput.value : "";
      const seed = (typed && seedOfText(typed)) || randomSeed();
      const committed = await commitmentOf(seed);
      remember(...where, { seed, committed });
      const answer = await this.send("commit_seed", { commitment: committed });
      if (!answer.ok) remember(...where, { seed: null, committed: null }); // not taken: the round has no seed of ours
      this.note(answer.ok ? `Your seed for round ${view.round}: ${seed}` : "");
    } else if (view.actions.includes("reveal_seed") && mine && mine.seed && !this.asked.has(`reveal:${view.round}`)) {
      this.asked.add(`reveal:${view.round}`);
      await this.send("reveal_seed", { seed: mine.seed });
    }
  }

  note(text) {
    if (this.seedNote) this.seedNote.textContent = text;
  }

  /** A round the seat played, once over: the engine sends its proof (never for a round it did not
   * play). Checked against the commitment this page saw before the deal, and the seed it added. */
  async check(view) {
    if (!view.proof || this.verified.has(view.round)) return;
    this.verified.add(view.round);
    const kept = remembered(view.player, this.table(), view.round);
    const shown = this.commitments.get(view.round) || (kept && kept.commitment);
    const item = document.createElement("div");
    item.className = "fair-round";
    item.dataset.round = String(view.round);
    const { ok, lines } = await verifyProof(view, shown || view.commitment, (kept && kept.seed) || null);
    const word = !ok ? "MISMATCH ✗" : shown ? "verified ✓ every card was committed before the deal" : "not verified: this page did not see its commitment before the deal";
    const head = paragraph(`Round ${view.round}: ${word}`);
    head.className = !ok ? "fair-bad" : shown ? "fair-ok" : "fair-unseen";
    const root = paragraph("Commitment: ");
    root.append(Object.assign(document.createElement("code"), { textContent: shown || view.commitment }));
    const list = document.createElement("ul");
    list.className = "fair-lines";
    list.append(...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
    item.append(head, root, list);
    this.node.prepend(item);
    while (this.node.children.length > 5) this.node.lastElementChild.remove();
  }
}

function paragraph(text) {
  return Object.assign(document.createElement("p"), { textContent: text });
}

/** The seat's last ten rounds, newest first, from settled views, `history` and `recall`. */
export class RecallList {
  constructor(node, money) {
    this.node = node;
    this.money = money;
    this.rounds = new Set();
  }

  add({ round, cards, dealer, board, hand, net, folded = false }) {
    if (this.rounds.has(round)) return;
    this.rounds.add(round);
    const item = document.createElement("li");
    item.value = round;
    const against = board.length ? `board ${board.join(" ")}, dealer ${dealer.join(" ")}` : `dealer ${dealer.join(" ")}`;
    const amount = net > 0 ? "won " + this.money(net) : net < 0 ? "lost " + this.money(-net) : `net ${this.money(0)}`;
    const outcome = folded ? `folded, ${amount}` : amount;
    item.textContent = `Round ${round}: ${cards.join(" ")} (${hand}) vs ${against}: ${outcome}`;
    const after = [...this.node.children].find((li) => Number(li.value) < round);
    this.node.insertBefore(item, after || null);
    while (this.node.children.length > 10) this.node.lastElementChild.remove();
  }

  /** A round from `history` or `recall`: its events as this seat saw them. */
  addEvents(events, seat) {
    let cards = [];
    let dealer = [];
    let board = [];
    let settled = null;
    for (const e of events) {
      if ((e.kind === "dealt" || e.kind === "exchanged") && e.seat === seat && e.cards) cards = e.cards;
      if (e.kind === "revealed") {
        dealer = e.dealer ? e.dealer.split(" ") : dealer;
        board = e.board ? e.board.split(" ") : board;
      }
      if (e.kind === "settled" && e.seat === seat) settled = e;
    }
    if (!settled || !events.length) return;
    const round = { round: events[0].round, cards: cards.map(CARD), dealer, board, hand: settled.hand || "", net: settled.net.total,
      folded: settled.outcome?.decision === "fold" };
    this.add(round);
  }
}

function tableOf(caption, head, rows) {
  const table = document.createElement("table");
  table.createCaption().textContent = caption;
  const top = table.createTHead().insertRow();
  for (const h of head) top.append(Object.assign(document.createElement("th"), { textContent: h }));
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.insertCell().textContent = cell;
  }
  return table;
}

/** The paytables, the progressive's prizes, the side bets and the exchange rule of a table, with
 * the columns, headers and words the rules document gives (it has only the columns the game pays). */
export function renderPaytables(node, rules, money) {
  const columns = rules.paytable_columns;
  const rows = rules.paytable.map((p) => columns.map((c) => p[c.key]));
  const parts = [tableOf("Pays N to 1", columns.map((c) => c.title), rows)];
  if (rules.progressive) {
    const p = rules.progressive;
    const prizes = p.prizes.map((x) => [x.hand, x.amount ? money(x.amount) : `${x.meter_percent}% of the meter`]);
    parts.push(tableOf(`${p.title} (stake ${money(p.stake)})`, ["Hand", "Prize"], prizes));
  }
  for (const side of rules.side_bets) {
    const tiers = side.tiers.map((t) => [t.hand, t.pays]);
    parts.push(tableOf(`${side.title} (${money(side.minimum)} to ${money(side.maximum)})`, ["Hand or better", "Pays"], tiers));
  }
  if (rules.exchanges) parts.push(paragraph(rules.exchanges.rule));
  node.replaceChildren(...parts);
}
