// The lobby's tournaments and ratings: every tournament (newest activity first), linking to
// its page, and the best rated players of each game (OpenSkill, from finished tournament tables).
import { call } from "./rest.js";
import { el, titleOf } from "./words.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const STATUSES = { registering: () => t("registration open"), running: () => t("in play"), finished: () => t("finished") };
const SHOWN = 5;

function tournamentCard(tournament) {
  const status = (STATUSES[tournament.status] || (() => tournament.status))();
  return el("li", { cls: "card", attrs: { "data-status": tournament.status === "finished" ? "finished" : "active" } }, [
    el("h3", {}, [el("a", { text: tournament.name, attrs: { href: `/tournaments/${encodeURIComponent(tournament.tournament_id)}` } })]),
    el("p", { text: t("{game}: {players} players, {rounds} rounds paired, {status}", {
      game: titleOf(tournament.game), players: tournament.players, rounds: tournament.rounds, status }) }),
  ]);
}

function ratingList(game, rows) {
  return el("div", {}, [
    el("h4", { text: titleOf(game) }),
    el("ol", {}, rows.slice(0, SHOWN).map((r) => el("li", { text: t("{player}: {rating} ({games} games)",
      { player: r.player, rating: r.rating, games: r.games }) }))),
  ]);
}

async function show() {
  try {
    const [listed, rated] = await Promise.all([call("GET", "/api/v1/tournaments"), call("GET", "/api/v1/ratings")]);
    $("tournaments").replaceChildren(...listed.tournaments.map(tournamentCard));
    $("tournaments-empty").hidden = listed.tournaments.length > 0;
    const games = Object.entries(rated.ratings).filter(([, rows]) => rows.length);
    $("ratings").replaceChildren(...games.map(([game, rows]) => ratingList(game, rows)));
    $("ratings-empty").hidden = games.length > 0;
  } catch {
    $("tournaments-empty").hidden = false;
  }
}

show();
