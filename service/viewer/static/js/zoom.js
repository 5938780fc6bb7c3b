// Zoom and pan for the board: the buttons beside it (in, out, the whole board), a pinch or a
// ctrl-wheel (a trackpad's pinch) about the fingers or the pointer, and a drag once zoomed in.
// Only the SVG's viewBox changes, kept to the board's own proportions (the board's box on the
// page keeps its size), so no step redraws anything for it. A tap or a click that did not
// move stays a click on the place under it (play.js offers its moves); a drag never is one.

const MAX = 6;
const STEP = 1.6;
const MOVED = 6; // px a pointer moves before a press becomes a drag

export function boardZoom(svg, buttons) {
  let base = null; // the renderer's viewBox: {x, y, w, h}
  let scale = 1;
  let centre = null; // board units
  let written = null; // the viewBox we wrote, so the renderer's own is told apart
  const pointers = new Map(); // pointerId -> {x, y}
  let gesture = null;
  let dragged = false;

  const read = () => {
    const box = svg.viewBox.baseVal;
    return box && box.width ? { x: box.x, y: box.y, w: box.width, h: box.height } : null;
  };

  function apply() {
    if (!base) return;
    const w = base.w / scale;
    const h = base.h / scale;
    const x = Math.min(Math.max(centre.x - w / 2, base.x), base.x + base.w - w);
    const y = Math.min(Math.max(centre.y - h / 2, base.y), base.y + base.h - h);
    centre = { x: x + w / 2, y: y + h / 2 };
    written = scale === 1 ? `${base.x} ${base.y} ${base.w} ${base.h}` : `${x.toFixed(2)} ${y.toFixed(2)} ${w.toFixed(2)} ${h.toFixed(2)}`;
    svg.setAttribute("viewBox", written);
    svg.classList.toggle("zoomed", scale > 1);
    svg.dataset.zoom = scale.toFixed(2);
  }

  // The renderer draws a new board (another map): the whole of it, unzoomed.
  new MutationObserver(() => {
    if (svg.getAttribute("viewBox") === written) return;
    base = read();
    scale = 1;
    centre = base ? { x: base.x + base.w / 2, y: base.y + base.h / 2 } : null;
    if (base) apply();
  }).observe(svg, { attributes: true, attributeFilter: ["viewBox"] });
  base = read();
  if (base) centre = { x: base.x + base.w / 2, y: base.y + base.h / 2 };

  // The board point under a point of the screen.
  const at = (clientX, clientY) => {
    const matrix = svg.getScreenCTM();
    return matrix ? new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse()) : centre;
  };

  // Zoom to `next`, the board point at (clientX, clientY) staying under it.
  function zoomTo(next, clientX, clientY) {
    if (!base) return;
    next = Math.min(MAX, Math.max(1, next));
    const rect = svg.getBoundingClientRect();
    const px = clientX ?? rect.left + rect.width / 2;
    const py = clientY ?? rect.top + rect.height / 2;
    const fixed = at(px, py);
    const fx = (px - rect.left) / rect.width;
    const fy = (py - rect.top) / rect.height;
    scale = next;
    const w = base.w / scale;
    const h = base.h / scale;
    centre = { x: fixed.x - fx * w + w / 2, y: fixed.y - fy * h + h / 2 };
    apply();
  }

  buttons?.addEventListener("click", (e) => {
    const which = e.target.closest("[data-zoom]")?.dataset.zoom;
    if (which === "in") zoomTo(scale * STEP);
    else if (which === "out") zoomTo(scale / STEP);
    else if (which === "fit") zoomTo(1);
  });

  svg.addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return; // a plain wheel scrolls the page
    e.preventDefault();
    zoomTo(scale * Math.exp(-e.deltaY / 200), e.clientX, e.clientY);
  }, { passive: false });

  svg.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      gesture = { kind: "pinch", distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, scale };
    } else if (pointers.size === 1) {
      gesture = { kind: "press", x: e.clientX, y: e.clientY, centre: { ...(centre || {}) } };
    }
  });

  svg.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId) || !gesture) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (gesture.kind === "pinch" && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      dragged = true;
      zoomTo(gesture.scale * (Math.hypot(a.x - b.x, a.y - b.y) / gesture.distance), (a.x + b.x) / 2, (a.y + b.y) / 2);
    } else if (gesture.kind === "press" || gesture.kind === "pan") {
      const dx = e.clientX - gesture.x;
      const dy = e.clientY - gesture.y;
      if (gesture.kind === "press") {
        if (Math.hypot(dx, dy) < MOVED || scale === 1) return;
        gesture.kind = "pan";
        svg.setPointerCapture?.(e.pointerId); // a real drag: follow it off the board too
        svg.classList.add("panning");
      }
      dragged = true;
      const units = base.w / scale / svg.getBoundingClientRect().width;
      centre = { x: gesture.centre.x - dx * units, y: gesture.centre.y - dy * units };
      apply();
    }
  });

  const release = (e) => {
    pointers.delete(e.pointerId);
    if (!pointers.size) {
      gesture = null;
      svg.classList.remove("panning");
    } else if (gesture?.kind === "pinch") {
      const [rest] = [...pointers.values()];
      gesture = { kind: "pan", x: rest.x, y: rest.y, centre: { ...centre } };
    }
  };
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", release);

  // A drag or a pinch is not a click on what it ended over.
  svg.addEventListener("click", (e) => {
    if (!dragged) return;
    dragged = false;
    e.stopImmediatePropagation();
    e.preventDefault();
  }, { capture: true });

  return { zoomTo, get scale() { return scale; } };
}
