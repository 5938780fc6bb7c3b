// Games and times in words.
import { ago as agoIn, catalogue, gameName, isolated, t, tag } from "./i18n.js";

const SMALL = new Set(["of", "to", "the", "and", "a", "in"]);

// "ticket_to_ride" -> "Ticket to Ride"
export function titleOf(game) {
  const own = gameName(game, null);
  if (own) return own;
  return game.split("_").map((w, i) => (i > 0 && SMALL.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
}

// The games' own names as their publishers write them ("Ticket to Ride" in "ตั๋วรถไฟ (Ticket
// to Ride)"): proper names on a page in any language.
const OWN = Object.values(catalogue.games || {}).map((title) => /\(([^()]+)\)$/.exec(title)?.[1]).filter(Boolean);

// `text` as nodes for an element, each game's own name in it marked as the proper name it is
// (translate="no"), as the replay page's heading marks it: not English left untranslated.
export function withNames(text) {
  const found = OWN.length ? String(text).split(new RegExp(`(${OWN.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`)) : [String(text)];
  return found.filter((part) => part !== "").map((part) => (OWN.includes(part) ? el("span", { text: part, attrs: { translate: "no" } }) : part));
}

export function seatName(summary, seat) {
  const found = summary.seats.find((s) => s.seat === Number(seat));
  if (!found) return t("seat {seat}", { seat: Number(seat) });
  return found.open ? t("open seat {seat}", { seat: found.seat }) : isolated(found.name);
}

// "3 min ago", "2 h ago", "4 days ago": how long a seat has been waiting to move.
export function ago(iso, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (tag !== "en") return agoIn(seconds);
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

export function el(tag, { text = null, cls = null, attrs = {} } = {}, children = []) {
  const node = document.createElement(tag);
  if (text !== null) node.textContent = text;
  if (cls) node.className = cls;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}
