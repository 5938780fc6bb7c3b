// The event list: every event in words with its number, time and actor; referee tools and
// takebacks tagged and coloured, events a rewind undid struck through, the current one kept
// in sight; and the same marks along the slider.

import { h } from "./dom.js";
import { category, describe, formatTime, isRewind } from "./wording.js";

const PLAIN = new Set(["move", "automatic"]);
// Disputes, rulings and takeback requests change nothing, so a rewind does not undo them.
const NOTES = new Set(["dispute", "ruling", "takeback", "fork"]);
// Rows either side of the current one always drawn: more than a list's height of rows, and
// the browser's own margin for the skipped ones.
const NEAR = 40;

export class EventList {
  constructor(list, sliderMarks, ctx) {
    this.list = list;
    this.sliderMarks = sliderMarks;
    this.ctx = ctx;
    this.events = []; // index = version - 1
    this.rows = [];
    this.current = null;
    this.scrollFrame = null;
    // The list shrinks or grows when the panels above it change (a seat's tickets, the
    // opening of the page): the current row is brought back into sight then too.
    new ResizeObserver(() => this.keepInSight()).observe(list);
  }

  text(version) { return this.rows[version - 1]?.text; }

  set(events) {
    this.events = events;
    const undone = undoneVersions(events);
    this.rows = events.map((e) => this.row(e, undone.get(e.version)));
    this.current = null;
    this.near = null;
    this.list.replaceChildren(...this.rows.map((r) => r.li));
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
  }

  row(e, undoneBy) {
    const text = describe(e, this.ctx);
    const cat = category(e);
    const li = h("li", {
      class: `ev cat-${cat}${undoneBy ? " undone" : ""}`,
      dataset: { version: e.version, kind: e.kind },
      title: undoneBy ? `${text} (undone by the rewind at event ${undoneBy})` : text,
    },
    h("span", { class: "v" }, String(e.version)),
    h("time", { datetime: e.time, title: e.time }, formatTime(e.time)),
    h("span", { class: "actor" }, this.ctx.actorName(e.actor)),
    h("span", { class: "text" }, PLAIN.has(cat) ? null : h("span", { class: "tag" }, cat), text));
    return { li, text };
  }

  highlight(version) {
    const row = this.rows[version - 1]?.li;
    if (row === this.current) return;
    this.current?.classList.remove("current");
    this.current = row || null;
    this.drawNear(row ? version : null);
    if (!row) return;
    row.classList.add("current");
    // Scrolled in the next frame, where the layout is done anyway: reading positions now
    // would lay the page out twice per step.
    this.keepInSight();
  }

  // Only the rows entering or leaving the window change class: a step touches two rows.
  drawNear(version) {
    const want = new Set();
    if (version !== null) {
      for (let v = Math.max(1, version - NEAR); v <= Math.min(this.rows.length, version + NEAR); v++) want.add(v);
    }
    for (const v of this.near || []) if (!want.has(v)) this.rows[v - 1]?.li.classList.remove("near");
    for (const v of want) if (!this.near?.has(v)) this.rows[v - 1].li.classList.add("near");
    this.near = want;
  }

  keepInSight() {
    const row = this.current;
    if (!row) return;
    cancelAnimationFrame(this.scrollFrame);
    const look = (passes) => {
      const list = this.list;
      const top = row.offsetTop; // the list is the rows' offset parent (position: relative)
      if (top < list.scrollTop || top + row.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top - (list.clientHeight - row.offsetHeight) / 2;
        // Skipped rows brought near the screen by the scroll may take their real height and
        // move the row: look again in the next frame.
        if (passes > 1) this.scrollFrame = requestAnimationFrame(() => look(passes - 1));
      }
    };
    this.scrollFrame = requestAnimationFrame(() => look(3));
  }

  drawSliderMarks(last) {
    const span = Math.max(1, last - 1);
    this.sliderMarks.replaceChildren(...this.events.filter((e) => !PLAIN.has(category(e))).map((e) =>
      h("span", { class: `mark cat-${category(e)}`, title: `${e.version}: ${e.kind}`,
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
