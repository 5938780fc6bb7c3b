// The replay page: wires the API, the view cache, navigation, the event list, the game's
// renderer and the charts together. Nothing here knows a game's rules: a game is added by
// a renderer module, the game's own (`/replay/renderers/<game>.js`, from its package; see
// ../renderers/README.md).

import { Api, ApiError } from "./api.js";
import { Frames } from "./frames.js";
import { Navigator, PAUSE_MS, clamp, withRewinds } from "./navigation.js";
import { category, describe, isRewind, revealed } from "./wording.js";
import { h } from "./dom.js";
import { patternOf } from "./patterns.js";
import { namer } from "./names.js";
import { isolated, t } from "/pages/static/js/i18n.js";

const SEAT_COLOURS = ["#d62728", "#1f6fd1", "#2ca02c", "#e0a800", "#3b3b3b", "#9467bd", "#8c564b", "#17becf"];
const POLL_MS = 2000; // only when the live stream fails
const STREAM_RETRY_MS = 2000; // after a stream is cut, reconnect from the last version held
const STREAM_FAILURES = 3; // failed connections in a row before the page falls back to polling
const FILL_DELAY_MS = 400; // then fetch the rest of the game's views, one chunk at a time

// The event list, the charts and the figures they are drawn from are no part of the first
// board: they are loaded once it is painted (`theRest`, before the events are shown), three
// files fewer to wait for before it.
let EventList, LineChart, drawSourceBars, foldFigures, fromScores, incomeRows, timelineHasIncome, vpSeries;
let restLoaded = null;

function theRest() {
  restLoaded ||= Promise.all([import("./eventlist.js"), import("./charts.js"), import("./figures.js")])
    .then(([list, charts, figures]) => {
      ({ EventList } = list);
      ({ LineChart, drawSourceBars } = charts);
      ({ foldFigures, fromScores, incomeRows, timelineHasIncome, vpSeries } = figures);
    });
  return restLoaded;
}

const $ = (id) => document.getElementById(id);
const body = document.body;
const gameId = body.dataset.gameId;
const game = body.dataset.game;
const tokenKey = `caboose.replay.token.${gameId}`;

const page = {
  api: null,
  frames: null,
  nav: null,
  renderer: null,
  map: null,
  names: [],
  list: null, // the event list, holding the events (index = version - 1)
  play: null, // the seat's moves (play.js), made when a seat's token is in use
  finished: false,
  figures: null, // VP by source per version, folded from events when the projections are missing
  projections: true,
  sourcesCache: new Map(),
  waiters: new Map(),
  timings: { steps: [] },
  polling: null,
  polls: 0,
  stream: null, // the live stream's AbortController while one is open
  generation: 0, // bumped on a reload, so late answers for an old viewpoint are dropped
  booting: false, // while the first board is drawn and painted: nothing else is fetched
};

// The game's name in a sentence: in the reader's language, without its own name beside it
// (the heading shows that, marked as the proper name it is).
const inSentences = (title) => {
  const own = body.dataset.ownTitle;
  return own && title.endsWith(` (${own})`) ? title.slice(0, -own.length - 3) : title;
};

const ctx = {
  title: inSentences(body.dataset.title || game),
  named: namer(null), // the content pack's names in the reader's language, once the board map is in
  renderer: null,
  event: null,
  seatName: (seat) => (page.names[seat] == null ? t("seat {seat}", { seat }) : isolated(page.names[seat])),
  seatColour: (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length],
  refereeName: (name) => (name ? t("Referee {name}", { name }) : t("The referee")),
  actorName: (actor) => {
    if (actor === undefined || actor === null) return "";
    const text = String(actor);
    if (text === "system") return t("system");
    if (text.startsWith("seat:")) return ctx.seatName(Number(text.slice(5)));
    // The game's own referee token acts as "referee"; outcomes typed in at a table as "table".
    if (text === "referee:referee") return t("referee");
    if (text === "referee:table") return t("the table");
    if (text.startsWith("referee:")) return t("referee {name}", { name: text.slice(8) });
    return text;
  },
  revealed,
  events: () => page.list?.events || [],
};

// -- viewpoint --------------------------------------------------------------------------

