// The first board's data, asked for as soon as the page's head is read: the page's modules
// arrive a round trip or two later, and the first board would wait for them before asking.
// Asked here: the view at the version shown (that one view: a run of them costs the server
// a fold per version before the first answer), the game's summary and its board map; main.js
// takes these answers over (api.js `adopt`) when its viewpoint is the one asked with.
// A plain script, not a module, and not deferred: it runs as soon as it arrives, before main.js.
(() => {
  const { gameId, game, version, boardMap } = document.currentScript.dataset;
  const url = new URL(window.location.href);
  let token = sessionStorage.getItem(`caboose.replay.token.${gameId}`);
  if (url.searchParams.has("token")) token = url.searchParams.get("token") || null;
  const known = Number(version) || 1;
  const asked = Math.round(Number(url.searchParams.get("at")));
  const initial = Number.isFinite(asked) && asked ? Math.min(known, Math.max(1, asked)) : known;
  const get = (path, auth) => {
    const headers = { Accept: "application/json" };
    if (auth && token) headers.Authorization = `Bearer ${token}`;
    return fetch(path, { headers, cache: "no-store" });
  };
  const id = encodeURIComponent(gameId);
  const responses = new Map([
    [`/games/${id}/replay/views?from=${initial}&to=${initial}`, get(`/games/${id}/replay/views?from=${initial}&to=${initial}`, true)],
    [`/api/v1/games/${id}`, get(`/api/v1/games/${id}`, true)],
  ]);
  if (boardMap) {
    const map = `/replay/maps/${encodeURIComponent(game)}.json`;
    responses.set(map, get(map, false));
  }
  for (const pending of responses.values()) pending.catch(() => {}); // a failure is the page's to report
  window.replayBoot = { token, initial, responses };
})();
