// The table page, /play/<game>: a seat at a table of that game, drawn from the server's views
// (docs/protocol.md). The page keeps no rule of its own: the server's `actions` say which buttons
// work, its refusals are shown in words, and the paytables come from /api/rules/<table>.

import { askLogin, whoAmI } from "./auth.js";
import { cardName, cardRow, chipStack, chipSvg, chipColour, placeChildren } from "./cards.js";
import { chipText, inputText, money as formatMoney, moneyHint, parseMoney } from "./money.js";
import { Link, api, refusal } from "./net.js";
import { FairnessPanel, RecallList, renderPaytables } from "./panels.js";
import { reminderOpen, startReminder } from "./reminder.js";
import { muteButton, play } from "./sound.js";
import { Trainer } from "./trainer.js";

const $ = (id) => document.getElementById(id);
const game = decodeURIComponent(location.pathname.split("/").pop());
// /play/<game>?watch=<table> (or ?watch: the game's first table): the table live and read-only,
// as its seats see it less any seat's cards (the server's public view, `watch`)
const watchParam = new URLSearchParams(location.search).get("watch");

const state = {
  me: null,
  table: null,
  rules: null,
  view: null,
  pool: null,
  stake: 0,
  chip: 0,
  chips: [],
  link: null,
  undo: [], // the bets before each chip, Double or rebet of this round's betting, newest last
  session: null, // the server's session (`session`): its start on this clock, and its net here
};

// ---- money ------------------------------------------------------------------------------------

function money(amount) {
  return state.rules ? formatMoney(amount, state.rules.currency) : "–"; // no currency before the rules are read
}

const shortMoney = (amount) => chipText(amount, state.rules.currency);
const minorOf = (text) => parseMoney(text, state.rules.currency);

// ---- messages ---------------------------------------------------------------------------------

function say(text, info = false) {
  const node = $("message");
  node.textContent = text;
  node.classList.toggle("info", info);
}

async function send(type, fields = {}) {
  const answer = await state.link.send(type, { table: state.table, ...fields });
  if (!answer.ok) say(refusal(answer));
  else say("", true);
  return answer;
}

// ---- the bets ----------------------------------------------------------------------------------

const can = (action) => !!state.view && state.view.actions.includes(action);
const sideBet = () => (state.rules.side_bets.length ? state.rules.side_bets[0] : null);

/** The largest ante the seat may place now, as the engine says it (`ante_most`: the table's
 * maximum, game 1's third of the balance, the personal limit), else the table's maximum. */
function anteMost() {
  const most = state.view?.ante_most;
  return most === null || most === undefined ? state.rules.limits.maximum : most;
}

/** The stake `times` of the rules' stake unit up (down), within the limits (words/rules.py,
 * stake_step) and never above what the seat may place now. */
function stakeStep(stake, times) {
  const { minimum } = state.rules.limits;
  const most = Math.max(minimum, anteMost());
  const next = Math.max(minimum, Math.min(most, stake + times * state.rules.stakes.unit));
  if (times > 0 && next === stake) say(`The most you may stake now is ${money(anteMost())}`, true);
  return next;
}

async function changeStake(times) {
  state.stake = stakeStep(state.stake, times);
  renderFigures();
  if (state.view && state.view.bets.ante && can("ante")) await send("ante", { amount: state.stake });
}

async function placeChip(spot) {
  if (!state.view) return;
  const bets = state.view.bets;
  const before = snapshot();
  if (spot === "ante") {
    const most = anteMost();
    if (bets.ante >= most) {
      say(`The most you may stake now is ${money(most)}`, true);
      return;
    }
    const answer = await send("ante", { amount: Math.min(most, bets.ante + state.chip) });
    if (answer.ok) {
      state.stake = state.view.bets.ante;
      placed(before);
    }
  } else if (spot === "side") {
    const bet = sideBet();
    const answer = await send("side_bet", { name: bet.name, amount: Math.min(bet.maximum, (bets.side_bets[bet.name] || 0) + state.chip) });
    if (answer.ok) placed(before);
  } else if (spot === "progressive") {
    await toggleProgressive();
  }
  renderFigures();
}

