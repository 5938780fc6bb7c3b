// The first board's data, taken from the page or asked for as soon as the page's head is
// read: the page's modules arrive a round trip or two later, and the first board would wait
// for them before asking. The page holds the public view at the version shown, the game's
// summary and its board map (`data-first-board`); a seat's or the referee's view is asked
// for here (that one view: a run of them costs the server a fold per version before the
// first answer). main.js takes these over (api.js `adopt`) when its viewpoint is the one
// asked with.
// A plain script, not a module, and not deferred: it runs as soon as it arrives, before main.js.
(() => {
  const { gameId, game, version, boardMap } = document.currentScript.dataset;
  const url = new URL(window.location.href);
  // A token given in the link is kept for this tab only and taken out of the address bar at
  // once, so the deep links the page writes never carry it. Links carry it in the fragment
  // (`#token=…`), which a browser never sends, so no server or proxy logs it; a link of the
  // older form (`?token=…`) still opens, though its token has reached the server's log.
  const tokenKey = `caboose.replay.token.${gameId}`;
  const fragment = new URLSearchParams(url.hash.slice(1));
  const given = fragment.has("token") ? fragment.get("token") : url.searchParams.get("token");
  if (given !== null) {
    if (given) sessionStorage.setItem(tokenKey, given); else sessionStorage.removeItem(tokenKey);
    url.searchParams.delete("token");
    url.hash = "";
    window.history.replaceState(null, "", url);
  }
  const token = sessionStorage.getItem(tokenKey);
  const known = Number(version) || 1;
  const asked = Math.round(Number(url.searchParams.get("at")));
  const initial = Number.isFinite(asked) && asked ? Math.min(known, Math.max(1, asked)) : known;
  // What the page carries is kept as its text and read by api.js when asked for, at once: a
  // Response made of it would be read a task or two later, behind whatever else the page does.
  const inPage = (kind, viewpoint) => {
    const node = document.querySelector(`script[data-first-board="${kind}"]`);
    if (!node || (viewpoint && (token || Number(node.dataset.version) !== initial))) return null;
    return node.textContent;
  };
  const get = (path, auth) => {
    const headers = { Accept: "application/json" };
    if (auth && token) headers.Authorization = `Bearer ${token}`;
    return fetch(path, { headers, cache: "no-store" });
  };
  const carried = new Map(); // path -> the JSON the page carries for it
  const responses = new Map(); // path -> the answer asked for now
  const take = (path, kind, { viewpoint = false, auth = true } = {}) => {
    const text = inPage(kind, viewpoint);
    if (text !== null) carried.set(path, text);
    else responses.set(path, get(path, auth));
  };
  const id = encodeURIComponent(gameId);
  take(`/games/${id}/replay/views?from=${initial}&to=${initial}`, "views", { viewpoint: true });
  take(`/api/v1/games/${id}`, "summary");
  if (boardMap) take(`/replay/maps/${encodeURIComponent(game)}.json`, "map", { auth: false });
  for (const pending of responses.values()) pending.catch(() => {}); // a failure is the page's to report
  window.replayBoot = { token, initial, carried, responses };
})();
