// Ticket to Ride (USA): the map with every route as a row of train-car spaces in its
// colour, claimed routes as cars in the owner's seat colour, and the table (market,
// decks, each seat's counts, and a hand and tickets only when the view holds them).
// The interface every renderer follows is in README.md beside this file.

import { h, svgEl } from "/replay/static/js/dom.js";
import { definePatterns, patternFill } from "/replay/static/js/patterns.js";
import { list, pt, t, tpn } from "/pages/static/js/i18n.js";

// The train cards' colours, as the records name them.
const WORDS = {
  red: t("red"), blue: t("blue"), green: t("green"), yellow: t("yellow"), black: t("black"), white: t("white"),
  orange: t("orange"), pink: t("pink"), locomotive: t("locomotive"), grey: t("grey"), gray: t("grey"), empty: t("empty"),
};
const word = (value) => WORDS[value] ?? String(value ?? "");

const CARD = {
  red: "#d8342c", blue: "#2f6fce", green: "#3a9a3a", yellow: "#f0c419", black: "#222222",
  white: "#f4f4f4", orange: "#f08a24", pink: "#e87bb5", gray: "#a9a9a9", locomotive: "url(#loco)",
};
const CITY_R = 7;
const LANE = 5; // half the distance between the two lanes of a double route

const cityPair = (id) => id.split("#")[0].split("|");

