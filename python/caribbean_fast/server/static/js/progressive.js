// A table's progressive (/progressive/<table>): the meter now, the meter over time (a line after
// each round that moved it), the prizes of the meter's share with their time, and the fixed
// prizes counted by day over every table of the game, from GET /api/progressive/<table> (the
// server's summary: it ties no fixed prize to a round, a time or a table, so none tells a seat's
// hand). The prizes' table is the rules' (GET /api/rules/<table>).

import { api } from "./net.js";
import { money } from "./money.js";
import { el, grid, lastPart, section } from "./pages.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function chart(points, currency) {
  const room = document.getElementById("progressive").clientWidth - 60; // drawn at the page's width: labels stay legible
  const w = Math.max(300, Math.min(900, room));
  const h = w < 500 ? 200 : 260;
  const pad = w < 500 ? 36 : 56;
  const chartNode = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "meter-chart", role: "img" });
  const values = points.map((p) => p.meter);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const x = (k) => pad + (points.length === 1 ? 0 : (k * (w - 2 * pad)) / (points.length - 1));
  const y = (m) => h - pad / 2 - ((m - low) * (h - pad)) / span;
  chartNode.setAttribute(
    "aria-label",
    `The meter over ${points.length} rounds, from ${money(values[0], currency)} to ${money(values.at(-1), currency)}, highest ${money(high, currency)}`,
  );
  chartNode.append(svg("polyline", { points: points.map((p, k) => `${x(k)},${y(p.meter)}`).join(" ") }));
  for (const [m, label] of [[high, money(high, currency)], [low, money(low, currency)]]) {
    const t = svg("text", { x: 4, y: y(m) + 4 });
    t.textContent = label;
    chartNode.append(t);
  }
  const first = svg("text", { x: pad, y: h - 4 });
  first.textContent = `round ${points[0].round}`;
  const last = svg("text", { x: w - pad, y: h - 4, "text-anchor": "end" });
  last.textContent = `round ${points.at(-1).round}`;
  chartNode.append(first, last);
  return chartNode;
}

function when(iso) {
  return new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });
}

async function main() {
  const table = lastPart();
  const node = document.getElementById("progressive");
  const [answer, rules] = await Promise.all([
    api(`/api/progressive/${encodeURIComponent(table)}`),
    api(`/api/rules/${encodeURIComponent(table)}`),
  ]);
  if (!answer.ok) {
    node.replaceChildren(el("p", answer.body.error ? answer.body.error.message : "No progressive here.", { role: "alert" }));
    return;
  }
  const p = answer.body;
  const currency = { code: p.currency, minor_per_major: p.minor_per_major };
  document.title = `caribbean-fast · Progressive · ${p.title}`;
  document.getElementById("title").textContent = `${p.title}: progressive at ${p.table}`;
  node.replaceChildren();
  node.append(el("p", p.meter === null ? "The table is being restored: the meter shows once it serves." : `The meter now: ${money(p.meter, currency)}`, { class: "lead", "data-testid": "meter-now" }));
  const over = p.points.length > 1 ? chart(p.points, currency) : el("p", "The meter has not moved yet: no progressive bet has been placed here.");
  node.append(section("The meter over time", over));
  const rows = [...p.meter_prizes].reverse().map((z) => [when(z.time), z.hand, money(z.prize, currency), money(z.from_meter, currency)]);
  const jackpots = rows.length ? grid(null, ["When", "Hand", "Prize", "From the meter"], rows) : el("p", "No prize of the meter's share paid yet.");
  const wrap = el("div", null, { class: "scroll" });
  wrap.append(jackpots);
  node.append(section("Jackpots paid", wrap));
  const days = [...p.fixed_prizes].reverse().map((z) => [z.day, z.hand, String(z.count), money(z.amount, currency)]);
  const fixed = days.length ? grid(null, ["Day (UTC)", "Hand", "Prizes", "Paid"], days) : el("p", "No fixed prize paid in those days.");
  const note = el("p", `Every table of the game, by day, for the ${p.fixed_days} days to ${p.fixed_through}: a day is told once it has ended, and no prize by its round or table, so that none tells a player's hand.`);
  const fixedWrap = el("div", null, { class: "scroll" });
  fixedWrap.append(fixed);
  node.append(section("Fixed prizes by day", note, fixedWrap));
  if (rules.ok && rules.body.progressive) {
    const r = rules.body.progressive;
    const table = grid(null, ["Hand", "Prize"], r.prizes.map((z) => [z.hand, z.amount ? money(z.amount, currency) : `${z.meter_percent}% of the meter`]));
    node.append(section("What it pays", el("p", `Stake ${money(r.stake, currency)}, of which ${money(r.contribution, currency)} goes to the meter.`), table));
  }
}

main();
