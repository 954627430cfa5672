// The account's full history at a table (/history/<table>): every round it was dealt into (the
// `history` command, the last 50), with its cards, the dealer's and the board, each decision,
// each bet's result, and that round's fairness check: the `proof` command gives the round's proof
// again from the record, and the browser checks it (fair.js), as the table page does live.

import { askLogin, whoAmI } from "./auth.js";
import { cardText, verifyProof } from "./fair.js";
import { Link, api, refusal } from "./net.js";
import { money } from "./money.js";
import { el, lastPart, section } from "./pages.js";
import { remembered } from "./seeds.js";

const SUIT = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const state = { link: null, table: lastPart(), rules: null, account: null };

function cards(list) {
  const span = el("span", null, { class: "cards-text" });
  for (const c of list) {
    const text = typeof c === "number" ? cardText(c) : c;
    const card = el("span", `${text[0] === "T" ? "10" : text[0]}${SUIT[text[1]]}`, { class: `card-text ${"dh".includes(text[1]) ? "red" : "black"}`, title: text });
    span.append(card, " ");
  }
  return span;
}

function texts(joined) {
  return joined ? joined.split(" ") : [];
}

function betTitle(spot) {
  const r = state.rules;
  if (spot === "ante") return r.words.ante;
  if (spot === "raise") return r.words.title;
  if (spot === "progressive") return r.progressive ? r.progressive.title : "Progressive";
  const side = r.side_bets.find((b) => b.name === spot);
  return side ? side.title : spot;
}

function resultWord(net, currency) {
  if (net > 0) return [`won ${money(net, currency)}`, "won"];
  if (net < 0) return [`lost ${money(-net, currency)}`, "lost"];
  return ["push", ""];
}

function roundCard(events) {
  const currency = state.rules.currency;
  const opened = events[0];
  const mine = events.find((e) => e.kind === "dealt" && e.cards);
  const seat = mine ? mine.seat : null;
  const own = events.filter((e) => e.seat === seat);
  const settled = own.find((e) => e.kind === "settled");
  const closed = events.find((e) => e.kind === "round_closed");
  const revealed = events.find((e) => e.kind === "revealed");
  const article = el("article", null, { class: "info-section round", "data-round": opened.round });
  const net = settled ? Number(settled.net.total) : 0;
  const fees = settled ? -Number(settled.net.exchange_fees || 0) : 0;
  const [word, cls] = closed && closed.void ? ["void: every bet returned", ""] : !net && fees ? [`even after ${money(fees, currency)} in exchange fees`, ""] : resultWord(net, currency);
  const head = el("h2", `Round ${opened.round} \u00b7 ${new Date(opened.time).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })} \u00b7 `);
  head.append(el("span", word, { class: cls }));
  article.append(head);
  const list = el("ul", null, { class: "round-steps" });
  const line = (label, ...rest) => list.append(el("li", [el("strong", `${label}: `), ...rest]));
  let stakes = null;
  for (const e of events) {
    if (e.seat === seat && e.bets && e.kind !== "settled") stakes = e.bets; // the settled step's `bets` are its results
    if (e.kind === "dealt" && e.seat === seat) line("Your cards", cards(e.cards));
    else if (e.kind === "dealt" && e.seat === null && e.up) line("Dealer shows", cards(e.up));
    else if (e.kind === "dealt" && e.seat === null && e.flop) line("Flop", cards(e.flop));
    else if (e.kind === "exchanged" && e.seat === seat) line(`Exchange ${own.filter((x) => x.kind === "exchanged").indexOf(e) + 1}`, "new cards ", cards(e.cards));
    else if (e.kind === "decided" && e.seat === seat) {
      const did = state.rules.words.decisions[e.decision] || e.decision;
      line("You", `${e.auto ? "automatically " : ""}${did === "fold" ? "folded" : state.rules.words.done}`);
    }
  }
  if (revealed) {
    // The settled outcome's word on the qualifier counts where the seat played on (after a fold it is moot).
    const played = settled && settled.outcome.decision !== "fold";
    const qualifies = played ? (settled.outcome.dealer_qualifies ? " \u00b7 qualifies" : " \u00b7 does not qualify") : "";
    line("Dealer", cards(texts(revealed.dealer)), ` ${revealed.dealer_hand}${qualifies}`);
    if (revealed.board) line("Board", cards(texts(revealed.board)));
  }
  if (settled) {
    line("Your hand", settled.hand);
    const bets = el("ul", null, { class: "bet-results" });
    const staked = stakes || { ante: 0, raise: 0, side_bets: {}, progressive: 0 };
    const spots = [["ante", staked.ante, settled.net.ante], ["raise", staked.raise, settled.net.raise]];
    for (const [name, stake] of Object.entries(staked.side_bets || {})) spots.push([name, stake, (settled.net.side_bets || {})[name] || 0]);
    if (staked.progressive) spots.push(["progressive", staked.progressive, settled.net.progressive]);
    for (const [spot, stake, won] of spots) {
      if (!stake) continue;
      const [text, klass] = resultWord(Number(won), currency);
      bets.append(el("li", [`${betTitle(spot)} ${money(stake, currency)}: `, el("span", text, { class: klass })], { "data-spot": spot }));
    }
    if (fees) bets.append(el("li", `Exchange fees: ${money(fees, currency)}`, { "data-spot": "fees" }));
    bets.append(el("li", [el("strong", "Net: "), el("span", word, { class: cls })], { "data-spot": "net" }));
    list.append(el("li", [el("strong", "Bets: "), bets]));
  }
  article.append(list);
  const check = el("button", "Check this round's fairness", { type: "button", class: "btn small" });
  const out = el("div", null, { class: "fair-result", "aria-live": "polite" });
  check.addEventListener("click", () => checkRound(opened.round, out));
  article.append(check, out);
  return article;
}

