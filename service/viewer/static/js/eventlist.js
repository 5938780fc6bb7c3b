// The event list: every event in words with its number, time and actor; referee tools and
// takebacks tagged and coloured, events a rewind undid struck through, the current one kept
// in sight; and the same marks along the slider.

import { h } from "./dom.js";
import { category, describe, formatTime, isRewind } from "./wording.js";
import { t, tag } from "/pages/static/js/i18n.js";

const PLAIN = new Set(["move", "automatic"]);
// The tag a referee's or a takeback's row carries, in words.
const TAGS = {
  rewind: t("rewind"), takeback: t("takeback"), dispute: t("dispute"), ruling: t("ruling"), adjustment: t("adjustment"),
  fork: t("fork"), bot: t("bot"), outcome: t("outcome"),
};
// Disputes, rulings and takeback requests change nothing, so a rewind does not undo them.
const NOTES = new Set(["dispute", "ruling", "takeback", "fork"]);
// Rows drawn beyond each edge of the list's window, at least: so a step or a short scroll
// shows rows drawn already. The page's own scroll (half the window and a row, to bring the
// current row back to the middle) is covered too: the margin is half the window and a row
// when that is more (`margin`).
const MARGIN = 5;

export class EventList {
  constructor(list, sliderMarks, ctx) {
    this.list = list;
    this.sliderMarks = sliderMarks;
    this.ctx = ctx;
    this.events = []; // index = version - 1
    this.rows = [];
    this.current = null;
    this.scrollFrame = null;
    this.near = new Set(); // versions whose rows are drawn
    this.spacers = { top: {}, bottom: {} }; // the rows whose margins stand for the rows not drawn
    this.rowHeight = 0;
    this.drawFrame = null;
    // The list shrinks or grows when the panels above it change (a seat's tickets, the
    // opening of the page): the current row is brought back into sight then too.
    // The list's height and scroll position are kept as they change, so a step reads no
    // layout (a read would lay the page out twice in its frame).
    this.room = 0;
    this.seen = 0;
    new ResizeObserver(([entry]) => {
      this.room = entry.contentRect.height;
      this.rowHeight = 0;
      this.keepInSight();
      this.drawWindow();
    }).observe(list);
    // One scroll event may stand for the page's own scroll and the reader's in the same frame:
    // where the list is, is read back (in a frame callback, not in the step), and the window
    // moves only when that is not where the page put it.
    list.addEventListener("scroll", () => {
      cancelAnimationFrame(this.drawFrame);
      this.drawFrame = requestAnimationFrame(() => {
        const top = list.scrollTop;
        if (Math.abs(top - this.seen) < 1) return;
        this.seen = top;
        this.drawWindow();
      });
    }, { passive: true });
  }

  // Every row is --row high (the CSS): read once per size of the list, from a row drawn.
  height() {
    if (!this.rowHeight) {
      if (this.rows.length && !this.near.size) { // drawWindow takes it back if it is out of the window
        this.rows[0].li.classList.add("near");
        this.near.add(1);
      }
      const probe = this.rows[this.near.values().next().value - 1]?.li;
      this.rowHeight = probe ? probe.getBoundingClientRect().height || 22 : 22;
    }
    return this.rowHeight;
  }

  // Draw the rows in the list's window (and a margin); the rest are not drawn at all
  // (display: none), and the margins of the first and last rows drawn hold their place, so the
  // scroll range and every row's position are as if all were drawn. (Not the list's padding:
  // that would make the list's own box that tall.) Only rows entering or leaving the window
  // change, and the margins only when the window moves.
  drawWindow(scrollTop = this.seen) {
    if (!this.rows.length) return;
    const row = this.height();
    const margin = this.margin();
    const first = Math.max(1, Math.floor(scrollTop / row) + 1 - margin);
    const last = Math.max(first, Math.min(this.rows.length, Math.ceil((scrollTop + this.room) / row) + margin));
    for (const v of this.near) {
      if (v < first || v > last) {
        this.rows[v - 1]?.li.classList.remove("near");
        this.near.delete(v);
      }
    }
    for (let v = first; v <= last; v++) {
      if (!this.near.has(v)) {
        this.rows[v - 1].li.classList.add("near");
        this.near.add(v);
      }
    }
    this.spacer("top", first, first - 1);
    this.spacer("bottom", last, this.rows.length - last);
  }

  margin() { return Math.max(MARGIN, Math.ceil(this.room / this.height() / 2) + 1); }

  // The room of `count` rows not drawn, kept by the margin of the row drawn next to them.
  spacer(side, version, count) {
    const held = this.spacers[side];
    const li = this.rows[version - 1]?.li;
    if (held.li === li && held.count === count) return;
    const property = side === "top" ? "marginTop" : "marginBottom";
    if (held.li && held.li !== li) held.li.style[property] = "";
    if (li) li.style[property] = count ? `calc(${count} * var(--row))` : "";
    this.spacers[side] = { li, count };
  }