// The token the link gave (boot.js took it out of the address bar) or this tab was given.
function takeToken() {
  return sessionStorage.getItem(tokenKey);
}

function showAudience(body) {
  const label = body.audience === "referee" ? t("referee") : body.audience.startsWith("seat:")
    ? t("{name} (seat {seat})", { name: ctx.seatName(Number(body.audience.slice(5))), seat: body.audience.slice(5) }) : t("public");
  $("audience").textContent = label + (body.everything_public ? t(" — the game is over, everything is public") : "");
  $("audience").dataset.audience = body.audience;
  ctx.mySeat = body.audience.startsWith("seat:") ? Number(body.audience.slice(5)) : null;
  showTitle();
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

// -- loading ----------------------------------------------------------------------------

// `name` is the page's `data-renderer`: the game's, where its package has one, else "generic".
async function loadRenderer(name) {
  if (name !== "generic" && /^[a-z0-9_]+$/.test(name)) {
    try {
      return (await import(`/replay/renderers/${name}.js`)).default;
    } catch (error) {
      console.warn(`no renderer for ${name}`, error);
    }
  }
  return (await import("../renderers/generic.js")).default;
}

async function start() {
  const token = takeToken();
  page.api = new Api(gameId, token);
  page.api.adopt(window.replayBoot);
  page.frames = new Frames(page.api, showAudience);
  const known = Number(body.dataset.version) || 1;
  page.frames.last = known;
  const asked = Number(new URL(window.location.href).searchParams.get("at"));
  const initial = asked ? clamp(asked, 1, known) : known;
  page.nav = new Navigator(known, initial);

  // Everything the first board needs is asked for at once (boot.js has asked already, as the
  // page's head was read); the events, the list and the charts follow once it is painted, so
  // that their larger answers do not hold it up.
  const first = page.frames.first(initial).catch((error) => viewpointFailed(error, initial));
  const summary = page.api.summary().catch(() => null);
  const boardMap = body.dataset.boardMap ? page.api.boardMap(game).catch(() => null) : null;
  const [renderer, map] = await Promise.all([loadRenderer(body.dataset.renderer || game), boardMap]);
  page.renderer = renderer;
  ctx.renderer = renderer;
  page.map = map;
  ctx.named = namer(map);
  if (!body.dataset.title || body.dataset.title === game) ctx.title = renderer.title || game;
  const info = await summary;
  if (info) applySummary(info);
  renderer.setup($("board"), map, ctx);
  bindControls();
  await first;
  page.booting = true;
  show(page.nav.version);
  performance.mark("replay:first-board");
  page.timings.firstBoard = performance.now();
  // Nothing more is asked of the server until the frame holding the first board has been
  // laid out and painted (what a visitor waits for): the views around it, the events and the
  // charts' figures cost the server a fold or a scan each, on the cores the browser paints on.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  performance.mark("replay:first-board-painted");
  page.booting = false;
  page.api.dropEarly();
  page.frames.around(page.nav.version);
  theRest();
  // Zooming the board waits for the board: nothing of it is needed to see the first one.
  import("./zoom.js").then(({ boardZoom }) => boardZoom($("board"), $("zoom")));
  await loadEvents();
  page.ready = true;
  body.dataset.ready = "true";
  setTimeout(() => page.frames.fill(page.nav.version).catch(() => {}), FILL_DELAY_MS);
}

function applySummary(info) {
  page.names = info.seats.map((s) => s.name);
  page.finished = info.status === "finished";
  showTitle();
  $("status").textContent = page.finished ? t("finished") : t("in progress");
  $("status").dataset.status = info.status;
}

// The game's title (its content pack's, else its renderer's) in the heading and the tab, and
// whether this page plays a seat or replays.
function showTitle() {
  const title = body.dataset.title && body.dataset.title !== game ? body.dataset.title : ctx.title;
  const seat = ($("audience").dataset.audience || "").startsWith("seat:") && !page.finished;
  // The game's own name beside its translation ("ตั๋วรถไฟ (Ticket to Ride)") is a proper name:
  // marked so, not as English left untranslated.
  const own = body.dataset.ownTitle;
  const at = own && title !== own && title.endsWith(` (${own})`) ? title.length - own.length - 3 : -1;
  replaceIfChanged($("game-title"), at < 0 ? [document.createTextNode(title)]
    : [document.createTextNode(`${title.slice(0, at)} (`), h("span", { translate: "no" }, own), document.createTextNode(")")]);
  $("game-seats").textContent = page.names.map((_, seat) => ctx.seatName(seat)).join(", ");
  const names = page.names.length ? ` · ${page.names.join(", ")}` : "";
  document.title = seat ? t("{title}{names} · Caboose play", { title, names }) : t("{title}{names} · Caboose replay", { title, names });
}

async function viewpointFailed(error, version) {
  if (forgetBadToken(error)) return page.frames.get(version);
  showError(t("Could not load the game: {error}", { error: error.message }));
  throw error;
}

// A token the server does not know for this game (401): say so and carry on publicly.
function forgetBadToken(error) {
  if (!(error instanceof ApiError && error.status === 401)) return false;
  if (page.api.token) {
    sessionStorage.removeItem(tokenKey);
    page.api.token = null;
  }
  showError(t("That token is not valid for this game: showing the public view."));
  return true;
}

async function loadEvents(pending) {
  const generation = page.generation;
  const notation = page.api.notation(); // asked for beside the events, waited for only to draw the list
  pending ||= page.api.events();
  pending.catch(() => {}); // handled below, once the list's code is in
  await theRest();
  page.list ||= new EventList($("event-list"), $("slider-marks"), ctx);
  let answer;
  try {
    answer = await pending;
  } catch (error) {
    if (!forgetBadToken(error)) throw error;
    answer = await page.api.events();
  }
  const { version, events } = answer;
  if (generation !== page.generation) return;
  if (!page.names.length) {
    const created = events.find((e) => e.kind === "GameCreated");
    page.names = created ? created.data.seats.map((s) => s.name) : [];
  }
  page.frames.last = Math.max(page.frames.last, version);
  page.nav.grow(version);
  ctx.notation = await notation;
  page.list.set(events);
  page.list.drawSliderMarks(page.nav.last);
  buildMarks();
  setSliderMax();
  await loadCharts();
  show(page.nav.version);
  if (!page.finished) startLive(); else stopLive();
  await refreshPlay();
}

// With a seat's token and the game running, the page offers the seat's moves (play.js,
// loaded only then: a viewer without a seat fetches none of it).
async function refreshPlay() {
  const seat = ($("audience").dataset.audience || "").startsWith("seat:") && !page.finished;
  if (!seat && !page.play) return;
  try {
    if (!page.play) {
      const { Play } = await import("./play.js");
      page.play ||= new Play($("play"), page.api, ctx, async () => {
        await catchUp(); // the seat's own move, at once (the stream may bring it too)
        await refreshPlay();
      });
    }
    await page.play.refresh(seat);
  } catch (error) {
    console.warn("legal moves not read", error);
  }
}

// -- drawing one version ----------------------------------------------------------------

function show(version) {
  const t0 = performance.now();
  const nav = page.nav;
  const view = page.frames.peek(version);
  ctx.event = page.list?.events[version - 1] || null;
  const board = $("board");
  if (view) {
    page.renderer.render(view, ctx);
    drawPanel(view);
    if (page.play) page.play.offers.remark(); // after the panels, whose cards may be places
    board.dataset.version = String(version);
    board.classList.remove("loading");
    loading(false);
    const waiting = page.waiters.get(version);
    if (waiting) { page.waiters.delete(version); waiting.forEach((resolve) => resolve()); }
  } else {
    board.classList.add("loading");
    loading(true);
    page.frames.get(version).then(() => {
      if (page.nav.version === version && page.frames.peek(version)) show(version);
    })
      .catch((error) => showError(t("Could not load event {version}: {error}", { version, error: error.message })));
  }
  $("slider").value = String(version);
  $("position").textContent = t("event {at} of {last}", { at: String(version), last: String(nav.last) });
  page.list?.highlight(version);
  page.vpChart?.cursor(version);
  syncMarks(version);
  scheduleSources(version, view);
  if (!page.booting) page.frames.prefetch(version, nav.direction);
  if (view) page.timings.steps.push(performance.now() - t0);
}

// The indicator's attribute is touched only when it changes: a step must not restyle it.
function loading(shown) {
  const indicator = $("loading");
  if (indicator.hidden === shown) indicator.hidden = !shown;
}

function drawPanel(view) {
  const { seats, table, tableKey } = page.renderer.panel ? page.renderer.panel(view, ctx) : { seats: [], table: [] };
  // The viewer's own seat is its hand, drawn apart from the others' and in full.
  const own = seats.find((s) => s.seat === ctx.mySeat);
  drawSeats($("seats"), own ? seats.filter((s) => s !== own) : seats);
  const hand = $("my-hand");
  if (own) drawSeats($("my-hand-seat"), [own]);
  else if (!hand.hidden) $("my-hand-seat").replaceChildren();
  if (hand.hidden === Boolean(own)) hand.hidden = !own;
  const key = tableKey === undefined ? undefined : JSON.stringify([tableKey, page.names]);
  if (key === undefined || drawnKeys.get($("table")) !== key) {
    replaceIfChanged($("table"), typeof table === "function" ? table() : table);
    drawnKeys.set($("table"), key);
  }
  const event = ctx.event;
  replaceIfChanged($("current-event"), event
    ? [h("span", { class: `cat-${category(event)}` }, `${event.version}. `, page.list.text(event.version) || describe(event, ctx))]
    : []);
}

function drawSeats(box, seats) {
  seats.forEach((s, i) => {
    // A seat whose renderer's key is the one drawn is left alone: its lines are not even built.
    const key = s.key === undefined ? undefined : JSON.stringify([s.key, s.seat, s.active, ctx.seatName(s.seat)]);
    const drawn = box.children[i];
    if (drawn && key !== undefined && drawnKeys.get(drawn) === key) return;
    const lines = typeof s.lines === "function" ? s.lines() : s.lines;
    const node = h("div", { class: `seat${s.active ? " active" : ""}`, dataset: { seat: s.seat } },
      h("div", { class: "seat-name" }, h("span", { class: "swatch", dataset: { pattern: patternOf(s.seat) }, style: { backgroundColor: ctx.seatColour(s.seat) } }),
        ctx.seatName(s.seat), s.active ? h("span", { class: "to-move" }, t(" to move")) : null),
      ...lines);
    if (drawn) patchNode(drawn, node); else box.appendChild(node);
    drawnKeys.set(box.children[i], key);
  });
  for (let i = box.children.length - 1; i >= seats.length; i--) box.children[i].remove();
}

// What each seat's box (and the table) was last drawn from, by the renderer's key.
const drawnKeys = new WeakMap();

// Most steps change little beside the board (one seat's card count, a market slot): only the
// nodes that differ are touched, text in place, so the browser lays out and paints those
// alone. Rewriting the panels whole cost a Ticket to Ride step thousands of nodes taken out of
// the layout and put back (a seat's hand and tickets), on most steps.
function replaceIfChanged(container, nodes) {
  patchChildren(container, nodes);
}

function patchChildren(container, nodes) {
  const old = [...container.childNodes];
  nodes.forEach((next, i) => {
    const was = old[i];
    if (!was) container.appendChild(next);
    else patchNode(was, next);
  });
  for (let i = old.length - 1; i >= nodes.length; i--) old[i].remove();
}

function patchNode(was, next) {
  if (was.nodeType !== next.nodeType || was.nodeName !== next.nodeName) was.replaceWith(next);
  else if (next.nodeType === Node.TEXT_NODE) { if (was.data !== next.data) was.data = next.data; }
  else if (!was.isEqualNode(next)) {
    patchAttributes(was, next);
    patchChildren(was, [...next.childNodes]);
  }
}

// Styles go through the style object, as h() sets them: the page's policy refuses style attributes.
function patchAttributes(was, next) {
  for (const name of was.getAttributeNames()) if (!next.hasAttribute(name)) was.removeAttribute(name);
  for (const name of next.getAttributeNames()) {
    const value = next.getAttribute(name);
    if (was.getAttribute(name) === value) continue;
    if (name === "style") was.style.cssText = next.style.cssText;
    else was.setAttribute(name, value);
  }
}

// -- navigation -------------------------------------------------------------------------

// Every game opens with its setup and closes with the core's GameEnded: those two phases are
// marked here, and a renderer marks only what lies between.
function buildMarks() {
  const events = page.list.events;
  const marked = page.renderer.marks ? page.renderer.marks(events, ctx) : { turns: [], phases: [] };
  page.turnStarts = marked.turns; // as the game counts them: the income chart picks by turn number
  const ends = events.filter((e) => e.kind === "GameEnded").map((e) => ({ version: e.version, label: t("Game over") }));
  const turns = withRewinds(marked.turns, events, isRewind);
  const phases = withRewinds([{ version: 1, label: t("Setup") }, ...marked.phases, ...ends]
    .sort((a, b) => a.version - b.version), events, isRewind);
  page.nav.setMarks(turns, phases);
  const fill = (select, marks, none) => select.replaceChildren(
    h("option", { value: "" }, none),
    ...marks.map((m) => h("option", { value: m.version }, m.label)));
  fill($("turn"), turns, turns.length ? t("— turn —") : t("no turns"));
  fill($("phase"), phases, t("— phase —"));
  syncMarks(page.nav.version);
}

function syncMarks(version) {
  const turn = page.nav.markAt(page.nav.turns, version);
  const phase = page.nav.markAt(page.nav.phases, version);
  // Set only when it changes: a select with a new choice is laid out again.
  const set = (select, value) => { if (select.value !== value) select.value = value; };
  set($("turn"), turn ? String(turn.version) : "");
  set($("phase"), phase ? String(phase.version) : "");
}

function setSliderMax() {
  $("slider").max = String(page.nav.last);
  $("position").textContent = t("event {at} of {last}", { at: String(page.nav.version), last: String(page.nav.last) });
}

function bindControls() {
  const nav = page.nav;
  nav.addEventListener("change", (e) => show(e.detail.version));
  nav.addEventListener("grow", () => setSliderMax());
  nav.bindKeys(document);
  // A click (or a tap) on a route, a hex, or a card or row in the panels offers the moves tied
  // to it (play.js).
  $("board").addEventListener("click", (e) => {
    if (page.play && !$("play").hidden) page.play.pickOnBoard(e.target);
  });
  for (const id of ["table", "my-hand"]) {
    $(id).addEventListener("click", (e) => {
      const place = e.target.closest("[data-place]");
      if (place && page.play && !$("play").hidden) page.play.pickOnBoard(place);
    });
  }
  bindSheet();
  $("first").addEventListener("click", () => nav.first());
  $("prev").addEventListener("click", () => nav.step(-1));
  $("next").addEventListener("click", () => nav.step(1));
  $("last").addEventListener("click", () => nav.end());
  $("prev-turn").addEventListener("click", () => nav.jumpMark(nav.turns, -1));
  $("next-turn").addEventListener("click", () => nav.jumpMark(nav.turns, 1));
  $("slider").max = String(nav.last);
  $("slider").addEventListener("input", (e) => nav.go(Number(e.target.value)));
  for (const id of ["turn", "phase"]) {
    $(id).addEventListener("change", (e) => { if (e.target.value) nav.go(Number(e.target.value)); });
  }
  $("event-list").addEventListener("click", (e) => {
    const li = e.target.closest("li[data-version]");
    if (li) nav.go(Number(li.dataset.version));
  });
  $("viewpoint").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("token").value.trim();
    $("token").value = "";
    changeViewpoint(token || null);
  });
  $("public").addEventListener("click", () => changeViewpoint(null));
}

