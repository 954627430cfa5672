// Money on every page, written and read here only. An amount is an integer of a currency's minor
// unit; a currency is `{code, minor_per_major}` as the server sends it (1, 10, 100 or 1000 minor
// units make one unit: yen has no decimals, dinars three). No float is ever made of an amount: the
// text is cut from the integer's digits and Intl lays that exact decimal out.

const formats = new Map(); // Intl formatters are costly to build: one per currency and style

const digitsOf = (currency) => String(currency.minor_per_major).length - 1;

/** The exact decimal of `minor` at `perMajor` a unit: 12500 at 1000 is "12.500", -5 at 100 "-0.05". */
function decimal(minor, perMajor) {
  const digits = String(perMajor).length - 1;
  const text = String(Math.abs(minor)).padStart(digits + 1, "0");
  const point = text.length - digits;
  return (minor < 0 ? "-" : "") + text.slice(0, point) + (digits ? `.${text.slice(point)}` : "");
}

/** Intl's options of each style: every decimal of the currency, or as few as the amount needs. */
function options(style, currency) {
  const all = { minimumFractionDigits: digitsOf(currency), maximumFractionDigits: digitsOf(currency) };
  if (style === "money") return { style: "currency", currency: currency.code, ...all };
  if (style === "amount") return all;
  return { maximumFractionDigits: digitsOf(currency) + 3, useGrouping: false }; // "input", "chip" (in thousands too)
}

function format(minor, currency, style, perMajor = currency.minor_per_major) {
  const key = `${style} ${currency.code} ${currency.minor_per_major}`;
  if (!formats.has(key)) formats.set(key, new Intl.NumberFormat("en", options(style, currency)));
  return formats.get(key).format(decimal(Number(minor), perMajor));
}

/** An amount with its currency: "$1,234.50", "¥1,250", "KWD 12.500". */
export function money(minor, currency) {
  return format(minor, currency, "money");
}

/** An amount without its currency, every decimal of it: "1,234.50", "1,250", "12.500". */
export function amount(minor, currency) {
  return format(minor, currency, "amount");
}

/** An amount as an input is filled with, read back by `parseMoney`: "1234.5", "1250", "12.5". */
export function inputText(minor, currency) {
  return format(minor, currency, "input");
}

/** A chip's short face: "0.5", "25", "1k", "2.5k" (thousands of units). */
export function chipText(minor, currency) {
  const thousand = 1000 * currency.minor_per_major;
  return minor >= thousand ? `${format(minor, currency, "chip", thousand)}k` : format(minor, currency, "chip");
}

const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/; // digits, commas only between thousands

/** The minor units a player's text says in the currency ("1,250", "12.5"), or null when it says
 * no amount of it: not a number, more decimals than the currency has, or past a safe integer. */
export function parseMoney(text, currency) {
  const found = AMOUNT.exec(String(text).trim());
  const digits = digitsOf(currency);
  if (!found || (found[2] || "").length > digits) return null;
  const units = Number(found[1].replaceAll(",", "")) * currency.minor_per_major;
  const minor = units + Number((found[2] || "").padEnd(digits, "0") || "0");
  return Number.isSafeInteger(minor) ? minor : null;
}

/** What `parseMoney` reads, in words: "an amount in KWD, such as 50 or 12.500". */
export function moneyHint(currency) {
  const m = currency.minor_per_major;
  const half = digitsOf(currency) ? ` or ${decimal(12 * m + m / 2, m)}` : ""; // every decimal shown
  return `an amount in ${currency.code}, such as ${inputText(50 * m, currency)}${half}`;
}

/** One amount of minor units read in each of several currencies (an account's wallet or limit,
 * which every table reads in its own): with its sign where they share one currency, bare where
 * they share the minor unit only, else as each reads it ("¥1,250 or KWD 1.250"). */
export function moneyInEach(minor, currencies) {
  const codes = new Map(currencies.map((c) => [`${c.code} ${c.minor_per_major}`, c]));
  const units = new Set(currencies.map((c) => c.minor_per_major));
  if (!codes.size) return String(minor); // no table to read it in
  if (codes.size === 1) return money(minor, currencies[0]);
  if (units.size === 1) return amount(minor, currencies[0]);
  return [...codes.values()].map((c) => money(minor, c)).join(" or ");
}
