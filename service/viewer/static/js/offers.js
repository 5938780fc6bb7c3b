// Moves offered on the board itself: a click on a place (a hex, a route, a city's cube, a
// building) opens a small panel beside it with the seat's moves tied to that place, each
// drawn as a thumbnail of how it would stand there; hovering, focusing or choosing one draws
// it in place on the board, and "Confirm" sends it. Each option is a button carrying its move
// as JSON in `data-move`, as the list's options do. Which moves belong where, and how a move
// looks, is the renderer's (hooks in ../renderers/README.md); a renderer without them leaves
// its moves to the list.

import { h, svgEl } from "./dom.js";
import { t } from "/pages/static/js/i18n.js";

const words = (name) => name.replace(/_/g, " ");
// A move type's name: the renderer's words for it (`typeLabel`), else the type itself.
export const typeName = (renderer, type) => renderer?.typeLabel?.(type) ?? words(type);

// The places a click on `element` names, by the renderer's hook or the board's own marks.
export function placesAt(renderer, element) {
  const custom = renderer?.pickAt?.(element);
  if (custom !== undefined) return custom;
  const found = element.closest("[data-route], [data-tile-hex], [data-hex]");
  if (!found) return null;
  return { places: [found.dataset.route || found.dataset.tileHex || found.dataset.hex] };
}

export class BoardOffers {
  // `send(move)`: the play page sends the move; `choose(move)`: the list marks it chosen too.
  constructor(board, ctx, { send, choose }) {
    this.board = board;
    this.ctx = ctx;
    this.send = send;
    this.choose = choose;
    this.box = null;
    this.preview = null;
    this.chosen = null;
  }

  get renderer() { return this.ctx.renderer; }

  // Opens the panel for the place clicked, with the moves of `moves` tied to it; returns how
  // many it offers (0: nothing there, and the panel is closed).
  open(element, moves) {
    const renderer = this.renderer;
    const picked = renderer?.moveTarget ? placesAt(renderer, element) : null;
    const places = new Set(picked?.places || []);
    const here = picked ? moves.filter((m) => places.has(renderer.moveTarget(m)) && (!picked.only || picked.only(m))) : [];
    if (!here.length) {
      this.close();
      return 0;
    }
    const place = renderer.moveTarget(here[0]);
    const title = picked.name || renderer.placeName?.(place) || place;
    const groups = new Map();
    for (const move of here) {
      if (!groups.has(move.type)) groups.set(move.type, []);
      groups.get(move.type).push(move);
    }
    this.close();
    const confirm = h("button", { type: "button", class: "confirm", disabled: true }, t("Confirm"));
    const close = h("button", { type: "button", class: "offers-close", "aria-label": t("Close") }, "×");
    const box = h("section", { id: "offers", role: "dialog", "aria-label": t("Your moves at {place}", { place: title }), dataset: { place } },
      h("header", {}, h("h2", {}, title), close));
    for (const [type, list] of groups) {
      const options = list.map((move) => this.option(move));
      box.append(h("div", { class: "offer-group", role: "group", "aria-label": `${typeName(this.ctx.renderer, type)} (${list.length})`, dataset: { type } },
        h("h3", {}, `${typeName(this.ctx.renderer, type)} (${list.length})`), h("div", { class: "offer-options" }, options)));
    }
    box.append(confirm);
    confirm.addEventListener("click", () => {
      if (!this.chosen) return;
      const move = this.chosen;
      this.close();
      this.send(move);
    });
    close.addEventListener("click", () => this.close());
    box.addEventListener("keydown", (e) => { if (e.key === "Escape") this.close(); });
    this.board.parentElement.append(box);
    this.box = box;
    this.confirm = confirm;
    this.place(box, place);
    box.querySelector("button.offer")?.focus({ preventScroll: true });
    return here.length;
  }

  option(move) {
    const renderer = this.renderer;
    const button = h("button", { type: "button", class: "offer", "aria-pressed": "false", dataset: { move: JSON.stringify(move) } });
    const thumb = this.thumbnail(move);
    if (thumb) button.append(thumb); else button.classList.add("wide");
    // Its place is the panel's heading: the option's words may leave it out (`offerLabel`).
    button.append(h("span", {}, renderer.offerLabel?.(move, this.ctx) || renderer.moveLabel?.(move, this.ctx) || typeName(renderer, move.type)));
    const show = () => this.draw(move);
    const back = () => this.draw(this.chosen);
    button.addEventListener("mouseenter", show);
    button.addEventListener("focus", show);
    button.addEventListener("mouseleave", back);
    button.addEventListener("blur", back);
    button.addEventListener("click", () => {
      for (const other of this.box.querySelectorAll("button.offer")) other.setAttribute("aria-pressed", String(other === button));
      this.chosen = move;
      this.confirm.disabled = false;
      this.draw(move);
      this.choose(move);
    });
    return button;
  }

  // The move drawn alone in a little window on its place (ground included), or null when the
  // renderer has no picture of it there.
  thumbnail(move) {
    const renderer = this.renderer;
    const place = renderer.moveTarget(move);
    const box = renderer.placeBox?.(place);
    if (!box || !renderer.drawMove) return null;
    const svg = svgEl("svg", { class: "offer-thumb", viewBox: `${box.x} ${box.y} ${box.width} ${box.height}`, "aria-hidden": "true", focusable: "false" });
    const ground = this.board.querySelector(`[data-hex="${CSS.escape(place)}"]`);
    if (ground) {
      const copy = ground.cloneNode(false);
      for (const name of [...copy.getAttributeNames()]) if (name.startsWith("data-")) copy.removeAttribute(name);
      svg.append(copy);
    }
    const layer = svgEl("g", {}, svg);
    return renderer.drawMove(move, layer, this.ctx, { thumbnail: true }) === false ? null : svg;
  }

  // The move as it would stand on the board (nothing for null).
  draw(move) {
    if (!this.preview || !this.preview.isConnected) {
      this.preview = svgEl("g", { class: "offer-preview", "aria-hidden": "true" }, this.board);
    }
    this.preview.replaceChildren();
    this.preview.dataset.move = move ? JSON.stringify(move) : "";
    if (move) this.renderer.drawMove?.(move, this.preview, this.ctx, { thumbnail: false });
  }

  // Beside the place on a wide board, under it on a narrow one.
  place(box, place) {
    const panel = this.board.parentElement;
    const at = this.renderer.placeBox?.(place);
    const matrix = this.board.getScreenCTM();
    const outer = panel.getBoundingClientRect();
    let left = 0;
    let top = this.board.getBoundingClientRect().top - outer.top;
    if (at && matrix) {
      const corner = new DOMPoint(at.x + at.width, at.y).matrixTransform(matrix);
      const far = new DOMPoint(at.x, at.y + at.height).matrixTransform(matrix);
      const width = box.offsetWidth;
      left = corner.x - outer.left + 6;
      if (left + width > outer.width) left = Math.max(0, far.x - outer.left - width - 6);
      top = corner.y - outer.top;
      if (outer.width < 560) { left = 0; top = far.y - outer.top + 6; }
    }
    box.style.left = `${Math.round(left)}px`;
    box.style.top = `${Math.round(Math.max(0, top))}px`;
  }

  close() {
    this.chosen = null;
    this.draw(null);
    if (this.box) {
      this.box.remove();
      this.box = null;
    }
  }
}
