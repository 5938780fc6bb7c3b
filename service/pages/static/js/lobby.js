// The lobby: "My games" from the tokens this browser holds, every game by status and title
// a page at a time (the listing's cursor links: newest activity first, no page counts, so
// games that move meanwhile are neither repeated nor skipped), a new game, and joining by
// invite. Everything goes through the REST API.
import * as rest from "./rest.js";
import { card, replayLink } from "./cards.js";
import { forget, held, keep } from "./held.js";
import { el, titleOf, withNames } from "./words.js";
import { setUpCreate } from "./create.js";
import { isolated, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const PER_PAGE = Math.min(200, Math.max(1, Number(params.get("per_page")) || 10));
// The page shown: the server's answer (its `next` and `prev` links) and its number from the newest.
const state = { answer: null, number: 1 };

// A message beside what it answers: the form whose button was pressed, else the top of the page.
function notify(message, kind = "info", where = "notice") {
  const notice = $(where);
  notice.replaceChildren(...withNames(message));
  notice.dataset.kind = kind;
  notice.hidden = !message;
}

// This browser's entries by game, newest kept first: one card per game.
function heldByGame() {
  const games = new Map();
  for (const entry of held()) games.set(entry.game_id, [...(games.get(entry.game_id) || []), entry]);
  return games;
}

async function showMine() {
  const games = heldByGame();
  $("mine-empty").hidden = games.size > 0;
  const items = await Promise.all([...games.values()].map(async (entries) => {
    const entry = entries.find((e) => e.seat !== null) || entries[0];
    try {
      return card(await rest.summary(entry.game_id, entry.token), entries);
    } catch (error) {
      const item = el("li", { cls: "card", attrs: { "data-game-id": entry.game_id } }, [
        el("h3", {}, withNames(titleOf(entry.game || "game"))),
        el("p", { text: error.status === 404 ? t("This game is not on this server.") : t("Not available: {error}", { error: error.message }) }),
        el("p", { cls: "id", text: entry.game_id }),
      ]);
      const drop = el("button", { text: t("Forget it"), cls: "quiet", attrs: { type: "button" } });
      drop.addEventListener("click", () => { for (const e of entries) forget(e.game_id, e.seat); showMine(); });
      item.append(drop);
      return item;
    }
  }));
  $("my-games").replaceChildren(...items);
}

function showPage() {
  const { games, next, prev } = state.answer;
  const mine = heldByGame();
  $("games").replaceChildren(...games.map((s) => card(s, mine.get(s.game_id) || [])));
  $("games-empty").hidden = games.length > 0;
  $("pager").hidden = !next && !prev;
  $("page-of").textContent = t("page {number}", { number: state.number });
  $("prev-page").disabled = !prev;
  $("next-page").disabled = !next;
}

// The seats this browser holds, when "waiting for me" is ticked (a referee holds no seat).
function waitingTokens() {
  return $("filter-mine").checked ? held().filter((e) => e.seat !== null).map((e) => e.token) : [];
}

// `link`: a `next` or `prev` link of the page shown; none: the newest page of the filters.
async function showGames(link = null, number = 1) {
  $("games-loading").hidden = false;
  try {
    const seatTokens = waitingTokens();
    if ($("filter-mine").checked && !seatTokens.length) {
      state.answer = { games: [], next: null, prev: null };
    } else {
      const newest = () =>
        rest.games({ status: $("filter-status").value, game: $("filter-game").value, limit: PER_PAGE, seatTokens });
      state.answer = link ? await rest.page(link, seatTokens) : await newest();
      // Back at the front, a short page (games moved to the front meanwhile) is filled up: the newest page.
      if (link && !state.answer.prev && state.answer.games.length < PER_PAGE) state.answer = await newest();
    }
    state.number = state.answer.prev ? number : 1;
    showPage();
  } catch (error) {
    notify(t("The games could not be listed: {error}", { error: error.message }), "error");
  } finally {
    $("games-loading").hidden = true;
  }
}

// A turn notice's link (`#play=GAME&seat=N`): the seat's play page, opened with the token
// this browser keeps for it (notices never carry a token).
function openPlay() {
  const asked = new URLSearchParams(location.hash.slice(1));
  const gameId = asked.get("play");
  if (!gameId) return false;
  const seat = Number(asked.get("seat"));
  const entry = held().find((e) => e.game_id === gameId && e.seat === seat);
  history.replaceState(null, "", location.pathname + location.search);
  if (entry) {
    location.replace(replayLink(gameId, entry.token));
    return true;
  }
  notify(t("This browser keeps no token for seat {seat} of game {game}: open the link in the browser you play in, or give your token on the game's page.",
    { seat, game: gameId }), "error");
  const open = el("a", { text: t("Open the game"), attrs: { href: replayLink(gameId), id: "play-elsewhere" } });
  $("notice").append(" ", open);
  return false;
}

function setUpJoin() {
  const fromLink = new URLSearchParams(location.hash.slice(1));
  if (fromLink.get("join")) {
    $("join-game").value = fromLink.get("join");
    $("join-invite").value = fromLink.get("invite") || "";
    $("join-name").focus();
  }
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const gameId = $("join-game").value.trim();
    const name = $("join-name").value.trim();
    try {
      const joined = await rest.join(gameId, $("join-invite").value.trim(), name);
      const summary = await rest.summary(gameId, joined.token);
      keep({ game_id: gameId, seat: joined.seat, token: joined.token, name, game: summary.game });
      history.replaceState(null, "", location.pathname + location.search);  // the invite is used up
      $("join-form").reset();
      notify(t("You joined {game} as {name} (seat {seat}).", { game: titleOf(summary.game), name: isolated(name), seat: joined.seat }), "info", "join-notice");
      await Promise.all([showMine(), showGames()]);
    } catch (error) {
      notify(t("Could not join: {error}", { error: error.message }), "error", "join-notice");
    }
  });
}

async function start() {
  window.addEventListener("hashchange", openPlay);
  if (openPlay()) return;
  $("filters").addEventListener("change", () => showGames());
  $("prev-page").addEventListener("click", () => showGames(state.answer.prev, state.number - 1));
  $("next-page").addEventListener("click", () => showGames(state.answer.next, state.number + 1));
  setUpJoin();
  try {
    const { rulesets } = await rest.rulesets();
    for (const r of rulesets) $("filter-game").append(el("option", { text: titleOf(r.game), attrs: { value: r.game, translate: "no" } }));
    setUpCreate(rulesets, (message, kind) => notify(message, kind, "create-notice"),
      async () => { await Promise.all([showMine(), showGames()]); });
  } catch (error) {
    notify(t("The games this server plays could not be read: {error}", { error: error.message }), "error");
  }
  await Promise.all([showMine(), showGames()]);
  document.body.dataset.ready = "true";
}

start();
