// Where the viewer is in the game: one version (event number) at a time, moved by buttons,
// the slider, the turn and phase jumps, the keyboard and the `?at=N` deep link.

import { t } from "/pages/static/js/i18n.js";

// Work that belongs to where the viewer stops, not to each step, waits this long after the
// last step: a person tapping through a game presses every 100-150 ms, and work started
// between two presses is work the next press waits behind.
export const PAUSE_MS = 400;

export class Navigator extends EventTarget {
  constructor(last, version) {
    super();
    this.last = Math.max(1, last);
    this.version = clamp(version, 1, this.last);
    this.turns = []; // [{version, label}] sorted by version
    this.phases = [];
    this.direction = 1;
    this.urlTimer = null;
  }

  go(version) {
    const next = clamp(Math.round(version), 1, this.last);
    if (next === this.version) return;
    this.direction = Math.sign(next - this.version);
    this.version = next;
    this.dispatchEvent(new CustomEvent("change", { detail: { version: next } }));
    this.syncUrl();
  }

  step(delta) { this.go(this.version + delta); }
  first() { this.go(1); }
  end() { this.go(this.last); }

  // New events arrived: a viewer at the end follows the game, anyone else stays put.
  grow(last) {
    const following = this.version === this.last;
    this.last = Math.max(this.last, last);
    this.dispatchEvent(new CustomEvent("grow", { detail: { last: this.last } }));
    if (following) this.end();
  }

  setMarks(turns, phases) {
    this.turns = turns;
    this.phases = phases;
  }

  // The mark (turn or phase start) in force at `version`: the last one at or before it.
  markAt(list, version = this.version) {
    let found = null;
    for (const mark of list) {
      if (mark.version > version) break;
      found = mark;
    }
    return found;
  }

  jumpMark(list, direction) {
    const current = this.markAt(list);
    if (direction > 0) {
      const next = list.find((m) => m.version > this.version);
      if (next) this.go(next.version);
    } else if (current && current.version < this.version) {
      this.go(current.version);
    } else {
      const before = list.filter((m) => m.version < this.version);
      if (before.length) this.go(before[before.length - 1].version);
    }
  }

  bindKeys(target) {
    target.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const el = e.target;
      // Text fields and selects keep their own keys; the slider moves by itself and
      // reports through its input event.
      if (el && (el.tagName === "SELECT" || el.tagName === "TEXTAREA" ||
                 (el.tagName === "INPUT" && el.type !== "button"))) return;
      const moves = {
        ArrowRight: () => this.step(e.shiftKey ? 10 : 1),
        ArrowLeft: () => this.step(e.shiftKey ? -10 : -1),
        Home: () => this.first(),
        End: () => this.end(),
        PageDown: () => this.jumpMark(this.turns, 1),
        PageUp: () => this.jumpMark(this.turns, -1),
        "]": () => this.jumpMark(this.phases, 1),
        "[": () => this.jumpMark(this.phases, -1),
      };
      const move = moves[e.key];
      if (move) {
        e.preventDefault();
        move();
      }
    });
  }

  // Once the viewer pauses, the address bar holds a link to what is on screen (never the
  // token). Each rewrite has the browser update its history entry and draw a frame of its own.
  syncUrl() {
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      const url = new URL(window.location.href);
      url.searchParams.set("at", String(this.version));
      url.searchParams.delete("token");
      window.history.replaceState(null, "", url);
    }, PAUSE_MS);
  }
}

// After a rewind the game stands where it stood at `to_version`, so the turn (or phase) in
// force there is in force again from the rewind on: without this the selector would name the
// turn the rewind undid while the seats panel shows who is really to move.
export function withRewinds(marks, events, isRewind) {
  const out = [];
  let next = 0;
  for (const event of events) {
    if (!isRewind(event)) continue;
    while (next < marks.length && marks[next].version < event.version) out.push(marks[next++]);
    let again = null;
    for (const mark of out) if (mark.version <= event.data.to_version) again = mark;
    if (again) out.push({ ...again, version: event.version, label: t("{label} (again, after the rewind)", { label: again.label }) });
  }
  return out.concat(marks.slice(next));
}

export function clamp(value, low, high) {
  if (!Number.isFinite(value)) return high;
  return Math.min(high, Math.max(low, value));
}
