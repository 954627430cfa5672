// The operator's office: one page for every screen, the screen chosen by the path (/office/<screen>).
// It renders what the office's API answers (office/routes.py) and keeps no rule of its own: the
// server decides who may do what; a button an auditor may not use is shown disabled, and the
// server refuses it anyway. Every POST carries the session's CSRF token.

import { money } from "/static/js/money.js";
import { cardText, verifyProof } from "/static/js/fair.js";

const CARDS = new Set(["cards", "hole", "up", "flop", "turn_river"]); // the events' fields of card ids

const main = document.getElementById("main");
let me = null;

/** An element: el("td", {class: "num"}, "text", child, ...). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : String(c ?? ""));
  return node;
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = false;
  setTimeout(() => (box.hidden = true), 6000);
}

/** The API's answer as JSON; 401 sends the page to the login; other refusals are shown and thrown. */
async function api(path, { method = "GET", body = null, raw = false } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (me && method !== "GET") headers["X-CSRF-Token"] = me.csrf;
  const answer = await fetch(`/office/api/${path}`, { method, headers, body: body && JSON.stringify(body), credentials: "same-origin" });
  if (answer.status === 401 && path !== "login") {
    location.assign("/office/login");
    throw new Error("log in first");
  }
  if (!answer.ok) {
    const found = await answer.json().catch(() => ({}));
    const message = found.error ? found.error.message : `${answer.status}`;
    showError(message);
    throw new Error(message);
  }
  return raw ? answer : answer.json();
}

/** A table: columns are [title, (row) => cell, "num"?]. */
function grid(columns, rows, caption = null) {
  const head = el("tr", {}, columns.map(([t, , kind]) => el("th", { class: kind || null, scope: "col" }, t)));
  const body = rows.map((r) => el("tr", {}, columns.map(([, cell, kind]) => el("td", { class: kind || null }, cell(r)))));
  return el("div", { class: "scroll" }, el("table", {}, caption ? el("caption", {}, caption) : [], el("thead", {}, head), el("tbody", {}, body)));
}

const signed = (net, currency) => el("span", { class: net > 0 ? "won" : net < 0 ? "lost" : null }, money(net, currency));
const when = (iso) => (iso ? iso.replace("T", " ").slice(0, 19) + " UTC" : "");
const roundLink = (r) => el("a", { href: `/office/round/${encodeURIComponent(r.table)}/${r.round}` }, r.id);
const playerLink = (name) => (name ? el("a", { href: `/office/player/${encodeURIComponent(name)}` }, name) : "");

function roundsGrid(rounds, caption) {
  return grid(
    [
      ["Round", roundLink],
      ["Opened", (r) => when(r.opened)],
      ["State", (r) => (r.void ? "void" : r.closed ? "closed" : "in play")],
      ["Seats", (r) => r.seats.map((s) => el("div", {}, `seat ${s.seat} `, playerLink(s.account), s.hand ? ` · ${s.hand}` : ""))],
      ["Staked", (r) => r.seats.map((s) => el("div", {}, money(s.staked, r.currency))), "num"],
      ["Net to player", (r) => r.seats.map((s) => el("div", {}, s.net === null ? "" : signed(s.net, r.currency))), "num"],
    ],
    rounds,
    caption,
  );
}

// ---- the screens ------------------------------------------------------------------------------

async function login() {
  const form = el(
    "form",
    { id: "login-form" },
    el("label", {}, "Operator", el("input", { name: "name", autocomplete: "username", required: true })),
    el("label", {}, "Password", el("input", { name: "password", type: "password", autocomplete: "current-password", required: true })),
    el("label", {}, "Code from the authenticator app", el("input", { name: "code", inputmode: "numeric", autocomplete: "one-time-code", pattern: "[0-9]{6}", required: true })),
    el("button", { type: "submit" }, "Log in"),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(form));
    await api("login", { method: "POST", body: data });
    location.assign("/office/rounds");
  });
  main.replaceChildren(el("section", { class: "login" }, el("h1", {}, "The operator's office"), el("p", { class: "lead" }, "Operators only: players' accounts do not open it."), form));
}

