// The lobby: log in (or play as a guest), then every game with every one of its tables: the
// limits, the free seats, how many wait, the progressive meter. At a table a player may watch it
// (its public view, here), sit at the next free seat, or join its waiting list when it is full (the
// server keeps the list and tells this page with a `waitlist` frame when the engine seated them).
// Sitting opens the game's table page, which finds the seat in its welcome. The lobby's socket
// (/ws) brings the welcome; a table's commands go on that table's own socket (/ws/<table>).
// A one-seat game is listed by kind (its limits): each player plays at a table of their own,
// which the table page asks the server for (/api/own/<kind>); nobody waits or watches there.

import { askLogin, logOut, whoAmI } from "./auth.js";
import { money } from "./money.js";
import { Link, api, refusal } from "./net.js";
import { el } from "./pages.js";

const state = { me: null, link: null, links: new Map(), tables: [], own: [], ownIds: new Map(), rules: new Map(), watching: null, seats: [] };

/** The table's own socket, opened at its first command. */
function linkOf(table) {
  if (!state.links.has(table)) {
    const link = new Link({
      onFrame: (frame) => {
        // a socket opened again (dropped, or moved to the process serving the table) watches again
        if (frame.type === "welcome" && state.watching === table) link.send("watch", { table });
        onFrame(frame);
      },
      onStatus: () => {},
      table,
    });
    link.connect();
    state.links.set(table, link);
  }
  return state.links.get(table);
}

/** Closes a table's socket the page no longer needs (not watched, not waiting there). */
function letGo(table) {
  if (table === state.watching || table === state.waitingAt || !state.links.has(table)) return;
  state.links.get(table).close();
  state.links.delete(table);
}

/** A lobby entry's currency, as money.js reads it. */
function currencyOf(entry) {
  return { code: entry.currency, minor_per_major: entry.minor_per_major };
}

function say(text) {
  document.getElementById("lobby-message").textContent = text;
}

function showWho(me) {
  const who = document.getElementById("who");
  who.replaceChildren();
  if (!me) return;
  who.append(`${me.account}${me.guest ? " (guest)" : ""} · `);
  who.append(walletsOf(me.wallets), " ");
  const out = document.createElement("button");
  out.className = "btn small";
  out.textContent = "Log out";
  out.addEventListener("click", logOut);
  who.append(out);
}

/** A wallet per currency, each read as that currency's tables read money. */
function walletsOf(wallets) {
  const list = document.createElement("span");
  list.className = "wallets";
  const codes = Object.keys(wallets || {});
  list.textContent = codes.length ? "wallets " : "no wallet yet";
  codes.forEach((code, k) => {
    const one = document.createElement("span");
    one.className = "wallet";
    one.dataset.currency = code;
    one.textContent = `${k ? " · " : ""}${code} ${money(wallets[code], currencyCalled(code))}`;
    list.append(one);
  });
  return list;
}

function currencyCalled(code) {
  const entry = state.tables.find((t) => t.currency === code);
  return entry ? currencyOf(entry) : { code, minor_per_major: 100 };
}

function facts(entry) {
  const currency = currencyOf(entry);
  const limits = `${entry.currency} · ante ${money(entry.limits.minimum, currency)} to ${money(entry.limits.maximum, currency)}`;
  const seats = `${entry.seats} seat${entry.seats > 1 ? "s" : ""}`;
  // A table another process serves shows its seats once that process has published them.
  const free = entry.free === undefined ? seats : `${entry.free} of ${seats} free`;
  const waiting = entry.waiting ? ` · ${entry.waiting} waiting` : "";
  const stopped = entry.available === false ? " · stopped: being restored from its record" : "";
  const meter = entry.meter ? ` · meter ${money(entry.meter, currency)}` : "";
  return `${limits} · ${free}${waiting}${meter}${stopped}`;
}

function button(text, label, onClick, primary = false) {
  const b = el("button", text, { type: "button", class: `btn small${primary ? " primary" : ""}`, "aria-label": label });
  b.addEventListener("click", onClick);
  return b;
}