// The header's viewpoint and language fold behind one button on a phone; a seat's hand and
// moves are a sheet at the bottom of a phone's screen, folded by its handle, and the page keeps
// room for it below its end.
function bindSheet() {
  const more = $("header-more");
  more.addEventListener("click", () => {
    const open = document.querySelector("header").classList.toggle("open");
    more.setAttribute("aria-expanded", String(open));
  });
  const sheet = $("sheet");
  const toggle = $("sheet-toggle");
  toggle.addEventListener("click", () => {
    const folded = sheet.classList.toggle("folded");
    toggle.setAttribute("aria-expanded", String(!folded));
  });
  new ResizeObserver(([entry]) => {
    body.style.setProperty("--sheet-height", `${Math.ceil(entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height)}px`);
  }).observe(sheet);
}

// Another viewpoint sees other secrets: drop everything fetched and fetch it again.
async function changeViewpoint(token) {
  if (token) sessionStorage.setItem(tokenKey, token); else sessionStorage.removeItem(tokenKey);
  showError("");
  page.api.token = token;
  await reload();
}

async function reload() {
  page.generation++;
  page.frames.clear();
  page.sourcesCache.clear();
  const version = page.nav.version;
  await page.frames.get(version).catch((error) => viewpointFailed(error, version));
  const info = await page.api.summary().catch(() => null);
  if (info) applySummary(info);
  show(version);
  await loadEvents();
}

