// Each event in words. The core's own events (creation, seed, referee tools, takebacks) are
// worded here; a game's events by its renderer's `describe`; anything else generically,
// so an event of a newer ruleset still shows up readably.

import { list, pt, t, timeOf, tn } from "/pages/static/js/i18n.js";

const CATEGORY = {
  GameRewound: "rewind",
  MoveTakenBack: "takeback",
  TakebackRequested: "takeback",
  TakebackAccepted: "takeback",
  TakebackRefused: "takeback",
  DisputeRaised: "dispute",
  RulingMade: "ruling",
  AdjustmentMade: "adjustment",
  ForkedFrom: "fork",
  SeatTakenOver: "bot",
  SeatHandedBack: "bot",
  MoveDeadlineSet: "bot",
  DeadlinePassed: "bot",
  OutcomeAwaited: "outcome",
  OutcomeEntered: "outcome",
};

// The kinds a referee or a takeback wrote: marked distinctly in the list and on the slider.
export function category(event) {
  return CATEGORY[event.kind] || (event.actor === "system" ? "automatic" : "move");
}

export function isRewind(event) {
  return event.kind === "GameRewound" || event.kind === "MoveTakenBack";
}

// What this viewer may read of an event's secrets: the values the API left in (a seat's
// own, or all for a referee or a finished game), merged; digests only are skipped.
export function revealed(event) {
  const out = {};
  for (const secret of event.secrets || []) {
    if ("value" in secret && secret.value && typeof secret.value === "object") Object.assign(out, secret.value);
  }
  return out;
}

export function hidden(event) {
  return (event.secrets || []).some((s) => !("value" in s));
}

// Who handed a seat to a bot or set a deadline: `referee:NAME`; a game's own referee token
// acts as the name "referee".
const byReferee = (by, ctx) => {
  const name = String(by ?? "").startsWith("referee:") ? String(by).slice(8) : null;
  if (name === null) return ctx.actorName(by);
  if (name === "table") return t("the table"); // an outcome typed in as it fell at the table
  return name === "referee" ? t("The referee") : ctx.refereeName(name);
};

// What a table was asked for, in the reader's words: the opening is the core's request
// (`domain/core/transcription.py`), a game's own ("goods growth: light dice") its renderer's
// (`outcomeWhat`); a request the renderer does not know keeps the game's words.
const OPENING = "the opening as laid out at the table";
function outcomeWhat(what, ctx) {
  if (what === OPENING) return t("the opening as laid out at the table");
  return ctx.renderer?.outcomeWhat?.(what, ctx) ?? what;
}

// A value entered at the table: dice as their faces, a label as the game words it (a cube's
// colour, a card), anything else as its JSON.
function outcomeValue(value, ctx) {
  if (Array.isArray(value)) return value.map((v) => outcomeValue(v, ctx)).join(", ");
  if (typeof value === "string") return ctx.renderer?.outcomeValue?.(value, ctx) ?? value;
  return typeof value === "number" ? String(value) : JSON.stringify(value);
}

// What a move waits for, as the request says it: so many dice, or so many of the labels.
function needed(request, ctx) {
  if (!request || typeof request !== "object") return String(request ?? "");
  const what = outcomeWhat(request.what, ctx);
  if (request.kind === "roll") return tn("{what}: {count} die", "{what}: {count} dice", request.count, { what, count: request.count });
  if (request.kind === "number") return t("{what}: a number from 0 to {last}", { what, last: (request.options || []).length - 1 });
  return t("{what}: {count} of {labels}", { what, count: request.count,
    labels: list((request.labels || []).map((label) => outcomeValue(label, ctx))) });
}

// The words a record holds as values (a ruling's outcome, what was adjusted, a bot's level).
const WORDS = {
  upheld: t("upheld"), dismissed: t("dismissed"), withdrawn: t("withdrawn"),
  cash: t("cash"), income: t("income"), piece: t("piece"),
  random: t("random"), playout: t("playout"), greedy: t("greedy"), planner: t("planner"),
};
const word = (value) => WORDS[value] ?? value;

const signed = (n) => (n > 0 ? `+${n}` : String(n));
// An optional tail of a sentence, worded only when it has something to say.
const tail = (present, text) => (present ? text : "");

