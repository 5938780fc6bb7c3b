// The lobby's only door to the server: the REST API, as any client uses it.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

export async function call(method, path, { body = null, token = null } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== null) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method, headers, cache: "no-store", body: body === null ? undefined : JSON.stringify(body),
  });
  let answer = {};
  try { answer = await response.json(); } catch { /* not JSON: keep the status */ }
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

export const rulesets = () => call("GET", "/api/v1/rulesets");

export function games({ status = "", game = "" } = {}) {
  const query = new URLSearchParams();
  if (status) query.set("status", status);
  if (game) query.set("game", game);
  return call("GET", `/api/v1/games${query.size ? `?${query}` : ""}`);
}

export const summary = (gameId, token) => call("GET", `/api/v1/games/${encodeURIComponent(gameId)}`, { token });
export const create = (body) => call("POST", "/api/v1/games", { body });
export const join = (gameId, invite, name) =>
  call("POST", `/api/v1/games/${encodeURIComponent(gameId)}/join`, { body: { invite, name } });
