// One game as a card: what it is, who plays, whose turn and since when, where to watch or play.
import { ago, el, seatName, titleOf, withNames } from "./words.js";
import { dateTimeOf, list, t } from "./i18n.js";

export function replayLink(gameId, token = null) {
  const url = `/games/${encodeURIComponent(gameId)}/replay`;
  // In the fragment, which the browser never sends: no server or proxy logs it. The replay
  // page takes it out of the address bar at once and keeps it for the tab.
  return token ? `${url}#token=${encodeURIComponent(token)}` : url;
}

function turnLine(summary, yourSeat) {
  if (summary.status === "finished") {
    const scores = summary.seats.map((s) => `${seatName(summary, s.seat)} ${summary.scores[s.seat] ?? 0}`);
    return el("p", { text: t("Finished · {scores}", { scores: list(scores) }) });
  }
  if (!summary.active_seats.length) return el("p", { text: t("Waiting for the game to go on") });
  const line = el("p", { cls: "turn" });
  line.append(t("To move: "));
  summary.active_seats.forEach((seat, i) => {
    if (i) line.append(", ");
    const since = summary.waiting_since[String(seat)];
    line.append(seat === yourSeat ? t("you ({seat})", { seat: seatName(summary, seat) }) : seatName(summary, seat));
    if (since) {
      line.append(t(" since "));
      line.append(el("time", { text: ago(since), attrs: { datetime: since, title: dateTimeOf(new Date(since)) } }));
    }
  });
  return line;
}

// `held` are this browser's entries for the game (My games): its seats and its referee's.
export function card(summary, held = []) {
  const seats = held.filter((e) => e.seat !== null).sort((a, b) => a.seat - b.seat);
  const yourSeat = seats.length ? seats[0].seat : null;
  const yours = yourSeat !== null && summary.status === "active" && summary.active_seats.includes(yourSeat);
  const players = summary.seats.map((s) => seatName(summary, s.seat)).join(", ");
  const item = el("li", {
    cls: "card",
    attrs: { "data-game-id": summary.game_id, "data-status": summary.status, "data-yours": String(yours) },
  });
  const heading = el("h3", {}, withNames(titleOf(summary.game)));
  if (yours) heading.append(t(" · your turn"));
  item.append(heading, el("p", { text: players }), turnLine(summary, yourSeat),
    el("p", { cls: "id", text: t("{game} · event {version}", { game: summary.game_id, version: String(summary.version) }) }));
  const actions = el("div", { cls: "actions" });
  // Your own seats first; the referee's view, which shows every seat's secrets, last and said so.
  for (const entry of seats) {
    const who = seatName(summary, entry.seat);
    actions.append(el("a", { text: t("Open as {who}", { who }), attrs: { href: replayLink(summary.game_id, entry.token) } }));
  }
  const referee = held.find((e) => e.seat === null);
  if (referee) {
    actions.append(el("a", { text: t("Open as referee (every seat's secrets)"), cls: "referee",
      attrs: { href: replayLink(summary.game_id, referee.token) } }));
  }
  if (!held.length) actions.append(el("a", { text: t("Watch"), attrs: { href: replayLink(summary.game_id) } }));
  item.append(actions);
  return item;
}
