// The lobby: log in (or play as a guest), then every table of the server with its game, limits,
// free seats and progressive meter, each a link to /play/<game>.

import { askLogin, logOut, whoAmI } from "./auth.js";
import { api } from "./net.js";

function money(amount, code) {
  return new Intl.NumberFormat("en", { style: "currency", currency: code }).format(amount / 100);
}

function showWho(me) {
  const who = document.getElementById("who");
  who.replaceChildren();
  if (!me) return;
  who.append(`${me.account}${me.guest ? " (guest)" : ""} · wallet ${money(me.wallet, "USD").replace("$", "")} `);
  const out = document.createElement("button");
  out.className = "btn small";
  out.textContent = "Log out";
  out.addEventListener("click", logOut);
  who.append(out);
}

function gameCard(entry) {
  const card = document.createElement("article");
  card.className = "game-card";
  const limits = `${money(entry.limits.minimum, entry.currency)} to ${money(entry.limits.maximum, entry.currency)}`;
  card.innerHTML = `
    <h2></h2>
    <p class="game-meta"></p>
    <p class="game-meter"></p>
    <a class="btn primary" href="/play/${encodeURIComponent(entry.game)}">Play</a>`;
  card.querySelector("h2").textContent = entry.title;
  const seats = `${entry.seats} seat${entry.seats > 1 ? "s" : ""}`;
  // A table another process serves shows its seats once that process has published them.
  const free = entry.free === undefined ? seats : `${entry.free} of ${seats} free`;
  const stopped = entry.available === false ? " · stopped: being restored from its record" : "";
  card.querySelector(".game-meta").textContent = `Table ${entry.table} · ante ${limits} · ${free}${stopped}`;
  card.querySelector(".game-meter").textContent = entry.meter ? `Progressive meter ${money(entry.meter, entry.currency)}` : "";
  card.querySelector("a").setAttribute("aria-label", `Play ${entry.title}`);
  return card;
}

async function main() {
  let me = await whoAmI();
  if (!me) me = await askLogin(document.getElementById("auth"));
  showWho(me);
  const lobby = await api("/api/lobby");
  const seen = new Set();
  const games = document.getElementById("games");
  for (const entry of lobby.body.tables) {
    if (seen.has(entry.game)) continue;
    seen.add(entry.game);
    games.append(gameCard(entry));
  }
}

main();
