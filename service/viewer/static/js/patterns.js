// A pattern per seat, drawn over a seat's pieces on the board and on its swatch in the
// panel: seat colours alone are told apart poorly by colour-blind viewers, and some are close
// to the map's own route colours. The same shapes are in replay.css for the swatches
// (`.swatch[data-pattern]`), so a seat is recognised by its pattern everywhere.

import { svgEl } from "./dom.js";

const INK = "rgba(255,255,255,.8)";
const SHAPES = [
  (p) => svgEl("path", { d: "M0,6 L6,0", stroke: INK, "stroke-width": 1.6 }, p), // diagonal stripes
  (p) => svgEl("circle", { cx: 3, cy: 3, r: 1.3, fill: INK }, p), // dots
  (p) => svgEl("path", { d: "M0,3 H6", stroke: INK, "stroke-width": 1.6 }, p), // horizontal stripes
  (p) => svgEl("path", { d: "M0,6 L6,0 M0,0 L6,6", stroke: INK, "stroke-width": 1 }, p), // cross-hatch
  (p) => svgEl("path", { d: "M3,0 V6", stroke: INK, "stroke-width": 1.6 }, p), // vertical stripes
  (p) => svgEl("path", { d: "M0,0 L6,6", stroke: INK, "stroke-width": 1.6 }, p), // other diagonal
  (p) => svgEl("rect", { x: 0, y: 0, width: 3, height: 3, fill: INK }, p), // checks
  (p) => svgEl("path", { d: "M0,3 H6 M3,0 V6", stroke: INK, "stroke-width": 1 }, p), // grid
];

export const patternOf = (seat) => seat % SHAPES.length;
export const patternFill = (seat) => `url(#seat-pattern-${patternOf(seat)})`;

// Put every seat's pattern into an SVG's <defs>.
export function definePatterns(defs) {
  SHAPES.forEach((draw, i) => {
    draw(svgEl("pattern", { id: `seat-pattern-${i}`, patternUnits: "userSpaceOnUse", width: 6, height: 6 }, defs));
  });
}
