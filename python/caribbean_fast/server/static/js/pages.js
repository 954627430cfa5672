// What the information pages (rules, history, progressive, limit) share: small DOM builders and
// the bar's back link (their amounts are money.js's). No rule of a game is written here: every
// word and number comes from the server (GET /api/rules/<table> and the other endpoints).

/** An element with text (or children). */
export function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (Array.isArray(text)) node.append(...text);
  else if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** A table with a header row and rows of cells (text). */
export function grid(caption, header, rows) {
  const table = el("table", null, { class: "info-table" });
  if (caption) table.append(el("caption", caption));
  const head = el("tr");
  for (const h of header) head.append(el("th", h, { scope: "col" }));
  table.append(el("thead", [head]));
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    row.forEach((cell, k) => tr.append(el(k === 0 ? "th" : "td", cell, k === 0 ? { scope: "row" } : {})));
    body.append(tr);
  }
  table.append(body);
  return table;
}

export function section(title, ...children) {
  const s = el("section", null, { class: "info-section" });
  s.append(el("h2", title), ...children);
  return s;
}

/** The last part of the path: /rules/<table> gives the table. */
export function lastPart() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
}

export function seconds(s) {
  if (s === 86400) return "a day";
  if (s >= 3600 && s % 3600 === 0) return `${s / 3600} hour${s === 3600 ? "" : "s"}`;
  if (s >= 60 && s % 60 === 0) return `${s / 60} minute${s === 60 ? "" : "s"}`;
  return `${s} seconds`;
}
