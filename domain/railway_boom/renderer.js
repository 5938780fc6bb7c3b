// Railway Boom: the hex board (terrain, power cost, normal and tourist cities with their
// tiles), each seat's stations and rails in its colour, the bid track, and each seat's
// resources, income levels, trains and VP by source. The interface every renderer follows
// is in README.md beside this file.

import { h, svgEl } from "/replay/static/js/dom.js";
import { list, pt, t, tn } from "/pages/static/js/i18n.js";

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

// The words the game's records hold as values: phases, resources, tracks, decks.
const WORDS = {
  setup: t("setup"), trains: t("trains"), expansion: t("expansion"), development: t("development"), income: t("income"),
  operation: t("operation"), goals: t("goals"), over: t("over"),
  money: t("money"), materials: t("materials"), technology: t("technology"), coal: t("coal"), vp: t("VP"), any: t("any resource"),
  bid: t("bid"), act: t("act"), pay: t("pay"), goal: t("goal"), route: t("route"), normal: t("normal"), tourist: t("tourist"),
  plain: t("plain"), forest: t("forest"), mountain: t("mountain"), river: t("river"), sea: t("sea"),
  red: t("red"), blue: t("blue"), green: t("green"), yellow: t("yellow"), none: t("none"), chosen: t("chosen"),
  tiles: t("tiles"), cards: t("cards"), normal_spaces: t("normal spaces"), tourist_spaces: t("tourist spaces"),
  trains_and_tiles: t("trains and tiles"), first_game: t("first game"),
};
const word = (value) => WORDS[value] ?? String(value ?? "").replace(/_/g, " ");
const amounts = (paid) => list(Object.entries(paid || {}).map(([r, n]) => `${n} ${word(r)}`)) || "0";
// The decks, as the records name them.
const DECKS = { locomotive: t("locomotive"), car: t("car"), station: t("station"), development: t("development"), goals: t("goal"), routes: t("route") };
const deck = (name) => DECKS[name] ?? word(name);
// When a development card acts (R21).
const TIMING = { immediate: t("at once"), automatic: t("always, from then on"), once_per_round: t("once a round") };
// A goal's condition (R30), in words.
const CONDITION = {
  rails_on_terrain: (g) => t("rails on {terrain}", { terrain: word(g.terrain) }), terrains_reached: () => t("kinds of terrain reached"),
  development_cards: () => t("development cards"), train_cards: () => t("train cards"),
  income_level: (g) => t("{track} income level", { track: word(g.track) }), longest_straight: () => t("longest straight line of rails"),
  shared_hexes: () => t("hexes shared with others"),
};

