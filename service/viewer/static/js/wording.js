// Each event in words. The core's own events (creation, seed, referee tools, takebacks) are
// worded here; a game's events by its renderer's `describe`; anything else generically,
// so an event of a newer ruleset still shows up readably.

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
  return name === "referee" ? "The referee" : ctx.refereeName(name);
};

const signed = (n) => (n > 0 ? `+${n}` : String(n));

const CORE = {
  GameCreated: (d, ctx) =>
    `Game created: ${ctx.title} for ${d.seats.map((s) => s.name).join(", ")} ` +
    (d.seed_source === "table" ? "(played at a table: every random outcome entered by hand)"
      : `(seed ${d.seed_source === "client" ? "chosen by the client" : "drawn by the server"}, committed)`),
  SeedRevealed: () => "Seed revealed: every shuffle and die roll can now be re-derived",
  GameRewound: (d, ctx) =>
    `${ctx.refereeName(d.referee)} rewound the game to event ${d.to_version}: ${d.reason}` +
    (d.dispute ? ` (settles dispute #${d.dispute})` : ""),
  MoveTakenBack: (d, ctx) => `${ctx.seatName(d.seat)}'s move was taken back: the game returns to event ${d.to_version}`,
  TakebackRequested: (d, ctx) =>
    `${ctx.seatName(d.seat)} asked to take back events ${d.move[0]}–${d.move[1]}`,
  TakebackAccepted: (d, ctx) => `${ctx.actorName(d.by)} accepted ${ctx.seatName(d.seat)}'s takeback`,
  TakebackRefused: (d, ctx) =>
    `${ctx.actorName(d.by)} refused ${ctx.seatName(d.seat)}'s takeback${d.reason ? `: ${d.reason}` : ""}`,
  DisputeRaised: (d, ctx) =>
    `Dispute about event ${d.version}, raised by ${ctx.actorName(d.raised_by)}: ${d.claim}`,
  RulingMade: (d, ctx) => `${ctx.refereeName(d.referee)} ruled on dispute #${d.dispute}: ${d.outcome} — ${d.text}`,
  AdjustmentMade: (d, ctx) => {
    const what = d.kind === "piece"
      ? `put back ${ctx.seatName(d.seat)}'s piece ${Object.values(d.detail || {}).join(", ")}`
      : `adjusted ${ctx.seatName(d.seat)}'s ${d.kind === "vp" ? "VP" : d.kind} by ${signed(d.amount)}`;
    return `${ctx.refereeName(d.referee)} ${what}: ${d.reason}` + (d.dispute ? ` (dispute #${d.dispute})` : "");
  },
  SeatJoined: (d) => `${d.name} joined, taking seat ${d.seat}`,
  SeatTakenOver: (d, ctx) =>
    `${byReferee(d.by, ctx)} handed ${ctx.seatName(d.seat)}'s seat to the ${d.level} bot: ${d.reason}`,
  SeatHandedBack: (d, ctx) =>
    `${byReferee(d.by, ctx)} handed ${ctx.seatName(d.seat)}'s seat back from the ${d.level} bot: ${d.reason}`,
  MoveDeadlineSet: (d, ctx) =>
    d.seconds === null || d.seconds === undefined
      ? `${byReferee(d.by, ctx)} lifted the move deadline`
      : `${byReferee(d.by, ctx)} set the move deadline to ${d.seconds} s`,
  DeadlinePassed: (d, ctx) =>
    `${ctx.seatName(d.seat)} let the ${d.seconds} s move deadline pass: the ${d.level} bot moves for them`,
  OutcomeAwaited: (d, ctx) => `${ctx.seatName(d.seat)}'s move waits for ${d.needed.describe}`,
  OutcomeEntered: (d, ctx, e) => {
    const value = "outcome" in d ? d.outcome : revealed(e).outcome;
    const shown = value === undefined ? "(secret)" : typeof value === "string" ? value : JSON.stringify(value);
    return `${d.what}: ${shown} — entered by ${d.by}`;
  },
  ForkedFrom: (d, ctx) =>
    `Forked by ${ctx.refereeName(d.referee)} from game ${d.origin} at event ${d.at_version}: ${d.reason}`,
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
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
}