// Each kind's sentences under its kind as the catalogue's context, so a kind's sentence is
// found (and checked for in every language) by its kind.
const CORE = {
  GameCreated: (d, ctx) => {
    // Each seat by its player's name as the game knows it now: a seat made open and joined
    // later reads "Ben", not the placeholder it was created with ("open seat 1").
    const players = list(d.seats.map((s, index) => ctx.seatName(s.seat ?? index)));
    if (d.seed_source === "table") {
      return pt("GameCreated", "Game created: {title} for {players} (played at a table: every random outcome entered by hand)",
        { title: ctx.title, players });
    }
    const source = d.seed_source === "client" ? t("chosen by the client") : t("drawn by the server");
    return pt("GameCreated", "Game created: {title} for {players} (seed {source}, committed)",
      { title: ctx.title, players, source });
  },
  SeedRevealed: () => pt("SeedRevealed", "Seed revealed: every shuffle and die roll can now be re-derived"),
  GameRewound: (d, ctx) =>
    pt("GameRewound", "{referee} rewound the game to event {to}: {reason}", { referee: ctx.refereeName(d.referee), to: d.to_version, reason: d.reason }) +
    tail(d.dispute, t(" (settles dispute #{dispute})", { dispute: d.dispute })),
  MoveTakenBack: (d, ctx) =>
    pt("MoveTakenBack", "{seat}'s move was taken back: the game returns to event {to}", { seat: ctx.seatName(d.seat), to: d.to_version }),
  TakebackRequested: (d, ctx) =>
    pt("TakebackRequested", "{seat} asked to take back events {first}–{last}", { seat: ctx.seatName(d.seat), first: d.move[0], last: d.move[1] }),
  TakebackAccepted: (d, ctx) =>
    pt("TakebackAccepted", "{by} accepted {seat}'s takeback", { by: ctx.actorName(d.by), seat: ctx.seatName(d.seat) }),
  TakebackRefused: (d, ctx) =>
    pt("TakebackRefused", "{by} refused {seat}'s takeback", { by: ctx.actorName(d.by), seat: ctx.seatName(d.seat) }) +
    tail(d.reason, `: ${d.reason}`),
  DisputeRaised: (d, ctx) =>
    pt("DisputeRaised", "Dispute about event {version}, raised by {by}: {claim}", { version: d.version, by: ctx.actorName(d.raised_by), claim: d.claim }),
  RulingMade: (d, ctx) =>
    pt("RulingMade", "{referee} ruled on dispute #{dispute}: {outcome} — {text}",
      { referee: ctx.refereeName(d.referee), dispute: d.dispute, outcome: word(d.outcome), text: d.text }),
  AdjustmentMade: (d, ctx) => {
    const referee = ctx.refereeName(d.referee);
    const what = d.kind === "vp" ? t("VP") : word(d.kind);
    const said = d.kind === "piece"
      ? pt("AdjustmentMade", "{referee} put back {seat}'s piece {piece}: {reason}",
        { referee, seat: ctx.seatName(d.seat), piece: Object.values(d.detail || {}).join(", "), reason: d.reason })
      : pt("AdjustmentMade", "{referee} adjusted {seat}'s {what} by {amount}: {reason}",
        { referee, seat: ctx.seatName(d.seat), what, amount: signed(d.amount), reason: d.reason });
    return said + tail(d.dispute, t(" (dispute #{dispute})", { dispute: d.dispute }));
  },
  SeatJoined: (d) => pt("SeatJoined", "{name} joined, taking seat {seat}", { name: d.name, seat: d.seat }),
  SeatTakenOver: (d, ctx) =>
    pt("SeatTakenOver", "{by} handed {seat}'s seat to the {level} bot: {reason}",
      { by: byReferee(d.by, ctx), seat: ctx.seatName(d.seat), level: word(d.level), reason: d.reason }),
  SeatHandedBack: (d, ctx) =>
    pt("SeatHandedBack", "{by} handed {seat}'s seat back from the {level} bot: {reason}",
      { by: byReferee(d.by, ctx), seat: ctx.seatName(d.seat), level: word(d.level), reason: d.reason }),
  MoveDeadlineSet: (d, ctx) =>
    d.seconds === null || d.seconds === undefined
      ? pt("MoveDeadlineSet", "{by} lifted the move deadline", { by: byReferee(d.by, ctx) })
      : pt("MoveDeadlineSet", "{by} set the move deadline to {seconds} s", { by: byReferee(d.by, ctx), seconds: d.seconds }),
  DeadlinePassed: (d, ctx) =>
    pt("DeadlinePassed", "{seat} let the {seconds} s move deadline pass: the {level} bot moves for them",
      { seat: ctx.seatName(d.seat), seconds: d.seconds, level: word(d.level) }),
  OutcomeAwaited: (d, ctx) =>
    pt("OutcomeAwaited", "{seat}'s move waits for {needed}", { seat: ctx.seatName(Number(d.seat)), needed: needed(d.needed, ctx) }),
  OutcomeEntered: (d, ctx, e) => {
    const value = "outcome" in d ? d.outcome : revealed(e).outcome;
    const by = byReferee(d.by, ctx);
    // The opening's whole layout is not said again: the events after it lay it out in words.
    if (d.what === OPENING) return pt("OutcomeEntered", "{what} — entered by {by}", { what: outcomeWhat(d.what, ctx), by });
    const shown = value === undefined ? t("(secret)") : outcomeValue(value, ctx);
    return pt("OutcomeEntered", "{what}: {outcome} — entered by {by}", { what: outcomeWhat(d.what, ctx), outcome: shown, by });
  },
  // Every game ends so, with every seat's score and the winners (docs/FORMAT.md).
  GameEnded: (d, ctx) =>
    pt("GameEnded", "Game over: {scores}; winner {winners}", {
      scores: list(Object.entries(d.scores || {}).map(([s, v]) => `${ctx.seatName(Number(s))} ${v}`)),
      winners: list((d.winners || []).map(ctx.seatName)),
    }),
  ForkedFrom: (d, ctx) =>
    pt("ForkedFrom", "Forked by {referee} from game {origin} at event {at}: {reason}",
      { referee: ctx.refereeName(d.referee), origin: d.origin, at: d.at_version, reason: d.reason }),
};

export function describe(event, ctx) {
  const core = CORE[event.kind];
  if (core) {
    try { return core(event.data, ctx, event); } catch { /* an older shape: fall through */ }
  }
  const text = ctx.renderer.describe ? ctx.renderer.describe(event, ctx) : null;
  return text || generic(event, ctx);
}

function generic(event, ctx) {
  const words = event.kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  const parts = [];
  for (const [key, value] of Object.entries(event.data || {})) {
    if (key === "random") continue;
    const shown = key === "seat" ? ctx.seatName(value) : JSON.stringify(value);
    parts.push(`${key.replace(/_/g, " ")} ${shown}`);
  }
  return `${words[0].toUpperCase()}${words.slice(1)}${parts.length ? ": " + parts.join(", ") : ""}`;
}

export function formatTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return timeOf(date, { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
}