/** The bets that Undo puts back: the ante, the side bet and the progressive's tick. */
function snapshot() {
  const b = state.view.bets;
  const side = sideBet();
  return { ante: b.ante, side: side ? b.side_bets[side.name] || 0 : 0, progressive: b.progressive > 0 };
}

function placed(before) {
  state.undo.push(before);
  play("chip");
}

/** Undo: the bets as they were before the last chip, Double or rebet (the server's commands). */
async function undo() {
  const before = state.undo.pop();
  if (!before || !state.view) return;
  const side = sideBet();
  if (!before.ante) {
    await send("clear");
    if (before.progressive) await send("progressive", { on: true });
  } else await send("ante", { amount: before.ante });
  if (side && before.side !== snapshot().side) await send("side_bet", { name: side.name, amount: before.side });
  state.stake = state.view.bets.ante || state.stake;
  play("chip");
  renderFigures();
  render();
}

/** Double: the ante (or the stake, before any ante) and the side bet twice over, within what the
 * seat may place now (`ante_most`) and the side bet's maximum. */
async function double() {
  if (!state.view || !can("ante")) return;
  const before = snapshot();
  const most = anteMost();
  const ante = Math.min(most, 2 * (before.ante || state.stake));
  if (ante <= before.ante) {
    say(`The most you may stake now is ${money(most)}`, true);
    return;
  }
  const answer = await send("ante", { amount: ante });
  if (!answer.ok) return;
  const side = sideBet();
  if (side && before.side) await send("side_bet", { name: side.name, amount: Math.min(side.maximum, 2 * before.side) });
  state.stake = state.view.bets.ante;
  placed(before);
  renderFigures();
}

/** Rebet and Deal in one key (R): the last round's bets, then the deal. The seed's `0` or Ins
 * only repeats them, so that they can still be changed before Enter deals. */
async function rebetAndDeal() {
  if (!state.view || state.view.phase === "deciding") return;
  if (can("rebet")) {
    const answer = await rebet();
    if (!answer.ok) return;
  }
  await deal();
}

async function toggleProgressive() {
  await send("progressive", { on: !state.view.bets.progressive });
}

async function toggleSideBet() {
  const bet = sideBet();
  const placed = state.view.bets.side_bets[bet.name] || 0;
  await send("side_bet", { name: bet.name, amount: placed ? 0 : Math.max(bet.minimum, Math.min(bet.maximum, state.stake)) });
}

async function rebet() {
  const before = state.view ? snapshot() : null;
  const answer = await send("rebet");
  if (answer.ok && before) placed(before);
  if (answer.ok && state.view.bets.ante) state.stake = state.view.bets.ante;
  renderFigures();
  return answer;
}

async function deal() {
  if (state.view.phase === "deciding") return;
  if (state.view.bets.ante !== state.stake || !state.view.bets.ante) {
    const placed = await send("ante", { amount: state.stake });
    if (!placed.ok) return;
  }
  await send("deal");
}

async function decide(kind) {
  const before = state.view;
  const answer = await send(kind === "fold" ? "fold" : "raise");
  if (answer.ok) trainer.decided(before, kind === "fold" ? "fold" : "raise");
}

async function exchange() {
  const before = state.view;
  if ((await send("exchange")).ok) trainer.decided(before, "exchange");
}

/** Enter: raise (call) once dealt, else deal (placing the stake as the ante first). */
async function enter() {
  if (can("raise")) await decide("raise");
  else await deal();
}

// ---- drawing ------------------------------------------------------------------------------------

function renderFigures() {
  const v = state.view;
  $("balance").textContent = v ? money(v.balance) : "–";
  $("stake").textContent = state.rules ? money(state.stake) : "–";
  if (v && state.rules.progressive) $("meter").textContent = money(state.pool ?? v.meter); // the shared pool's, once told
}

function renderSpot(id, amount, label) {
  const spot = $(id);
  const stack = spot.querySelector(".stack");
  chipStack(stack, amount, state.chips, shortMoney);
  spot.querySelector(".spot-amount").textContent = amount ? money(amount) : "";
  spot.querySelector(".spot-result").textContent = "";
  spot.classList.remove("won", "lost", "push", "paid", "taken");
  spot.classList.toggle("has-bet", amount > 0);
  spot.setAttribute("aria-label", `${label}: ${amount ? money(amount) : "no bet"}`);
}

