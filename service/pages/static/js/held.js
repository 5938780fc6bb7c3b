// The tokens this browser holds, in localStorage: what "My games" lists. A token is the
// only key to a seat, so it never leaves this browser except in requests to this server.

const KEY = "caboose.lobby.tokens";

export function held() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

// One entry per game and seat (a referee's seat is null): keeping a token again replaces it.
export function keep(entry) {
  const others = held().filter((e) => !(e.game_id === entry.game_id && e.seat === entry.seat));
  localStorage.setItem(KEY, JSON.stringify([{ ...entry, kept_at: new Date().toISOString() }, ...others]));
}

export function forget(gameId, seat) {
  localStorage.setItem(KEY, JSON.stringify(held().filter((e) => !(e.game_id === gameId && e.seat === seat))));
}