  text(version) { return this.rows[version - 1]?.text; }

  set(events) {
    this.events = events;
    const undone = undoneVersions(events);
    this.rows = events.map((e) => this.row(e, undone.get(e.version)));
    this.current = null;
    this.near = new Set();
    this.spacers = { top: {}, bottom: {} };
    this.list.replaceChildren(...this.rows.map((r) => r.li));
    this.drawWindow();
  }

  append(events) {
    if (events.some(isRewind)) {
      this.set([...this.events, ...events]); // earlier rows become "undone"
      return;
    }
    this.events.push(...events);
    const rows = events.map((e) => this.row(e, undefined));
    this.rows.push(...rows);
    this.list.append(...rows.map((r) => r.li));
    this.drawWindow();
  }

  row(e, undoneBy) {
    // The move or outcome as written at a table: the notation's words are English, so a page
    // in another language shows the event in its own words only.
    const line = tag === "en" ? this.ctx.notation?.[e.version] : null;
    const text = line ? `${line} — ${describe(e, this.ctx)}` : describe(e, this.ctx);
    const cat = category(e);
    const li = h("li", {
      class: `ev cat-${cat}${undoneBy ? " undone" : ""}`,
      dataset: { version: e.version, kind: e.kind },
      title: undoneBy ? t("{text} (undone by the rewind at event {version})", { text, version: undoneBy }) : text,
    },
    h("span", { class: "v" }, String(e.version)),
    h("time", { datetime: e.time, title: e.time }, formatTime(e.time)),
    h("span", { class: "actor" }, this.ctx.actorName(e.actor)),
    h("span", { class: "text" }, PLAIN.has(cat) ? null : h("span", { class: "tag" }, TAGS[cat] ?? cat),
      line ? h("code", { class: "notation" }, line) : null, line ? describe(e, this.ctx) : text));
    return { li, text };
  }

  highlight(version) {
    const row = this.rows[version - 1]?.li;
    if (row === this.current) return;
    this.current?.classList.remove("current");
    this.current = row || null;
    if (!row) return;
    row.classList.add("current");
    // Scrolled in the next frame, where the layout is done anyway: reading positions now
    // would lay the page out twice per step.
    this.keepInSight();
  }

  // Every row being one height, the current row's place is known without reading the
  // layout: the list is scrolled (in the next frame, with the step's other changes) only when
  // the row is out of its window, and the rows then in sight are drawn in that same frame.
  keepInSight() {
    const row = this.current;
    if (!row) return;
    const height = this.height();
    const top = (Number(row.dataset.version) - 1) * height;
    if (top >= this.seen && top + height <= this.seen + this.room) return;
    // Clamped at the list's end as the browser would: reading the position back after
    // setting it would lay the page out in the middle of the step's frame.
    const target = Math.max(0, Math.min(top - (this.room - height) / 2, this.rows.length * height - this.room));
    this.seen = target; // where the list is about to be: what is drawn from now on is drawn for there
    // The rows about to be in sight are drawn in the same frame; after a step's scroll they are
    // drawn already (the margin), and the margin around the new window is drawn a frame later,
    // off the step's own frame.
    const inSight = this.drawnBetween(target, target + this.room);
    if (!inSight) this.drawWindow(target);
    cancelAnimationFrame(this.scrollFrame); // a scroll not yet made is replaced, never dropped
    this.scrollFrame = requestAnimationFrame(() => {
      this.list.scrollTop = target;
      if (inSight) requestAnimationFrame(() => this.drawWindow()); // for where the list is then
    });
  }

  // Whether every row between two scroll positions is drawn.
  drawnBetween(top, bottom) {
    const row = this.height();
    for (let v = Math.floor(top / row) + 1; v <= Math.min(this.rows.length, Math.ceil(bottom / row)); v++) {
      if (!this.near.has(v)) return false;
    }
    return true;
  }

  drawSliderMarks(last) {
    const span = Math.max(1, last - 1);
    this.sliderMarks.replaceChildren(...this.events.filter((e) => !PLAIN.has(category(e))).map((e) =>
      // Titled by the row's tag in the reader's words, never by the event's kind (English).
      h("span", { class: `mark cat-${category(e)}`, title: `${e.version}: ${TAGS[category(e)] ?? category(e)}`,
        style: { left: `${((e.version - 1) / span) * 100}%` } })));
  }
}

// Events whose effect a later rewind undid: still in the log (nothing is erased).
function undoneVersions(events) {
  const out = new Map();
  for (const e of events) {
    if (!isRewind(e)) continue;
    for (let v = e.data.to_version + 1; v < e.version; v++) {
      if (!out.has(v) && !NOTES.has(category(events[v - 1]))) out.set(v, e.version);
    }
  }
  return out;
}