async function rounds() {
  const q = new URLSearchParams(location.search);
  const options = [el("option", { value: "" }, "every table"), ...me.tables.map((t) => el("option", { value: t, selected: q.get("table") === t }, t))];
  const form = el(
    "form",
    { class: "row", id: "search", method: "GET", action: "/office/rounds" },
    el("label", {}, "Table", el("select", { name: "table" }, options)),
    el("label", {}, "Account", el("input", { name: "account", value: q.get("account") || "" })),
    el("label", {}, "Time (UTC)", el("input", { name: "time", placeholder: "2026-12-05T15:40:00", value: q.get("time") || "" })),
    el("label", {}, "Round id", el("input", { name: "id", placeholder: "cyberstud-1:42", value: q.get("id") || "" })),
    el("button", { type: "submit" }, "Find"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const params = new URLSearchParams([...new FormData(form)].filter(([, v]) => v));
    location.assign(`/office/rounds?${params}`);
  });
  const params = new URLSearchParams([...q].filter(([, v]) => v));
  const found = await api(`rounds?${params}`);
  const what = found.rounds.length ? `${found.rounds.length} round${found.rounds.length === 1 ? "" : "s"}, latest first (at most ${found.most})` : "No round matches.";
  main.replaceChildren(
    el("h1", {}, "Disputes: find a round"),
    el("section", {}, form),
    el("section", { id: "results" }, el("p", { class: "lead" }, what), found.rounds.length ? roundsGrid(found.rounds) : []),
  );
}

async function proofSection(found) {
  const items = [];
  for (const [seat, proof] of Object.entries(found.proofs)) {
    const { ok, lines } = await verifyProof(proof, proof.commitment);
    items.push(
      el("div", { class: "proof", "data-seat": seat },
        el("h3", {}, `Seat ${seat} `, el("span", { class: `badge ${ok ? "ok" : "bad"}` }, ok ? "verifies in this page" : "does not verify")),
        el("p", {}, `Cards ${proof.cards.join(" ")} · dealer ${proof.dealer.join(" ")}${proof.board.length ? ` · board ${proof.board.join(" ")}` : ""}`),
        el("p", {}, "Commitment ", el("code", {}, proof.commitment)),
        el("ul", {}, lines.map((l) => el("li", {}, l))),
      ),
    );
  }
  return el("section", { id: "proofs" }, el("h2", {}, "Fairness proofs"), items.length ? items : el("p", {}, "The round is not over: its proof is shown once it is."));
}