const SPOT_IDS = { ante: "spot-ante", raise: "spot-raise", progressive: "spot-progressive" };

/** One bet's result in words: "Won $140 at 7 to 1", "Lost $10", "Push". */
function betWords(bet) {
  if (bet.result === "won") return `Won ${money(bet.net)}${bet.pays ? `\nat ${bet.pays}` : ""}`;
  if (bet.result === "lost") return `Lost ${money(-bet.net)}`;
  return "Push";
}

/** At settlement each spot shows its own result (the server's `result.bets`, made by the
 * words/rules.py): the stake and the winnings slide in from the dealer, a lost stake slides
 * away to the dealer (no motion under prefers-reduced-motion). */
function renderSettledSpots(v) {
  const seen = new Set();
  const fresh = state.animate !== v.round; // the chips move once, at the view that settles the round
  for (const bet of v.result.bets || []) {
    const id = bet.spot.startsWith("side:") ? "spot-side" : SPOT_IDS[bet.spot];
    const spot = id && $(id);
    if (!spot) continue;
    seen.add(id);
    const shown = bet.result === "lost" ? bet.stake : bet.stake + Math.max(0, bet.net);
    chipStack(spot.querySelector(".stack"), shown, state.chips, shortMoney);
    spot.querySelector(".spot-amount").textContent = money(bet.stake);
    const text = betWords(bet);
    spot.querySelector(".spot-result").textContent = text;
    spot.classList.remove("won", "lost", "push");
    spot.classList.add("has-bet", bet.result);
    if (fresh) {
      spot.classList.remove("paid", "taken");
      spot.classList.add(bet.result === "lost" ? "taken" : "paid");
    }
    spot.setAttribute("aria-label", `${bet.title}: ${money(bet.stake)}, ${text.replace("\n", " ")}`);
  }
  state.animate = v.round;
  for (const id of ["spot-ante", "spot-raise", "spot-progressive", "spot-side"]) {
    if (!seen.has(id)) renderSpot(id, 0, id === "spot-raise" ? state.rules.words.title : "");
  }
}

function renderSpots(v) {
  const words = state.rules.words;
  const side = sideBet();
  $("spots").classList.toggle("settled", !!v.result);
  if (v.result) {
    renderSettledSpots(v);
    return;
  }
  renderSpot("spot-ante", v.bets.ante, state.chip ? `${words.ante}, tap to add a ${money(state.chip)} chip` : words.ante);
  renderSpot("spot-raise", v.bets.raise, words.title);
  const progressive = state.rules.progressive;
  if (progressive) renderSpot("spot-progressive", v.bets.progressive, `${progressive.title}, tap to tick or untick`);
  if (side) renderSpot("spot-side", v.bets.side_bets[side.name] || 0, `${side.title}, tap to add a chip`);
}

/** The cards as the rules' `layout` lays them out: while the seat's hand is dealt and before the
 * showdown, the dealer's cards not yet shown are drawn face down, and so are the board's. */
function renderCards(v) {
  const layout = state.rules.layout;
  // a round is dealt to this seat, or (watching) to any seat: the unseen cards lie face down
  const dealt = v.cards.length > 0 || (v.seat === null && v.others.some((o) => o.dealt));
  const hiding = dealt && !v.revealed;
  const dealerHidden = hiding ? Math.max(0, layout.dealer - v.dealer.length) : 0;
  // the winning five, as the server names them (words/views.py, winning_five): that side's rows
  const win = v.winning_five;
  const mark = (side) => (win && win.side === side ? win.cards : null);
  cardRow($("dealer"), v.dealer, dealerHidden, "Dealer's cards", layout.hidden_first, mark("dealer"));
  if (layout.board) {
    const backs = dealt ? Math.max(0, layout.board - v.board.length) : 0;
    cardRow($("board"), v.board, backs, "Board", false, win ? win.cards : null);
  }
  cardRow($("cards"), v.cards, 0, "Your cards", false, mark("seat"));
  $("hand").textContent = v.hand;
  const qualifies = v.revealed ? (v.dealer_qualifies ? "qualifies" : "does not qualify") : "";
  $("dealer-hand").textContent = [v.dealer_hand, qualifies].filter(Boolean).join(" · ");
}

