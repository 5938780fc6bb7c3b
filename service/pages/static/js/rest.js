// The lobby's only door to the server: the REST API, as any client uses it.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

export async function call(method, path, { body = null, token = null, seatTokens = [] } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== null) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  // Tokens go in headers, never in the address (logs and history keep addresses).
  if (seatTokens.length) headers["Seat-Tokens"] = seatTokens.join(", ");
  const response = await fetch(path, {
    method, headers, cache: "no-store", body: body === null ? undefined : JSON.stringify(body),
  });
  let answer = {};
  try { answer = await response.json(); } catch { /* not JSON: keep the status */ }
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

export const rulesets = () => call("GET", "/api/v1/rulesets");

// A page of the listing, newest activity first. `seatTokens`: only the games where one of
// these seats is to act. The answer's `next` and `prev` are the neighbouring pages (`page`).
export function games({ status = "", game = "", limit = 0, seatTokens = [] } = {}) {
  const query = new URLSearchParams();
  if (status) query.set("status", status);
  if (game) query.set("game", game);
  if (limit) query.set("limit", String(limit));
  if (seatTokens.length) query.set("waiting_for", "me");
  return call("GET", `/api/v1/games${query.size ? `?${query}` : ""}`, { seatTokens });
}

// Another page of the same listing, by the `next` or `prev` link the server gave.
export const page = (link, seatTokens = []) => call("GET", link, { seatTokens });

export const summary = (gameId, token) => call("GET", `/api/v1/games/${encodeURIComponent(gameId)}`, { token });
export const create = (body) => call("POST", "/api/v1/games", { body });
export const join = (gameId, invite, name) =>
  call("POST", `/api/v1/games/${encodeURIComponent(gameId)}/join`, { body: { invite, name } });