async function round(table, number) {
  const found = await api(`round/${encodeURIComponent(table)}/${number}`);
  const replay = found.replay.same
    ? `Replayed by the engine from the table's first round: every one of ${found.replay.events} events is the recorded one, through round ${found.replay.rounds}.`
    : `The replay FAILED${found.replay.round !== null ? ` at round ${found.replay.round}` : ""}: ${found.replay.failure}`;
  const chain = found.chain_holds ? "The round's rows hold their chain of hashes." : "The round's rows do NOT hold their chain of hashes.";
  const seats = found.seats.map((s) => s.seat);
  const exportFor = el("select", { name: "seat" }, el("option", { value: "" }, "a regulator (every event, the rows and their hashes)"), seats.map((s) => el("option", { value: s }, `the player at seat ${s} (the round as the seat saw it)`)));
  const exportWhy = el("input", { name: "why", placeholder: "why (kept in the office's log)", size: 40, required: true });
  const exportForm = el("form", { class: "row", id: "export" }, el("label", {}, "For", exportFor), el("label", {}, "Why", exportWhy), el("button", { type: "submit" }, "Export JSON"));
  exportForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const seat = exportFor.value === "" ? null : Number(exportFor.value);
    const answer = await api(`round/${encodeURIComponent(table)}/${number}/export`, { method: "POST", body: { seat, why: exportWhy.value }, raw: true });
    const name = (answer.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/)[1];
    const link = el("a", { href: URL.createObjectURL(await answer.blob()), download: name }, name);
    document.body.append(link);
    link.click();
    link.remove();
    exportForm.append(el("span", { class: "badge ok", id: "exported" }, `exported ${name}`));
  });
  const answerWhy = el("textarea", { name: "why", rows: 2, cols: 60, disabled: !me.may_act, placeholder: "the answer given to the player" });
  const answerForm = el("form", { id: "answer" }, el("label", {}, "The office's answer", answerWhy), el("button", { type: "submit", disabled: !me.may_act }, "Record the answer"), me.may_act ? [] : el("p", { class: "lead" }, "An auditor reads only: answers are an operator's."));
  answerForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    await api(`round/${encodeURIComponent(table)}/${number}/answer`, { method: "POST", body: { why: answerWhy.value } });
    answerForm.append(el("span", { class: "badge ok", id: "answered" }, "recorded in the office's log"));
  });
  const detail = (ev) => {
    const { seq, round: _r, kind: _k, time: _t, seat: _s, ...rest } = ev;
    const readable = (key, value) => (CARDS.has(key) && Array.isArray(value) ? value.map(cardText).join(" ") : value);
    return el("code", {}, JSON.stringify(rest, readable));
  };
  main.replaceChildren(
    el("h1", {}, `Round ${found.id}`),
    el("section", {},
      el("dl", { class: "facts" },
        el("dt", {}, "Game"), el("dd", {}, found.variant),
        el("dt", {}, "Opened"), el("dd", {}, when(found.opened)),
        el("dt", {}, "State"), el("dd", {}, found.void ? "void" : found.closed ? "closed" : "in play"),
        el("dt", {}, "Replay"), el("dd", {}, el("span", { class: `badge ${found.replay.same ? "ok" : "bad"}`, id: "replay" }, found.replay.same ? "same result" : "failed"), " ", replay),
        el("dt", {}, "Record"), el("dd", {}, el("span", { class: `badge ${found.chain_holds ? "ok" : "bad"}`, id: "chain" }, found.chain_holds ? "chain holds" : "chain broken"), " ", chain),
      ),
    ),
    el("section", {}, el("h2", {}, "Seats"), roundsGrid([found])),
    await proofSection(found),
    el("section", {}, el("h2", {}, "Export"), exportForm),
    el("section", {}, el("h2", {}, "Answer the dispute"), answerForm),
    el("section", { id: "events" }, el("h2", {}, `Events (${found.events.length})`),
      grid([["Seq", (e) => e.seq, "num"], ["Kind", (e) => e.kind], ["Seat", (e) => (e.seat === null ? "" : e.seat)], ["Time", (e) => when(e.time)], ["Detail", detail]], found.events)),
  );
}

async function players() {
  const q = new URLSearchParams(location.search).get("q") || "";
  const form = el("form", { class: "row", id: "find" }, el("label", {}, "Account name starts with", el("input", { name: "q", value: q })), el("button", { type: "submit" }, "Find"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    location.assign(`/office/players?q=${encodeURIComponent(new FormData(form).get("q"))}`);
  });
  const found = await api(`players?q=${encodeURIComponent(q)}`);
  main.replaceChildren(
    el("h1", {}, "Players"),
    el("section", {}, form),
    el("section", { id: "results" },
      grid([["Account", (a) => playerLink(a.name)], ["Guest", (a) => (a.guest ? "guest" : "")], ["Opened", (a) => when(a.created)]], found.accounts, `${found.accounts.length} account${found.accounts.length === 1 ? "" : "s"}`)),
  );
}

