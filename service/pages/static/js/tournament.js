// The tournament page: its standings, a round's tables (each linking to its game's replay),
// and its commitment; live: the tournament's stream pushes each of its records (a round
// paired, a table's result, a ruling, the end) and the page reads its standings and tables
// again. Everything comes from the REST API, as any client gets it.
import { call } from "./rest.js";
import { el, titleOf } from "./words.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const id = document.body.dataset.tournamentId;
const base = `/api/v1/tournaments/${encodeURIComponent(id)}`;
const shown = { round: null, rounds: 0, kind: null, version: 0 };

const FORMATS = { heats: () => t("heats, most wins advance"), swiss: () => t("Swiss rounds"), schedule: () => t("fixed schedule") };
const STATUSES = { registering: () => t("registration open"), running: () => t("in play"), finished: () => t("finished") };
const STAGES = { heat: () => t("heat"), semifinal: () => t("semifinal"), final: () => t("final"), round: () => t("round") };
const LADDER = {
  points: () => t("points"), wins: () => t("wins"), place_points: () => t("place points (1000/100/10/1)"),
  winner_percentage: () => t("percentage of the winner's score"), score_sum: () => t("sum of scores"), draw: () => t("the draw"),
};

function notify(message, kind = "info") {
  $("notice").textContent = message;
  $("notice").dataset.kind = kind;
  $("notice").hidden = !message;
}

const number = (value) => (value === null || value === undefined ? "–" : String(value));

function showSummary(summary) {
  $("name").textContent = summary.name;
  document.title = `${summary.name} · Caboose`;
  const format = (FORMATS[summary.format.kind] || (() => summary.format.kind))();
  $("facts").textContent = t("{game}, {format}, {players} players: {status}", {
    game: titleOf(summary.game), format, players: summary.players.length,
    status: (STATUSES[summary.status] || (() => summary.status))(),
  });
  $("ladder").textContent = t("Tie-breaks, in order: {ladder}", {
    ladder: summary.scoring.tie_breaks.map((name) => (LADDER[name] || (() => name))()).join(", "),
  });
  $("commitment").textContent = summary.commitment;
  $("secret").textContent = summary.secret || t("revealed when the tournament ends");
  $("audit-link").href = `${base}/audit`;
  $("export-link").href = `${base}/export`;
  shown.rounds = summary.rounds.length;
  shown.kind = summary.format.kind;
  shown.version = summary.version;
}

function showStandings(answer, ratings) {
  $("standings-loading").hidden = true;
  const rows = answer.standings.map((row) => el("tr", { attrs: { "data-withdrawn": String(Boolean(row.withdrawn)) } }, [
    el("td", { text: String(row.rank), cls: "number" }),
    el("th", { text: row.withdrawn ? t("{player} (withdrawn)", { player: row.player }) : row.player, attrs: { scope: "row" } }),
    el("td", { text: String(row.points), cls: "number" }),
    el("td", { text: String(row.wins), cls: "number" }),
    el("td", { text: String(row.games), cls: "number" }),
    el("td", { text: number(ratings.get(row.player)), cls: "number" }),
  ]));
  $("standings").tBodies[0].replaceChildren(...rows);
  const repeats = shown.kind !== "heats" && shown.rounds > 1;
  $("meetings").hidden = !repeats;
  if (repeats) {
    // The least is exact, or only a lower bound when the rounds were too many to search (docs/tournaments.md).
    $("meetings").textContent = answer.least_met_twice_exact === false
      ? t("Pairs of players who met more than once: {count} (the least possible: at least {least}).",
        { count: answer.met_twice, least: answer.least_met_twice })
      : t("Pairs of players who met more than once: {count} (the least possible: {least}).",
        { count: answer.met_twice, least: answer.least_met_twice });
  }
}

function seatLine(seat) {
  const place = seat.place ? t("place {place}, {score} points in the game, {points} tournament points",
    { place: seat.place, score: seat.score, points: seat.points }) : t("playing");
  return el("li", { text: `${seat.player} — ${place}` });
}

function tableCard(table) {
  const title = table.stage === "round" ? t("Round {round}, table {table}", { round: table.round, table: table.table })
    : t("Round {round}, table {table} ({stage})", {
      round: table.round, table: table.table, stage: (STAGES[table.stage] || (() => table.stage))(),
    });
  const status = { finished: () => t("finished"), playing: () => t("in play"),
    waiting: () => t("waiting for its opening to be entered") }[table.status]();
  const children = [
    el("h3", { text: title }),
    el("p", { text: status }),
    el("ol", { attrs: { start: "0", "aria-label": t("Seats, in turn order") } }, table.seats.map(seatLine)),
  ];
  if (table.ruled_by) children.push(el("p", { text: t("Result ruled by {referee}: {reason}", { referee: table.ruled_by, reason: table.ruling }) }));
  if (table.replay) children.push(el("p", { cls: "actions" }, [el("a", { text: t("Watch the replay"), attrs: { href: table.replay } })]));
  return el("li", { cls: "card", attrs: { "data-status": table.status, "data-game-id": table.game_id } }, children);
}

function showRounds() {
  const buttons = [];
  for (let round = 1; round <= shown.rounds; round += 1) {
    const button = el("button", { text: t("Round {round}", { round }), cls: "quiet", attrs: { type: "button" } });
    if (round === shown.round) button.setAttribute("aria-current", "true");
    button.addEventListener("click", () => { shown.round = round; refresh(); });
    buttons.push(button);
  }
  $("rounds").replaceChildren(...buttons);
}

async function ratingsOf(game) {
  try {
    const answer = await call("GET", `/api/v1/ratings?game=${encodeURIComponent(game)}`);
    return new Map((answer.ratings[game] || []).map((r) => [r.player, r.rating]));
  } catch {
    return new Map();
  }
}

let following = null;

async function refresh() {
  try {
    const summary = await call("GET", base);
    const follow = shown.round === null || shown.round === shown.rounds;
    showSummary(summary);
    if (follow) shown.round = shown.rounds || null;
    const [standings, ratings, tables] = await Promise.all([
      call("GET", `${base}/standings`), ratingsOf(summary.game),
      shown.round ? call("GET", `${base}/tables?round=${shown.round}`) : Promise.resolve({ tables: [] }),
    ]);
    showStandings(standings, ratings);
    showRounds();
    $("tables").replaceChildren(...tables.tables.map(tableCard));
    $("tables-empty").hidden = tables.tables.length > 0;
    notify("");
    document.body.dataset.ready = "true";
  } catch (error) {
    notify(error.status === 404 ? t("There is no such tournament here.") : t("Not available: {error}", { error: error.message }), "error");
    document.body.dataset.ready = "true";
  }
}

// Several records arrive together (a round's tables): read the tournament again once.
let pending = null;
function soon() {
  clearTimeout(pending);
  pending = setTimeout(refresh, 150);
}

function follow() {
  if (following) return;
  following = new EventSource(`${base}/stream?after=${shown.version}`);
  following.addEventListener("message", soon);
}

refresh().then(follow);