// -- charts -----------------------------------------------------------------------------

async function loadCharts() {
  const generation = page.generation;
  const nav = page.nav;
  if (!page.vpChart) page.vpChart = new LineChart($("chart-vp"), { onPick: (v) => nav.go(v) });
  let timeline = null;
  try { timeline = await page.api.timeline(); } catch { timeline = null; }
  if (generation !== page.generation) return;
  if (!(timeline && timeline.points && timeline.points.length)) timeline = null;
  page.projections = Boolean(timeline);
  page.figures = timeline ? null : foldFigures(page.list.events, page.renderer);
  const seats = page.names.map((name, seat) => ({ seat, name: ctx.seatName(seat), colour: ctx.seatColour(seat) }));
  page.vpChart.draw(vpSeries(seats, { timeline, figures: page.figures }), 1, nav.last);
  page.vpChart.cursor(nav.version);
  $("chart-vp").dataset.source = timeline ? "projection" : "events";
  drawIncome(timeline, seats);
}

function drawIncome(timeline, seats) {
  const renderer = page.renderer;
  const rows = incomeRows(seats.map((s) => s.seat),
    { timeline, turns: page.nav.turns, last: page.nav.last, renderer, events: page.list.events });
  const figure = $("income-figure");
  figure.hidden = !(rows && rows.length) && !renderer.incomeByTurn; // games without income show none
  if (figure.hidden) return;
  if (!page.incomeChart) {
    page.incomeChart = new LineChart($("chart-income"), {
      onPick: (turn) => {
        const mark = page.turnStarts[turn - 1];
        if (mark) page.nav.go(mark.version);
      },
    });
  }
  if (!rows || !rows.length) {
    page.incomeChart.draw([], 1, 1);
    return;
  }
  const series = seats.map((s) => ({
    ...s, points: rows.filter((r) => r.seats[s.seat] !== undefined && r.seats[s.seat] !== null).map((r) => [r.turn, r.seats[s.seat]]),
  }));
  const turns = rows.map((r) => r.turn);
  page.incomeChart.draw(series, Math.min(...turns), Math.max(...turns, Math.min(...turns) + 1), { step: false });
  $("chart-income").dataset.source = timelineHasIncome(timeline) ? "projection" : "events";
}

