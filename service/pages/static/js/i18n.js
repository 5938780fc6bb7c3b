// The pages' words in the reader's language. The server puts the chosen language's
// catalogue in the page (`<script id="i18n" type="application/json">`): English message
// ids -> translations. A message the catalogue lacks is shown in English, its id.
//
//   t("Loading the game…")                       a plain message
//   t("{who} bid {amount}", { who, amount })     with names filled in
//   tn("{n} share", "{n} shares", n, { who })     with a plural (n is passed as {n})
//   pt("TrackBuilt", "{who} built …", {...})     with a context: an event kind's sentence
//   tpn("SharesIssued", "… {n} share", "… {n} shares", n, {...})   both
//
// The language picker (`picker()`) keeps the choice in localStorage and in the
// `caboose_lang` cookie, which the server reads before Accept-Language.

const CONTEXT = "\u0004";
const STORE = "caboose.language";
const COOKIE = "caboose_lang";

function load() {
  try {
    const node = document.getElementById("i18n");
    if (node) return JSON.parse(node.textContent);
  } catch { /* no catalogue: English */ }
  return { tag: "en", messages: {}, languages: [] };
}

export const catalogue = load();
export const tag = catalogue.tag || "en";
const messages = catalogue.messages || {};
// Thai and Chinese have one plural form; English two.
const pluralIndex = (n) => (tag === "en" ? (n === 1 ? 0 : 1) : 0);

// Made when first needed: a new page's first Intl formatter loads the language's data,
// which a page in English (numbers as String gives them) never needs.
let numbers = null;
const formatted = (n) => (numbers ||= new Intl.NumberFormat(tag)).format(n);

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" && tag !== "en" ? formatted(value) : String(value ?? "");
  });
}

export function t(message, params = {}) {
  const found = messages[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

export function tn(singular, plural, n, params = {}) {
  const found = messages[singular];
  const forms = Array.isArray(found) ? found : null;
  const text = forms && forms[pluralIndex(n)] ? forms[pluralIndex(n)] : (n === 1 ? singular : plural);
  return fill(text, { ...params, n });
}

export function tpn(context, singular, plural, n, params = {}) {
  const found = messages[context + CONTEXT + singular];
  const forms = Array.isArray(found) ? found : null;
  const text = forms && forms[pluralIndex(n)] ? forms[pluralIndex(n)] : (n === 1 ? singular : plural);
  return fill(text, { ...params, n });
}

export function pt(context, message, params = {}) {
  const found = messages[context + CONTEXT + message];
  return fill(typeof found === "string" && found ? found : message, params);
}

// Right-to-left letters (Hebrew, Arabic and the scripts beside them) and direction controls.
const BIDI = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

// A name as a person typed it, set among the page's own words: one that holds right-to-left
// letters or direction controls is isolated (FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE),
// so it is reordered only within itself and an override it opens ends with it. Any other
// name cannot move the words around it and is left as it was typed.
export function isolated(name) {
  const text = String(name);
  return BIDI.test(text) ? `\u2068${text}\u2069` : text;
}

// A list joined as the language joins one ("A, B and C"; "ก, ข และ ค"; "甲、乙和丙").
export function list(items) {
  if (tag === "en") return items.join(", ");
  try {
    return new Intl.ListFormat(tag, { style: "long", type: "conjunction" }).format(items.map(String));
  } catch {
    return items.join(", ");
  }
}

export const number = (n) => (tag === "en" ? String(n) : formatted(n));

// A game's name: its own name (火車嘟嘟, Railway Boom), with the reader's name for it beside.
export function gameName(game, fallback) {
  return (catalogue.games || {})[game] || fallback;
}

export function timeOf(date, options) {
  return date.toLocaleTimeString(tag, options);
}

export function dateTimeOf(date) {
  return date.toLocaleString(tag);
}

// "3 min ago" in the reader's language.
export function ago(seconds) {
  const format = new Intl.RelativeTimeFormat(tag, { numeric: "auto", style: "short" });
  if (seconds < 60) return format.format(0, "second");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return format.format(-minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 48) return format.format(-hours, "hour");
  return format.format(-Math.round(hours / 24), "day");
}

export function choose(next) {
  try { localStorage.setItem(STORE, next); } catch { /* private mode: the cookie still holds it */ }
  document.cookie = `${COOKIE}=${encodeURIComponent(next)}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}

// A cookie lost (cleared, expired) while localStorage kept the choice: set it again.
function remembered() {
  let kept = null;
  try { kept = localStorage.getItem(STORE); } catch { /* none */ }
  const cookie = document.cookie.split("; ").find((c) => c.startsWith(`${COOKIE}=`));
  if (kept && !cookie) {
    document.cookie = `${COOKIE}=${encodeURIComponent(kept)}; path=/; max-age=31536000; samesite=lax`;
    // Once: a browser that refuses the cookie stays on the page as served, not in a loop.
    let reloaded = true;
    try { reloaded = sessionStorage.getItem(STORE) === "reloaded"; sessionStorage.setItem(STORE, "reloaded"); } catch { /* none */ }
    if (kept !== tag && !reloaded) location.reload();
  }
}

// The <select id="language"> every page has: the languages shipped, the current one chosen.
// The kept choice is looked at once the page has loaded and is idle: the first look at
// localStorage and at the cookies waits on the browser's own process (10 ms and more in a new
// tab), and a page's first board should not.
export function picker() {
  const later = () => (window.requestIdleCallback ? requestIdleCallback(remembered, { timeout: 1000 }) : setTimeout(remembered, 0));
  if (document.readyState === "complete") later(); else window.addEventListener("load", later, { once: true });
  const select = document.getElementById("language");
  if (!select) return;
  select.value = tag;
  select.addEventListener("change", () => choose(select.value));
}

picker();
