// Charts as plain SVG: VP per seat over events (a step line per seat, with a cursor at the
// selected event), VP by source at the selected event (stacked bars), income per seat by
// turn. Lines are drawn once per data change; a step only moves the cursor.

import { svgEl } from "./dom.js";
import { t } from "/pages/static/js/i18n.js";

// The renderers' VP sources, in words.
const SOURCE_WORDS = {
  income: t("income"), shares: t("shares"), track: t("track"), adjustment: t("adjustment"), routes: t("routes"),
  tickets: t("tickets"), longest_path: t("longest path"), trains: t("trains"), goals: t("goals"), leftovers: t("leftovers"),
  route: t("route"), tourist: t("tourist"), cards: t("cards"), sales: t("sales"), hand_orders: t("hand orders"),
  leftover_goods: t("leftover goods"), influence: t("influence"), technology: t("technology"), penalties: t("penalties"),
};
const sourceWord = (source) => SOURCE_WORDS[source] ?? source.replace(/_/g, " ");

const W = 600;
const PAD = { left: 44, right: 16, top: 24, bottom: 24 };
const LEGEND_Y = 12;

// Every value charted here is a whole number (events, turns, VP, income): ticks step by
// at least 1, so a short game's axis never reads "1.2".
function niceTicks(low, high, count = 5) {
  if (low === high) { low -= 1; high += 1; }
  const raw = Math.max(1, (high - low) / count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) || raw;
  const ticks = [];
  for (let t = Math.ceil(low / step) * step; t <= high + 1e-9; t += step) ticks.push(Math.round(t * 1e6) / 1e6);
  return { ticks, low: Math.min(low, ticks[0] ?? low), high: Math.max(high, ticks[ticks.length - 1] ?? high) };
}

export class LineChart {
  // `onPick(x)`: a click on the chart picks that x (an event, a turn).
  constructor(svg, { height = 200, onPick = null } = {}) {
    this.svg = svg;
    this.height = height;
    this.onPick = onPick;
    this.scale = null;
    svg.setAttribute("viewBox", `0 0 ${W} ${height}`);
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    if (onPick) {
      svg.addEventListener("click", (e) => {
        if (!this.scale) return;
        const box = svg.getBoundingClientRect();
        const x = ((e.clientX - box.left) / box.width) * W;
        onPick(Math.round(this.scale.xInv(x)));
      });
    }
  }

  // series: [{name, colour, points: [[x, y], ...]}] sorted by x; `step`: a value holds
  // until the next point (VP after an event), else points are joined directly.
  draw(series, xMin, xMax, { step = true } = {}) {
    const svg = this.svg;
    svg.replaceChildren();
    const ys = series.flatMap((s) => s.points.map((p) => p[1]));
    if (!ys.length) {
      svgEl("text", { x: W / 2, y: this.height / 2, "text-anchor": "middle", class: "chart-empty" }, svg)
        .textContent = t("no data yet");
      this.scale = null;
      return;
    }
    const { ticks, low, high } = niceTicks(Math.min(0, ...ys), Math.max(1, ...ys));
    const plotW = W - PAD.left - PAD.right;
    const plotH = this.height - PAD.top - PAD.bottom;
    const span = Math.max(1, xMax - xMin);
    const x = (v) => PAD.left + ((v - xMin) / span) * plotW;
    const y = (v) => PAD.top + (1 - (v - low) / (high - low)) * plotH;
    this.scale = { x, y, xInv: (px) => xMin + ((px - PAD.left) / plotW) * span, xMin, xMax };

    const axes = svgEl("g", { class: "axes" }, svg);
    for (const t of ticks) {
      svgEl("line", { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t), class: t === 0 ? "zero" : "grid" }, axes);
      svgEl("text", { x: PAD.left - 4, y: y(t) + 3, "text-anchor": "end" }, axes).textContent = String(t);
    }
    for (const t of niceTicks(xMin, xMax, 6).ticks.filter((t) => t >= xMin && t <= xMax)) {
      svgEl("text", { x: x(t), y: this.height - 8, "text-anchor": "middle" }, axes).textContent = String(t);
    }
    // A legend on top: the seat colours are the board's.
    let lx = PAD.left + 4;
    for (const s of series) {
      svgEl("rect", { x: lx, y: LEGEND_Y - 8, width: 9, height: 9, fill: s.colour }, axes);
      svgEl("text", { x: lx + 12, y: LEGEND_Y, class: "legend" }, axes).textContent = s.name;
      lx += 20 + s.name.length * 5.5;
    }
    const lines = svgEl("g", { class: "series" }, svg);
    for (const s of series) {
      if (!s.points.length) continue;
      let d = `M${x(s.points[0][0]).toFixed(1)},${y(s.points[0][1]).toFixed(1)}`;
      for (const [px, py] of s.points.slice(1)) {
        d += step ? `H${x(px).toFixed(1)}V${y(py).toFixed(1)}` : `L${x(px).toFixed(1)},${y(py).toFixed(1)}`;
      }
      if (step) d += `H${x(xMax).toFixed(1)}`;
      svgEl("path", { d, stroke: s.colour, class: "line", "data-seat": s.seat ?? "" }, lines)
        .appendChild(svgEl("title")).textContent = s.name;
    }
    this.plot = { top: PAD.top, height: plotH };
    if (this.cursorAt !== undefined) this.cursor(this.cursorAt);
  }

  // The cursor is an HTML element over the chart (its own compositing layer), placed in
  // percentages of the chart's box: a step then repaints none of the lines underneath (a
  // thousand-point path is slow to paint) and reads no layout.
  cursor(xValue) {
    this.cursorAt = xValue;
    if (!this.cursorEl) {
      const holder = this.svg.parentElement;
      holder.classList.add("chart-box");
      this.cursorEl = document.createElement("div");
      this.cursorEl.className = "chart-cursor";
      holder.appendChild(this.cursorEl);
    }
    const el = this.cursorEl;
    if (!this.scale) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const px = this.scale.x(Math.min(Math.max(xValue, this.scale.xMin), this.scale.xMax));
    el.style.top = `${(this.plot.top / this.height) * 100}%`;
    el.style.height = `${(this.plot.height / this.height) * 100}%`;
    el.style.left = `${(px / W) * 100}%`;
  }
}