async function player(name) {
  const p = await api(`player/${encodeURIComponent(name)}`);
  const unit = (w) => ({ code: w.currency, minor_per_major: w.minor_per_major });
  const limit = p.limit && p.limit.amount !== null ? `${p.limit.amount} (minor units), changed ${when(p.limit.changed)}` : "none set";
  main.replaceChildren(
    el("h1", {}, `Player ${p.name}`),
    el("section", {}, el("dl", { class: "facts" },
      el("dt", {}, "Account"), el("dd", {}, p.guest ? "guest" : "registered"),
      el("dt", {}, "Opened"), el("dd", {}, when(p.created)),
      el("dt", {}, "Personal limit"), el("dd", { id: "limit" }, limit),
      el("dt", {}, "Seated at"), el("dd", {}, p.seats.length ? p.seats.map((s) => `${s.table} seat ${s.seat}`).join(", ") : "no table"),
    ), el("p", { class: "lead" }, "Read only: adjustments and exclusions are not the office's yet.")),
    el("section", { id: "wallets" }, el("h2", {}, "Wallets"), grid([["Currency", (w) => w.currency], ["Holds", (w) => money(w.amount, unit(w)), "num"], ["Granted", (w) => money(w.granted, unit(w)), "num"]], p.wallets)),
    el("section", { id: "rounds" }, el("h2", {}, "Latest rounds"), p.rounds.length ? roundsGrid(p.rounds) : el("p", {}, "No round yet.")),
  );
}

async function officeLog() {
  const found = await api("log");
  const state = found.ok ? `The chain holds over all ${found.total} entries.` : `The chain is BROKEN: ${found.failure}`;
  main.replaceChildren(
    el("h1", {}, "The office's log"),
    el("section", {}, el("span", { class: `badge ${found.ok ? "ok" : "bad"}`, id: "chain" }, found.ok ? "chain holds" : "chain broken"), " ", state),
    el("section", { id: "entries" }, grid(
      [["#", (e) => e.seq, "num"], ["When", (e) => when(e.time)], ["Who", (e) => e.operator], ["What", (e) => e.action], ["On", (e) => e.target], ["Why", (e) => e.why], ["Detail", (e) => el("code", {}, JSON.stringify(e.detail))]],
      found.entries,
    )),
  );
}

const pct = (x, digits = 2) => (x === null || x === undefined ? "" : `${(100 * x).toFixed(digits)}%`);
const band = (b) => (b && b[0] !== null ? `${pct(b[0])} to ${pct(b[1])}` : "");

/** The lines of actual against theoretical: `keys` are the line's own columns. */
function figureGrid(keys, rows, units, caption, levels) {
  const cash = (field) => (r) => (r[field] === undefined ? "" : money(r[field], { code: r.currency, minor_per_major: units[r.currency] ?? 100 }));
  const flag = (r) => (r.outside ? el("span", { class: "badge bad" }, `below ${r.outside}`) : r.rounds ? el("span", { class: "badge ok" }, "inside") : "no rounds");
  return grid(
    [
      ...keys.map(([title, field]) => [title, (r) => r[field]]),
      ["Rounds", (r) => r.rounds, "num"],
      ["Wagered", cash("wagered"), "num"],
      ["House win", cash("win"), "num"],
      ["Hold", (r) => pct(r.hold), "num"],
      ["Theoretical", (r) => pct(r.theoretical), "num"],
      ...levels.map((l) => [`${l} band`, (r) => band(r[`band_${l}`]), "num"]),
      ["Band", flag],
    ],
    rows,
    caption,
  );
}

