// Toot-Toot Train: the drawn hex map (pointy-topped, odd rows shifted right) with blocked
// terrain, resource sites, cities in their colour and factories with their open sides,
// every track segment drawn on its hex's edges, the trains by owner with their heading,
// and each seat's goods, orders and tokens. The interface is in README.md beside this file.

import { h, svgEl } from "/replay/static/js/dom.js";
import { list, pt, t, tn, tpn } from "/pages/static/js/i18n.js";
import { compass } from "/replay/static/js/names.js";

// The words the game's records hold as values: reasons, phases, steps, payments, terrain. What
// the pack names (goods, colours, factories, buildings, maps, upgrades) is the pack's
// (`this.named`, from its names.json).
const WORDS = {
  factory: t("factory"), "hand order": t("hand order"), move: t("move"), "paid for a factory": t("paid for a factory"),
  processing: t("processing"), track: t("track"), turned: t("turned"),
  setup: t("setup"), start: t("start"), starts: t("choosing starts"), play: t("play"), scoring: t("final scoring"), over: t("over"),
  main: t("the main action"), drawing: t("the rest of the line"), location: t("the location action"),
  second: t("a second location action"), after: t("extra actions or the end of the turn"),
  hand_orders: t("hand orders"), leftover_goods: t("leftover goods"), completed_pairs: t("completed pairs"), penalties: t("penalties"),
  plain: t("plain"), blocked: t("blocked"), shovel: t("the shovel"), penalty: t("a penalty token"),
  site: t("resource site"), city: t("city"),
};
const word = (value) => WORDS[value] ?? String(value ?? "").replace(/_/g, " ");
// Edges clockwise from the east, as the rules number them (R1).
const EDGE_WORDS = ["east", "south-east", "south-west", "west", "north-west", "north-east"];
const edge = (e) => compass(EDGE_WORDS, e);


const SIZE = 24; // hex circumradius, in view-box units
const ROOT3 = Math.sqrt(3);
const MARGIN = 10;
const CITY = { yellow: "#f0c419", green: "#4caf50", red: "#d8342c", blue: "#2f6fce" };
const KIND = { site: "#c9a66b", factory: "#9e9e9e" };
const GROUND = { plain: "#eef3df", blocked: "#3d6b3a" };
const SIDE = { open: "#e65100", waterway: "#4aa3df" }; // closed sides are not marked

export function hexCentre(id) {
  const [col, row] = id.split(",").map(Number);
  return {
    x: MARGIN + (ROOT3 / 2) * SIZE + col * ROOT3 * SIZE + (row % 2) * (ROOT3 / 2) * SIZE,
    y: MARGIN + SIZE + row * 1.5 * SIZE,
  };
}

// Edges clockwise from the east (E, SE, SW, W, NW, NE), as the rules number them (R1).
export function edgeMidpoint(c, edge) {
  const angle = (60 * edge * Math.PI) / 180;
  const d = (ROOT3 / 2) * SIZE;
  return { x: c.x + d * Math.cos(angle), y: c.y + d * Math.sin(angle) };
}

function hexPoints(c) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = ((30 + 60 * i) * Math.PI) / 180;
    out.push(`${(c.x + SIZE * Math.cos(a)).toFixed(1)},${(c.y + SIZE * Math.sin(a)).toFixed(1)}`);
  }
  return out.join(" ");
}

function side(c, edge) {
  // The hex side at `edge`: between the corners either side of its midpoint.
  const a = ((edge * 60 - 30) * Math.PI) / 180;
  const b = ((edge * 60 + 30) * Math.PI) / 180;
  return `M${(c.x + SIZE * Math.cos(a)).toFixed(1)},${(c.y + SIZE * Math.sin(a)).toFixed(1)} ` +
    `L${(c.x + SIZE * Math.cos(b)).toFixed(1)},${(c.y + SIZE * Math.sin(b)).toFixed(1)}`;
}


