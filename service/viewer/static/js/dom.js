// Building DOM and SVG nodes without innerHTML: names and reasons come from players and
// referees, so text always goes in as text.

const SVG_NS = "http://www.w3.org/2000/svg";

export function svgEl(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

// h("li", {class: "x", dataset: {version: 3}}, "text", childNode, ...)
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

// Nodes drawn from data, each kept until what it is drawn from changes, so that a step
// touches only what it changed. `update(wanted)` takes key -> [from, draw, parent]: a node
// whose `from` (compared as JSON) is as drawn is left alone, a changed one is drawn again in
// its place, a new one is appended to `parent`, one no longer wanted is removed.
export class KeyedNodes {
  constructor() { this.drawn = new Map(); } // key -> {text, node}

  has(key) { return this.drawn.has(key); }

  nodes() { return [...this.drawn].map(([key, { node }]) => [key, node]); }

  update(wanted) {
    for (const [key, [from, draw, parent]] of wanted) {
      const text = JSON.stringify(from);
      const old = this.drawn.get(key);
      if (old && old.text === text) continue;
      const node = draw();
      if (old) old.node.replaceWith(node); else parent.appendChild(node);
      this.drawn.set(key, { text, node });
    }
    for (const [key, old] of this.drawn) {
      if (!wanted.has(key)) {
        old.node.remove();
        this.drawn.delete(key);
      }
    }
  }
}
