// Railway Boom: the hex board (terrain, power cost, normal and tourist cities with their
// tiles), each seat's stations and rails in its colour, the bid track, and each seat's
// resources, income levels, trains and VP by source. The interface every renderer follows
// is in README.md beside this file.

import { h, svgEl } from "../js/dom.js";

const SIZE = 22; // hex circumradius, in view-box units
const ROOT3 = Math.sqrt(3);
const MARGIN = 10;
const TERRAIN = { plain: "#e3ebc6", forest: "#9cc48e", mountain: "#b89b74", river: "#a9d1e6", sea: "#6fa3d6" };
const SOURCES = ["trains", "goals", "leftovers", "route", "income", "tourist", "cards"];
const RESOURCES = ["money", "materials", "technology", "coal"];
const TRACKS = [...RESOURCES, "vp"];

function centre(hex) {
  return { x: SIZE * ROOT3 * (hex.q + hex.r / 2), y: SIZE * 1.5 * hex.r };
}

function hexPoints(c) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = ((60 * i - 30) * Math.PI) / 180;
    out.push(`${(c.x + SIZE * Math.cos(a)).toFixed(1)},${(c.y + SIZE * Math.sin(a)).toFixed(1)}`);
  }
  return out.join(" ");
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export default {
  title: "Railway Boom",

  setup(svg, map, ctx) {
    this.map = map;
    this.key = null;
    const hexes = Object.values(map.hexes);
    const xs = hexes.map((x) => centre(x).x);
    const ys = hexes.map((x) => centre(x).y);
    this.dx = MARGIN + SIZE - Math.min(...xs);
    this.dy = MARGIN + SIZE - Math.min(...ys);
    const width = Math.max(...xs) + this.dx + SIZE + MARGIN;
    const height = Math.max(...ys) + this.dy + SIZE + MARGIN;
    svg.setAttribute("viewBox", `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`);
    svg.replaceChildren();
    const ground = svgEl("g", { class: "rb-hexes" }, svg);
    for (const [id, hex] of Object.entries(map.hexes)) {
      const c = this.at(id);
      const poly = svgEl("polygon", { points: hexPoints(c), fill: TERRAIN[hex.terrain] || "#eee", class: `hex ${hex.terrain}`, "data-hex": id }, ground);
      svgEl("title", {}, poly).textContent = `${id}: ${hex.terrain}${hex.city ? `, ${hex.city} city` : ""} (power ${hex.power})`;
      if (hex.city) {
        svgEl("circle", { cx: c.x, cy: c.y, r: 9, class: `rb-city ${hex.city}`, "data-hex": id, fill: hex.city === "tourist" ? "#ffe9a8" : "#ffffff", stroke: "#333" }, ground);
      } else if (hex.terrain !== "sea") {
        svgEl("text", { x: c.x, y: c.y - 8, "text-anchor": "middle", "font-size": 8, fill: "#555", class: "rb-power", "data-hex": id }, ground).textContent = hex.power;
      }
    }
    this.tileLayer = svgEl("g", { class: "rb-tiles" }, svg);
    this.pieceLayer = svgEl("g", { class: "rb-pieces" }, svg);
  },

  at(id) {
    const c = centre(this.map.hexes[id]);
    return { x: c.x + this.dx, y: c.y + this.dy };
  },

  render(view, ctx) {
    this.view = view;
    const key = JSON.stringify([view.stations, view.rails, view.city_tiles]);
    if (key === this.key) return;
    this.key = key;
    this.tileLayer.replaceChildren();
    this.pieceLayer.replaceChildren();
    for (const [id, tile] of Object.entries(view.city_tiles || {})) {
      const c = this.at(id);
      svgEl("text", { x: c.x, y: c.y + 3, "text-anchor": "middle", "font-size": 7, class: "rb-city-tile" }, this.tileLayer).textContent = tile;
    }
    for (const [id, seats] of Object.entries(view.rails || {})) {
      const c = this.at(id);
      seats.forEach((seat, i) => {
        const x = c.x - 8 + i * 5;
        svgEl("rect", { x, y: c.y + 6, width: 4, height: 11, fill: ctx.seatColour(seat), stroke: "#000", "stroke-width": 0.5, class: "rb-rail", "data-rail": id, "data-seat": seat }, this.pieceLayer);
      });
    }
    for (const [id, seat] of Object.entries(view.stations || {})) {
      const c = this.at(id);
      svgEl("rect", { x: c.x - 6, y: c.y - 16, width: 12, height: 9, fill: ctx.seatColour(seat), stroke: "#000", class: "rb-station", "data-station": id, "data-seat": seat }, this.pieceLayer);
    }
  },

  panel(view, ctx) {
    const waiting = view.waiting_for || [];
    const seats = (view.seats || []).map((s) => ({
      seat: s.seat,
      active: waiting.includes(s.seat),
      lines: [
        h("div", { class: "figures" },
          `${s.vp} VP · ` + RESOURCES.map((r) => `${r} ${s.resources[r]}`).join(" · ")),
        h("div", {}, "income " + TRACKS.map((t) => `${t} ${s.income[t]}`).join(" · ")),
        h("div", {}, `trains ${(s.trains || []).join(", ")} · ${plural(s.rails, "rail")} · ${plural(s.stations, "station")} left` +
          ((s.developments || []).length ? ` · cards ${s.developments.join(", ")}` : "")),
        ...(view.phase === "operation" ? [h("div", {}, s.submitted ? "plan sealed" : "still to submit")] : []),
        ...((view.pending || []).filter((p) => p.seat === s.seat && p.effect === "pay")
          .map((p) => h("div", {}, `to choose how to pay ${p.amount} for a "?" bid`))),
        ...(s.plan ? [h("div", { "data-private": "" }, `your plan: ${JSON.stringify(s.plan.runs)}`)] : []),
      ],
    }));
    const discs = (view.order || []).map((seat) => {
      const bid = view.bids?.[seat];
      return `${ctx.seatName(seat)}${bid ? ` @${bid}` : ""}${(view.locked || []).includes(seat) ? " (locked)" : ""}`;
    });
    const table = [
      h("div", {}, `Round ${view.round} of 4 · ${view.phase}${view.step ? ` (${view.step})` : ""}` +
        (view.bid_resource ? ` · bid with ${view.bid_resource === "any" ? "any resource" : view.bid_resource}` : "")),
      h("div", {}, `Bid track, left to right: ${discs.join(" · ")}`),
      h("div", {}, `Goals ${(view.goals || []).join(", ")} · routes ${(view.routes || []).join(", ")}`),
    ];
    if ((view.offer || []).length) table.push(h("div", {}, `On offer: ${view.offer.join(", ")}`));
    if ((view.rows || []).some((r) => r.length)) table.push(h("div", {}, `Rows: ${view.rows.map((r) => r.join("/") || "—").join(" · ")}`));
    if (view.phase === "operation" && waiting.length) {
      table.push(h("div", {}, `Still to submit: ${waiting.map(ctx.seatName).join(", ")}`));
    }
    if ((view.winners || []).length) table.push(h("div", { class: "winners" }, `Winner: ${view.winners.map(ctx.seatName).join(", ")}`));
    return { seats, table };
  },

  vpBySource(view) {
    const seats = {};
    for (const s of view.seats || []) {
      const out = Object.fromEntries(SOURCES.map((k) => [k, 0]));
      for (const [key, vp] of Object.entries(s.scored || {})) out[this.sourceOf(key)] += vp;
      seats[s.seat] = out;
    }
    return { sources: SOURCES, seats };
  },

  sourceOf(key) {
    if (key === "trains" || key.startsWith("tile:")) return "trains";
    if (["goals", "leftovers", "route", "income"].includes(key)) return key;
    if (key.startsWith("icon:")) return "income";
    if (key.startsWith("tourist:")) return "tourist";
    return "cards";
  },

  describe(event, ctx) {
    const d = event.data || {};
    const who = d.seat !== undefined ? ctx.seatName(d.seat) : "";
    switch (event.kind) {
      case "PhaseStarted": return `Round ${d.round}: ${d.phase}` + (d.resource ? ` (bid with ${d.resource})` : "");
      case "BidRaised": return `${who} bid ${d.space} ${d.resource}`;
      case "BidLocked": return `${who} locked in at ${d.space}`;
      case "BidPaid": return `${who} (rank ${d.rank}) paid ${JSON.stringify(d.paid)}`;
      case "PaymentAwaited": return `${who} (rank ${d.rank}) chooses how to pay ${d.amount} for a "?" bid`;
      case "IncomeRaised": return `${who} raised ${d.track} income to level ${d.level} (+${d.plus} each income phase)`;
      case "LocomotiveTaken": return `${who} took locomotive ${d.card}`;
      case "CarBought": return `${who} bought car ${d.card} for ${d.price} materials`;
      case "StationBuilt": return `${who} built a station at ${d.city}`;
      case "RailLaid": return `${who} laid a rail on ${d.hex}` + (d.free ? " (free)" : ` (power ${d.power}, money ${d.money})`);
      case "RowChosen": return `${who} chose row ${d.row} and took ${d.card}`;
      case "DevelopmentBought": return `${who} bought ${d.card} for ${d.price} technology`;
      case "SubmissionSealed": return `${who} sealed an operation plan`;
      case "SubmissionsRevealed": return "Every operation plan is in: revealed";
      case "TrainFormed": return `${who} ran ${[d.locomotive, ...(d.cars || [])].join("+")}`;
      case "GoalReserved": return `${who} reserved ×${d.multiplier} on ${d.goal}`;
      case "GoalScored": return `${who} scored ${d.vp} VP on ${d.goal} (${d.count} × ${d.multiplier})`;
      case "RouteScored": return `${who} scored ${d.vp} VP on route ${d.route ?? "none"}`;
      case "GameEnded":
        return `Game over: ${Object.entries(d.scores || {}).map(([s, v]) => `${ctx.seatName(Number(s))} ${v}`).join(", ")}`;
      default: return null;
    }
  },

  marks(events) {
    const turns = [];
    const phases = [{ version: 1, label: "Setup" }];
    for (const e of events) {
      if (e.kind === "PhaseStarted") {
        if (e.data.phase === "trains") turns.push({ version: e.version, label: `Round ${e.data.round}` });
        phases.push({ version: e.version, label: `Round ${e.data.round} · ${e.data.phase}` });
      } else if (e.kind === "GameEnded") phases.push({ version: e.version, label: "Game over" });
    }
    return { turns, phases };
  },

  sources: [...SOURCES, "adjustment"],

  // The play page: a station or a rail is offered on its hex, drawn as it would stand there.
  moveTarget(move) {
    if (move.type === "place_station") return move.city;
    if (move.type === "lay_rail") return move.hex;
    return null;
  },

  moveLabel(move) {
    if (move.type === "place_station") return `Build a station at ${this.placeName(move.city)}`;
    if (move.type === "lay_rail") return `Lay a rail on ${this.placeName(move.hex)}`;
    return null;
  },

  offerLabel(move) {
    if (move.type === "place_station") return "a station";
    if (move.type === "lay_rail") return `a rail (power ${this.map?.hexes?.[move.hex]?.power ?? "?"})`;
    return null;
  },

  placeName(id) {
    const hex = this.map?.hexes?.[id];
    if (!hex) return id;
    return `${id} (${hex.terrain}${hex.city ? `, ${hex.city} city` : ""})`;
  },

  placeBox(id) {
    if (!this.map?.hexes?.[id]) return null;
    const c = this.at(id);
    return { x: c.x - SIZE, y: c.y - SIZE, width: 2 * SIZE, height: 2 * SIZE };
  },

  drawMove(move, layer, ctx) {
    const id = this.moveTarget(move);
    if (!this.map?.hexes?.[id]) return false;
    const c = this.at(id);
    svgEl("polygon", { points: hexPoints(c), class: "offer-mark" }, layer);
    const colour = ctx.seatColour(move.seat ?? 0);
    if (move.type === "place_station") {
      svgEl("rect", { x: c.x - 6, y: c.y - 16, width: 12, height: 9, fill: colour, stroke: "#000", class: "rb-station" }, layer);
    } else {
      const already = (this.view?.rails?.[id] || []).length;
      svgEl("rect", { x: c.x - 8 + already * 5, y: c.y + 6, width: 4, height: 11, fill: colour, stroke: "#000", "stroke-width": 0.5, class: "rb-rail" }, layer);
    }
    return true;
  },
};
