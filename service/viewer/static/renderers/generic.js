// The renderer for a game that has none of its own yet: no board, the view as text. The
// page still steps, lists the events generically and charts from the projections, so a
// new game is watchable before its renderer exists.

import { h, svgEl } from "../js/dom.js";
import { t } from "/pages/static/js/i18n.js";

export default {
  title: null,

  setup(svg) {
    svg.setAttribute("viewBox", "0 0 600 80");
    svg.replaceChildren();
    this.note = svgEl("text", { x: 300, y: 44, "text-anchor": "middle", class: "chart-empty" }, svg);
    this.note.textContent = t("No board renderer for this game yet: its view is shown beside.");
  },

  render() {},

  panel(view) {
    const seats = (view.seats || []).map((s, i) => ({
      seat: s.seat ?? i, active: (view.active_seats || []).includes(s.seat ?? i),
      lines: [h("pre", { class: "raw" }, JSON.stringify(s, null, 1))],
    }));
    const rest = Object.fromEntries(Object.entries(view).filter(([k]) => k !== "seats"));
    return { seats, table: [h("pre", { class: "raw" }, JSON.stringify(rest, null, 1))] };
  },

  describe() { return null; },

  // Any game's turn and phase events, by the names the existing games use.
  marks(events) {
    const turns = [];
    const phases = [];
    for (const e of events) {
      if (/^Turn(Started|Began)$/.test(e.kind)) turns.push({ version: e.version, label: t("Turn {turn}", { turn: turns.length + 1 }) });
      else if (/^Phase(Began|Started)$/.test(e.kind)) phases.push({ version: e.version, label: String(e.data.phase ?? e.kind) });
    }
    return { turns, phases };
  },
};