function tableRow(entry) {
  const row = el("div", null, { class: "table-row", "data-table": entry.table });
  row.append(el("span", entry.table, { class: "table-name" }), el("span", facts(entry), { class: "table-facts" }));
  const buttons = el("span", null, { class: "table-buttons" });
  const mine = state.seats.some((s) => s.table === entry.table);
  if (mine) {
    const back = el("a", "Back to your seat", { class: "btn small primary", href: `/play/${encodeURIComponent(entry.game)}` });
    buttons.append(back);
  } else if (state.waitingAt === entry.table) {
    buttons.append(button("Leave waiting list", `Leave the waiting list of ${entry.table}`, () => unwait(entry)));
  } else if (entry.free > 0 && !entry.waiting) {
    buttons.append(button("Sit", `Sit at ${entry.table}`, () => sitAt(entry), true));
  } else {
    buttons.append(button("Join waiting list", `Wait for a seat at ${entry.table}`, () => waitFor(entry), true));
  }
  buttons.append(button(state.watching === entry.table ? "Stop watching" : "Watch", `Watch ${entry.table}`, () => watch(entry)));
  row.append(buttons, el("div", "", { class: "table-state", "aria-live": "polite" }));
  return row;
}

/** A kind of own tables: its limits and meter, and the way to one's own table of it. */
function kindRow(entry) {
  const row = el("div", null, { class: "table-row", "data-kind": entry.kind });
  const currency = currencyOf(entry);
  const limits = `${entry.currency} · ante ${money(entry.limits.minimum, currency)} to ${money(entry.limits.maximum, currency)}`;
  const meter = entry.meter ? ` · meter ${money(entry.meter, currency)}` : "";
  row.append(el("span", "A table of your own", { class: "table-name" }), el("span", `${limits}${meter}`, { class: "table-facts" }));
  const href = `/play/${encodeURIComponent(entry.game)}?kind=${encodeURIComponent(entry.kind)}`;
  const play = el("a", "Sit", { class: "btn small primary", href, "aria-label": `Sit at your own ${entry.kind} table` });
  row.append(el("span", null, { class: "table-buttons" }));
  row.lastChild.append(play);
  return row;
}

function gameCard(entries) {
  const entry = entries[0];
  const page = entry.table || entry.kind; // a kind's id names its game's rules and jackpot pages
  const history = entry.table || state.ownIds.get(entry.kind);
  const card = el("article", null, { class: "game-card" });
  card.append(el("h2", entry.title));
  const links = el("p", null, { class: "game-links" });
  const play = el("a", "Play", { class: "btn primary", href: `/play/${encodeURIComponent(entry.game)}`, "aria-label": `Play ${entry.title}` });
  links.append(play, el("a", "Rules", { href: `/rules/${encodeURIComponent(page)}` }));
  if (entries.some((e) => e.meter)) links.append(el("a", "Jackpot history", { href: `/progressive/${encodeURIComponent(page)}` }));
  if (history) links.append(el("a", "My history", { href: `/history/${encodeURIComponent(history)}` }));
  card.append(links);
  const list = el("div", null, { class: "table-list" });
  for (const e of entries) list.append(e.own ? kindRow(e) : tableRow(e));
  card.append(list);
  return card;
}

function render() {
  const games = document.getElementById("games");
  const byGame = new Map();
  for (const entry of [...state.own, ...state.tables]) {
    if (!byGame.has(entry.game)) byGame.set(entry.game, []);
    byGame.get(entry.game).push(entry);
  }
  games.replaceChildren(...[...byGame.values()].map(gameCard));
  if (state.watching && state.lastView) showWatch(state.lastView);
}

async function refresh() {
  const lobby = await api("/api/lobby");
  if (lobby.ok) {
    state.tables = lobby.body.tables;
    state.own = lobby.body.own || [];
  }
  await ownIds();
  render();
}

/** The ids of one's own tables, for their history pages (once per kind, when logged in). */
async function ownIds() {
  if (!state.me) return;
  for (const kind of state.own) {
    if (state.ownIds.has(kind.kind)) continue;
    const answer = await api(`/api/own/${encodeURIComponent(kind.kind)}`);
    if (answer.ok) state.ownIds.set(kind.kind, answer.body.table);
  }
}

