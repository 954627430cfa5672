// The personal bet limit (seed 000): the account's limit, when it may change again, and a form to
// set or remove it. The change is the engine's `set_limit`, sent to a table where the account sits
// (the engine records it at the seat; the server's book holds it for every table of the account).
// The page keeps no rule: the once-a-week check and its words are the server's.
// Below it, the reality check's interval: an account setting the server keeps (`reality_check`),
// which decides when every client of the account is reminded; its bounds are the server's.

import { askLogin, whoAmI } from "./auth.js";
import { moneyHint, moneyInEach, parseMoney } from "./money.js";
import { Link, api, refusal } from "./net.js";

const $ = (id) => document.getElementById(id);
const state = { seats: [], link: null, currencies: new Map() }; // each table's currency, from the lobby

/** The limit is one number of minor units, which each table reads in its own currency. */
function amount(minor) {
  return moneyInEach(minor, [...state.currencies.values()]);
}

async function loadCurrencies() {
  const lobby = await api("/api/lobby");
  const tables = lobby.ok ? lobby.body.tables : [];
  state.currencies = new Map(tables.map((t) => [t.table, { code: t.currency, minor_per_major: t.minor_per_major }]));
}

function when(iso) {
  return new Date(iso).toLocaleString("en", { dateStyle: "full", timeStyle: "short" });
}

async function load() {
  const answer = await api("/api/limit");
  if (!answer.ok) {
    $("limit-now").textContent = refusal(answer);
    return;
  }
  const l = answer.body;
  $("limit-now").textContent =
    l.limit === null ? "No limit is set." : `Your ante is limited to ${amount(l.limit)} (in each table's currency).`;
  const parts = [];
  if (l.changed) parts.push(`Last changed ${when(l.changed)}.`);
  // lowering holds at once; raising or removing waits for the week (engine/limits.py)
  parts.push(
    l.may_change
      ? "You may change it now."
      : `You may lower it now; raise or remove it from ${when(l.next_change)}.`,
  );
  $("limit-when").textContent = parts.join(" ");
  $("limit-rule").textContent = l.rule;
  state.seats = l.seats;
  const select = $("limit-table");
  select.replaceChildren(
    ...l.seats.map((s) => {
      const option = document.createElement("option");
      option.value = s.table;
      option.textContent = `${s.table}, seat ${s.seat + 1}`;
      return option;
    }),
  );
  const seated = l.seats.length > 0;
  for (const id of ["limit-amount", "limit-table", "b-set-limit"]) $(id).disabled = !seated; // lowering: any time
  $("b-remove-limit").disabled = !(l.may_change && seated);
  if (!l.seats.length) {
    $("limit-message").replaceChildren(
      "Take a seat at any table to change your limit: the table records the change at your seat. ",
      Object.assign(document.createElement("a"), { href: "/", textContent: "Go to the lobby" }),
    );
  }
}

async function setLimit(value) {
  const table = $("limit-table").value;
  const link = new Link({ onFrame: () => {}, onStatus: () => {}, table }); // where that table is served
  link.connect();
  const answer = await link.send("set_limit", { table, amount: value });
  link.close();
  $("limit-message").textContent = answer.ok
    ? value === null
      ? "Your limit is removed."
      : `Your limit is now ${amount(value)}.`
    : refusal(answer);
  await load();
}

function every(seconds) {
  if (seconds % 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = seconds / 60;
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** The lobby's socket, opened once: the interval is the account's, not a table's. */
function link() {
  if (!state.link) {
    state.link = new Link({ onFrame: () => {}, onStatus: () => {} });
    state.link.connect();
  }
  return state.link;
}

function showEvery(r) {
  $("every-now").textContent =
    `A reality check every ${every(r.every)} of your session` + (r.every === r.default ? " (the default)." : ".");
  $("every-minutes").value = String(r.every / 60);
}

async function loadEvery() {
  const answer = await link().send("reality_check");
  if (answer.ok) showEvery(answer.result);
  else $("every-now").textContent = refusal(answer);
}

async function setEvery(seconds) {
  const answer = await link().send("reality_check", { every: seconds });
  if (answer.ok) showEvery(answer.result);
  $("every-message").textContent = answer.ok ? `Your next reality check comes ${every(answer.result.every)} after the last.` : refusal(answer);
}

function wire() {
  $("every-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("every-minutes").value.trim();
    const seconds = Math.round(Number(text) * 60);
    if (!/^\d+(\.\d+)?$/.test(text) || seconds <= 0) {
      $("every-message").textContent = "The interval is a number of minutes, such as 30";
      return;
    }
    setEvery(seconds);
  });
  $("b-default-every").addEventListener("click", () => setEvery(null));
  $("limit-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const currency = state.currencies.get($("limit-table").value); // read as the table it is sent to
    const minor = currency ? parseMoney($("limit-amount").value, currency) : null;
    if (!minor) {
      $("limit-message").textContent = currency ? `The limit is ${moneyHint(currency)}` : "This table is not in the lobby";
      return;
    }
    setLimit(minor);
  });
  $("b-remove-limit").addEventListener("click", () => setLimit(null));
}

async function main() {
  wire();
  if (!(await whoAmI())) await askLogin($("auth"));
  await loadCurrencies();
  await Promise.all([load(), loadEvery()]);
}

main();
