// Moves offered on the board itself: a click on a place (a hex, a route, a city's cube, a
// building, or a card or a row the renderer draws in the panels with `data-place`) opens a
// small panel beside it with the seat's moves tied to that place, each drawn as a thumbnail
// of how it would stand there; hovering, focusing or choosing one draws it in place on the
// board (a card's move marks the card), and "Confirm" sends it. Each option is a button
// carrying its move as JSON in `data-move`, as the list's options do. Which moves belong
// where, and how a move looks, is the renderer's (hooks in ../renderers/README.md); a
// renderer without them leaves its moves to the list.

import { h, svgEl } from "./dom.js";
import { t, tn } from "/pages/static/js/i18n.js";

const words = (name) => name.replace(/_/g, " ");
// A move type's name: the renderer's words for it (`typeLabel`), else the type itself.
export const typeName = (renderer, type) => renderer?.typeLabel?.(type) ?? words(type);

// The places a click on `element` names, by the renderer's hook or the board's own marks.
export function placesAt(renderer, element) {
  const custom = renderer?.pickAt?.(element);
  if (custom !== undefined) return custom;
  const found = element.closest("[data-place], [data-route], [data-tile-hex], [data-hex]");
  if (!found) return null;
  return { places: [found.dataset.place || found.dataset.route || found.dataset.tileHex || found.dataset.hex] };
}