async function rulesOf(table) {
  if (!state.rules.has(table)) state.rules.set(table, (await api(`/api/rules/${encodeURIComponent(table)}`)).body);
  return state.rules.get(table);
}

async function buyIn(entry) {
  const rules = await rulesOf(entry.table);
  const me = await whoAmI();
  return Math.min(rules.stakes.buy_in, me ? (me.wallets || {})[entry.currency] || 0 : rules.stakes.buy_in);
}

async function sitAt(entry) {
  const buy_in = await buyIn(entry);
  const answer = await linkOf(entry.table).send("sit", { table: entry.table, buy_in });
  if (!answer.ok) {
    say(`${entry.table}: ${refusal(answer)}`);
    await refresh();
    return;
  }
  location.assign(`/play/${encodeURIComponent(entry.game)}`);
}

async function waitFor(entry) {
  const buy_in = await buyIn(entry);
  const answer = await linkOf(entry.table).send("wait", { table: entry.table, buy_in });
  if (!answer.ok) {
    say(`${entry.table}: ${refusal(answer)}`);
    return;
  }
  if (answer.result.seat !== undefined) {
    location.assign(`/play/${encodeURIComponent(entry.game)}`);
    return;
  }
  state.waitingAt = entry.table;
  say(`You are number ${answer.result.place} on the waiting list of ${entry.table} (buy-in ${money(buy_in, currencyOf(entry))}). Keep this page open: you are seated when a seat frees.`);
  await refresh();
}

async function unwait(entry) {
  await linkOf(entry.table).send("unwait", { table: entry.table });
  state.waitingAt = null;
  letGo(entry.table);
  say(`You left the waiting list of ${entry.table}.`);
  await refresh();
}

async function watch(entry) {
  const was = state.watching;
  if (was) await linkOf(was).send("unwatch", { table: was });
  state.watching = null;
  if (was) letGo(was);
  state.lastView = null;
  if (was !== entry.table) {
    const answer = await linkOf(entry.table).send("watch", { table: entry.table });
    if (answer.ok) state.watching = entry.table;
    else say(`${entry.table}: ${refusal(answer)}`);
  }
  render();
}

function showWatch(frame) {
  const row = document.querySelector(`.table-row[data-table="${CSS.escape(frame.table)}"] .table-state`);
  if (!row) return;
  const v = frame.view;
  const entry = state.tables.find((t) => t.table === frame.table);
  const seats = v.others.map((o) => {
    const who = o.player || "free";
    const bet = o.bets && o.bets.ante ? ` ante ${money(o.bets.ante, currencyOf(entry))}` : "";
    const did = o.decided ? " · decided" : "";
    return `seat ${o.seat + 1}: ${who}${bet}${did}`;
  });
  const dealer = v.dealer.length ? ` · dealer ${v.dealer.join(" ")}${v.dealer_hand ? ` (${v.dealer_hand})` : ""}` : "";
  const board = v.board.length ? ` · board ${v.board.join(" ")}` : "";
  row.textContent = `Watching: round ${v.round}, ${v.phase}${dealer}${board}. ${seats.join("; ") || "Nobody seated."}`;
}

function onFrame(frame) {
  if (frame.type === "welcome") {
    state.seats = frame.seats || [];
    render();
  } else if (frame.type === "view" && frame.table === state.watching && frame.view.seat === null) {
    state.lastView = frame;
    showWatch(frame);
  } else if (frame.type === "waitlist") {
    const entry = state.tables.find((t) => t.table === frame.table);
    if (frame.seat !== null && entry) {
      say(`A seat freed at ${frame.table}: you sit at seat ${frame.seat + 1}. Opening the table…`);
      setTimeout(() => location.assign(`/play/${encodeURIComponent(entry.game)}`), 800);
    } else {
      state.waitingAt = null;
      say(`You are off the waiting list of ${frame.table}: ${frame.reason}`);
    }
  }
}

async function main() {
  state.me = await whoAmI();
  if (!state.me) state.me = await askLogin(document.getElementById("auth"));
  state.link = new Link({ onFrame, onStatus: () => {} });
  state.link.connect();
  await refresh();
  showWho(state.me); // the wallet in the tables' currencies
  setInterval(refresh, 5000);
}

main();
