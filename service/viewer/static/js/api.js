// The page's only door to the server: the REST API (same tokens, same redaction as any
// client) and the viewer's two helpers (views at a run of versions, a game's static board).

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

const EVENTS_PAGE = 5000; // the API's largest page: a 1,000-event game comes in one request

export class Api {
  constructor(gameId, token = null) {
    this.gameId = gameId;
    this.token = token;
    this.base = `/api/v1/games/${encodeURIComponent(gameId)}`;
  }

  async json(path, { auth = true, allow404 = false } = {}) {
    const headers = { Accept: "application/json" };
    if (auth && this.token) headers.Authorization = `Bearer ${this.token}`;
    // A viewer holding a key down must not turn the API's rate limit into a dead page:
    // wait as told and try again, a few times.
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(path, { headers, cache: "no-store" });
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

  views(from, to) {
    return this.json(`/games/${encodeURIComponent(this.gameId)}/replay/views?from=${from}&to=${to}`);
  }

  // The projections take no token (they hold nothing secret); null when a server has none.
  timeline() { return this.json(`${this.base}/timeline`, { auth: false, allow404: true }); }
  scores(at) { return this.json(`${this.base}/scores?at=${at}`, { auth: false, allow404: true }); }

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