function renderResult(v) {
  const node = $("result");
  node.className = "result";
  if (!v.result) {
    const waiting = v.phase === "deciding" && v.cards.length ? "Your decision" : "";
    node.textContent = v.void ? "Round void: every bet returned" : waiting;
    if (v.void) node.classList.add("push");
    return;
  }
  const net = v.result.net.total;
  node.classList.add(net > 0 ? "won" : net < 0 ? "lost" : "push");
  const did = v.result.outcome.decision;
  const auto = v.result.auto ? `Decided for you (${state.rules.words.decisions[did] || did}) · ` : "";
  node.textContent = auto + resultText(v.result);
}

const signed = (amount) => (amount < 0 ? `\u2212${money(-amount)}` : `+${money(amount)}`);

// The round's net in words; exchange fees are named, so a win that the fees cancel never reads
// as a push (game 4); a net of nothing made of a win and a loss says which (never "Push").
function resultText(result) {
  const net = result.net;
  const fees = Math.abs(net.exchange_fees || 0);
  const moved = (result.bets || []).filter((b) => b.net);
  if (!net.total && (moved.length || fees)) {
    const parts = moved.map((b) => `${b.title} ${signed(b.net)}`);
    if (fees) parts.push(`exchange fees ${signed(-fees)}`);
    return `Net ${money(0)}: ${parts.join(", ")}`;
  }
  const word = net.total > 0 ? "Won" : net.total < 0 ? "Lost" : "Push";
  const amount = net.total ? ` ${money(Math.abs(net.total))}` : "";
  return fees ? `${word}${amount} after ${money(fees)} in exchange fees` : `${word}${amount}`;
}

function renderOthers(v) {
  const list = $("others");
  const before = new Map([...list.children].map((item) => [item.dataset.seat, item]));
  placeChildren(list, v.others.map((o) => seatBox(o, before.get(String(o.seat)))));
}

/** Another seat's box; its box of the last view kept, so that backs dealt stay where they lie. */
function seatBox(o, item = undefined) {
  if (!item) {
    item = document.createElement("li");
    item.className = "seat-box";
    item.innerHTML = `<strong></strong><div class="seat-status"></div><div class="cards"></div>`;
    item.dataset.seat = String(o.seat);
  }
  // whether another seat decided, never what (the engine sends no more): game 3's rule
  const status = !o.dealt ? "waiting" : o.settled ? "settled" : o.decided ? "decided" : "deciding…";
  const who = o.player || "empty seat";
  item.querySelector("strong").textContent = `Seat ${o.seat + 1} · ${who}`;
  item.querySelector(".seat-status").textContent = `${status}${o.bets.ante ? ` · ante ${money(o.bets.ante)}` : ""}`;
  // another seat's cards are never shown (the engine sends none): their backs while dealt
  cardRow(item.querySelector(".cards"), [], o.dealt ? state.rules.layout.hand : 0, `Seat ${o.seat + 1}'s cards`);
  item.setAttribute("aria-label", `Seat ${o.seat + 1}, ${who}, ${status}`);
  return item;
}

function renderButtons(v) {
  const deciding = v.phase === "deciding" && v.cards.length && !v.result;
  $("actions").dataset.phase = deciding ? "deciding" : "betting";
  $("b-undo").disabled = !state.undo.length || !(can("ante") || can("clear"));
  $("b-double").disabled = !can("ante");
  $("b-rebet-deal").disabled = !(can("rebet") || can("deal"));
  $("b-rebet").disabled = !can("rebet");
  $("b-clear").disabled = !can("clear");
  $("b-deal").disabled = !(can("deal") || can("ante"));
  $("b-fold").disabled = !can("fold");
  $("b-raise").disabled = !can("raise");
  $("b-up").disabled = $("b-down").disabled = deciding;
  for (const spot of ["ante", "progressive", "side"]) $(`spot-${spot}`).disabled = !can("ante") && !can("clear");
  // the box unticks while the bets can still change (the engine lists `progressive` only to tick it)
  $("b-progressive").disabled = !(can("progressive") || (v.bets.progressive > 0 && can("clear")));
  $("b-progressive").setAttribute("aria-pressed", String(!!v.bets.progressive));
  const side = sideBet();
  if (side) {
    $("b-side").disabled = !can("ante") && !can("deal");
    $("b-side").setAttribute("aria-pressed", String(!!v.bets.side_bets[side.name]));
  }
  if (state.rules.exchanges) {
    const most = state.rules.exchanges.most_per_round;
    $("b-exchange").disabled = !can("exchange");
    $("b-exchange").textContent = `Exchange (${v.exchanges}/${most})`;
    $("b-exchange").setAttribute("aria-label", `Exchange the whole hand, ${v.exchanges} of ${most} exchanges used`);
  }
  // a button that has just become disabled keeps no focus: the next Enter is the game's key
  if (document.activeElement?.disabled) document.activeElement.blur();
}