async function figures() {
  const f = await api("figures");
  const alarmItem = (a) => el("li", { class: a.level, "data-kind": a.kind }, el("strong", {}, `${a.level}: ${a.kind} ${Object.values(a.key).join(" · ")}`), ` ${a.why}`);
  const alarms = f.alarms.length
    ? el("section", { id: "alarms", class: "alarms", role: "alert" }, el("h2", {}, `${f.alarms.length} alarm${f.alarms.length === 1 ? "" : "s"} standing`), el("ul", {}, f.alarms.map(alarmItem)))
    : el("section", { id: "alarms" }, el("span", { class: "badge ok" }, "no alarm"), " Every table and game lies inside its band on the players' side; no account beyond its bound.");
  const chart = (c) => {
    if (c.points < 2) return el("p", { class: "chart-none", "data-table": c.table }, `${c.table}: ${c.points} running point${c.points === 1 ? "" : "s"}; its chart starts at two (a point every ${f.step} rounds).`);
    const box = el("figure", { class: "chart", "data-table": c.table });
    box.innerHTML = c.svg; // drawn by the server (figures.chart_svg): no script, its text escaped
    return box;
  };
  const notes = Object.entries(f.notes).map(([game, lines]) => el("li", {}, el("strong", {}, game), el("ul", {}, lines.map((n) => el("li", {}, n)))));
  main.replaceChildren(
    el("h1", {}, "Figures: actual against theoretical"),
    alarms,
    el("section", { id: "tables" }, el("h2", {}, "Tables"), figureGrid([["Table", "table"], ["Game", "game"]], f.tables, f.currencies, null, f.levels)),
    el("section", { id: "games" }, el("h2", {}, "Games"), figureGrid([["Game", "game"], ["Currency", "currency"]], f.games, f.currencies, null, f.levels)),
    el("section", { id: "pools" }, el("h2", {}, "Progressive pools"), f.pools.length ? figureGrid([["Pool", "pool"]], f.pools, f.currencies, null, f.levels) : el("p", {}, "No progressive bet yet.")),
    el("section", { id: "charts" }, el("h2", {}, "Running hold inside its band, by table"), el("div", { class: "charts" }, f.charts.filter((c) => c.points >= 2).map(chart)), f.charts.filter((c) => c.points < 2).map(chart)),
    el("section", { id: "notes" }, el("h2", {}, "Where the theoretical is not the least the house keeps"), el("ul", {}, notes),
      f.unknown.length ? el("p", {}, `Left out, their games no longer served: ${f.unknown.join(", ")}.`) : []),
  );
}

async function reports() {
  const q = new URLSearchParams(location.search);
  const today = new Date().toISOString().slice(0, 10);
  const first = el("input", { name: "first", type: "date", value: q.get("first") || today });
  const last = el("input", { name: "last", type: "date", value: q.get("last") || today });
  const why = el("input", { name: "why", placeholder: "why (kept in the office's log)", size: 34 });
  const show = el("button", { type: "submit" }, "Show");
  const form = el("form", { class: "row", id: "report-form" }, el("label", {}, "First day", first), el("label", {}, "Last day", last), show);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    location.assign(`/office/reports?first=${first.value}&last=${last.value}`);
  });
  const r = await api(`report?first=${encodeURIComponent(first.value)}&last=${encodeURIComponent(last.value)}`);
  const unit = (row) => ({ code: row.currency, minor_per_major: r.currencies[row.currency] ?? 100 });
  const download = async (kind) => {
    const answer = await api(`report.${kind}`, { method: "POST", body: { first: r.first, last: r.last, why: why.value }, raw: true });
    const name = (answer.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/)[1];
    const link = el("a", { href: URL.createObjectURL(await answer.blob()), download: name }, name);
    document.body.append(link);
    link.click();
    link.remove();
    document.getElementById("downloaded").replaceChildren(el("span", { class: "badge ok" }, `downloaded ${name}, kept in the office's log`));
  };
  const files = el("div", { class: "row", id: "download" }, el("label", {}, "Why", why),
    el("button", { type: "button", onclick: () => download("csv") }, "Download CSV"),
    el("button", { type: "button", onclick: () => download("xlsx") }, "Download XLSX"),
    el("span", { id: "downloaded" }));
  const days = grid(
    [["Day", (l) => l.day], ["Game", (l) => l.game], ["Table", (l) => l.table], ["Rounds", (l) => l.rounds, "num"],
      ["Wagered", (l) => money(l.wagered, unit(l)), "num"], ["House win", (l) => money(l.win, unit(l)), "num"],
      ["Hold", (l) => pct(l.hold), "num"], ["Theoretical", (l) => pct(l.theoretical), "num"]],
    r.lines,
    `${r.lines.length} line${r.lines.length === 1 ? "" : "s"}, ${r.first} to ${r.last} (UTC days)`,
  );
  const pools = grid(
    [["Day", (p) => p.day], ["Pool", (p) => p.pool], ["Commits", (p) => p.commits, "num"], ["Moved", (p) => p.moved, "num"], ["Paid from the meter", (p) => p.paid_from_meter, "num"], ["Came in", (p) => p.added, "num"]],
    r.pools,
    r.pools.length ? "The progressive pools' days (minor units)" : "The progressive pools' days (minor units): no pool moved in these days",
  );
  main.replaceChildren(
    el("h1", {}, "Reports"),
    el("section", {}, el("p", { class: "lead" }, "Per day, game and table, from the summaries the tables' commits keep; money in the table's currency. A download is kept in the office's log."), form, files),
    el("section", { id: "days" }, days),
    el("section", { id: "report-pools" }, pools),
  );
}

