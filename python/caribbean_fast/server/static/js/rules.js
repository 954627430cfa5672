// A table's rules page (/rules/<table>): everything from GET /api/rules/<table>, which the server
// makes from the variant (words/rules.py). The page writes no rule of its own.

import { api } from "./net.js";
import { money } from "./money.js";
import { el, grid, lastPart, section, seconds } from "./pages.js";

function render(r) {
  const currency = r.currency; // every amount below is in the table's currency
  document.title = `caribbean-fast · Rules · ${r.title}`;
  document.getElementById("title").textContent = `Rules: ${r.title}`;
  const play = document.getElementById("play");
  play.href = `/play/${encodeURIComponent(r.game)}`;
  play.textContent = `Play ${r.title}`;
  const main = document.getElementById("rules");
  main.replaceChildren();
  const intro = el("p", `${r.rule_line}. Table ${r.table}, ${r.seats} seat${r.seats > 1 ? "s" : ""}.`, { class: "lead" });
  main.append(intro);
  const returns = el("div", null, { id: "returns", "aria-live": "polite" });
  returns.append(el("p", "Working out the return from the exact analysis…"));
  main.append(section("Return to player", returns));
  const steps = el("ol", null, { class: "steps" });
  for (const step of r.how_to_play) steps.append(el("li", step));
  main.append(section("How to play", steps));
  main.append(section("The dealer's qualifier", el("p", `The dealer qualifies with ${r.qualifier}.`)));
  const rows = r.paytable.map((row) => r.paytable_columns.map((c) => row[c.key]));
  main.append(section("Paytable", grid(null, r.paytable_columns.map((c) => c.title), rows)));
  const limits = el("ul");
  limits.append(el("li", `Ante at this table: ${money(r.limits.minimum, currency)} to ${money(r.limits.maximum, currency)}.`));
  if (r.limits_all.length > 1) {
    const all = r.limits_all.map((l) => `${money(l.minimum, currency)} to ${money(l.maximum, currency)}`).join("; ");
    limits.append(el("li", `This game's tables by limits: ${all}.`));
  }
  for (const words of r.limit_words) limits.append(el("li", words));
  limits.append(el("li", `${r.words.title}: ${r.raise_multiple} times the ante.`));
  limits.append(el("li", `Suggested buy-in: ${money(r.stakes.buy_in, currency)}. Chips: ${r.stakes.chips.map((c) => money(c, currency)).join(", ")}.`));
  const mine = el("li", null);
  mine.append(el("a", "Your personal bet limit", { href: "/limit" }), " caps your ante at every table of your account.");
  limits.append(mine);
  main.append(section("Limits", limits));
  main.append(section("Provably fair", r.fairness.map((words) => el("p", words))));
  if (r.exchanges) main.append(section("Exchanges", el("p", r.exchanges.rule)));
  if (r.progressive) {
    const p = r.progressive;
    const prizes = p.prizes.map((z) => [z.hand, z.amount ? money(z.amount, currency) : `${z.meter_percent}% of the meter`]);
    main.append(
      section(
        p.title,
        el("p", `Stake ${money(p.stake, currency)}; ${money(p.contribution, currency)} of each goes to the meter. ` +
          (p.paid_on_fold ? "Paid on your first five cards, even when you fold." : "Not paid after a fold.")),
        grid(null, ["Hand", "Prize"], prizes),
        el("p", null, { class: "more" }),
      ),
    );
    const more = main.querySelector(".more");
    const link = el("a", "The meter's history and every prize paid", { href: `/progressive/${encodeURIComponent(r.table)}` });
    more.append(link);
  }
  for (const b of r.side_bets) {
    main.append(
      section(
        b.title,
        el("p", `From ${money(b.minimum, currency)} to ${money(b.maximum, currency)}.`),
        grid(null, ["Hand", "Pays"], b.tiers.map((t) => [t.hand, t.pays])),
      ),
    );
  }
  const t = r.timing;
  const times = el("ul");
  if (t.bet_seconds) times.append(el("li", `Time to bet: ${seconds(t.bet_seconds)}.`));
  if (t.decision_seconds) times.append(el("li", `Time to decide: ${seconds(t.decision_seconds)}.`));
  if (t.idle_seconds) times.append(el("li", `An idle session ends after ${seconds(t.idle_seconds)}.`));
  if (t.open_round_seconds) times.append(el("li", `A dealt round waits for you up to ${seconds(t.open_round_seconds)}.`));
  if (!times.children.length) times.append(el("li", "No time limit to bet or decide."));
  main.append(section("Time limits", times));
  const session = el("ul");
  for (const words of r.session_rules) session.append(el("li", words));
  main.append(section("A lost connection and an idle session", session));
  main.append(section("Keys", grid(null, ["Key", "Does"], r.keys.map((k) => [k.keys, k.does]))));
}

/** The return to player and house edge under the best strategy, as the server's exact analysis
 * of this table's variant gives them (GET /api/returns/<table>, words/returns.py). */
async function renderReturns(table) {
  const answer = await api(`/api/returns/${encodeURIComponent(table)}`);
  const node = document.getElementById("returns");
  if (!answer.ok) {
    node.replaceChildren(el("p", answer.body.error ? answer.body.error.message : "The return could not be read."));
    return;
  }
  node.replaceChildren(...answer.body.lines.map((line) => el("p", line)), ...answer.body.notes.map((n) => el("p", n, { class: "note" })));
}

async function main() {
  const answer = await api(`/api/rules/${encodeURIComponent(lastPart())}`);
  const node = document.getElementById("rules");
  if (!answer.ok) {
    node.replaceChildren(el("p", answer.body.error ? answer.body.error.message : "No such table.", { role: "alert" }));
    return;
  }
  render(answer.body);
  renderReturns(answer.body.table);
}

main();