const SOURCE_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759", "#76b7b2", "#edc948", "#9c755f"];

// rows: [{name, colour, bySource: {source: vp}}]; negative sources stack left of zero.
export function drawSourceBars(svg, rows, sources) {
  const rowH = 22;
  const legendH = 18;
  const top = 8;
  const height = top + rows.length * rowH + legendH + 6;
  svg.setAttribute("viewBox", `0 0 ${W} ${height}`);
  svg.replaceChildren();
  if (!rows.length) return;
  let low = 0;
  let high = 1;
  for (const row of rows) {
    let pos = 0;
    let neg = 0;
    for (const s of sources) {
      const v = row.bySource[s] || 0;
      if (v >= 0) pos += v; else neg += v;
    }
    high = Math.max(high, pos);
    low = Math.min(low, neg);
  }
  const left = 110;
  const right = W - 50;
  const x = (v) => left + ((v - low) / (high - low)) * (right - left);
  svgEl("line", { x1: x(0), x2: x(0), y1: top - 4, y2: top + rows.length * rowH, class: "zero" }, svg);
  rows.forEach((row, i) => {
    const rowTop = top + i * rowH;
    svgEl("text", { x: left - 6, y: rowTop + 14, "text-anchor": "end", fill: row.colour, class: "bar-label" }, svg)
      .textContent = row.name;
    let pos = 0;
    let neg = 0;
    let total = 0;
    sources.forEach((s, k) => {
      const v = row.bySource[s] || 0;
      total += v;
      if (!v) return;
      const from = v > 0 ? pos : neg + v;
      if (v > 0) pos += v; else neg += v;
      const rect = svgEl("rect", {
        x: x(from), y: rowTop + 3, width: Math.max(1, x(from + Math.abs(v)) - x(from)), height: rowH - 8,
        fill: SOURCE_COLOURS[k % SOURCE_COLOURS.length], "data-source": s,
      }, svg);
      svgEl("title", {}, rect).textContent = `${row.name}: ${sourceWord(s)} ${v}`;
    });
    svgEl("text", { x: right + 6, y: rowTop + 14, class: "bar-total" }, svg).textContent = String(total);
  });
  let lx = left;
  const ly = top + rows.length * rowH + 12;
  sources.forEach((s, k) => {
    svgEl("rect", { x: lx, y: ly - 9, width: 10, height: 10, fill: SOURCE_COLOURS[k % SOURCE_COLOURS.length] }, svg);
    const label = svgEl("text", { x: lx + 14, y: ly, class: "legend" }, svg);
    label.textContent = sourceWord(s);
    lx += 24 + s.length * 7;
  });
}