const FIGURES = [
  ["rtp", "Return per amount wagered"],
  ["house_edge", "House edge (per ante)"],
  ["element_of_risk", "Element of risk"],
  ["average_wager", "Average wager (antes)"],
  ["std_dev", "Standard deviation (antes)"],
  ["hit_frequency", "Hit frequency"],
];

function changeSection(c) {
  const s = c.sheet;
  const classes = Object.keys(s.proposed.paytable);
  const pays = grid(
    [["Hand", (k) => k.replaceAll("_", " ")], ["Now pays", (k) => s.current.paytable[k] ?? "", "num"], ["Proposed", (k) => el("span", { class: s.current.paytable[k] !== s.proposed.paytable[k] ? "changed" : null }, s.proposed.paytable[k]), "num"]],
    classes,
    "The raise's paytable (to 1)",
  );
  const figures = grid([["Figure", ([, t]) => t], [`${c.game} now`, ([k]) => s.current[k], "num"], [`${c.name} proposed`, ([k]) => s.proposed[k], "num"]], FIGURES, "Exact, under the best strategy");
  const pool = s.pool
    ? el("p", { class: "pool" }, `Progressive: the tables of ${c.name} play a new pool (${s.pool.new_pool}), opened at its reset; the pool ${s.pool.old_pool} keeps its meter (${s.pool.old_meter ?? "not opened"} minor units) for the tables still on ${c.game}. The prize schedule ${s.pool.schedule_changed ? "changes" : "stays the same"}.`)
    : [];
  const why = el("input", { name: "why", placeholder: "why (kept in the office's log)", size: 40 });
  const mine = c.proposed_by === me.operator;
  const can = me.may_act && !mine && !c.approved_by;
  const approve = el("form", { class: "row approve" }, el("label", {}, "Why", why), el("button", { type: "submit", disabled: !can }, "Approve"));
  approve.addEventListener("submit", async (e) => {
    e.preventDefault();
    await api(`paytables/${c.id}/approve`, { method: "POST", body: { why: why.value } });
    location.reload();
  });
  const state = c.approved_by
    ? el("span", { class: "badge ok" }, `approved by ${c.approved_by}`)
    : el("span", { class: "badge wait" }, mine ? "waiting for a second operator" : "waiting for approval");
  return el("section", { class: "change", "data-id": c.id },
    el("h2", {}, `#${c.id} ${c.game} → ${c.name} `, state),
    el("p", {}, `Proposed by ${c.proposed_by}, ${when(c.proposed)}: ${c.why}`),
    el("p", {}, "Variant text SHA-256 ", el("code", {}, c.hash), " · ",
      el("a", { href: `/office/api/paytables/${c.id}/parsheet`, target: "_blank" }, "the whole par sheet")),
    el("div", { class: "two" }, figures, pays),
    pool,
    c.approved_by ? el("p", { class: "lead" }, `Approved ${when(c.approved)}. ` + (c.applied_to.length
      ? "Taken by " + c.applied_to.map((a) => `${a.table} after round ${a.round} (${when(a.applied)})`).join(", ") + "."
      : "Each table of the game takes it at its next round boundary.")) : approve,
  );
}