let sourcesTimer = null;
function scheduleSources(version, view) {
  clearTimeout(sourcesTimer);
  const fromView = view && page.renderer.vpBySource ? page.renderer.vpBySource(view) : null;
  if (fromView) return drawSources(fromView.sources, fromView.seats, version);
  if (!page.projections && page.figures) {
    const figures = page.figures[version - 1] || {};
    return drawSources(page.renderer.sources || [], figures, version);
  }
  const cached = page.sourcesCache.get(version);
  if (cached) return drawSources(cached.sources, cached.seats, version);
  sourcesTimer = setTimeout(async () => {
    try {
      const scores = await page.api.scores(version);
      if (!scores) return;
      const found = fromScores(scores);
      page.sourcesCache.set(version, found);
      if (page.nav.version === version) drawSources(found.sources, found.seats, version);
    } catch { /* the chart keeps its last picture */ }
  }, PAUSE_MS); // the scores projection is asked once the viewer pauses, not on every step
}

let sourcesKey = null;
function drawSources(sources, seats, version) {
  if (!drawSourceBars) return; // not loaded yet: drawn once the events are (loadEvents shows the board again)
  $("chart-sources").dataset.version = String(version);
  const key = JSON.stringify([sources, seats, page.names]);
  if (key === sourcesKey) return;
  sourcesKey = key;
  // The game's own order of sources first (routes before tickets...), then any other.
  const present = [...sources];
  for (const figures of Object.values(seats)) for (const k of Object.keys(figures || {})) if (!present.includes(k)) present.push(k);
  const order = page.renderer.sources || [];
  const rank = (s) => (order.includes(s) ? order.indexOf(s) : order.length);
  present.sort((a, b) => rank(a) - rank(b));
  const rows = page.names.map((name, seat) => ({ name, colour: ctx.seatColour(seat), bySource: seats[seat] || {} }));
  drawSourceBars($("chart-sources"), rows, present);
}

