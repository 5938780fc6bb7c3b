// Age of Steam (Rust Belt): the hex map with terrain, cities in their goods colour, towns,
// track tiles drawn from their segments (exits already turned by the tile's rotation) in
// the owner's colour, goods cubes on the cities, and each seat's cash, income, shares
// and engine. The interface every renderer follows is in README.md beside this file.

import { KeyedNodes, h, svgEl } from "/replay/static/js/dom.js";
import { list, pt, t, tn, tpn } from "/pages/static/js/i18n.js";
import { compass } from "/replay/static/js/names.js";

// The words the game's records hold as values: phases, actions, goods colours, tiles.
const WORDS = {
  setup: t("setup"), shares: t("shares"), auction: t("auction"), actions: t("actions"), build: t("build"), move: t("move"),
  production: t("production"), between: t("between turns"), over: t("over"),
  income: t("income"), expenses: t("expenses"), income_reduction: t("income reduction"), goods_growth: t("goods growth"),
  first_move: t("first move"), first_build: t("first build"), engineer: t("engineer"), locomotive: t("locomotive"),
  urbanization: t("urbanization"), turn_order: t("turn order"),
  red: t("red"), blue: t("blue"), purple: t("purple"), yellow: t("yellow"), black: t("black"),
  light: t("light"), dark: t("dark"),
  simple: t("simple"), crossing: t("crossing"), coexisting: t("coexisting"), town: t("town"),
  plain: t("plain"), river: t("river"), mountain: t("mountain"), lake: t("lake"), city: t("city"),
  // The tile types, as the rules name them (tiles.py).
  straight: t("straight"), gentle_curve: t("gentle curve"), sharp_curve: t("sharp curve"), x_crossing: t("X crossing"),
  bow_and_arrow: t("bow and arrow"), crossed_gentle_curves: t("crossed gentle curves"), twin_gentle_curves: t("twin gentle curves"),
  gentle_sharp_left: t("gentle and sharp curve, left"), gentle_sharp_right: t("gentle and sharp curve, right"),
  straight_sharp: t("straight and sharp curve"), town_1: t("town, one exit"), town_3_spread: t("town, three exits spread"),
  town_3_left_leaner: t("town, three exits leaning left"), town_3_right_leaner: t("town, three exits leaning right"),
  town_3_adjacent: t("town, three exits side by side"),
  first_half: t("first half"), second_half: t("second half"),
};
const word = (value) => WORDS[value] ?? String(value ?? "").replace(/_/g, " ");

const SIZE = 26; // hex circumradius, in view-box units
const ROOT3 = Math.sqrt(3);
const MARGIN = 8;
const TERRAIN = { plain: "#dfe8c4", river: "#bcd9c8", mountain: "#b89b74", lake: "#7fb2dd", city: "#ffffff" };
const GOODS = { red: "#d8342c", blue: "#2f6fce", purple: "#8e44ad", yellow: "#f0c419", black: "#222222" };
const UNOWNED = "#6b6b6b";
// Edges clockwise from the north, as the rules number them.
const EDGE_WORDS = ["north", "north-east", "south-east", "south", "south-west", "north-west"];

export function hexCentre(id) {
  const [col, row] = id.split(",").map(Number);
  return {
    x: MARGIN + SIZE + col * 1.5 * SIZE,
    y: MARGIN + (ROOT3 / 2) * SIZE + row * ROOT3 * SIZE + (col % 2) * (ROOT3 / 2) * SIZE,
  };
}

// Edges clockwise from the north (N, NE, SE, S, SW, NW), as the rules number them.
function edgeMidpoint(c, edge) {
  const angle = ((-90 + 60 * edge) * Math.PI) / 180;
  const d = (ROOT3 / 2) * SIZE;
  return { x: c.x + d * Math.cos(angle), y: c.y + d * Math.sin(angle) };
}