async function paytables() {
  const found = await api("paytables");
  const field = (name, label, input) => el("label", { "data-source": name }, label, input);
  const source = el("select", { name: "source" }, ["preset", "example", "text", "designer"].map((s) => el("option", { value: s }, s)));
  const form = el("form", { id: "propose" },
    el("div", { class: "row" },
      el("label", {}, "Game", el("select", { name: "game" }, found.games.map((g) => el("option", { value: g.game }, `${g.game} (${g.tables.length} table${g.tables.length === 1 ? "" : "s"})`)))),
      el("label", {}, "From", source),
      field("preset", "Preset", el("select", { name: "preset" }, found.sources.preset.map((p) => el("option", { value: p }, p)))),
      field("example", "Example file", el("select", { name: "example" }, found.sources.example.map((p) => el("option", { value: p }, p)))),
      field("designer", "Target return", el("input", { name: "target", placeholder: "0.97", size: 8 })),
      field("designer", "Entry to adjust", el("input", { name: "adjust", placeholder: "raise:royal-flush", size: 18 })),
      el("label", {}, "New variant name", el("input", { name: "name", required: true, placeholder: "cyberstud-2027" })),
      el("label", {}, "Why", el("input", { name: "why", required: true, size: 30 })),
    ),
    field("text", "Variant TOML", el("textarea", { name: "text", rows: 8, cols: 90 })),
    el("button", { type: "submit", disabled: !me.may_act }, "Analyse and propose"),
    el("span", { id: "analysing", hidden: true }, " analysing exactly…"),
  );
  const show = () => form.querySelectorAll("[data-source]").forEach((n) => (n.hidden = n.dataset.source !== source.value));
  source.addEventListener("change", show);
  show();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = Object.fromEntries([...new FormData(form)].filter(([k]) => !form.querySelector(`[name=${k}]`).closest("[hidden]")));
    document.getElementById("analysing").hidden = false;
    try {
      await api("paytables", { method: "POST", body: data });
      location.reload();
    } finally {
      document.getElementById("analysing").hidden = true;
    }
  });
  main.replaceChildren(
    el("h1", {}, "Paytables"),
    el("section", {}, el("p", { class: "lead" }, "A change is a new variant under a new name (a preset is never changed in place), analysed exactly before anything changes, its text kept by its hash, and approved by a second operator."), form),
    ...(found.changes.length ? found.changes.map(changeSection) : [el("section", {}, el("p", {}, "No change proposed yet."))]),
  );
}

// ---- the frame --------------------------------------------------------------------------------

const SCREENS = { rounds, players, log: officeLog, figures, reports, paytables };

async function start() {
  const parts = location.pathname.replace(/^\/office\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "login") return login();
  me = await api("me");
  document.getElementById("who").replaceChildren(me.operator, el("span", { class: "role" }, me.role));
  const logout = document.getElementById("logout");
  logout.hidden = false;
  logout.addEventListener("click", async () => {
    await api("logout", { method: "POST" });
    location.assign("/office/login");
  });
  const here = parts[0] === "round" ? "rounds" : parts[0] === "player" ? "players" : parts[0] || "rounds";
  document.getElementById("nav").replaceChildren(...me.screens.map((s) => el("a", { href: `/office/${s.path}`, title: s.what, "aria-current": s.path === here ? "page" : null }, s.title)));
  if (parts[0] === "round") return round(parts[1], parts[2]);
  if (parts[0] === "player") return player(parts[1]);
  return (SCREENS[here] || rounds)();
}

start().catch((err) => console.error(err));