export default {
  title: "Ticket to Ride",

  setup(svg, map, ctx) {
    this.map = map;
    this.ctx = ctx;
    this.city = (name) => ctx.named("cities", name, name); // in the reader's language (the pack's names)
    this.routes = new Map((map?.routes || []).map((r) => [r.id, r]));
    this.claims = new Map(); // route id -> {seat, node}
    svg.setAttribute("viewBox", `0 0 ${map.width} ${map.height}`);
    svg.replaceChildren();
    const defs = svgEl("defs", {}, svg);
    const loco = svgEl("linearGradient", { id: "loco", x1: 0, x2: 1 }, defs);
    ["#d8342c", "#f0c419", "#3a9a3a", "#2f6fce", "#e87bb5"].forEach((c, i, all) =>
      svgEl("stop", { offset: i / (all.length - 1), "stop-color": c }, loco));
    definePatterns(defs);
    svgEl("rect", { x: 0, y: 0, width: map.width, height: map.height, class: "ttr-land" }, svg);
    this.geometry = new Map();
    const routeLayer = svgEl("g", { class: "ttr-routes" }, svg);
    for (const route of map.routes) {
      const laid = carsOf(route, map);
      this.geometry.set(route.id, laid);
      const group = svgEl("g", { class: "route", "data-route": route.id }, routeLayer);
      svgEl("title", {}, group).textContent = this.routeLabel(route.id);
      const colour = CARD[route.colour] || "#ccc";
      const stroke = route.colour === "white" ? "#9a9a9a" : colour;
      svgEl("path", { d: laid.spaces, transform: laid.transform, fill: colour, stroke, class: "space" }, group);
    }
    this.claimLayer = svgEl("g", { class: "ttr-claims" }, svg);
    this.ticketLayer = svgEl("g", { class: "ttr-tickets", "aria-hidden": "true" }, svg);
    this.ticketKey = null;
    // A ticket pointed at in the panels stands out on the map.
    const hover = (e, on) => {
      const id = e.target.closest?.("[data-ticket]")?.dataset.ticket;
      if (id) this.ticketLayer.querySelector(`[data-ticket="${CSS.escape(id)}"]`)?.classList.toggle("hover", on);
    };
    document.addEventListener("mouseover", (e) => hover(e, true));
    document.addEventListener("mouseout", (e) => hover(e, false));
    const cityLayer = svgEl("g", { class: "ttr-cities" }, svg);
    for (const [name, pos] of Object.entries(map.cities)) {
      const g = svgEl("g", { class: "city", "data-city": name }, cityLayer);
      svgEl("circle", { cx: pos.x, cy: pos.y, r: CITY_R }, g);
      const label = svgEl("text", { x: pos.x, y: pos.y - CITY_R - 3, "text-anchor": "middle" }, g);
      label.textContent = this.city(name);
    }
  },

  // Only the claims change on the board: add and remove exactly those that differ.
  render(view, ctx) {
    this.view = view;
    const routes = view.routes || {};
    for (const [id, claim] of this.claims) {
      if (routes[id] !== claim.seat) {
        claim.node.remove();
        this.claims.delete(id);
      }
    }
    for (const [id, seat] of Object.entries(routes)) {
      if (this.claims.has(id) || !this.geometry.has(id)) continue;
      const route = this.routes.get(id);
      const laid = this.geometry.get(id);
      const g = svgEl("g", { class: "claim", "data-claimed-route": id, "data-seat": seat, transform: laid.transform }, this.claimLayer);
      svgEl("title", {}, g).textContent = `${this.city(route.a)}–${this.city(route.b)}: ${ctx.seatName(seat)}`;
      svgEl("path", { d: laid.claimed, fill: ctx.seatColour(seat), class: "car" }, g);
      svgEl("path", { d: laid.claimed, fill: patternFill(seat), class: "car-mark" }, g);
      this.claims.set(id, { seat, node: g });
    }
    // The route the current event claimed stands out.
    const latest = ctx.event?.kind === "RouteClaimed" ? ctx.event.data.route : null;
    for (const [id, claim] of this.claims) claim.node.classList.toggle("latest", id === latest);
    this.drawTickets(view, ctx);
  },

  // The viewer's own kept tickets on the map: each ticket's two cities ringed and joined by a
  // dashed line in the seat's colour, solid once the seat's routes join them. Redrawn only
  // when the tickets or the seat's claims change.
  drawTickets(view, ctx) {
    if (ctx.mySeat === null || ctx.mySeat === undefined) {
      if (this.ticketKey !== null) this.ticketLayer.replaceChildren();
      this.ticketKey = null;
      return;
    }
    const mine = (view.seats || []).find((s) => s.seat === ctx.mySeat);
    const kept = mine?.kept_tickets || [];
    const claimed = Object.entries(view.routes || {}).filter(([, seat]) => seat === ctx.mySeat).map(([id]) => id);
    const key = JSON.stringify([ctx.mySeat, kept, claimed]);
    if (key === this.ticketKey) return;
    this.ticketKey = key;
    this.ticketLayer.replaceChildren();
    if (!kept.length) return;
    const joined = connected(claimed);
    const colour = ctx.seatColour(ctx.mySeat);
    for (const id of kept) {
      const ticket = this.map?.tickets?.[id];
      const a = this.map.cities[ticket?.a];
      const b = this.map.cities[ticket?.b];
      if (!a || !b) continue;
      const done = joined(ticket.a) === joined(ticket.b) && joined(ticket.a) !== undefined;
      const g = svgEl("g", { class: `ticket-mark${done ? " done" : ""}`, "data-ticket": id, "data-done": String(done) }, this.ticketLayer);
      svgEl("title", {}, g).textContent = `${this.ticketLabel(id)}${done ? ` ${t("✓ completed")}` : ""}`;
      svgEl("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: colour, class: "ticket-line" }, g);
      for (const end of [a, b]) svgEl("circle", { cx: end.x, cy: end.y, r: CITY_R + 4, stroke: colour, class: "ticket-end" }, g);
    }
  },

  // Each seat's lines are built only when its key (what they are drawn from) changed: most
  // steps change one seat, or none.
  panel(view, ctx) {
    const scored = this.scoredBy(ctx);
    const seats = (view.seats || []).map((s) => {
      const active = (view.active_seats || []).includes(s.seat);
      const results = (s.kept_tickets || []).map((id) => scored.get(`${s.seat}|${id}`) ?? null);
      return { seat: s.seat, active, key: JSON.stringify([s, results]), lines: () => this.seatLines(s, results) };
    });
    const table = () => {
      const nodes = [
        // The market's cards and the deck are places: a click on one offers the draw from it.
        h("div", { class: "market" }, t("Market: "), (view.market || []).map((c, slot) => chip(c || "empty", undefined, `market:${slot}`))),
        h("div", {}, h("span", { class: "chip deck", dataset: { place: "deck" } }, t("Deck {deck}", { deck: view.deck })),
          " · ", t("discards {discards} · tickets {tickets}", { discards: view.discard, tickets: view.ticket_deck })),
      ];
      if (view.final_round) {
        nodes.push(h("div", { class: "warning" },
          t("Final round: {seat} is down to {left} trains", { seat: ctx.seatName(view.final_round.triggered_by), left: view.final_round.trains_left })));
      }
      if (view.winners) {
        nodes.push(h("div", { class: "winners" },
          view.winners.length ? t("Winner: {winners}", { winners: list(view.winners.map(ctx.seatName)) }) : t("No winner")));
      }
      return nodes;
    };
    const tableKey = JSON.stringify([view.market, view.deck, view.discard, view.ticket_deck, view.final_round, view.winners]);
    return { seats, table, tableKey };
  },

  // A seat's figures, and its hand and tickets when the view holds them; `results`: each
  // kept ticket's final scoring, if it has been scored.
  seatLines(s, results) {
    const lines = [
      h("div", { class: "figures" },
        t("{vp} VP · {trains} trains · {cards} cards · ", { vp: s.score, trains: s.trains, cards: s.cards }) +
        (s.tickets === null ? t("tickets sealed") : t("{count} tickets", { count: s.tickets })) +
        (s.tickets_offered ? t(" · choosing from {count}", { count: s.tickets_offered }) : "")),
    ];
    if (s.hand) {
      lines.push(h("div", { class: "hand", "data-private": "hand" },
        Object.entries(s.hand).map(([kind, n]) => chip(kind, n))));
    }
    for (const [key, label] of [["kept_tickets", t("tickets")], ["offered_tickets", t("offered")],
                                ["returning_tickets", t("returning")]]) {
      if (s[key] && s[key].length) {
        const shown = s[key].map((id, i) => this.ticket(id, key === "kept_tickets" ? results[i] : null));
        lines.push(h("div", { class: "tickets", "data-private": key }, h("span", { class: "tickets-label" }, `${label}: `), shown));
      }
    }
    return lines;
  },

  // A kept ticket, marked completed or failed once the final scoring has scored it.
  ticket(id, result) {
    if (!result) return h("span", { dataset: { ticket: id } }, this.ticketLabel(id));
    return h("span", { class: result.completed ? "ticket-done" : "ticket-failed", dataset: { ticket: id, completed: String(result.completed) } },
      `${this.ticketLabel(id)} ${result.completed ? t("✓ completed") : t("✗ failed")}`);
  },

  // Seat|ticket -> {completed} for the tickets scored up to the shown event; the scan of the
  // events is kept until more events arrive, so a step costs a lookup.
  scoredBy(ctx) {
    const version = ctx.event?.version ?? 0;
    const events = ctx.events();
    if (this.scoredScan?.length !== events.length) {
      const all = events.filter((e) => e.kind === "TicketScored");
      this.scoredScan = { length: events.length, all };
    }
    const out = new Map();
    for (const e of this.scoredScan.all) {
      if (e.version <= version) out.set(`${e.data.seat}|${e.data.ticket}`, { completed: Boolean(e.data.completed) });
    }
    return out;
  },

  // The play page's words for a move, and the route on the board a claim is tied to.
  moveLabel(move) {
    const cards = (c) => Object.entries(c).map(([kind, n]) => `${word(kind)} ×${n}`).join(" + ");
    switch (move.type) {
      case "claim_route": return t("{route} with {cards}", { route: this.routeLabel(move.route), cards: cards(move.cards) });
      case "draw_card": {
        if (move.source !== "market") return t("Draw from the deck");
        const card = this.view?.market?.[move.slot];
        return card ? t("Take the {card} card from the market (slot {slot})", { card: word(card), slot: move.slot + 1 })
          : t("Take the market card in slot {slot}", { slot: move.slot + 1 });
      }
      case "keep_tickets": return t("Keep {tickets}", { tickets: move.keep.map((id) => this.ticketLabel(id)).join("; ") });
      case "draw_tickets": return t("Draw destination tickets");
      case "pass": return t("Pass");
      default: return null;
    }
  },

  moveTarget(move) {
    if (move.type === "claim_route") return move.route;
    if (move.type === "draw_card") return move.source === "market" ? `market:${move.slot}` : "deck";
    return null;
  },

  // On the board: the cards a claim would spend (the route is the panel's heading), and the
  // route drawn as claimed.
  offerLabel(move) {
    if (move.type !== "claim_route") return null;
    return Object.entries(move.cards).map(([kind, n]) => `${word(kind)} ×${n}`).join(" + ");
  },

  placeName(id) {
    if (id === "deck") return t("the deck");
    if (String(id).startsWith("market:")) {
      const slot = Number(String(id).slice(7));
      return t("market slot {slot}: {card}", { slot: slot + 1, card: word(this.view?.market?.[slot] || "empty") });
    }
    return this.routeLabel(id);
  },

  // A move type's name, as the play page heads its choices.
  typeLabel(type) {
    return { keep_tickets: t("keep tickets"), draw_card: t("draw a card"), claim_route: t("claim a route"),
      draw_tickets: t("draw tickets"), pass: t("pass") }[type] ?? null;
  },

  placeBox(id) {
    const route = this.routes?.get(id);
    if (!route) return null;
    const [a, b] = cityPair(id).map((name) => this.map.cities[name]);
    const x = Math.min(a.x, b.x);
    const y = Math.min(a.y, b.y);
    return { x: x - 8, y: y - 8, width: Math.abs(a.x - b.x) + 16, height: Math.abs(a.y - b.y) + 16 };
  },

  drawMove(move, layer, ctx, { thumbnail }) {
    if (move.type !== "claim_route" || thumbnail || !this.geometry.has(move.route)) return false;
    const laid = this.geometry.get(move.route);
    svgEl("path", { d: laid.spaces, transform: laid.transform, fill: ctx.seatColour(move.seat ?? 0), class: "car-offer" }, layer);
    return true;
  },

  // What the table is asked for (`domain/ticket_to_ride/draws.py`), in the reader's words;
  // null for a request this renderer does not know (shown as the game says it).
  outcomeWhat(what) {
    const asked = {
      "a starting hand": t("a starting hand"),
      "a card turned up in the market": t("a card turned up in the market"),
      "a card from the deck": t("a card from the deck"),
      "opening tickets": t("opening tickets"),
      "destination tickets drawn": t("destination tickets drawn"),
      "the first player": t("the first player"),
    };
    return asked[what] ?? null;
  },

  // A value entered at the table: a train card's colour, or a ticket as typed there (its two
  // cities joined by a hyphen, "Denver-El Paso"), in the reader's words.
  outcomeValue(value) {
    if (WORDS[value]) return WORDS[value];
    // A ticket drawn is recorded by its id, one offered by its typed name.
    const ticket = this.map?.tickets?.[value] ?? Object.values(this.map?.tickets || {}).find((k) => `${k.a}-${k.b}` === value);
    return ticket ? `${this.city(ticket.a)}–${this.city(ticket.b)}` : value;
  },

  ticketLabel(id) {
    const ticket = this.map?.tickets?.[id];
    return ticket ? `${this.city(ticket.a)}–${this.city(ticket.b)} (${ticket.points})` : id.split("|").map(this.city).join("–");
  },

  routeLabel(id) {
    const r = this.routes?.get(id);
    if (!r) return id;
    return `${this.city(r.a)}–${this.city(r.b)} (${r.length}, ${word(r.colour)})`;
  },

  describe(event, ctx) {
    const d = event.data || {};
    const who = d.seat !== undefined ? ctx.seatName(d.seat) : "";
    const secret = ctx.revealed(event);
    const named = (items) => list((items || []).map(word));
    switch (event.kind) {
      case "TrainCardsShuffled": return pt("TrainCardsShuffled", "The {count} train cards were shuffled", { count: d.count });
      case "TicketsShuffled": return pt("TicketsShuffled", "The {count} destination tickets were shuffled", { count: d.count });
      case "DiscardsShuffled": return pt("DiscardsShuffled", "{count} discards were shuffled into a new deck", { count: d.count });
      case "CardsDealt":
        return tpn("CardsDealt", "{who} was dealt {n} card", "{who} was dealt {n} cards", d.count, { who }) +
          (secret.cards ? `: ${named(secret.cards)}` : "");
      case "TicketsDealt":
        return pt("TicketsDealt", "{who} was dealt {count} tickets", { who, count: d.count }) +
          (secret.tickets ? `: ${secret.tickets.map((id) => this.ticketLabel(id)).join("; ")}` : "");
      case "TicketsDrawn":
        return pt("TicketsDrawn", "{who} drew {count} tickets", { who, count: d.count }) +
          (secret.tickets ? `: ${secret.tickets.map((id) => this.ticketLabel(id)).join("; ")}` : "");
      case "TicketsKept": {
        const kept = secret.kept ? `: ${secret.kept.map((id) => this.ticketLabel(id)).join("; ")}` : "";
        const back = d.returned ? t(", returned {returned}", { returned: d.returned }) : "";
        const said = d.kept !== undefined
          ? tpn("TicketsKept", "{who} kept {n} ticket", "{who} kept {n} tickets", d.kept, { who })
          : pt("TicketsKept", "{who} kept tickets", { who });
        return said + kept + back;
      }
      case "TicketChoicesRevealed": {
        const choices = list(Object.entries(d.kept || {}).map(([s, n]) => t("{seat} kept {count}", { seat: ctx.seatName(Number(s)), count: n })));
        return pt("TicketChoicesRevealed", "Opening ticket choices revealed: {choices}", { choices });
      }
      case "MarketCardTurnedUp":
        return pt("MarketCardTurnedUp", "A {card} card was turned up in the market (slot {slot})", { card: word(d.card), slot: d.slot + 1 });
      case "MarketRefilled":
        return pt("MarketRefilled", "A {card} card was turned up in the market (slot {slot})", { card: word(d.card), slot: d.slot + 1 });
      case "MarketWiped": return pt("MarketWiped", "Three locomotives in the market: it was wiped ({cards})", { cards: named(d.discarded) });
      case "FirstPlayerChosen": return pt("FirstPlayerChosen", "{who} was chosen to play first", { who });
      case "TurnStarted": return pt("TurnStarted", "{who}'s turn", { who });
      case "CardDrawn":
        if (d.source === "market") {
          const card = d.card ? word(d.card) : t("card");
          return pt("CardDrawn", "{who} took a {card} from the market", { who, card });
        }
        return pt("CardDrawn", "{who} drew a card from the deck", { who }) + (secret.card ? ` (${word(secret.card)})` : "");
      case "RouteClaimed":
        return tpn("RouteClaimed", "{who} claimed {route} for {n} point ({left} trains left)", "{who} claimed {route} for {n} points ({left} trains left)",
          d.points, { who, route: this.routeLabel(d.route), left: d.trains_left });
      case "TurnPassed": return pt("TurnPassed", "{who} passed", { who });
      case "PlayStalled": return pt("PlayStalled", "Play stalled: nobody can move");
      case "FinalRoundBegan": return pt("FinalRoundBegan", "{who} has {left} trains left: the final round begins", { who, left: d.trains_left });
      case "TicketScored":
        return (d.completed
          ? pt("TicketScored", "{who}'s ticket {ticket} completed: {points}", { who, ticket: this.ticketLabel(d.ticket), points: `${d.points > 0 ? "+" : ""}${d.points}` })
          : pt("TicketScored", "{who}'s ticket {ticket} failed: {points}", { who, ticket: this.ticketLabel(d.ticket), points: `${d.points > 0 ? "+" : ""}${d.points}` }));
      case "LongestPathScored":
        return pt("LongestPathScored", "Longest path ({longest}): {winners} +{points}", { longest: d.longest, winners: list((d.winners || []).map(ctx.seatName)), points: d.points });
      default: return null;
    }
  },

  marks(events, ctx) {
    const turns = [];
    const phases = [];
    const once = new Set();
    const phase = (version, label) => {
      if (!once.has(label)) { once.add(label); phases.push({ version, label }); }
    };
    for (const e of events) {
      if (e.kind === "FirstPlayerChosen") phase(e.version, t("Opening: ticket choice"));
      else if (e.kind === "TurnStarted") {
        phase(e.version, t("Play"));
        turns.push({ version: e.version, label: t("Turn {turn}: {seat}", { turn: turns.length + 1, seat: ctx.seatName(e.data.seat) }) });
      } else if (e.kind === "FinalRoundBegan") phase(e.version, t("Final round"));
      else if (e.kind === "TicketScored" || e.kind === "LongestPathScored") phase(e.version, t("Final scoring"));
    }
    return { turns, phases };
  },

  // Without the scores projection: VP by source folded from the events themselves.
  vpFold(figures, event) {
    const d = event.data || {};
    const add = (before, seat, source, points) => ({
      ...before, [seat]: { ...(before[seat] || {}), [source]: ((before[seat] || {})[source] || 0) + points },
    });
    if (event.kind === "RouteClaimed") return add(figures, d.seat, "routes", d.points);
    if (event.kind === "TicketScored") return add(figures, d.seat, "tickets", d.points);
    if (event.kind === "LongestPathScored") {
      return (d.winners || []).reduce((f, seat) => add(f, seat, "longest_path", d.points), figures);
    }
    if (event.kind === "AdjustmentMade" && d.kind === "piece" && d.detail?.route) {
      const route = this.routes?.get(d.detail.route);
      if (route) return add(figures, d.seat, "routes", -route.points);
    }
    return null;
  },
  sources: ["routes", "tickets", "longest_path", "adjustment"],
};

// Which cities a seat's routes join: `joined(city)` names the group a city is in (undefined
// for a city none of them reaches).
function connected(routes) {
  const parent = new Map();
  const find = (c) => {
    while (parent.get(c) !== c) c = parent.get(c);
    return c;
  };
  for (const id of routes) {
    const [a, b] = cityPair(id);
    for (const c of [a, b]) if (!parent.has(c)) parent.set(c, c);
    parent.set(find(a), find(b));
  }
  return (city) => (parent.has(city) ? find(city) : undefined);
}

// A card's colour comes from the page's CSS by its data-card (replay.css): a style set on
// each chip was parsed again whenever the market or a hand changed, most steps.
function chip(kind, count, place) {
  return h("span", { class: "chip", title: word(kind), dataset: place ? { card: kind, place } : { card: kind } },
    count !== undefined ? `${word(kind)} ×${count}` : word(kind));
}

// The car spaces of a route: rectangles along the line between its cities, the two lanes
// of a double route side by side, laid along the route's own axis (from city a, turned to
// city b) under one transform for the route. A route's rectangles are one path, a closed
// subpath a car: a rectangle per car made the map some 730 elements, each styled, laid out
// and painted apart. `spaces` are the empty spaces; `claimed`, the cars of a claim, a little
// taller.
function carsOf(route, map) {
  const [a, b] = cityPair(route.id).map((name) => map.cities[name]);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const dist = Math.hypot(dx, dy);
  const offset = route.double ? (route.lane === 0 ? -LANE : LANE) : 0;
  const usable = dist - 2 * (CITY_R + 2);
  const slot = usable / route.length;
  const carLen = Math.max(3, slot - 2);
  const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
  const row = (top, height) => Array.from({ length: route.length }, (_, i) => {
    const x = CITY_R + 2 + slot * (i + 0.5) - carLen / 2;
    return `M${x.toFixed(1)} ${top.toFixed(1)}h${carLen.toFixed(1)}v${height}h${(-carLen).toFixed(1)}z`;
  }).join("");
  return {
    transform: `translate(${a.x.toFixed(1)} ${a.y.toFixed(1)}) rotate(${angle.toFixed(2)})`,
    spaces: row(offset - 3.5, 7),
    claimed: row(offset - 4.5, 9),
  };
}
