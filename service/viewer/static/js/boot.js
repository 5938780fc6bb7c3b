// The first board's data, taken from the page or asked for as soon as the page's head is
// read: the page's modules arrive a round trip or two later, and the first board would wait
// for them before asking. The page holds the public view at the version shown, the game's
// summary and its board map (`data-first-board`); a seat's or the referee's view is asked
// for here (that one view: a run of them costs the server a fold per version before the
// first answer). main.js takes these answers over (api.js `adopt`) when its viewpoint is the
// one asked with.
// A plain script, not a module, and not deferred: it runs as soon as it arrives, before main.js.
(() => {
  const { gameId, game, version, boardMap } = document.currentScript.dataset;
  const url = new URL(window.location.href);
  let token = sessionStorage.getItem(`caboose.replay.token.${gameId}`);
  if (url.searchParams.has("token")) token = url.searchParams.get("token") || null;
  const known = Number(version) || 1;
  const asked = Math.round(Number(url.searchParams.get("at")));
  const initial = Number.isFinite(asked) && asked ? Math.min(known, Math.max(1, asked)) : known;
  const inPage = (kind, viewpoint) => {
    const node = document.querySelector(`script[data-first-board="${kind}"]`);
    if (!node || (viewpoint && (token || Number(node.dataset.version) !== initial))) return null;
    return Promise.resolve(new Response(node.textContent, { headers: { "Content-Type": "application/json" } }));
  };
  const get = (path, auth) => {
    const headers = { Accept: "application/json" };
    if (auth && token) headers.Authorization = `Bearer ${token}`;
    return fetch(path, { headers, cache: "no-store" });
  };
  const id = encodeURIComponent(gameId);
  const view = `/games/${id}/replay/views?from=${initial}&to=${initial}`;
  const responses = new Map([
    [view, inPage("views", true) || get(view, true)],
    [`/api/v1/games/${id}`, inPage("summary") || get(`/api/v1/games/${id}`, true)],
  ]);
  if (boardMap) {
    const map = `/replay/maps/${encodeURIComponent(game)}.json`;
    responses.set(map, inPage("map") || get(map, false));
  }
  for (const pending of responses.values()) pending.catch(() => {}); // a failure is the page's to report
  window.replayBoot = { token, initial, responses };
})();