// The element a place is drawn as, which a keyboard reaches to open the place's moves: the
// renderer's (`placeElement`), else the route, the building, or the hex's ground.
export function placeElement(renderer, board, place) {
  const custom = renderer?.placeElement?.(place, board);
  if (custom !== undefined) return custom;
  const id = CSS.escape(String(place));
  return board.querySelector(`[data-route="${id}"], [data-building="${id}"]`) ||
    board.querySelector(`polygon[data-hex="${id}"]`) ||
    document.querySelector(`#table [data-place="${id}"], #my-hand [data-place="${id}"]`);
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
    this.opener = null; // the board element the panel was opened from, focused again on closing
    this.marked = []; // [{element, moves}]: the places a keyboard can reach
    this.ring = null;
    this.previewed = null; // a place outside the board marked as the move shown's
    // The ring is drawn over the whole board, as the place may lie under track or a building.
    board.addEventListener("focusin", (e) => {
      const place = e.target.closest?.("[data-offers]");
      if (place) this.drawRing(place);
    });
    board.addEventListener("focusout", () => this.drawRing(null));
  }

  // Every place where the seat has a move becomes a button on the board: reached with Tab,
  // opened with Enter or Space (as a click), named by the moves it holds.
  mark(moves) {
    this.unmark();
    const renderer = this.renderer;
    if (!renderer?.moveTarget) return;
    const at = new Map();
    for (const move of moves) {
      const place = renderer.moveTarget(move);
      if (place === null || place === undefined) continue;
      const element = placeElement(renderer, this.board, place);
      if (!element) continue;
      if (!at.has(element)) at.set(element, { place, moves: [] });
      at.get(element).moves.push(move);
    }
    for (const [element, { place, moves: here }] of at) {
      element.setAttribute("tabindex", "0");
      element.setAttribute("role", "button");
      // A card in the panels keeps its visible words as the start of its name.
      const shown = element instanceof SVGElement ? "" : element.textContent.trim();
      element.setAttribute("aria-label", `${shown ? `${shown}: ` : ""}${this.placeLabel(place, here)}`);
      element.dataset.offers = String(here.length);
      this.marked.push({ element, moves: here });
    }
    // An image's parts are not reachable; a board holding buttons is a group of them.
    if (this.marked.length) this.board.setAttribute("role", "group");
  }

  unmark() {
    for (const { element } of this.marked) {
      for (const name of ["tabindex", "role", "aria-label", "data-offers"]) element.removeAttribute(name);
    }
    this.marked = [];
    this.board.setAttribute("role", "img");
    this.drawRing(null);
  }

  // A renderer may draw a place anew (a building, a card in a panel redrawn): the marks
  // follow it there.
  remark() {
    if (this.marked.some(({ element }) => !element.isConnected || !element.hasAttribute("data-offers"))) {
      this.mark(this.marked.flatMap((m) => m.moves));
    }
  }

  // The move itself when the place has one, else the place and how many moves of each kind.
  placeLabel(place, moves) {
    const renderer = this.renderer;
    if (moves.length === 1) return renderer.moveLabel?.(moves[0], this.ctx) || typeName(renderer, moves[0].type);
    const counts = new Map();
    for (const move of moves) counts.set(move.type, (counts.get(move.type) || 0) + 1);
    const name = renderer.placeName?.(place) || place;
    const kinds = [...counts].map(([type, n]) => tn("{type}, {n} choice", "{type}, {n} choices", n, { type: typeName(renderer, type) }));
    return t("{place}: {moves}", { place: name, moves: kinds.join("; ") });
  }

  // A copy of the focused place's shapes, outlined, on top of everything else on the board.
  drawRing(element) {
    this.ring?.remove();
    this.ring = null;
    if (!element || !element.isConnected) return;
    const ring = svgEl("g", { class: "focus-ring", "aria-hidden": "true" });
    for (const kind of ["focus-ring-outer", "focus-ring-inner"]) {
      const copy = element.cloneNode(true);
      for (const node of [copy, ...copy.querySelectorAll("*")]) {
        if (node.tagName === "title") { node.remove(); continue; }
        for (const name of [...node.getAttributeNames()]) {
          if (name.startsWith("data-") || name.startsWith("aria-") || ["id", "tabindex", "role", "fill", "stroke", "class"].includes(name)) node.removeAttribute(name);
        }
      }
      copy.setAttribute("class", kind);
      ring.append(copy);
    }
    this.board.append(ring);
    this.ring = ring;
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
    const title = picked.name || renderer.placeName?.(place) || String(place);
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
    this.box = box;
    this.opener = element;
    this.confirm = confirm;
    if (this.board.contains(element)) {
      this.board.parentElement.append(box);
      this.place(box, place);
    } else {
      // A card or a row in the panels: its moves right under the panel it is in.
      box.classList.add("inline");
      element.closest("section")?.after(box);
    }
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
    const place = renderer?.moveTarget?.(move);
    if (place === null || place === undefined || !renderer.drawMove) return null;
    const box = renderer.placeBox?.(place);
    if (!box) return null;
    const svg = svgEl("svg", { class: "offer-thumb", viewBox: `${box.x} ${box.y} ${box.width} ${box.height}`, "aria-hidden": "true", focusable: "false" });
    const ground = this.board.querySelector(`[data-hex="${CSS.escape(String(place))}"]`);
    if (ground) {
      const copy = ground.cloneNode(false);
      // A picture only: not the board's button it may be (the place's marks), nor a test hook.
      for (const name of [...copy.getAttributeNames()]) {
        if (name.startsWith("data-") || name.startsWith("aria-") || name === "tabindex" || name === "role") copy.removeAttribute(name);
      }
      svg.append(copy);
    }
    const layer = svgEl("g", {}, svg);
    return renderer.drawMove(move, layer, this.ctx, { thumbnail: true }) === false ? null : svg;
  }

  // The move as it would stand on the board (nothing for null); a move tied to a card or a row
  // in the panels marks that.
  draw(move) {
    this.previewed?.classList.remove("previewed");
    this.previewed = null;
    if (!move) {
      if (this.preview?.isConnected) {
        this.preview.replaceChildren();
        delete this.preview.dataset.move; // a `data-move` always holds a move
      }
      return;
    }
    if (!this.preview || !this.preview.isConnected) {
      this.preview = svgEl("g", { class: "offer-preview", "aria-hidden": "true" }, this.board);
    }
    this.preview.replaceChildren();
    this.preview.dataset.move = JSON.stringify(move);
    this.renderer?.drawMove?.(move, this.preview, this.ctx, { thumbnail: false });
    const place = this.renderer?.moveTarget?.(move);
    const element = place === null || place === undefined ? null : placeElement(this.renderer, this.board, place);
    if (element && !this.board.contains(element)) {
      element.classList.add("previewed");
      this.previewed = element;
    }
  }

  // Beside the place on a wide board, under it on a narrow one (a phone's CSS puts the panel
  // at the bottom of the screen, over the sheet).
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
      // Focus inside the panel goes back to the place it was opened from, not to the page's top.
      const focused = this.box.contains(document.activeElement);
      this.box.remove();
      this.box = null;
      if (focused && this.opener?.isConnected && this.opener.hasAttribute("tabindex")) this.opener.focus({ preventScroll: true });
    }
  }
}
