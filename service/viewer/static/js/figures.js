// What the charts show, as data: VP per seat over events and income per seat by turn, from
// the timeline projection when the server has it, else from the events (through the game's
// renderer); VP by source at one version from the scores projection's answer.

import { isRewind } from "./wording.js";

// VP by source at every version, folded from the events: the game's own `vpFold`, the
// core's VP adjustments, and rewinds restoring an earlier version's figures.
export function foldFigures(events, renderer) {
  const out = [];
  let figures = {};
  for (const e of events) {
    if (isRewind(e)) {
      figures = out[e.data.to_version - 1] || {};
    } else if (e.kind === "AdjustmentMade" && e.data.kind === "vp") {
      const seat = e.data.seat;
      const before = figures[seat] || {};
      figures = { ...figures, [seat]: { ...before, adjustment: (before.adjustment || 0) + e.data.amount } };
    } else if (renderer.vpFold) {
      figures = renderer.vpFold(figures, e) || figures;
    }
    out.push(figures);
  }
  return out;
}

const total = (bySource) => Object.values(bySource || {}).reduce((a, b) => a + b, 0);

// One step series per seat: [[version, vp], ...] at each change.
export function vpSeries(seats, { timeline = null, figures = null }) {
  const series = seats.map((s) => ({ ...s, points: [] }));
  if (timeline) {
    for (const point of timeline.points) {
      for (const s of series) {
        const vp = point.seats[String(s.seat)]?.vp;
        if (vp !== undefined && vp !== null) s.points.push([point.version, vp]);
      }
    }
    return series;
  }
  figures.forEach((atVersion, index) => {
    for (const s of series) {
      const vp = total(atVersion[s.seat]);
      const last = s.points[s.points.length - 1];
      if (!last || last[1] !== vp) s.points.push([index + 1, vp]);
    }
  });
  return series;
}

export function timelineHasIncome(timeline) {
  return Boolean(timeline?.points?.some((p) => Object.values(p.seats).some((s) => s.income !== null && s.income !== undefined)));
}

// [{turn, seats: {seat: income}}]: the projection's income as it stood at the end of each
// turn (turn n runs from its mark to the next one), else the game's own reading of events.
export function incomeRows(seats, { timeline, turns, last, renderer, events }) {
  if (timelineHasIncome(timeline)) {
    return turns.map((mark, i) => {
      const end = (turns[i + 1]?.version ?? last + 1) - 1;
      let point = null;
      for (const p of timeline.points) {
        if (p.version > end) break;
        point = p;
      }
      const out = {};
      for (const seat of seats) out[seat] = point?.seats[String(seat)]?.income ?? null;
      return { turn: i + 1, seats: out };
    });
  }
  return renderer.incomeByTurn ? renderer.incomeByTurn(events) : null;
}

// The scores projection's answer as {sources, seats: {seat: {source: vp}}}.
export function fromScores(scores) {
  const seats = {};
  const sources = [];
  for (const s of scores.seats) {
    seats[s.seat] = s.by_source;
    for (const k of Object.keys(s.by_source)) if (!sources.includes(k)) sources.push(k);
  }
  return { sources, seats };
}