async function checkRound(number, out) {
  out.textContent = "Checking…";
  const answer = await state.link.send("proof", { table: state.table, round: number });
  if (!answer.ok) {
    out.textContent = refusal(answer);
    return;
  }
  const r = answer.result;
  // The commitment the table page saw before this round's deal, kept in this browser (seeds.js):
  // the record's own is no proof, as a rewritten round would come with a matching one.
  const kept = remembered(state.account, state.table, number);
  const seen = kept && kept.commitment;
  const view = { proof: r.proof, cards: r.cards, dealer: r.dealer, board: r.board };
  const { ok, lines } = await verifyProof(view, seen || r.commitment, (kept && kept.seed) || null);
  const verdict = !ok
    ? [`Round ${number}: the check FAILED`, "lost"]
    : seen
      ? [`Round ${number}: verified \u2713 every card was committed before the deal`, "won"]
      : [`Round ${number}: not verified: this browser did not see its commitment before the deal`, "unseen"];
  out.replaceChildren(
    el("p", verdict[0], { class: verdict[1], "data-verdict": verdict[1] }),
    el("p", seen ? `Commitment seen before the deal: ${seen}` : `Commitment the record gives (not seen before the deal): ${r.commitment}`, { class: "small-print" }),
  );
  const ul = el("ul");
  for (const l of lines) ul.append(el("li", l));
  out.append(ul);
}

const PAGE = 50;

async function load(before) {
  const fields = { table: state.table, last: PAGE, ...(before ? { before } : {}) };
  const answer = await state.link.send("history", fields);
  const node = document.getElementById("history");
  const summary = document.getElementById("history-summary");
  if (!answer.ok) {
    summary.textContent = refusal(answer);
    return;
  }
  const rounds = answer.result.rounds;
  state.rounds = [...rounds, ...(state.rounds || [])];
  const currency = state.rules.currency;
  let net = 0;
  for (const events of state.rounds) {
    const s = events.find((e) => e.kind === "settled" && e.net && events.some((d) => d.kind === "dealt" && d.cards && d.seat === e.seat));
    if (s) net += Number(s.net.total);
  }
  const n = state.rounds.length;
  summary.textContent = n
    ? `${n} round${n === 1 ? "" : "s"} at ${state.table}, newest first: ${resultWord(net, currency)[0]} in all.`
    : `You have played no round at ${state.table} yet.`;
  for (const events of [...rounds].reverse()) node.append(roundCard(events));
  const older = document.getElementById("older");
  if (older) older.remove();
  if (rounds.length === PAGE) {
    const more = el("button", "Older rounds", { type: "button", class: "btn", id: "older" });
    more.addEventListener("click", () => load(rounds[0][0].round));
    node.after(more);
  }
}

async function main() {
  if (!(await whoAmI())) await askLogin(document.getElementById("auth"));
  const rules = await api(`/api/rules/${encodeURIComponent(state.table)}`);
  if (!rules.ok) {
    document.getElementById("history-summary").textContent = refusal(rules);
    return;
  }
  state.rules = rules.body;
  document.getElementById("title").textContent = `${state.rules.title}: your rounds at ${state.table}`;
  const play = document.getElementById("play");
  play.href = `/play/${encodeURIComponent(state.rules.game)}`;
  play.textContent = "Back to the table";
  await new Promise((resolve) => {
    state.link = new Link({
      onFrame: (frame) => {
        if (frame.type !== "welcome") return;
        state.account = frame.account;
        resolve();
      },
      onStatus: () => {},
      table: state.table, // the table's own socket, where the process serving it answers
    });
    state.link.connect();
  });
  await load();
}

main();