function hexPoints(c) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = (60 * i * Math.PI) / 180;
    out.push(`${(c.x + SIZE * Math.cos(a)).toFixed(1)},${(c.y + SIZE * Math.sin(a)).toFixed(1)}`);
  }
  return out.join(" ");
}

const money = (n) => (n < 0 ? `-$${-n}` : `$${n}`);

// The hex beyond each edge (odd-q offset: odd columns sit half a hex lower), as the rules' map.
const EVEN = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 0], [-1, -1]];
const ODD = [[0, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0]];
function beyond(id, edge) {
  const [col, row] = id.split(",").map(Number);
  const [dc, dr] = (col % 2 ? ODD : EVEN)[edge];
  return `${col + dc},${row + dr}`;
}

export default {
  title: "Age of Steam",

  setup(svg, map, ctx) {
    this.map = map;
    this.named = ctx.named;
    this.tiles = new KeyedNodes(); // by hex
    this.places = new KeyedNodes(); // a place's label, a city's cubes
    const hexes = Object.keys(map.hexes);
    let width = 0;
    let height = 0;
    for (const id of hexes) {
      const c = hexCentre(id);
      width = Math.max(width, c.x + SIZE + MARGIN);
      height = Math.max(height, c.y + SIZE + MARGIN);
    }
    svg.setAttribute("viewBox", `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`);
    svg.replaceChildren();
    const ground = svgEl("g", { class: "aos-hexes" }, svg);
    for (const [id, hex] of Object.entries(map.hexes)) {
      const c = hexCentre(id);
      const city = map.cities[id];
      const fill = city ? GOODS[city.colour] || TERRAIN.city : TERRAIN[hex.terrain] || "#eee";
      const poly = svgEl("polygon", { points: hexPoints(c), fill, class: `hex ${hex.terrain}`, "data-hex": id }, ground);
      svgEl("title", {}, poly).textContent = city || hex.town ? `${this.placeName(id)} (${id})` : `${word(hex.terrain)} (${id})`;
      if (hex.terrain === "mountain") {
        svgEl("path", { d: `M${c.x - 9},${c.y + 6} L${c.x - 2},${c.y - 6} L${c.x + 5},${c.y + 6}`, class: "mountain-mark" }, ground);
      }
      if (hex.terrain === "river") {
        svgEl("path", { d: `M${c.x - 12},${c.y + 2} q6,-6 12,0 t12,0`, class: "river-mark" }, ground);
      }
    }
    this.trackLayer = svgEl("g", { class: "aos-track" }, svg);
    this.placeLayer = svgEl("g", { class: "aos-places" }, svg);
    this.cubeLayer = svgEl("g", { class: "aos-cubes" }, svg);
  },

  render(view, ctx) {
    this.view = view;
    // Track: redraw only the hexes whose tile, rotation or owners changed.
    this.tiles.update(new Map((view.board || []).map((tile) => [tile.hex,
      [[tile.tile, tile.rotation, tile.town_disc, tile.track], () => this.drawTile(tile, ctx, null), this.trackLayer]])));
    // Cities, towns and cubes: each place redrawn only when it changed (a delivery moves one
    // cube; redrawing every label and cube made the browser lay out and paint the whole map's
    // text again, and such steps were painted a frame late).
    this.drawPlaces(view);
    const latest = ctx.event?.kind === "TrackBuilt" ? ctx.event.data.hex : null;
    for (const [id, node] of this.tiles.nodes()) node.classList.toggle("latest", id === latest);
  },

  drawPlaces(view) {
    const wanted = new Map(); // 'place <hex>' or 'cubes <hex>' -> [what it is drawn from, how, layer]
    for (const [id, city] of Object.entries(view.cities || {})) {
      wanted.set(`place ${id}`, [[city.name, city.new_city, city.colour], () => this.drawCity(id, city), this.placeLayer]);
      wanted.set(`cubes ${id}`, [city.goods || [], () => this.drawCubes(id, city.goods || []), this.cubeLayer]);
    }
    for (const [id, name] of Object.entries(view.towns || {})) {
      const laid = this.tiles.has(id);
      wanted.set(`place ${id}`, [[name, laid], () => this.drawTown(id, name, laid), this.placeLayer]);
    }
    this.places.update(wanted);
  },

  drawCity(id, city) {
    const c = hexCentre(id);
    const g = svgEl("g", { class: "place", "data-place": id });
    if (city.new_city) {
      svgEl("polygon", { points: hexPoints(c), fill: GOODS[city.colour] || "#fff", class: "new-city", "data-new-city": city.new_city }, g);
    }
    svgEl("text", { x: c.x, y: c.y - 9, "text-anchor": "middle", class: "city-name" }, g).textContent = city.new_city ? `${city.new_city}` : this.localName(city.name);
    return g;
  },

  drawCubes(id, goods) {
    const c = hexCentre(id);
    const g = svgEl("g", { class: "cubes", "data-cubes-of": id });
    goods.forEach((cube, i) => {
      const x = c.x - 13 + (i % 4) * 7;
      const y = c.y - 2 + Math.floor(i / 4) * 7;
      svgEl("rect", { x, y, width: 6, height: 6, fill: GOODS[cube] || cube, class: "cube", "data-cube": cube, "data-hex": id }, g);
    });
    return g;
  },

  drawTown(id, name, laid) {
    const c = hexCentre(id);
    const g = svgEl("g", { class: "place", "data-place": id });
    if (!laid) svgEl("circle", { cx: c.x, cy: c.y, r: 5, class: "town" }, g);
    svgEl("text", { x: c.x, y: c.y + 17, "text-anchor": "middle", class: "town-name" }, g).textContent = this.localName(name);
    return g;
  },

  drawTile(tile, ctx, layer) {
    const c = hexCentre(tile.hex);
    const g = svgEl("g", { class: "tile", "data-tile-hex": tile.hex, "data-tile": tile.tile, "data-rotation": tile.rotation }, layer);
    svgEl("title", {}, g).textContent = t("{place}: {tile}, {track}", { place: this.placeName(tile.hex), tile: word(tile.tile), track: this.trackWords(tile.track) });
    for (const segment of tile.track) {
      const colour = segment.owner === null ? UNOWNED : ctx.seatColour(segment.owner);
      const ends = segment.exits.map((e) => edgeMidpoint(c, e));
      let d;
      if (ends.length === 2) {
        // A quadratic curve through the centre: straight for opposite edges, a bend for the rest.
        d = `M${ends[0].x.toFixed(1)},${ends[0].y.toFixed(1)} Q${c.x.toFixed(1)},${c.y.toFixed(1)} ${ends[1].x.toFixed(1)},${ends[1].y.toFixed(1)}`;
      } else if (ends.length === 1) {
        d = `M${ends[0].x.toFixed(1)},${ends[0].y.toFixed(1)} L${c.x.toFixed(1)},${c.y.toFixed(1)}`;
      } else continue;
      svgEl("path", { d, class: "rail-bed" }, g);
      svgEl("path", { d, stroke: colour, class: `rail${segment.owner === null ? " unowned" : ""}`, "data-owner": segment.owner ?? "none" }, g);
    }
    if (tile.track.some((s) => s.town)) {
      svgEl("circle", { cx: c.x, cy: c.y, r: 6, class: tile.town_disc ? "town town-disc" : "town" }, g);
    }
    return g;
  },

  // Each seat's line is built only when its key (what it is drawn from) changed, the table's
  // likewise: most steps change one seat, or none.
  panel(view, ctx) {
    const seats = (view.seats || []).map((s) => ({
      seat: s.seat,
      active: (view.active_seats || []).includes(s.seat),
      key: JSON.stringify(s),
      lines: () => [
        h("div", { class: "figures" },
          t("{vp} VP · cash {cash} · income {income} · {shares} shares · engine {engine}",
            { vp: s.vp?.total ?? 0, cash: money(s.cash), income: money(s.income), shares: s.shares, engine: s.locomotive }) +
          (s.action ? ` · ${word(s.action)}` : "") + (s.eliminated ? t(" · eliminated") : "")),
      ],
    }));
    const table = () => {
      const bag = Object.entries(view.bag || {}).map(([c, n]) => `${word(c)} ${n}`).join(", ") || t("empty");
      const nodes = [
        h("div", {}, t("Turn {turn} of {last} · {phase}", { turn: view.turn, last: view.last_turn, phase: word(view.phase) }) +
          (view.order?.length ? t(" · order {order}", { order: list(view.order.map(ctx.seatName)) }) : "")),
        h("div", {}, t("Goods bag: {bag} · town discs {discs}", { bag, discs: view.town_discs })),
      ];
      if (view.auction) {
        nodes.push(h("div", {}, t("Auction: high bid {bid}", { bid: money(view.auction.high_bid || 0) }) +
          (view.auction.high_bidder !== null && view.auction.high_bidder !== undefined
            ? t(" by {seat}", { seat: ctx.seatName(view.auction.high_bidder) }) : "")));
      }
      if (view.build) {
        nodes.push(h("div", {}, t("{seat} builds: {placed} of {limit}",
          { seat: ctx.seatName(view.build.seat), placed: view.build.placed.length, limit: view.build.limit })));
      }
      if (view.winners) {
        nodes.push(h("div", { class: "winners" },
          view.winners.length ? t("Winner: {winners}", { winners: list(view.winners.map(ctx.seatName)) }) : t("No winner")));
      }
      return nodes;
    };
    const tableKey = JSON.stringify([view.turn, view.last_turn, view.phase, view.order, view.bag, view.town_discs,
      view.auction && [view.auction.high_bid, view.auction.high_bidder], view.build && [view.build.seat, view.build.placed.length, view.build.limit],
      view.winners]);
    return { seats, table, tableKey };
  },

  vpBySource(view) {
    const seats = {};
    for (const s of view.seats || []) {
      const { total, ...sources } = s.vp || {};
      seats[s.seat] = sources;
    }
    return { sources: ["income", "shares", "track"], seats };
  },

  describe(event, ctx) {
    const d = event.data || {};
    const who = d.seat !== undefined ? ctx.seatName(d.seat) : "";
    const place = (hex) => this.placeName(hex);
    const cube = word(d.cube);
    switch (event.kind) {
      case "OrderDieRolled": return pt("OrderDieRolled", "{who} rolled {value} for the starting order", { who, value: d.value });
      case "PlayerOrderSet": return pt("PlayerOrderSet", "Player order: {order}", { order: list((d.order || []).map(ctx.seatName)) });
      case "StartingCapitalTaken": return pt("StartingCapitalTaken", "{who} issued {shares} shares for {cash}", { who, shares: d.shares, cash: money(d.cash) });
      case "DisplayCubeDrawn": return pt("DisplayCubeDrawn", "A {cube} cube was drawn to the goods display ({column})", { cube, column: d.column });
      case "CityCubeDrawn": return pt("CityCubeDrawn", "A {cube} cube was drawn to {city}", { cube, city: this.localName(d.city) });
      case "TurnBegan": return pt("TurnBegan", "Turn {turn} of {last} begins", { turn: d.turn, last: d.last_turn });
      case "PhaseBegan": return pt("PhaseBegan", "Phase: {phase}", { phase: word(d.phase) });
      case "SharesIssued":
        return tpn("SharesIssued", "{who} issued {n} share ({total} in all)", "{who} issued {n} shares ({total} in all)", d.count, { who, total: d.total });
      case "BidPlaced": return pt("BidPlaced", "{who} bid {amount}", { who, amount: money(d.amount) });
      case "AuctionDropped": return pt("AuctionDropped", "{who} dropped out of the auction at {bid} (place {place})", { who, bid: money(d.bid), place: d.place });
      case "TurnOrderPassUsed": return pt("TurnOrderPassUsed", "{who} used the turn-order pass", { who });
      case "AuctionSettled": return pt("AuctionSettled", "Auction settled: order {order}", { order: list((d.order || []).map(ctx.seatName)) });
      case "ActionSelected": return pt("ActionSelected", "{who} chose {action}", { who, action: word(d.action) });
      case "LocomotiveIncreased": return pt("LocomotiveIncreased", "{who}'s engine went from {before} to {after}", { who, before: d.before, after: d.after });
      case "BuildTurnBegan": return pt("BuildTurnBegan", "{who} builds (up to {limit} tiles)", { who, limit: d.limit });
      case "TrackBuilt":
        return pt("TrackBuilt", "{who} built a {tile} at {place} (rotation {rotation}) for {cost}",
          { who, tile: word(d.tile), place: place(d.hex), rotation: d.rotation, cost: money(d.cost) });
      case "BuildStepWritten":
        return tpn("BuildStepWritten", "{who} wrote down a build step of {n} tile, laid in an order the rules allow",
          "{who} wrote down a build step of {n} tiles, laid in an order the rules allow", (d.placements || []).length, { who });
      case "CityUrbanized": return pt("CityUrbanized", "{who} urbanized {town} into new city {city} ({colour})", { who, town: this.localName(d.town), city: d.city, colour: word(d.colour) });
      case "BuildEnded": return pt("BuildEnded", "{who} ended building ({placed} placed)", { who, placed: d.placed });
      case "TrackAbandoned": return pt("TrackAbandoned", "{who}'s unfinished track was abandoned ({count} segments)", { who, count: (d.segments || []).length });
      case "GoodsDelivered": {
        const gains = Object.entries(d.income || {}).map(([s, n]) => `${ctx.seatName(Number(s))} +${n}`);
        const links = (d.links || []).length;
        return tpn("GoodsDelivered", "{who} moved a {cube} cube from {from} to {to} over {n} link",
          "{who} moved a {cube} cube from {from} to {to} over {n} links", links,
          { who, cube, from: d.from ? place(d.from) : this.localName((d.places || [])[0]), to: d.to ? place(d.to) : this.localName((d.places || []).slice(-1)[0]) }) +
          (gains.length ? t(": income {gains}", { gains: list(gains) }) : "");
      }
      case "LocomotiveUpgradedInsteadOfMove": return pt("LocomotiveUpgradedInsteadOfMove", "{who} upgraded the engine to {after} instead of moving goods", { who, after: d.after });
      case "MovePassed": return pt("MovePassed", "{who} passed moving goods (round {round})", { who, round: d.round });
      case "IncomeCollected": return pt("IncomeCollected", "{who} collected {amount} income", { who, amount: money(d.amount) });
      case "ExpensesPaid":
        return d.income_lost
          ? pt("ExpensesPaid", "{who} paid {paid} expenses, losing {lost} income", { who, paid: money(d.paid), lost: d.income_lost })
          : pt("ExpensesPaid", "{who} paid {paid} expenses", { who, paid: money(d.paid) });
      case "PlayerBankrupt": return pt("PlayerBankrupt", "{who} went bankrupt", { who });
      case "IncomeReduced": return pt("IncomeReduced", "{who}'s income fell from {before} to {after}", { who, before: d.before, after: d.after });
      case "ProductionDrawn": return pt("ProductionDrawn", "{who} drew a {cube} cube for production", { who, cube });
      case "GoodsProduced": return pt("GoodsProduced", "{who} placed a {cube} cube on the goods display ({column})", { who, cube, column: d.column });
      case "GrowthDieRolled": return pt("GrowthDieRolled", "Goods growth ({half}): rolled {value}", { half: word(d.half), value: d.value });
      case "GoodsGrown": return pt("GoodsGrown", "A {cube} cube grew into {city}", { cube, city: d.hex ? place(d.hex) : this.localName(d.city) });
      case "TurnEnded": return pt("TurnEnded", "Turn {turn} ends", { turn: d.turn });
      case "TieBreakRolled": return pt("TieBreakRolled", "{who} rolled {value} to break a tie", { who, value: d.value });
      case "FinalScored":
        return pt("FinalScored", "{who} scored {vp} VP (income {income}, shares {shares}, track {track})",
          { who, vp: d.vp, income: d.income_vp, shares: d.shares_vp, track: d.track_vp });
      default: return null;
    }
  },

  // A hex as a player names it, in the reader's language: its city or town (a new city by its
  // letter and the town it was), else its coordinates.
  placeName(hex) {
    const newCity = this.view?.cities?.[hex]?.new_city;
    const town = this.map?.hexes?.[hex]?.town;
    if (newCity && town) return t("new city {city} ({town})", { city: newCity, town: this.localName(town) });
    const name = this.map?.cities?.[hex]?.name || town;
    return name ? this.localName(name) : t("hex {hex}", { hex });
  },

  // A city's or town's name (as the records hold it) in the reader's language.
  localName(name) {
    if (name === undefined || name === null) return "";
    return this.named?.("cities", name, this.named("towns", name, name)) ?? name;
  },

  // What the table is asked for (`domain/age_of_steam`: the dice and cube draws), in the
  // reader's words; null for a request this renderer does not know (shown as the game says it).
  outcomeWhat(what) {
    let m = /^player order: (.+)'s (\d+) dice(?: \(tie, roll (\d+)\))?$/.exec(what);
    if (m) {
      return m[3] ? t("player order: {name}'s {count} dice (tie, roll {round})", { name: m[1], count: m[2], round: m[3] })
        : t("player order: {name}'s {count} dice", { name: m[1], count: m[2] });
    }
    m = /^tie-break: one die each for (.+?)(?: \(tied again, roll (\d+)\))?$/.exec(what);
    if (m) {
      return m[2] ? t("tie-break: one die each for {names} (tied again, roll {round})", { names: m[1], round: m[2] })
        : t("tie-break: one die each for {names}", { names: m[1] });
    }
    m = /^goods growth: (light|dark) dice$/.exec(what);
    if (m) return t("goods growth: {half} dice", { half: word(m[1]) });
    if (what === "production: a goods cube from the bag") return t("production: a goods cube from the bag");
    m = /^setup: a goods cube for display (\w+), space (\d+)$/.exec(what);
    if (m) return t("setup: a goods cube for display {column}, space {space}", { column: m[1], space: m[2] });
    m = /^setup: a goods cube for (.+)$/.exec(what);
    if (m) return t("setup: a goods cube for {city}", { city: this.localName(m[1]) });
    return null;
  },

  // A value entered at the table (a cube's colour), in the reader's words.
  outcomeValue(value) {
    return word(value);
  },

  // A tile's track in words, edge to edge: "north to south-east; south to north-west".
  trackWords(track) {
    const edge = (e) => compass(EDGE_WORDS, e);
    const parts = (track || []).map((s) => (s.exits.length === 1 ? t("{edge} to the town", { edge: edge(s.exits[0]) })
      : t("{from} to {to}", { from: edge(s.exits[0]), to: edge(s.exits[1]) })));
    return parts.join("; ");
  },

  marks(events) {
    const turns = [];
    const phases = [];
    let turn = 0;
    for (const e of events) {
      if (e.kind === "TurnBegan") {
        turn = e.data.turn;
        turns.push({ version: e.version, label: t("Turn {turn}", { turn }) });
      } else if (e.kind === "PhaseBegan") {
        phases.push({ version: e.version, label: t("Turn {turn} · {phase}", { turn, phase: word(e.data.phase) }) });
      } else if (e.kind === "FinalScored" && !phases.some((p) => p.label === t("Final scoring"))) {
        phases.push({ version: e.version, label: t("Final scoring") });
      }
    }
    return { turns, phases };
  },

  // Income per seat by turn, as collected at each turn's income step (the projection's
  // income figures are used instead when the server has them).
  incomeByTurn(events) {
    const rows = new Map();
    let turn = 0;
    for (const e of events) {
      if (e.kind === "TurnBegan") turn = e.data.turn;
      else if (e.kind === "IncomeCollected") {
        if (!rows.has(turn)) rows.set(turn, {});
        rows.get(turn)[e.data.seat] = e.data.amount;
      }
    }
    return [...rows].map(([t, seats]) => ({ turn: t, seats }));
  },

  // Without the scores projection: VP appear at the final scoring.
  vpFold(figures, event) {
    if (event.kind !== "FinalScored") return null;
    const d = event.data;
    return { ...figures, [d.seat]: { income: d.income_vp, shares: d.shares_vp, track: d.track_vp } };
  },
  sources: ["income", "shares", "track", "adjustment"],

  // The play page's words for a move, and the hex on the board it is tied to: a click on a
  // hex picks out the tiles and turns that may be built there, or the deliveries from it.
  moveLabel(move) {
    const place = (hex) => this.placeName(hex);
    switch (move.type) {
      case "build": return t("{tile} at {place}: {track}", { tile: word(move.tile), place: place(move.hex), track: this.trackWords(this.laid(move)) }) +
        (move.cost !== undefined ? ` (${money(move.cost)})` : "");
      case "urbanize": return t("New city {city} at {place}", { city: move.city, place: place(move.hex) });
      case "deliver": {
        const stops = this.deliveryStops(move);
        const to = stops ? this.placeName(stops[stops.length - 1].slice(-1)[0]) : "";
        const from = place(move.city);
        return to
          ? tn("Deliver a {cube} cube from {from} to {to} over {n} link", "Deliver a {cube} cube from {from} to {to} over {n} links",
            move.path.length, { cube: word(move.cube), from, to })
          : tn("Deliver a {cube} cube from {from} over {n} link", "Deliver a {cube} cube from {from} over {n} links",
            move.path.length, { cube: word(move.cube), from });
      }
      case "bid": return t("Bid {amount}", { amount: money(move.amount) });
      case "issue_shares": return tn("Issue {n} share", "Issue {n} shares", move.count);
      case "select_action": return t("Take the {action} action", { action: word(move.action) });
      case "place_production": return t("Put the cube in column {column}, space {space}", { column: move.column, space: move.space + 1 });
      default: return this.typeLabel(move.type);
    }
  },

  // Within the board's panel for a hex, which names the place already.
  offerLabel(move) {
    if (move.type === "build") {
      return t("{tile}: {track}", { tile: word(move.tile), track: this.trackWords(this.laid(move)) }) + (move.cost !== undefined ? ` · ${money(move.cost)}` : "");
    }
    return null;
  },

  // The track a build would lay: the tile's segments at its rotation, on a plain or a town hex.
  laid(move) {
    const town = Boolean(this.map?.hexes?.[move.hex]?.town);
    const segments = this.map?.tiles?.[move.tile]?.[town ? "town" : "plain"]?.[move.rotation];
    if (!segments) return null;
    return segments.map(([a, b]) => (b === this.map.town_centre ? { exits: [a], town: true } : { exits: [a, b] }));
  },

  // A move type's name, as the play page heads its choices.
  typeLabel(type) {
    return { issue_shares: t("issue shares"), bid: t("bid"), drop: t("drop out"), turn_order_pass: t("turn-order pass"),
      select_action: t("choose an action"), build: t("build"), urbanize: t("urbanize"), end_build: t("end building"),
      deliver: t("deliver goods"), upgrade_locomotive: t("upgrade the locomotive"), pass_move: t("pass moving goods"),
      place_production: t("place production") }[type] ?? null;
  },

  moveTarget(move) {
    if (move.type === "build" || move.type === "urbanize") return move.hex;
    if (move.type === "deliver") return this.cityHex(move.city);
    return null;
  },

  cityHex(city) {
    const named = Object.entries(this.map?.cities || {}).find(([, c]) => c.name === city);
    return named ? named[0] : city;
  },

  // A click on a city's goods cube offers that cube's deliveries; on a hex, what may go there.
  pickAt(element) {
    const cube = element.closest("[data-cube]");
    if (cube) {
      const colour = cube.dataset.cube;
      return { places: [cube.dataset.hex], only: (m) => m.type === "deliver" && m.cube === colour,
        name: t("{colour} cubes at {place}", { colour: word(colour), place: this.placeName(cube.dataset.hex) }) };
    }
    const hex = element.closest("[data-tile-hex], [data-hex]");
    return hex ? { places: [hex.dataset.tileHex || hex.dataset.hex] } : null;
  },

  placeBox(hex) {
    const c = hexCentre(hex);
    return { x: c.x - SIZE, y: c.y - SIZE, width: 2 * SIZE, height: 2 * SIZE };
  },

  // A build as its tile would lie (in the builder's colour), a new city as its hex, a delivery
  // as the path its cube would take; a delivery has no thumbnail (its path leaves the hex).
  drawMove(move, layer, ctx, { thumbnail }) {
    if (move.type === "build") {
      const laid = this.laid(move);
      if (!laid) return false;
      const owner = move.seat ?? null;
      const track = laid.map((segment) => ({ ...segment, owner }));
      svgEl("polygon", { points: hexPoints(hexCentre(move.hex)), class: "offer-ground" }, layer);
      this.drawTile({ hex: move.hex, tile: move.tile, rotation: move.rotation, place: this.placeName(move.hex), track, town_disc: false }, ctx, layer);
      return true;
    }
    if (move.type === "urbanize") {
      const c = hexCentre(move.hex);
      svgEl("polygon", { points: hexPoints(c), fill: GOODS[this.map?.new_cities?.[move.city]?.colour] || "#fff", class: "new-city" }, layer);
      svgEl("text", { x: c.x, y: c.y + 4, "text-anchor": "middle", class: "city-name" }, layer).textContent = move.city;
      return true;
    }
    if (move.type === "deliver") {
      if (thumbnail) return false;
      const stops = this.deliveryStops(move);
      if (!stops) return false;
      const hexes = stops.flatMap((leg) => leg);
      const points = hexes.map((id) => hexCentre(id));
      const d = points.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
      svgEl("path", { d, class: "offer-path-bed" }, layer);
      svgEl("path", { d, class: "offer-path", stroke: GOODS[move.cube] || "#000", "data-path": move.path.join(" "), "data-hexes": hexes.join(" ") }, layer);
      const end = points[points.length - 1];
      svgEl("rect", { x: end.x - 5, y: end.y - 5, width: 10, height: 10, fill: GOODS[move.cube] || "#000", class: "offer-cube" }, layer);
      return true;
    }
    return false;
  },

  // The hexes a delivery passes, link by link (each from the stop the cube is at), read from
  // the track on the board: null when the board does not hold the track (a viewer looking
  // at an earlier event).
  deliveryStops(move) {
    const tiles = new Map((this.view?.board || []).map((t) => [t.hex, t]));
    const isCity = (id) => Boolean(this.map?.cities?.[id] || this.view?.cities?.[id]);
    let at = this.cityHex(move.city);
    const legs = [];
    for (const link of move.path) {
      const ports = link.split("~").map((p) => p.split(":"));
      const start = ports.find(([hex]) => hex === at) || ports[0];
      let hex = start[0];
      let exit = Number(start[1]);
      const leg = [hex];
      for (let guard = 0; guard < 200; guard++) {
        const next = beyond(hex, exit);
        const entry = (exit + 3) % 6;
        if (isCity(next)) { leg.push(next); break; }
        const segment = tiles.get(next)?.track.find((s) => s.exits.includes(entry));
        if (!segment) return null;
        leg.push(next);
        if (segment.exits.length === 1) break; // a town
        exit = segment.exits[0] === entry ? segment.exits[1] : segment.exits[0];
        hex = next;
      }
      at = leg[leg.length - 1];
      legs.push(leg);
    }
    return legs;
  },
};