function renderTimer(v) {
  const node = $("timer");
  if (!v.deadline || v.result) {
    node.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((Date.parse(v.deadline) - Date.now()) / 1000));
  node.hidden = false;
  node.textContent = `${v.phase === "deciding" ? "Decide" : "Bets close"} in ${left} s`;
  node.classList.toggle("urgent", left <= 5);
}

function render() {
  const v = state.view;
  if (!v) return;
  renderFigures();
  renderCards(v);
  renderSpots(v);
  renderResult(v);
  renderOthers(v);
  renderButtons(v);
  renderTimer(v);
  $("commitment").textContent = v.commitment || "– (the next round's appears when bets open)";
  trainer.show(v);
}

// ---- frames ---------------------------------------------------------------------------------------

function onView(frame) {
  if (frame.table !== state.table || (frame.view.seat === null) !== !!state.watch) return;
  if (state.watch) {
    watchView(frame.view);
    return;
  }
  const v = frame.view;
  const previous = state.view;
  state.view = v;
  if (!previous || previous.round !== v.round || (v.cards.length && !previous.cards.length)) state.undo = [];
  news(previous, v);
  fairness.seen(v);
  if (!state.stake) state.stake = v.bets.ante || state.rules.stakes.default;
  $("sit").hidden = true;
  render();
  if (v.result && (!previous || previous.round !== v.round || !previous.result)) {
    const round = { round: v.round, cards: v.cards, dealer: v.dealer, board: v.board, hand: v.result.hand || v.hand };
    recall.add({ ...round, net: v.result.net.total, folded: v.result.outcome?.decision === "fold" });
    if (v.result.net.total > 0) play("win");
    askSession();
  }
  fairness.check(v);
}

/** What a seat is dealt or shown, said to screen readers (the cards themselves are drawn with a
 * short animation), with the deal's and the reveal's sounds. */
function news(previous, v) {
  const had = previous && previous.round === v.round ? previous : { cards: [], dealer: [], board: [], revealed: false };
  const lines = [];
  const fresh = (now, before) => now.filter((c) => !before.includes(c));
  const mine = fresh(v.cards, had.cards);
  if (mine.length) lines.push(`You are dealt ${mine.map(cardName).join(", ")}.`);
  const board = fresh(v.board, had.board);
  if (board.length) lines.push(`Board: ${board.map(cardName).join(", ")}.`);
  const dealer = fresh(v.dealer, had.dealer);
  if (dealer.length) lines.push(`Dealer shows ${dealer.map(cardName).join(", ")}.`);
  if (v.winning_five && !(had.winning_five)) {
    const whose = v.winning_five.side === "seat" ? "Your" : "The dealer's";
    lines.push(`${whose} winning five: ${v.winning_five.cards.map(cardName).join(", ")}.`);
  }
  if (mine.length || board.length || dealer.length) play("deal", mine.length + board.length + dealer.length);
  if (lines.length) $("deal-news").textContent = lines.join(" ");
}

/** The session's time and net (the server's `session`: the account's session, its net in this
 * table's currency), asked when the seat is first seen and after each round. */
async function askSession() {
  const answer = await state.link.send("session");
  if (!answer.ok) return;
  const mine = answer.result.net.find((n) => n.currency === state.rules.currency.code);
  state.session = { start: Date.now() - answer.result.seconds * 1000, net: mine ? mine.amount : 0 };
  renderSession();
}