// -- live -------------------------------------------------------------------------------

// New events are pushed by the server (GET …/stream); the page polls only while the stream
// cannot be had, and tries the stream again after each failed spell of polling.
function startLive() {
  stopLive();
  $("live").hidden = false;
  follow(page.generation);
}

function stopLive() {
  page.stream?.abort();
  page.stream = null;
  clearTimeout(page.polling);
  page.polling = null;
  $("live").hidden = true;
}

async function follow(generation) {
  const controller = new AbortController();
  page.stream = controller;
  let failures = 0;
  let applying = Promise.resolve();
  const current = () => generation === page.generation && !page.finished && page.stream === controller;
  while (current()) {
    try {
      // Each reconnect resumes after the last event the page holds: no gap, no repeat.
      await page.api.stream(page.list.events.length, (events) => {
        failures = 0;
        applying = applying.then(() => current() && received(events, generation));
      }, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      failures++;
      console.warn("live stream failed", error);
    }
    await applying;
    if (!current()) return;
    if (failures >= STREAM_FAILURES) {
      page.stream = null;
      page.polling = setTimeout(poll, POLL_MS);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, STREAM_RETRY_MS));
  }
}

async function poll() {
  const generation = page.generation;
  if (page.stream) return; // the stream is back
  await catchUp();
  if (generation !== page.generation || page.finished || page.stream) return;
  if (++page.polls % 15 === 0) return follow(generation); // every 30 s, try the stream again
  page.polling = setTimeout(poll, POLL_MS);
}