export default {
  title: "Railway Boom",

  setup(svg, map, ctx) {
    this.map = map;
    this.named = ctx.named;
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
      svgEl("title", {}, poly).textContent = `${id}: ${word(hex.terrain)}${hex.city ? t(", {kind} city", { kind: word(hex.city) }) : ""}` +
        t(" (power {power})", { power: hex.power });
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
    // Each seat's lines are built only when what they are drawn from changed (most steps change
    // one seat, or none): its figures, the phase, and what is pending for it.
    const seats = (view.seats || []).map((s) => ({
      seat: s.seat,
      active: waiting.includes(s.seat),
      key: JSON.stringify([s, view.phase, (view.pending || []).filter((p) => p.seat === s.seat)]),
      lines: () => [
        h("div", { class: "figures" },
          `${s.vp} ${t("VP")} · ` + RESOURCES.map((r) => `${word(r)} ${s.resources[r]}`).join(" · ")),
        h("div", {}, t("income {tracks}", { tracks: TRACKS.map((track) => `${word(track)} ${s.income[track]}`).join(" · ") })),
        h("div", {}, t("rails {rails} · stations {stations} left", { rails: s.rails, stations: s.stations })),
        h("div", { class: "cards" }, t("Trains:"), " ", (s.trains || []).length ? s.trains.map((id) => this.card(id)) : t("none")),
        ...((s.developments || []).length
          ? [h("div", { class: "cards" }, t("Development cards:"), " ", s.developments.map((id) => this.card(id)))] : []),
        ...(view.phase === "operation" ? [h("div", {}, s.submitted ? t("plan sealed") : t("still to submit"))] : []),
        ...((view.pending || []).filter((p) => p.seat === s.seat && p.effect === "pay")
          .map((p) => h("div", {}, t("to choose how to pay {amount} for a \"?\" bid", { amount: p.amount })))),
        ...(s.plan ? [h("div", { "data-private": "" }, t("your plan: {plan}", { plan: this.planWords(s.plan) }))] : []),
      ],
    }));
    const discs = (view.order || []).map((seat) => {
      const bid = view.bids?.[seat];
      return `${ctx.seatName(seat)}${bid ? ` @${bid}` : ""}${(view.locked || []).includes(seat) ? t(" (locked)") : ""}`;
    });
    const tableKey = JSON.stringify([view.round, view.phase, view.step, view.bid_resource, view.order, view.bids, view.locked,
      view.goals, view.routes, view.offer, view.rows, view.pending, waiting, view.winners]);
    const table = () => {
      const nodes = [
        h("div", {}, t("Round {round} of 4 · {phase}", { round: view.round, phase: word(view.phase) }) + (view.step ? ` (${word(view.step)})` : "") +
          (view.bid_resource ? t(" · bid with {resource}", { resource: word(view.bid_resource) }) : "")),
        h("div", {}, t("Bid track, left to right: {discs}", { discs: discs.join(" · ") })),
        h("div", { class: "cards" }, t("Goals:"), " ", (view.goals || []).map((id) => this.card(id))),
        h("div", { class: "cards" }, t("Routes:"), " ", (view.routes || []).map((id) => h("span", { class: "card", dataset: { card: id } }, this.cardName(id)))),
      ];
      // The cards and rows a seat may take are places: a click on one offers its moves.
      if ((view.offer || []).length) nodes.push(h("div", { class: "cards" }, t("On offer:"), " ", view.offer.map((id) => this.card(id))));
      if ((view.rows || []).some((r) => r.length)) {
        nodes.push(h("div", { class: "cards" }, t("Development rows:"), " ", view.rows.map((row, i) =>
          h("span", { class: "card-row", dataset: { place: `row:${i}` } }, t("row {row}", { row: i + 1 }), " ",
            row.length ? row.map((id) => this.card(id)) : "—"))));
      }
      for (const p of view.pending || []) {
        if ((p.drawn || []).length) nodes.push(h("div", { class: "cards" }, t("Drawn for {seat}:", { seat: ctx.seatName(p.seat) }), " ", p.drawn.map((id) => this.card(id))));
      }
      if (view.phase === "operation" && waiting.length) {
        nodes.push(h("div", {}, t("Still to submit: {seats}", { seats: list(waiting.map(ctx.seatName)) })));
      }
      if ((view.winners || []).length) {
        nodes.push(h("div", { class: "winners" }, t("Winner: {winners}", { winners: list(view.winners.map(ctx.seatName)) })));
      }
      return nodes;
    };
    return { seats, table, tableKey };
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
    const cards = (items) => list((items || []).map((id) => this.cardName(id)));
    const card = this.cardName(d.card);
    switch (event.kind) {
      case "PhaseStarted":
        return pt("PhaseStarted", "Round {round}: {phase}", { round: d.round, phase: word(d.phase) }) +
          (d.resource ? t(" (bid with {resource})", { resource: word(d.resource) }) : "");
      case "BidRaised": return pt("BidRaised", "{who} bid {space} {resource}", { who, space: d.space, resource: word(d.resource) });
      case "BidLocked": return pt("BidLocked", "{who} locked in at {space}", { who, space: d.space });
      case "BidPaid": return pt("BidPaid", "{who} (rank {rank}) paid {paid}", { who, rank: d.rank, paid: amounts(d.paid) });
      case "PaymentAwaited": return pt("PaymentAwaited", "{who} (rank {rank}) chooses how to pay {amount} for a \"?\" bid", { who, rank: d.rank, amount: d.amount });
      case "IncomeRaised":
        return pt("IncomeRaised", "{who} raised {track} income to level {level} (+{plus} each income phase)",
          { who, track: word(d.track), level: d.level, plus: d.plus });
      case "LocomotiveTaken": return pt("LocomotiveTaken", "{who} took locomotive {card}", { who, card });
      case "CarBought": return pt("CarBought", "{who} bought car {card} for {price} materials", { who, card, price: d.price });
      case "StationBuilt": return pt("StationBuilt", "{who} built a station at {city}", { who, city: d.city });
      case "RailLaid":
        return d.free ? pt("RailLaid", "{who} laid a rail on {hex} (free)", { who, hex: d.hex })
          : pt("RailLaid", "{who} laid a rail on {hex} (power {power}, money {money})", { who, hex: d.hex, power: d.power, money: d.money });
      case "RowChosen": return pt("RowChosen", "{who} chose row {row} and took {card}", { who, row: d.row + 1, card }); // rows count from 1, as the notation writes them
      case "DevelopmentBought": return pt("DevelopmentBought", "{who} bought {card} for {price} technology", { who, card, price: d.price });
      case "SubmissionSealed": return pt("SubmissionSealed", "{who} sealed an operation plan", { who });
      case "SubmissionsRevealed": return pt("SubmissionsRevealed", "Every operation plan is in: revealed");
      case "TrainFormed": return pt("TrainFormed", "{who} ran {train}", { who, train: [d.locomotive, ...(d.cars || [])].map((id) => this.cardName(id)).join(" + ") });
      case "GoalReserved": return pt("GoalReserved", "{who} reserved ×{multiplier} on {goal}", { who, multiplier: d.multiplier, goal: this.cardName(d.goal) });
      case "GoalScored":
        return pt("GoalScored", "{who} scored {vp} VP on {goal} ({count} × {multiplier})", { who, vp: d.vp, goal: this.cardName(d.goal), count: d.count, multiplier: d.multiplier });
      case "RouteScored": {
        const route = d.route ? this.cardName(d.route) : t("none");
        return pt("RouteScored", "{who} scored {vp} VP on route {route}", { who, vp: d.vp, route });
      }
      case "DeckShuffled": return pt("DeckShuffled", "The {deck} deck ({count} cards) was shuffled", { deck: deck(d.deck), count: d.count });
      case "CardsRevealedBeside": return pt("CardsRevealedBeside", "{deck} cards revealed beside the board: {cards}", { deck: deck(d.deck), cards: cards(d.revealed) });
      case "CityTilesPlaced": return pt("CityTilesPlaced", "City tiles placed on the {spaces} spaces", { spaces: word(d.spaces) });
      case "GoalSpacesBlocked": return pt("GoalSpacesBlocked", "Unused goal spaces were blocked");
      case "StartingOrderDrawn": return pt("StartingOrderDrawn", "Starting order drawn: {order}", { order: list((d.order || []).map(ctx.seatName)) });
      case "ResourcesConverted":
        return pt("ResourcesConverted", "{who} converted {count} {source} into {pairs} {into}",
          { who, count: 2 * d.pairs, source: word(d.source), pairs: d.pairs, into: word(d.into) });
      case "ActionOrderSet": return pt("ActionOrderSet", "Order of play: {order}", { order: list((d.order || []).map(ctx.seatName)) });
      case "TurnEnded":
        return d.power_lost ? pt("TurnEnded", "{who} ended the turn ({lost} power lost)", { who, lost: d.power_lost })
          : pt("TurnEnded", "{who} ended the turn", { who });
      case "ResourceGained": return pt("ResourceGained", "{who} gained {amount} {resource}", { who, amount: d.amount, resource: word(d.resource) }) +
        (d.lost ? t(" ({lost} lost to the limit)", { lost: d.lost }) : "");
      case "ResourcePaid": return pt("ResourcePaid", "{who} paid {amount} {resource}", { who, amount: d.amount, resource: word(d.resource) });
      case "VPScored": return pt("VPScored", "{who} scored {amount} VP ({source})", { who, amount: d.amount, source: this.sourceWords(d.source) });
      case "IconReached": return pt("IconReached", "{who} reached an icon on the {track} income track (level {level})", { who, track: word(d.track), level: d.level });
      case "PowerGained": return pt("PowerGained", "{who} gained {amount} power", { who, amount: d.amount });
      case "TrainsRevealed": return pt("TrainsRevealed", "Trains revealed: locomotives {locomotives}; cars {cars}", { locomotives: cards(d.locomotives), cars: cards(d.cars) });
      case "CardsBoxed": return pt("CardsBoxed", "Cards put back in the box: {cards}", { cards: cards(d.cards) });
      case "StationCardsRevealed": return pt("StationCardsRevealed", "Station cards revealed: {cards}", { cards: cards(d.cards) });
      case "TileGained": return pt("TileGained", "{who} gained a {tile} tile at {hex}", { who, tile: word(d.tile), hex: d.hex });
      case "TouristVisited": return pt("TouristVisited", "{who} visited the tourist city at {hex} ({tile})", { who, hex: d.hex, tile: word(d.tile) });
      case "CardUsed": return pt("CardUsed", "{who} used {card}", { who, card });
      case "RowsDealt": return pt("RowsDealt", "Development rows dealt: {rows}", { rows: (d.rows || []).map((r) => r.join("/")).join(" · ") });
      case "CardsUnderDeck": return pt("CardsUnderDeck", "{count} leftover development cards went under the deck", { count: d.count });
      case "ChoiceAwaited": return pt("ChoiceAwaited", "{who} is to choose for {card}", { who, card });
      case "ChoiceMade": return pt("ChoiceMade", "{who} chose {choice} for {card}", { who, choice: this.chosenWords(d.choice), card });
      case "TilePlaced": return pt("TilePlaced", "{who} put a {tile} tile on {card}", { who, tile: word(d.tile), card });
      case "CardRan": return pt("CardRan", "{who} ran {card} ({coal} coal)", { who, card, coal: d.coal });
      case "GoalMissed": return pt("GoalMissed", "{who} found no free space on {goal}", { who, goal: this.cardName(d.goal) });
      case "CardsStoodUp": return pt("CardsStoodUp", "Round {round}: the cards used were stood up again", { round: d.round });
      case "LeftoversScored": return pt("LeftoversScored", "{who} scored {vp} VP for {total} leftover resources", { who, vp: d.vp, total: d.total });
      default: return null;
    }
  },

  marks(events) {
    const turns = [];
    const phases = [];
    for (const e of events) {
      if (e.kind === "PhaseStarted") {
        if (e.data.phase === "trains") turns.push({ version: e.version, label: t("Round {round}", { round: e.data.round }) });
        phases.push({ version: e.version, label: t("Round {round} · {phase}", { round: e.data.round, phase: word(e.data.phase) }) });
      }
    }
    return { turns, phases };
  },

  sources: [...SOURCES, "adjustment"],

  // A card as a place in the panels: its name, what it is and does as its tooltip and words.
  // What the table is asked for (`domain/railway_boom/setup.py`, `flow.py`, `effects.py`: the
  // cards revealed or dealt), in the reader's words; null for a request this renderer does not
  // know (shown as the game says it). The cards entered are shown by their printed ids.
  outcomeWhat(what) {
    const asked = {
      "goal cards revealed beside the board": t("goal cards revealed beside the board"),
      "route cards revealed beside the board": t("route cards revealed beside the board"),
      "normal city tiles, one per normal city space in board order":
        t("normal city tiles, one per normal city space in board order"),
      "tourist city tiles, one per tourist city space in board order":
        t("tourist city tiles, one per tourist city space in board order"),
      "station cards revealed for the starting bid order, one per seat":
        t("station cards revealed for the starting bid order, one per seat"),
      "trains: locomotive cards revealed": t("trains: locomotive cards revealed"),
      "trains: car cards revealed": t("trains: car cards revealed"),
      "expansion: station cards revealed": t("expansion: station cards revealed"),
      "development: cards dealt into rows of 3, in the order turned up":
        t("development: cards dealt into rows of 3, in the order turned up"),
      "development: the 2 cards drawn to buy 1": t("development: the 2 cards drawn to buy 1"),
    };
    return asked[what] ?? null;
  },

  card(id) {
    return h("span", { class: "card", title: this.cardWords(id), dataset: { place: `card:${id}`, card: id } }, this.cardName(id));
  },

  cardName(id) {
    const card = this.map?.cards?.[id];
    const named = (kind, fallback) => this.named?.(kind, id, fallback) ?? fallback;
    if (this.map?.routes?.[id]) return named("routes", t("route {id}", { id }));
    if (!card) return String(id);
    if (card.deck === "train") {
      if (card.kind === "starting") return named("trains", t("{colour} starting train", { colour: word(card.colour) }));
      return named("trains", card.kind === "car" ? t("car {id}", { id }) : t("locomotive {id}", { id }));
    }
    if (card.deck === "development") return named("developments", t("card {id}", { id }));
    if (card.deck === "goal") return named("goals", t("goal {id}", { id }));
    return named("city_tiles", t("tile {id}", { id }));
  },

  // What a card is and does.
  cardWords(id) {
    const card = this.map?.cards?.[id];
    if (!card) return this.cardName(id);
    const name = this.cardName(id);
    if (card.deck === "train") {
      const what = t("{coal} coal, {vp} VP, {slots} slots", { coal: card.coal, vp: card.vp, slots: card.slots }) +
        (card.kind === "car" ? t(", costs {cost} materials", { cost: card.cost }) : "");
      return `${name}: ${what}${card.effect ? `; ${this.effectWords(card.effect)}` : ""}`;
    }
    if (card.deck === "development") {
      return t("{card}: {effect} ({timing}; {price} technology)",
        { card: name, effect: this.effectWords(card.effect), timing: TIMING[card.timing] ?? word(card.timing), price: card.price });
    }
    if (card.deck === "goal") {
      return t("{card}: {condition}, bid with {resource}", { card: name, condition: (CONDITION[card.condition] || (() => word(card.condition)))(card),
        resource: word(card.resource) });
    }
    return card.kind === "tourist" ? `${name}: ${this.effectWords(card.effect)}` : t("{tile}: {resource}, power {power}", { tile: name, resource: word(card.resource), power: card.power });
  },

  effectWords(effect) {
    if (!effect) return "";
    const n = effect.amount ?? 1;
    switch (effect.type) {
      case "gain_resource": return t("gain {amount} {resource}", { amount: n, resource: word(effect.resource) });
      case "gain_vp": return t("score {amount} VP", { amount: n });
      case "raise_income":
        return effect.resource === "chosen" ? tn("raise an income track of your choice {n} level", "raise an income track of your choice {n} levels", n)
          : tn("raise {track} income {n} level", "raise {track} income {n} levels", n, { track: word(effect.resource) });
      case "free_rails": return tn("lay {n} rail free", "lay {n} rails free", n);
      case "draw_two_buy_one": return t("draw 2 development cards and buy one for {amount} less", { amount: n });
      case "extra_power": return t("{amount} more power this build turn", { amount: n });
      case "free_car_run": return t("one car runs without coal");
      case "vp_per_rail_on_terrain": return t("{amount} VP for each later rail on {terrain}", { amount: n, terrain: word(effect.terrain) });
      case "train_tile_bonus": return t("{amount} VP for each resource tile on a train each time it runs", { amount: n });
      default: return word(effect.type);
    }
  },

  // Conversions before paying (R11): each pair of a resource becomes one of `into`.
  convertWords(convert, into) {
    const parts = Object.entries(convert || {}).map(([resource, pairs]) =>
      t("{count} {resource} into {pairs} {into}", { count: 2 * pairs, resource: word(resource), pairs, into: word(into) }));
    return parts.length ? t(", converting {conversions}", { conversions: list(parts) }) : "";
  },

  planWords(plan) {
    const runs = (plan.runs || []).map((train) => train.map((id) => this.cardName(id)).join(" + "));
    const tiles = Object.entries(plan.tiles || {}).map(([card, kinds]) => `${this.cardName(card)}: ${list(kinds.map(word))}`);
    return (runs.length ? t("run {trains}", { trains: runs.join("; ") }) : t("run no train")) +
      (tiles.length ? t("; tiles {tiles}", { tiles: tiles.join("; ") }) : "") +
      ((plan.free || []).length ? t("; free runs {cars}", { cars: list(plan.free.map((id) => this.cardName(id))) }) : "") +
      this.convertWords(plan.convert, "coal");
  },

  // A move type's name, as the play page heads its choices.
  typeLabel(type) {
    return { bid: t("bid"), lock_in: t("lock in"), take_locomotive: t("take a locomotive"), buy_car: t("buy a car"),
      place_station: t("build a station"), lay_rail: t("lay a rail"), use_card: t("use a card"), choose_row: t("choose a row"),
      buy_development: t("buy a development"), resolve: t("answer"), pay: t("pay"), done: t("done"), operate: t("operate") }[type] ?? null;
  },

  // The play page: a station or a rail is offered on its hex, drawn as it would stand there; a
  // card taken, bought or used on the card (`card:ID`, in the panels), a row on the row.
  moveTarget(move) {
    switch (move.type) {
      case "place_station": return move.city;
      case "lay_rail": return move.hex;
      case "take_locomotive": case "buy_car": case "buy_development": case "use_card": return `card:${move.card}`;
      case "choose_row": return `row:${move.row}`;
      case "resolve":
        if (this.map?.hexes?.[move.choice]) return move.choice;
        return this.map?.cards?.[move.choice] ? `card:${move.choice}` : null;
      default: return null;
    }
  },

  moveLabel(move) {
    switch (move.type) {
      case "bid": return t("Move your disc to bid space {space}", { space: move.space }) + this.convertWords(move.convert, this.view?.bid_resource);
      case "lock_in": return t("Lock in your bid");
      case "take_locomotive": return t("Take {card}", { card: this.cardWords(move.card) });
      case "buy_car": return t("Buy {card}", { card: this.cardWords(move.card) }) + this.convertWords(move.convert, "materials");
      case "place_station": return t("Build a station at {place}", { place: this.placeName(move.city) }) +
        (move.income ? t(", raising {track} income", { track: word(move.income) }) : "");
      case "lay_rail": return t("Lay a rail on {place}", { place: this.placeName(move.hex) }) + this.convertWords(move.convert, "money");
      case "use_card": return t("Use {card}", { card: this.cardWords(move.card) });
      case "choose_row": return t("Choose row {row}: {cards}", { row: move.row + 1,
        cards: list((this.view?.rows?.[move.row] || []).map((id) => this.cardName(id))) });
      case "buy_development": return t("Buy {card}", { card: this.cardWords(move.card) }) + this.convertWords(move.convert, "technology");
      case "resolve": return this.choiceWords(move.choice) + this.convertWords(move.convert, "technology");
      case "pay": return t("Pay {paid}", { paid: amounts(move.paid) });
      case "done": return t("End your turn");
      case "operate": return this.planWords(move);
      default: return null;
    }
  },

  // Where a gain came from, as the records name it: a card, a resource tile on a train, an
  // income track's icon, a tourist city, a city's tile, or a step of the game.
  sourceWords(source) {
    const [kind, first, second] = String(source ?? "").split(":");
    if (kind === "tile" && first) return t("a resource tile on {train}", { train: this.cardName(first) });
    if (kind === "icon" && second) return t("the icon at level {level} of {track} income", { level: second, track: word(first) });
    if (kind === "tourist" && first) return t("the tourist city at {place}", { place: this.placeName(first) });
    if (kind === "city" && first) return t("the city at {place}", { place: this.placeName(first) });
    if (this.map?.cards?.[source] || this.map?.routes?.[source]) return this.cardName(source);
    return word(source);
  },

  // What a seat chose for an effect: a hex, a card, an income track, or nothing.
  chosenWords(choice) {
    if (choice === "none") return t("none");
    if (this.map?.hexes?.[choice]) return this.placeName(choice);
    if (this.map?.cards?.[choice]) return this.cardName(choice);
    return word(choice);
  },

  // An answer to an effect's choice: a hex, a drawn card, an income track, or none.
  choiceWords(choice) {
    if (choice === "none") return t("None of them");
    if (this.map?.hexes?.[choice]) return t("A rail on {place}", { place: this.placeName(choice) });
    if (this.map?.cards?.[choice]) return t("Buy {card}", { card: this.cardWords(choice) });
    return t("Raise {track} income", { track: word(choice) });
  },

  offerLabel(move) {
    if (move.type === "place_station") return t("a station");
    if (move.type === "lay_rail") return t("a rail (power {power})", { power: this.map?.hexes?.[move.hex]?.power ?? "?" }) +
      this.convertWords(move.convert, "money");
    return null;
  },

  placeName(id) {
    const place = String(id);
    if (place.startsWith("card:")) return this.cardName(place.slice(5));
    if (place.startsWith("row:")) return t("row {row}", { row: Number(place.slice(4)) + 1 });
    const hex = this.map?.hexes?.[place];
    if (!hex) return place;
    const city = hex.city ? this.named?.("cities", place, "") : "";
    return `${city || place} (${word(hex.terrain)}${hex.city ? t(", {kind} city", { kind: word(hex.city) }) : ""})`;
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