function renderSession() {
  if (!state.session) return;
  const seconds = Math.max(0, Math.floor((Date.now() - state.session.start) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const sec = String(seconds % 60).padStart(2, "0");
  $("session-clock").textContent = h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
  const net = state.session.net;
  const node = $("session-net");
  node.textContent = net > 0 ? `+${money(net)}` : net < 0 ? `\u2212${money(-net)}` : money(0);
  node.className = net > 0 ? "won" : net < 0 ? "lost" : "";
}

/** A watched table's public view: the dealer, the board, every seat's bets and state and the
 * backs of their cards, the timer; nothing to press. */
function watchView(v) {
  const previous = state.view;
  state.view = v;
  news(previous, v);
  renderCards(v);
  renderOthers(v);
  renderTimer(v);
  $("commitment").textContent = v.commitment || "–";
  const seated = v.others.filter((o) => o.player).length;
  $("watch-line").textContent =
    `Watching ${state.table}, read-only: round ${v.round}, ${PHASE_WORDS[v.phase] || v.phase}; ` +
    `${seated} of ${state.rules.seats} seats taken.`;
}

const PHASE_WORDS = { waiting: "waiting for players", betting: "bets open", deciding: "the seats decide", settled: "settled", closed: "closed" };

async function onWelcome(frame) {
  if (state.watch) {
    const answer = await state.link.send("watch", { table: state.table }); // again after each reconnect
    if (!answer.ok) say(refusal(answer));
    return;
  }
  if (!frame.account) {
    state.link.stopped = true;
    say("You are not logged in: log in to take a seat.");
    return;
  }
  const held = frame.seats.find((s) => state.tables.some((t) => t.table === s.table));
  if (held) {
    if (held.table !== state.table) {
      state.table = held.table;
      await loadRules();
      state.link.retarget(held.table); // that table's own socket: its welcome brings the seat's view
      return;
    }
    if (!state.historyLoaded) loadHistory();
    askSession();
    return; // the server sends the seat's view and the rounds missed meanwhile
  }
  offerSeat(frame.wallets, state.tables.some((t) => t.table === state.table && mayBeFree(t)));
}

function onFrame(frame) {
  if (frame.type === "welcome") onWelcome(frame);
  else if (frame.type === "view") onView(frame);
  else if (frame.type === "pool" && frame.table === state.table) {
    state.pool = frame.meter; // the progressive pool every table of the game shares
    renderFigures();
  }
  else if (frame.type === "recall" && frame.table === state.table) {
    for (const events of frame.rounds) recall.addEvents(events, frame.seat);
  }
  else if (frame.type === "paytable" && frame.table === state.table) {
    // an approved paytable change, from this round boundary on: told before the next bet, rules read again
    say(`This table now plays ${frame.title}: its paytable changed between rounds. The rules show the new one.`, true);
    loadRules();
  }
  else if (frame.type === "closed") say(`The server closed the connection: ${frame.reason}`);
}

function onStatus(status, delay) {
  const node = $("link");
  node.classList.toggle("down", status !== "online");
  if (status === "online") node.textContent = "online";
  else if (status === "reconnecting") node.textContent = `connection lost: retrying in ${(delay / 1000).toFixed(1)} s`;
  else node.textContent = "logged out";
}

// ---- sitting down ------------------------------------------------------------------------------

/** Before sitting nothing at the table acts: every button is disabled until the seat's view. */
function disableTable() {
  for (const node of document.querySelectorAll("#actions .btn, #spots button.spot")) node.disabled = true;
}

/** A lobby entry with a free seat, or one whose process has not published its seats yet (the
 * server refuses a sit where none is free). */
function mayBeFree(entry) {
  return entry.free === undefined || entry.free > 0;
}

function offerSeat(wallets, free = true) {
  const wallet = (wallets || {})[state.rules.currency.code] || 0; // a seat buys in from its own currency's wallet
  const suggested = Math.min(wallet, state.rules.stakes.buy_in); // the rules' offer, as the wallet allows
  $("buy-in").value = inputText(suggested, state.rules.currency);
  $("sit").hidden = false;
  disableTable();
  renderStatic();
  $("sit-full").hidden = free;
  $("sit-button").disabled = !free;
  if (free) $("buy-in").focus();
}

async function sitDown(event) {
  event.preventDefault();
  const amount = minorOf($("buy-in").value);
  if (!amount) {
    say(`The buy-in is ${moneyHint(state.rules.currency)}`);
    return;
  }
  const answer = await send("sit", { buy_in: amount });
  if (answer.ok) {
    $("sit").hidden = true;
    loadHistory();
    askSession();
  }
}

async function loadRules() {
  const answer = await api(`/api/rules/${encodeURIComponent(state.table)}`);
  state.rules = answer.body;
  state.chips = state.rules.stakes.chips;
  state.chip = state.chips[0];
  renderStatic();
}

async function loadHistory() {
  state.historyLoaded = true;
  const answer = await state.link.send("history", { table: state.table, last: 10 });
  if (answer.ok) for (const events of answer.result.rounds) recall.addEvents(events, state.view?.seat);
}

/** What does not change during the session: the title, the chips, the buttons of this game. */
function renderStatic() {
  const r = state.rules;
  document.title = `${r.title} · caribbean-fast`;
  $("title").textContent = r.title;
  $("rules-link").href = `/rules/${encodeURIComponent(state.table)}`;
  $("board-zone").hidden = !r.layout.board;
  $("meter-box").hidden = $("spot-progressive").hidden = $("b-progressive").hidden = !r.progressive;
  const side = sideBet();
  $("spot-side").hidden = $("b-side").hidden = !side;
  if (side) {
    $("b-side").textContent = side.title;
    $("spot-side").querySelector(".spot-name").textContent = side.title;
  }
  if (r.progressive) $("b-progressive").textContent = r.progressive.title;
  $("b-exchange").hidden = !r.exchanges;
  $("b-raise").textContent = r.words.title;
  $("raise-name").textContent = r.words.title;
  $("keys").textContent = keyHelp(r);
  $("rule-line").textContent = r.rule_line;
  renderChips();
  renderPaytables($("paytables"), r, money);
  if (matchMedia("(min-width: 900px)").matches) $("pay-panel").open = true; // room at the side
}

/** The key help line, in the game's words (the rules document's). */
function keyHelp(r) {
  return `Keys: ${r.keys.map((k) => k.short).filter(Boolean).join(" · ")}`; // the rules document's words
}

function renderChips() {
  const rack = $("chips");
  rack.replaceChildren(
    ...state.chips.map((value) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "chip-button";
      button.dataset.chip = String(value);
      button.setAttribute("aria-label", `${money(value)} chip`);
      button.setAttribute("aria-pressed", String(value === state.chip));
      button.append(chipSvg(chipColour(state.chips, value), shortMoney(value)));
      button.addEventListener("click", () => {
        state.chip = value;
        renderChips();
        say(`${money(value)} chip picked: tap the ante spot to bet it`, true);
      });
      return button;
    }),
  );
}

// ---- keys and taps -----------------------------------------------------------------------------

/** What has focus and takes Enter and Space itself: a button, a link, a panel's summary. */
const PRESSABLE = ["BUTTON", "A", "SUMMARY"];

function onKey(event) {
  const target = event.target;
  if (reminderOpen()) return; // a reminder is modal: its own buttons take the keys, the table none
  if (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || !state.view) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  const step = event.shiftKey ? 10 : 1;
  let handled = true;
  if (key === "Insert" || key === "0") rebet();
  else if (key === "Enter") {
    // Enter presses what has focus (the browser's own click, once); with nothing pressable
    // focused it is the seed's key: deal, or raise once dealt
    if (PRESSABLE.includes(target.tagName)) return;
    enter();
  }
  else if (key === "-" || key === "Subtract") decide("fold");
  else if ((key === "x" || key === "X") && state.rules.exchanges) exchange();
  else if ((key === "p" || key === "P") && state.rules.progressive) toggleProgressive();
  else if ((key === "b" || key === "B") && sideBet()) toggleSideBet();
  else if (key === "Delete" || key === ".") send("clear");
  else if (key === "r" || key === "R") rebetAndDeal();
  else if (key === "u" || key === "U" || key === "Backspace") undo();
  else if (key === "d" || key === "D") double();
  else if (key === "ArrowUp") changeStake(step);
  else if (key === "ArrowDown") changeStake(-step);
  else handled = false;
  if (handled) event.preventDefault();
}

function wire() {
  $("b-rebet").addEventListener("click", rebet);
  $("b-rebet-deal").addEventListener("click", rebetAndDeal);
  $("b-undo").addEventListener("click", undo);
  $("b-double").addEventListener("click", double);
  muteButton($("b-sound"));
  $("b-clear").addEventListener("click", () => send("clear"));
  $("b-deal").addEventListener("click", deal);
  $("b-fold").addEventListener("click", () => decide("fold"));
  $("b-raise").addEventListener("click", () => decide("raise"));
  $("b-up").addEventListener("click", () => changeStake(1));
  $("b-down").addEventListener("click", () => changeStake(-1));
  $("b-progressive").addEventListener("click", toggleProgressive);
  $("b-side").addEventListener("click", toggleSideBet);
  $("b-exchange").addEventListener("click", exchange);
  for (const spot of ["ante", "progressive", "side"]) $(`spot-${spot}`).addEventListener("click", () => placeChip(spot));
  $("sit-form").addEventListener("submit", sitDown);
  $("topup-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const amount = minorOf($("topup").value);
    if (amount) await send("top_up", { amount });
    else say(`The top-up is ${moneyHint(state.rules.currency)}`);
  });
  $("b-leave").addEventListener("click", async () => {
    const answer = await send("leave");
    if (answer.ok) {
      say(`You left the table with ${money(answer.result.returned)}. ${trainer.report()}`);
      state.view = null;
      offerSeat((await whoAmI()).wallets);
    }
  });
  document.addEventListener("keydown", onKey);
  setInterval(() => state.view && renderTimer(state.view), 250);
  setInterval(renderSession, 1000);
}