// Fetch the events after the last one held (polling, or after the seat's own move).
async function catchUp() {
  const generation = page.generation;
  try {
    const { events } = await page.api.events(page.list.events.length);
    if (generation === page.generation) await received(events, generation);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 429)) console.warn("events not read", error);
  }
}

async function received(incoming, generation) {
  // The stream and a catch-up may bring the same events: keep the ones after the last held.
  const events = incoming.filter((e) => e.version > page.list.events.length);
  if (!events.length || generation !== page.generation) return;
  const version = events[events.length - 1].version;
  // A seat joined while the page was open: it goes by its name from now on, everywhere.
  const joined = events.filter((e) => e.kind === "SeatJoined");
  for (const e of joined) page.names[e.data.seat] = e.data.name;
  if (joined.length) showTitle();
  page.list.append(events);
  page.frames.last = Math.max(page.frames.last, version);
  buildMarks();
  page.nav.grow(version);
  page.list.drawSliderMarks(page.nav.last);
  const ended = events.some((e) => e.kind === "GameEnded" || e.kind === "SeedRevealed");
  const info = ended ? await page.api.summary().catch(() => null) : null;
  if (info && info.status === "finished") {
    // Once over, the whole game is public: what was fetched redacted is fetched again.
    applySummary(info);
    stopLive();
    await reload();
    return;
  }
  await loadCharts();
  show(page.nav.version);
  await refreshPlay();
}

// -- for tests and benchmarks -----------------------------------------------------------

window.replay = {
  page,
  // Go to `version` and resolve once its board is drawn.
  go(version) {
    const target = clamp(version, 1, page.nav.last);
    const drawn = new Promise((resolve) => {
      if (page.nav.version === target && $("board").dataset.version === String(target)) return resolve();
      const list = page.waiters.get(target) || [];
      list.push(resolve);
      page.waiters.set(target, list);
    });
    page.nav.go(target);
    return drawn;
  },
};

start().catch((error) => {
  console.error(error);
  showError(t("The replay could not start: {error}", { error: error.message }));
});