export default {
  title: "Toot-Toot Train",

  setup(svg, maps, ctx) {
    this.svg = svg;
    this.named = ctx.named;
    this.maps = maps?.maps || {};
    this.drawn = null;
    this.segmentsKey = null;
    svg.replaceChildren();
    this.ground = svgEl("g", { class: "toot-ground" }, svg);
    this.trackLayer = svgEl("g", { class: "toot-track" }, svg);
    this.buildLayer = svgEl("g", { class: "toot-buildings" }, svg);
    this.trainLayer = svgEl("g", { class: "toot-trains" }, svg);
  },

  drawMap(id) {
    const map = this.maps[id];
    this.drawn = id;
    this.ground.replaceChildren();
    if (!map) return;
    let width = 0;
    let height = 0;
    for (const [hex, terrain] of Object.entries(map.terrain)) {
      const c = hexCentre(hex);
      width = Math.max(width, c.x + SIZE + MARGIN);
      height = Math.max(height, c.y + SIZE + MARGIN);
      const poly = svgEl("polygon", { points: hexPoints(c), fill: GROUND[terrain] || "#eee", class: `hex ${terrain}`, "data-hex": hex }, this.ground);
      svgEl("title", {}, poly).textContent = `${hex}: ${word(terrain)}`;
    }
    this.svg.setAttribute("viewBox", `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`);
    this.printed = map.buildings;
  },

  drawBuilding(b, layer) {
    const fill = b.kind === "city" ? CITY[b.colour] || "#fff" : KIND[b.kind];
    const g = svgEl("g", { class: `building ${b.kind}`, "data-building": b.id }, layer);
    for (const hex of b.hexes) {
      const c = hexCentre(hex);
      svgEl("polygon", { points: hexPoints(c), fill, class: "building-hex", "data-hex": hex }, g);
    }
    for (const [where, kind] of Object.entries(b.sides)) {
      const [hex, edge] = where.split("/");
      svgEl("path", { d: side(hexCentre(hex), Number(edge)), class: `side ${kind}`, "data-side": where, stroke: SIDE[kind], "stroke-width": 4 }, g);
    }
    const c = hexCentre(b.hexes[0]);
    const label = svgEl("text", { x: c.x, y: c.y + 3, "text-anchor": "middle", "font-size": 9, class: "building-name" }, g);
    label.textContent = b.good ? this.good(b.good) : b.colour ? this.colour(b.colour) : this.factory(b.factory);
    svgEl("title", {}, g).textContent = this.buildingName(b);
  },

  render(view, ctx) {
    this.view = view;
    if (view.map && view.map !== this.drawn) this.drawMap(view.map);
    const key = JSON.stringify([view.track, view.factories]);
    if (key !== this.segmentsKey) {
      this.segmentsKey = key;
      this.trackLayer.replaceChildren();
      for (const [hex, segments] of Object.entries(view.track || {})) {
        const c = hexCentre(hex);
        for (const [a, b] of segments) {
          const p = edgeMidpoint(c, a);
          const q = edgeMidpoint(c, b);
          // A quadratic curve through the centre: straight for opposite edges, a gentle bend otherwise.
          const d = `M${p.x.toFixed(1)},${p.y.toFixed(1)} Q${c.x.toFixed(1)},${c.y.toFixed(1)} ${q.x.toFixed(1)},${q.y.toFixed(1)}`;
          svgEl("path", { d, class: "segment", "data-segment": `${hex}:${a}-${b}`, stroke: "#333", "stroke-width": 3, fill: "none" }, this.trackLayer);
        }
      }
      this.buildLayer.replaceChildren();
      for (const b of this.printed || []) this.drawBuilding(b, this.buildLayer);
      for (const [hex, f] of Object.entries(view.factories || {})) {
        this.drawBuilding({ id: `factory@${hex}`, kind: "factory", factory: f.kind, hexes: [hex], sides: { [`${hex}/${f.exit}`]: "open" } }, this.buildLayer);
      }
    }
    this.trainLayer.replaceChildren();
    for (const s of view.seats || []) {
      if (!s.hex) continue;
      const c = hexCentre(s.hex);
      const tip = edgeMidpoint(c, s.facing);
      const g = svgEl("g", { class: "train", "data-train-seat": s.seat, "data-hex": s.hex, "data-facing": s.facing }, this.trainLayer);
      svgEl("line", { x1: c.x, y1: c.y, x2: tip.x, y2: tip.y, stroke: ctx.seatColour(s.seat), "stroke-width": 4 }, g);
      svgEl("circle", { cx: c.x, cy: c.y, r: 8, fill: ctx.seatColour(s.seat), stroke: "#000" }, g);
      svgEl("title", {}, g).textContent = t("{seat} at {hex}, facing {facing}", { seat: ctx.seatName(s.seat), hex: s.hex, facing: edge(s.facing) });
    }
  },

  panel(view, ctx) {
    const seats = (view.seats || []).map((s) => {
      const lines = [
        h("div", { class: "figures" }, t("{track} on the track · {goods} · {tokens} tokens · {penalties} penalties · {kept} orders kept",
          { track: s.track, goods: this.goodsText(s.goods), tokens: s.tokens, penalties: s.penalties, kept: s.kept.length }) +
          (s.shovel ? t(" · shovel") : "")),
      ];
      if (Object.keys(s.upgrades || {}).length) {
        const upgrades = Object.entries(s.upgrades).map(([a, n]) => (n > 1 ? `${this.ability(a)} ×${n}` : this.ability(a))).join(", ");
        lines.push(h("div", {}, t("Upgrades: {upgrades}", { upgrades })));
      }
      const none = t("none");
      if (s.hand) lines.push(h("div", { "data-private": "" }, t("Secret orders: {orders}", { orders: s.hand.map((o) => this.orderText(o)).join("; ") || none })));
      else if (s.hand_count) lines.push(h("div", {}, tn("{n} secret order", "{n} secret orders", s.hand_count)));
      return { seat: s.seat, active: view.current === s.seat && view.phase === "play", lines };
    });
    const none = t("none");
    const table = [
      h("div", {}, t("Map {map} · round {round}", { map: this.named("maps", view.map, view.map), round: view.round }) +
        (view.last_round ? t(" of {last}", { last: view.last_round }) : "") +
        ` · ${word(view.phase)}` + (view.phase === "play" ? ` · ${word(view.step)}` : "")),
      h("div", {}, t("Orders: {orders} · deck {deck}", { orders: (view.public || []).map((o) => this.orderText(o)).join("; ") || none, deck: view.deck })),
    ];
    return { seats, table };
  },

  // The pack's things in the reader's language.
  good(id) { return this.named("goods", id); },
  colour(id) { return this.named("colours", id); },
  factory(id) { return this.named("factories", id); },
  ability(id) { return this.named("abilities", id); },
  recipe(id) { return this.named("recipes", id); },
  // What the table is asked for (`domain/toot_toot`: the map, the order cards), in the reader's
  // words; null for a request this renderer does not know (shown as the game says it).
  outcomeWhat(what) {
    const asked = {
      "the map, picked at random": t("the map, picked at random"),
      "an order card drawn as a secret order": t("an order card drawn as a secret order"),
      "an order card turned up as a public order": t("an order card turned up as a public order"),
    };
    return asked[what] ?? null;
  },

  // A value entered at the table: a map by the pack's name for it; an order card by its
  // printed id.
  outcomeValue(value) {
    return this.named?.("maps", value, value) ?? value;
  },

  buildingName(b) {
    if (b.id.startsWith("factory@")) return t("{factory} at {hex}", { factory: this.factory(b.factory), hex: b.hexes[0] });
    return this.named("buildings", b.id);
  },
  goodsText(goods) {
    return list(Object.entries(goods || {}).map(([g, n]) => `${n} ${this.good(g)}`)) || t("no goods");
  },
  orderText(o) {
    const icons = o.icons.map((g, i) => (o.filled.includes(i) ? `✓${this.good(g)}` : this.good(g))).join(" ");
    return `${o.order} (${this.colour(o.colour)}: ${icons})`;
  },
  // A final scoring line: `influence_red`, `order_scoring_blue` name their order colour.
  lineWord(line) {
    const [, kind, colour] = /^(influence|order_scoring)_(.+)$/.exec(line) || [];
    if (kind === "influence") return t("influence ({colour})", { colour: this.colour(colour) });
    if (kind === "order_scoring") return t("order scoring ({colour})", { colour: this.colour(colour) });
    return word(line);
  },
  // Why a penalty token was taken or goods paid: a reason the rules name, or a building used
  // from a closed side.
  reason(text) {
    const [, building] = /^used (.+) from a side that is not open$/.exec(text || "") || [];
    if (building) return t("used {building} from a side that is not open", { building: this.named("buildings", building) });
    return word(text);
  },
  // Goods sold to orders: "R6: tools, wood; R1: iron".
  // Hand orders supplied in final scoring, `[[order, good, units], …]`: "B1 1 coal; Y8 1 wood, 2 coal".
  suppliedText(fills) {
    const orders = {};
    for (const [order, good, n] of fills) (orders[order] ||= []).push(`${n} ${this.good(good)}`);
    return Object.entries(orders).map(([order, goods]) => `${order} ${list(goods)}`).join("; ");
  },
  fillsText(fills) {
    return Object.entries(fills || {}).map(([order, goods]) =>
      `${order}: ${list(Object.entries(goods).map(([g, n]) => (n > 1 ? `${n} ${this.good(g)}` : this.good(g))))}`).join("; ");
  },

  describe(event, ctx) {
    const d = event.data || {};
    const who = d.seat !== undefined ? ctx.seatName(d.seat) : "";
    switch (event.kind) {
      case "MapChosen": return pt("MapChosen", "The map is {map}", { map: this.named("maps", d.map) });
      case "StartChosen": return pt("StartChosen", "{who} starts at {hex}", { who, hex: d.hex });
      case "TrackDrawn":
        return (d.action === "iron"
          ? pt("TrackDrawn", "{who} drew track in {hex} ({edges}) with iron", { who, hex: d.hex, edges: d.edges.map(edge).join("–") })
          : pt("TrackDrawn", "{who} drew track in {hex} ({edges})", { who, hex: d.hex, edges: d.edges.map(edge).join("–") }));
      case "TrainMoved":
        return tpn("TrainMoved", "{who} moved {n} step to {hex}", "{who} moved {n} steps to {hex}", d.path.length,
          { who, hex: d.path[d.path.length - 1][0] }) + (d.fuel ? ` (${this.good(d.fuel)})` : "");
      case "TrainTurned": return pt("TrainTurned", "{who} turned to face {facing}", { who, facing: edge(d.facing) });
      case "PenaltyTaken": return pt("PenaltyTaken", "{who} took a penalty token: {reason}", { who, reason: this.reason(d.reason) });
      case "FactoryBuilt":
        return pt("FactoryBuilt", "{who} drew a {factory} at {hex}, paid with {payment}", { who, factory: this.factory(d.factory), hex: d.hex, payment: this.payment(d.payment) });
      case "ResourceTaken": return pt("ResourceTaken", "{who} took {count} {good}", { who, count: d.count, good: this.good(d.good) });
      case "GoodsProcessed":
        return pt("GoodsProcessed", "{who} processed {recipe}", { who, recipe: this.recipe(d.recipe) }) + (d.lost ? t(" ({lost} lost)", { lost: d.lost }) : "");
      case "GoodsSold": return pt("GoodsSold", "{who} sold at {city}", { who, city: this.named("buildings", d.city) });
      case "ScoreGained": return pt("ScoreGained", "{who} scored {points} for {order}", { who, points: d.points, order: d.order });
      case "TokensGained": return tpn("TokensGained", "{who} gained {n} technology token", "{who} gained {n} technology tokens", d.count, { who });
      case "OrderCompleted": return pt("OrderCompleted", "{who} completed {order}", { who, order: d.order });
      case "OrderDiscarded": return pt("OrderDiscarded", "{who} discarded {order}", { who, order: d.order });
      case "Upgraded": return pt("Upgraded", "{who} upgraded {ability}", { who, ability: this.ability(d.ability) });
      case "EndTriggered": return pt("EndTriggered", "{who} reached {score}: the game ends after round {round}", { who, score: d.score, round: d.last_round });
      case "FinalScoringBegan":
        return pt("FinalScoringBegan", "Final scoring: {seats} choose which hand orders to supply", { seats: list((d.choosing || []).map(ctx.seatName)) });
      case "HandOrdersSupplied":
        return (d.fills || []).length
          ? pt("HandOrdersSupplied", "{who} supplied hand orders: {orders}", { who, orders: this.suppliedText(d.fills) })
          : pt("HandOrdersSupplied", "{who} supplied no hand orders", { who });
      case "FinalScored": return pt("FinalScored", "{who}: {line} {points}", { who, line: this.lineWord(d.line), points: d.points });
      case "PlayerCardsDealt": return pt("PlayerCardsDealt", "Player cards dealt: {cards}", { cards: list((d.cards || []).map((c) => this.named("players", c))) });
      case "OrdersShuffled":
        return d.reshuffle ? pt("OrdersShuffled", "The {count} order cards were reshuffled", { count: d.cards })
          : pt("OrdersShuffled", "The {count} order cards were shuffled", { count: d.cards });
      case "SecretOrderDealt": return pt("SecretOrderDealt", "{who} was dealt a secret order", { who });
      case "PublicOrderRevealed": return pt("PublicOrderRevealed", "Public order revealed: {order}", { order: d.order });
      case "LineEnded": return tpn("LineEnded", "{who} ended a line of {n} segment", "{who} ended a line of {n} segments", d.segments, { who });
      case "GoodsGained": return pt("GoodsGained", "{who} gained {count} {good} ({reason})", { who, count: d.count, good: this.good(d.good), reason: this.reason(d.reason) });
      case "GoodsPaid": return pt("GoodsPaid", "{who} paid {count} {good} ({reason})", { who, count: d.count, good: this.good(d.good), reason: this.reason(d.reason) });
      case "ShovelSpent": return pt("ShovelSpent", "{who} used the shovel", { who });
      case "ShovelGained": return pt("ShovelGained", "{who} got the shovel back", { who });
      case "SecretOrderPlayed": return pt("SecretOrderPlayed", "{who} played secret order {order}", { who, order: d.order });
      case "IconsFilled": return pt("IconsFilled", "Order {order}: {count} icons filled", { order: d.order, count: (d.icons || []).length });
      case "LocationPassed": return pt("LocationPassed", "{who} had no location action to take", { who });
      case "TurnEnded": return pt("TurnEnded", "{who} ends a turn", { who });
      case "ExtraTurnBegan": return pt("ExtraTurnBegan", "{who} takes an extra turn", { who });
      default: return null;
    }
  },

  marks(events, ctx) {
    const turns = [];
    const phases = [];
    for (const e of events) {
      if (e.kind === "TurnEnded") {
        const seat = ctx?.seatName ? ctx.seatName(e.data.seat) : t("seat {seat}", { seat: e.data.seat });
        turns.push({ version: e.version, label: t("{seat} ends a turn", { seat }) });
      } else if (e.kind === "EndTriggered") phases.push({ version: e.version, label: t("End triggered") });
      else if ((e.kind === "FinalScoringBegan" || e.kind === "FinalScored") && !phases.some((p) => p.label === t("Final scoring"))) phases.push({ version: e.version, label: t("Final scoring") });
    }
    return { turns, phases };
  },

  vpFold(figures, event) {
    const d = event.data || {};
    let source;
    switch (event.kind) {
      case "ScoreGained": source = "sales"; break;
      case "FinalScored":
        source = d.line.startsWith("influence") ? "influence"
          : d.line.startsWith("order_scoring") || d.line === "completed_pairs" ? "technology" : d.line;
        break;
      default: return null;
    }
    const seat = { ...(figures[d.seat] || {}) };
    seat[source] = (seat[source] || 0) + d.points;
    return { ...figures, [d.seat]: seat };
  },
  sources: ["sales", "hand_orders", "leftover_goods", "influence", "technology", "penalties", "adjustment"],

  // The play page: moves with a place on the board (track on a hex's edges, a factory, a
  // start, a drive, a site, city or factory to visit) are offered there.
  moveTarget(move) {
    if (move.hex !== undefined) return move.hex;
    // A turn is made where the seat's train stands.
    if (move.type === "turn") return this.view?.seats?.find((s) => s.seat === move.seat)?.hex ?? null;
    return move.site ?? move.city ?? move.factory ?? null;
  },

  // A click names its hex and the building standing there, if any.
  pickAt(element) {
    const places = [];
    const segment = element.closest("[data-segment]");
    const hex = segment ? segment.dataset.segment.split(":")[0] : element.closest("[data-hex]")?.dataset.hex;
    if (hex) places.push(hex);
    const building = element.closest("[data-building]")?.dataset.building || (hex && this.buildingAt(hex)?.id);
    if (building) places.push(building);
    return places.length ? { places } : null;
  },

  buildings() {
    const built = Object.entries(this.view?.factories || {}).map(([hex, f]) => ({ id: `factory@${hex}`, kind: "factory", factory: f.kind, hexes: [hex] }));
    return [...(this.printed || []), ...built];
  },

  buildingAt(hex) { return this.buildings().find((b) => b.hexes.includes(hex)); },

  placeName(place) {
    const building = this.buildings().find((b) => b.id === place);
    if (building) return this.buildingName(building);
    const inside = this.buildingAt(place);
    return inside ? `${place} (${this.buildingName(inside)})` : t("hex {hex}", { hex: place });
  },

  payment(payment) {
    return payment === "stone" ? t("2 stone") : word(payment);
  },

  placeBox(place) {
    const building = this.buildings().find((b) => b.id === place);
    const hex = building ? building.hexes[0] : place;
    if (!/^\d+,\d+$/.test(hex)) return null;
    const c = hexCentre(hex);
    return { x: c.x - SIZE, y: c.y - SIZE, width: 2 * SIZE, height: 2 * SIZE };
  },

  // A move type's name, as the play page heads its choices.
  typeLabel(type) {
    return { choose_start: t("choose a start"), draw_track: t("draw track"), stop_drawing: t("stop drawing"), drive: t("drive"),
      turn: t("turn"), take: t("take goods"), process: t("process"), sell: t("sell"), pass_location: t("pass the location action"),
      fuel_move: t("move with fuel"), iron_track: t("iron track"), build_factory: t("build a factory"), upgrade: t("upgrade"),
      end_turn: t("end the turn"), supply_hand_orders: t("supply hand orders") }[type] ?? null;
  },

  moveLabel(move) {
    switch (move.type) {
      case "draw_track": return t("Draw track in {hex} from {from} to {to}", { hex: move.hex, from: edge(move.from), to: edge(move.to) });
      case "iron_track": return t("Iron track in {hex} from {from} to {to}", { hex: move.hex, from: edge(move.from), to: edge(move.to) });
      case "build_factory":
        return t("Draw a {factory} at {hex}, open to the {exit}, paid with {payment}",
          { factory: this.factory(move.kind), hex: move.hex, exit: edge(move.exit), payment: this.payment(move.payment) });
      case "choose_start": return t("Start at {hex}", { hex: move.hex });
      case "drive": return t("Drive to {hex}, facing {facing}", { hex: move.hex, facing: edge(move.facing) });
      case "turn": return t("Turn to face {facing}", { facing: edge(move.facing) });
      case "fuel_move": return t("Burn {fuel} to move to {hex}, facing {facing}", { fuel: this.good(move.fuel), hex: move.hex, facing: edge(move.facing) });
      case "take": return t("Take goods at {place}", { place: this.placeName(move.site) });
      case "sell": return t("Sell at {place}: {fills}", { place: this.placeName(move.city), fills: this.fillsText(move.fills) });
      case "process": return t("Process {recipe} at {place}", { recipe: this.recipe(move.recipe), place: this.placeName(move.factory) });
      case "upgrade": return t("Upgrade {ability}", { ability: this.ability(move.ability) });
      case "stop_drawing": return t("Stop drawing track");
      case "pass_location": return t("Pass the location action");
      case "end_turn": return t("End your turn");
      case "supply_hand_orders": {
        const fills = Object.entries(move.fills || {}).flatMap(([order, goods]) => Object.entries(goods).map(([good, n]) => [order, good, n]));
        return fills.length ? t("Supply hand orders: {orders}", { orders: this.suppliedText(fills) }) : t("Supply no hand orders");
      }
      default: return null;
    }
  },

  offerLabel(move) {
    switch (move.type) {
      case "draw_track": case "iron_track": return `${edge(move.from)}–${edge(move.to)}`;
      case "build_factory": return t("{factory}, open {exit}, {payment}", { factory: this.factory(move.kind), exit: edge(move.exit), payment: this.payment(move.payment) });
      case "drive": case "fuel_move": return t("facing {facing}", { facing: edge(move.facing) }) + (move.fuel ? ` (${this.good(move.fuel)})` : "");
      case "turn": return t("facing {facing}", { facing: edge(move.facing) });
      case "sell": return this.fillsText(move.fills);
      default: return null;
    }
  },

  drawMove(move, layer, ctx) {
    const target = this.moveTarget(move);
    const hex = move.hex ?? (/^\d+,\d+$/.test(target ?? "") ? target : this.buildings().find((b) => b.id === target)?.hexes[0]);
    if (!hex || !/^\d+,\d+$/.test(hex)) return false;
    const c = hexCentre(hex);
    const colour = ctx.seatColour(move.seat ?? 0);
    svgEl("polygon", { points: hexPoints(c), class: "offer-mark" }, layer);
    if (move.type === "draw_track" || move.type === "iron_track") {
      const p = edgeMidpoint(c, move.from);
      const q = edgeMidpoint(c, move.to);
      const d = `M${p.x.toFixed(1)},${p.y.toFixed(1)} Q${c.x.toFixed(1)},${c.y.toFixed(1)} ${q.x.toFixed(1)},${q.y.toFixed(1)}`;
      svgEl("path", { d, stroke: colour, "stroke-width": 4, fill: "none", "stroke-dasharray": move.type === "iron_track" ? "5 2" : null, class: "segment-offer" }, layer);
    } else if (move.type === "build_factory") {
      svgEl("polygon", { points: hexPoints(c), fill: KIND.factory, class: "building-hex" }, layer);
      svgEl("path", { d: side(c, move.exit), stroke: SIDE.open, "stroke-width": 4 }, layer);
    } else if (["choose_start", "drive", "fuel_move", "turn"].includes(move.type)) {
      if (move.facing !== undefined) {
        const tip = edgeMidpoint(c, move.facing);
        svgEl("line", { x1: c.x, y1: c.y, x2: tip.x, y2: tip.y, stroke: colour, "stroke-width": 4 }, layer);
      }
      svgEl("circle", { cx: c.x, cy: c.y, r: 8, fill: colour, stroke: "#000" }, layer);
    }
    return true;
  },
};
