// The game's view at each version, fetched a run at a time and kept: a step to a fetched
// version is drawn without touching the network. A jump to an unfetched version first asks
// for a few views around it (a small, fast answer), then for the rest of its chunk; the
// chunk ahead in the direction of travel is fetched before the viewer reaches it.

export const CHUNK = 100;
const AHEAD = 50; // prefetch the next chunk from the middle of the current one
const QUICK_BEHIND = 3;
const QUICK_AHEAD = 12;
const FILL_CHUNKS = 30; // views kept ahead of need: 3,000 versions at most

export class Frames {
  constructor(api, onAudience = () => {}) {
    this.api = api;
    this.onAudience = onAudience;
    this.views = new Map();
    this.pending = []; // [{from, to, request}] in flight
    this.last = 0; // the game's version, as far as the page knows
    this.epoch = 0; // bumped by clear(): answers to requests made before are dropped
  }

  clear() {
    this.views.clear();
    this.pending = [];
    this.epoch++;
  }

  peek(version) { return this.views.get(version); }

  async get(version) {
    const view = this.views.get(version);
    if (view) return view;
    await this.load(version);
    return this.views.get(version);
  }

  // The one view the first board needs, alone: a run of views costs the server a fold per
  // version before it answers.
  async first(version) {
    await this.request(version, version);
    return this.views.get(version);
  }

  // After the first board: the views on either side of it (a few first, then their chunk).
  around(version) {
    for (const v of [version + 1, version - 1]) {
      if (v >= 1 && v <= this.last && !this.views.has(v)) this.load(v).catch(() => {});
    }
  }

  // The missing run of versions around `version`, within its chunk.
  missing(version) {
    const start = Math.floor((version - 1) / CHUNK) * CHUNK + 1;
    const end = Math.min(start + CHUNK - 1, Math.max(this.last, version));
    let from = version;
    while (from > start && !this.views.has(from - 1)) from--;
    let to = version;
    while (to < end && !this.views.has(to + 1)) to++;
    return { from, to };
  }

  load(version, { quick = true } = {}) {
    const inFlight = this.pending.find((p) => p.from <= version && version <= p.to);
    if (inFlight) return inFlight.request;
    const { from, to } = this.missing(version);
    if (!quick || to - from <= QUICK_BEHIND + QUICK_AHEAD) return this.request(from, to);
    const qFrom = Math.max(from, version - QUICK_BEHIND);
    const qTo = Math.min(to, version + QUICK_AHEAD);
    const first = this.request(qFrom, qTo);
    first.then(() => {
      if (qTo < to) this.request(qTo + 1, to).catch(() => {});
      if (qFrom > from) this.request(from, qFrom - 1).catch(() => {});
    }, () => {});
    return first;
  }

  request(from, to) {
    const epoch = this.epoch;
    const entry = { from, to, request: null };
    entry.request = this.api.views(from, to).then((body) => {
      if (epoch !== this.epoch) return;
      this.onAudience(body);
      this.last = Math.max(this.last, body.version);
      for (const { version: v, state } of body.views) this.views.set(v, state);
    }).finally(() => { this.pending = this.pending.filter((p) => p !== entry); });
    this.pending.push(entry);
    return entry.request;
  }

  // Every view of the game, nearest chunks first, one request at a time, so a later jump
  // anywhere is drawn from memory. Long games keep to the chunks near the viewer: the
  // API's rate limit and the page's memory are shared with everything else.
  async fill(around) {
    const epoch = this.epoch;
    const chunks = [];
    for (let start = 1; start <= this.last; start += CHUNK) chunks.push(start);
    chunks.sort((a, b) => Math.abs(a - around) - Math.abs(b - around));
    for (const start of chunks.slice(0, FILL_CHUNKS)) {
      for (let v = start; v < start + CHUNK && v <= this.last; v++) {
        if (epoch !== this.epoch) return;
        if (!this.views.has(v)) {
          await this.load(v, { quick: false });
          break;
        }
      }
    }
  }

  // Keep the chunk ahead (or behind, when stepping back) ready.
  prefetch(version, direction) {
    const edge = direction >= 0 ? version + AHEAD : version - AHEAD;
    if (edge >= 1 && edge <= this.last && !this.views.has(edge)) this.load(edge, { quick: false }).catch(() => {});
  }
}