const fairness = new FairnessPanel($("fairness"), {
  send: (type, fields) => state.link.send(type, { table: state.table, ...fields }), // the seat's seed: no message line
  table: () => state.table,
  seedInput: $("my-seed"),
  seedNote: $("seed-note"),
});
const recall = new RecallList($("recall"), money);
const trainer = new Trainer({
  panel: $("advice"),
  mistakes: $("mistakes"),
  toggle: $("trainer-on"),
  end: $("b-end"),
  ask: () => state.link.send("advice", { table: state.table }),
  money,
  words: () => (state.rules ? state.rules.words.decisions : {}),
});

/** A table of my own for this game and limits (the kind the lobby's link names, else the game's
 * first), when the server gives each player theirs: its id, from /api/own/<kind>. */
async function ownTable(kinds) {
  const mine = kinds.filter((k) => k.game === game);
  const wanted = new URLSearchParams(location.search).get("kind");
  const kind = mine.find((k) => k.kind === wanted) || mine[0];
  if (!kind) return null;
  const answer = await api(`/api/own/${encodeURIComponent(kind.kind)}`);
  return answer.ok ? { ...kind, table: answer.body.table } : null;
}

async function main() {
  wire();
  state.watch = watchParam !== null;
  if (!state.watch) state.me = (await whoAmI()) || (await askLogin($("auth")));
  const lobby = await api("/api/lobby");
  state.tables = lobby.body.tables.filter((t) => t.game === game);
  const own = await ownTable(lobby.body.own || []);
  if (own) state.tables = [own]; // the game is played at a table of one's own: nobody waits
  if (!state.tables.length) {
    say(`This server has no table of ${game}.`);
    return;
  }
  state.table = (state.tables.find(mayBeFree) || state.tables[0]).table;
  if (state.watch) {
    if (watchParam && !state.tables.some((t) => t.table === watchParam)) {
      say(`No table ${watchParam} of ${game} here.`);
      return;
    }
    state.table = watchParam || state.tables[0].table;
    document.body.classList.add("watching");
    $("watch-line").hidden = false;
    await loadRules();
    disableTable();
    const sit = Object.assign(document.createElement("a"), { href: `/play/${encodeURIComponent(game)}`, textContent: "Take a seat" });
    sit.className = "btn small";
    $("session-slot").append(sit);
    state.link = new Link({ onFrame, onStatus, table: state.table });
    state.link.connect();
    return;
  }
  await loadRules();
  state.link = new Link({ onFrame, onStatus, table: state.table }); // the table's own socket
  const reminder = startReminder(state.link, () => state.table, { into: $("session-slot") }); // the server's reminders, and the session asked
  $("session-clock").addEventListener("click", () => reminder.remind()); // the bar's clock shows the session too
  state.link.connect();
}

main();
