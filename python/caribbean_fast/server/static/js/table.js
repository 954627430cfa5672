// The table page, /play/<game>: a seat at a table of that game, drawn from the server's views
// (docs/protocol.md). The page keeps no rule of its own: the server's `actions` say which buttons
// work, its refusals are shown in words, and the paytables come from /api/rules/<table>.

import { askLogin, whoAmI } from "./auth.js";
import { cardRow, chipStack, chipSvg, chipColour } from "./cards.js";
import { chipText, inputText, money as formatMoney, moneyHint, parseMoney } from "./money.js";
import { Link, api, refusal } from "./net.js";
import { FairnessPanel, RecallList, renderPaytables } from "./panels.js";
import { startReminder } from "./reminder.js";
import { Trainer } from "./trainer.js";

const $ = (id) => document.getElementById(id);
const game = decodeURIComponent(location.pathname.split("/").pop());

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

/** The stake `times` of the rules' stake unit up (down), within the limits (words/rules.py, stake_step). */
function stakeStep(stake, times) {
  const { minimum, maximum } = state.rules.limits;
  return Math.max(minimum, Math.min(maximum, stake + times * state.rules.stakes.unit));
}

async function changeStake(times) {
  state.stake = stakeStep(state.stake, times);
  renderFigures();
  if (state.view && state.view.bets.ante && can("ante")) await send("ante", { amount: state.stake });
}

async function placeChip(spot) {
  if (!state.view) return;
  const bets = state.view.bets;
  if (spot === "ante") {
    const answer = await send("ante", { amount: bets.ante + state.chip });
    if (answer.ok) state.stake = state.view.bets.ante;
  } else if (spot === "side") {
    const bet = sideBet();
    await send("side_bet", { name: bet.name, amount: Math.min(bet.maximum, (bets.side_bets[bet.name] || 0) + state.chip) });
  } else if (spot === "progressive") {
    await toggleProgressive();
  }
  renderFigures();
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
  const answer = await send("rebet");
  if (answer.ok && state.view.bets.ante) state.stake = state.view.bets.ante;
  renderFigures();
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
  const hiding = v.cards.length > 0 && !v.revealed;
  const dealerHidden = hiding ? Math.max(0, layout.dealer - v.dealer.length) : 0;
  cardRow($("dealer"), v.dealer, dealerHidden, "Dealer's cards", layout.hidden_first);
  if (layout.board) cardRow($("board"), v.board, v.cards.length > 0 ? Math.max(0, layout.board - v.board.length) : 0, "Board");
  cardRow($("cards"), v.cards, 0, "Your cards");
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
  node.textContent = auto + resultText(v.result.net);
}

// The round's net in words; exchange fees are named, so a win that the fees cancel never reads
// as a push (game 4).
function resultText(net) {
  const fees = Math.abs(net.exchange_fees || 0);
  const word = net.total > 0 ? "Won" : net.total < 0 ? "Lost" : fees ? "Even" : "Push";
  const amount = net.total ? ` ${money(Math.abs(net.total))}` : "";
  return fees ? `${word}${amount} after ${money(fees)} in exchange fees` : `${word}${amount}`;
}

function renderOthers(v) {
  const list = $("others");
  list.replaceChildren(
    ...v.others.map((o) => {
      const item = document.createElement("li");
      item.className = "seat-box";
      // whether another seat decided, never what (the engine sends no more): game 3's rule
      const status = !o.dealt ? "waiting" : o.settled ? "settled" : o.decided ? "decided" : "deciding…";
      const who = o.player || "empty seat";
      item.innerHTML = `<strong></strong><div class="seat-status"></div><div class="cards"></div>`;
      item.querySelector("strong").textContent = `Seat ${o.seat + 1} · ${who}`;
      item.querySelector(".seat-status").textContent =
        `${status}${o.bets.ante ? ` · ante ${money(o.bets.ante)}` : ""}`;
      // another seat's cards are never shown (the engine sends none): their backs while dealt
      cardRow(item.querySelector(".cards"), [], o.dealt ? state.rules.layout.hand : 0, `Seat ${o.seat + 1}'s cards`);
      item.dataset.seat = String(o.seat);
      item.setAttribute("aria-label", `Seat ${o.seat + 1}, ${who}, ${status}`);
      return item;
    }),
  );
}

function renderButtons(v) {
  const deciding = v.phase === "deciding" && v.cards.length && !v.result;
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
  if (frame.table !== state.table || frame.view.seat === null) return;
  const v = frame.view;
  const previous = state.view;
  state.view = v;
  fairness.seen(v);
  if (!state.stake) state.stake = v.bets.ante || state.rules.stakes.default;
  $("sit").hidden = true;
  render();
  if (v.result && (!previous || previous.round !== v.round || !previous.result)) {
    const round = { round: v.round, cards: v.cards, dealer: v.dealer, board: v.board, hand: v.result.hand || v.hand };
    recall.add({ ...round, net: v.result.net.total, folded: v.result.outcome?.decision === "fold" });
  }
  fairness.check(v);
}

async function onWelcome(frame) {
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

function onKey(event) {
  const target = event.target;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || !state.view) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  const step = event.shiftKey ? 10 : 1;
  let handled = true;
  if (key === "Insert" || key === "0") rebet();
  else if (key === "Enter") {
    // the game's key whatever has focus (Space presses a focused button); a link still opens
    if (target.tagName === "A") return;
    enter();
  }
  else if (key === "-" || key === "Subtract") decide("fold");
  else if ((key === "x" || key === "X") && state.rules.exchanges) exchange();
  else if ((key === "p" || key === "P") && state.rules.progressive) toggleProgressive();
  else if ((key === "b" || key === "B") && sideBet()) toggleSideBet();
  else if (key === "Delete" || key === ".") send("clear");
  else if (key === "ArrowUp") changeStake(step);
  else if (key === "ArrowDown") changeStake(-step);
  else handled = false;
  if (handled) event.preventDefault();
}

function wire() {
  $("b-rebet").addEventListener("click", rebet);
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
  state.me = (await whoAmI()) || (await askLogin($("auth")));
  const lobby = await api("/api/lobby");
  state.tables = lobby.body.tables.filter((t) => t.game === game);
  const own = await ownTable(lobby.body.own || []);
  if (own) state.tables = [own]; // the game is played at a table of one's own: nobody waits
  if (!state.tables.length) {
    say(`This server has no table of ${game}.`);
    return;
  }
  state.table = (state.tables.find(mayBeFree) || state.tables[0]).table;
  await loadRules();
  state.link = new Link({ onFrame, onStatus, table: state.table }); // the table's own socket
  startReminder(state.link, () => state.table, { into: $("session-slot") }); // the server's reminders, and the session asked
  state.link.connect();
}

main();
