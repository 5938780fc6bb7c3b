// The page's only door to the server: the REST API (same tokens, same redaction as any
// client) and the viewer's two helpers (views at a run of versions, a game's static board).

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

function dropAll(responses) {
  for (const pending of responses) pending.then((response) => response.body?.cancel()).catch(() => {});
}

const EVENTS_PAGE = 5000; // the API's largest page: a 1,000-event game comes in one request

export class Api {
  constructor(gameId, token = null) {
    this.gameId = gameId;
    this.token = token;
    this.base = `/api/v1/games/${encodeURIComponent(gameId)}`;
    this.early = new Map(); // path -> a response asked for before the page's modules ran (boot.js)
    this.carried = new Map(); // path -> the JSON text the page itself carries for it (boot.js)
  }

  // The answers boot.js asked for, used once each, when asked with this viewpoint's token.
  adopt(boot) {
    if (!boot) return;
    if (boot.token !== this.token) {
      dropAll(boot.responses.values());
      return;
    }
    this.early = new Map(boot.responses);
    this.carried = new Map(boot.carried);
    this.earlyToken = boot.token;
  }

  // Early answers never asked for again (another version shown): their bodies are let go.
  dropEarly() {
    dropAll(this.early.values());
    this.early.clear();
    this.carried.clear();
  }

  async json(path, { auth = true, allow404 = false } = {}) {
    const headers = { Accept: "application/json" };
    if (auth && this.token) headers.Authorization = `Bearer ${this.token}`;
    // An early answer was asked with the token then held: not used once the token changed.
    const mine = this.token === this.earlyToken;
    const carried = mine ? this.carried.get(path) : undefined;
    const early = mine ? this.early.get(path) : null;
    this.carried.delete(path);
    this.early.delete(path);
    if (carried !== undefined) return JSON.parse(carried);
    // A viewer holding a key down must not turn the API's rate limit into a dead page:
    // wait as told and try again, a few times.
    for (let attempt = 0; ; attempt++) {
      const asked = () => fetch(path, { headers, cache: "no-store" });
      const response = await (attempt === 0 && early ? early.catch(asked) : asked());
      if (response.ok) return response.json();
      if (allow404 && response.status === 404) return null;
      let problem = {};
      try { problem = await response.json(); } catch { /* not JSON: keep the status */ }
      if (response.status === 429 && attempt < 3) {
        const wait = Number(response.headers.get("Retry-After") || 1);
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 30) * 1000));
        continue;
      }
      throw new ApiError(response.status, problem);
    }
  }

  summary() { return this.json(this.base); }

  // Every event after `after`, page by page; `version` is the game's version when asked.
  async events(after = 0) {
    const events = [];
    let version = after;
    for (;;) {
      const page = await this.json(`${this.base}/events?after=${after}&limit=${EVENTS_PAGE}`);
      version = page.version;
      events.push(...page.events);
      if (!page.events.length || page.events.length < EVENTS_PAGE) break;
      after = page.events[page.events.length - 1].version;
    }
    return { version, events };
  }

  // The events after `after` as they are stored (Server-Sent Events from …/stream), each
  // batch handed to `onEvents`; resolves when the server ends the stream, rejects when it
  // cannot be had. Read with fetch, not EventSource, which cannot send the Authorization
  // header, and a token never goes in a URL.
  async stream(after, onEvents, signal) {
    const headers = { Accept: "text/event-stream" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const response = await fetch(`${this.base}/stream?after=${after}`, { headers, cache: "no-store", signal });
    if (!response.ok || !response.body) {
      let problem = {};
      try { problem = await response.json(); } catch { /* not JSON: keep the status */ }
      throw new ApiError(response.status, problem);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const blocks = (buffer + value.replace(/\r\n?/g, "\n")).split("\n\n");
      buffer = blocks.pop();
      const events = blocks.map((block) => block.split("\n").filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, "")).join("\n")).filter(Boolean).map((data) => JSON.parse(data));
      if (events.length) onEvents(events);
    }
  }

  // Moves in the game's notation and outcomes as typed, by version (absent: worded only).
  notation() {
    return this.json(`/games/${encodeURIComponent(this.gameId)}/replay/notation`).then((b) => b.lines, () => ({}));
  }

  views(from, to) {
    return this.json(`/games/${encodeURIComponent(this.gameId)}/replay/views?from=${from}&to=${to}`);
  }

  // The projections hold nothing secret, but a fork of a game still running is withheld from
  // the public, charts and all: they are asked with the token held, as the events are. null
  // when a server has none.
  timeline() { return this.json(`${this.base}/timeline`, { allow404: true }); }
  scores(at) { return this.json(`${this.base}/scores?at=${at}`, { allow404: true }); }

  legalMoves() { return this.json(`${this.base}/legal-moves`); }

  // A move, sent against the version it was chosen at (If-Match) under a key of its own, so
  // that a retry after a lost answer is answered with the first result and stores nothing new.
  async move(move, version, key) {
    const headers = {
      Accept: "application/json", "Content-Type": "application/json",
      "If-Match": `"${version}"`, "Idempotency-Key": key,
    };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    for (let attempt = 0; ; attempt++) {
      let response;
      try {
        response = await fetch(`${this.base}/moves`, { method: "POST", headers, body: JSON.stringify(move), cache: "no-store" });
      } catch (error) {
        if (attempt < 2) continue; // the same key: a move that did arrive is not made twice
        throw error;
      }
      let answer = {};
      try { answer = await response.json(); } catch { /* not JSON: keep the status */ }
      if (response.ok) return answer;
      throw new ApiError(response.status, answer);
    }
  }

  boardMap(game) {
    return this.json(`/replay/maps/${encodeURIComponent(game)}.json`, { auth: false, allow404: true });
  }
}
