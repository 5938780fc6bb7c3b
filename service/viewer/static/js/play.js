// The play page: the replay page opened with a seat's token offers that seat's legal moves,
// as the API lists them, and sends the one chosen. Every offered move is an element carrying
// the move as JSON in `data-move`. A move type with one move is a button; with several, a
// choice sent by "Confirm": a short list of options; a long one tied to places (a hex, a
// route, a building, a card) is a place to pick, on the board or in a list, then that place's
// moves, each drawn; a long one tied to no place is one drop-down. Never hundreds of options
// in sight at once. A move goes with If-Match (the version its list was read at) and an
// Idempotency-Key; a 412 says the game moved on and reloads the moves, a refused move shows
// the rule's message. Renderers word moves (`moveLabel`) and tie them to places
// (`moveTarget`: a click on the place picks them out of the list and offers them on the
// board, offers.js); a game without those hooks gets the list, worded from the move's fields.

import { ApiError } from "./api.js";
import { h } from "./dom.js";
import { BoardOffers, placesAt, typeName } from "./offers.js";
import { t, tn } from "/pages/static/js/i18n.js";

const FEW = 8; // a choice of more moves than this, tied to places, is chosen place first
const LONG = 12; // a choice of more moves than this, tied to no place, is a drop-down
const FILTER_FROM = 12; // a list of more places than this gets a filter box

const words = (name) => name.replace(/_/g, " ");

function plainLabel(move, renderer) {
  const fields = Object.entries(move).filter(([k]) => k !== "type" && k !== "seat");
  if (!fields.length) return typeName(renderer, move.type);
  return fields.map(([k, v]) => `${words(k)}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
}

function newKey() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

export class Play {
  // `onMoved()`: the page fetches the new events (and so calls `refresh` again).
  constructor(panel, api, ctx, onMoved) {
    this.panel = panel;
    this.api = api;
    this.ctx = ctx;
    this.onMoved = onMoved;
    this.version = null;
    this.busy = false;
    this.message = null;
    this.moves = [];
    this.offers = new BoardOffers(document.getElementById("board"), ctx, {
      send: (move) => this.send(move),
      choose: (move) => this.check(move),
    });
    // A place that holds moves is a button: Enter or Space opens it, as a click.
    for (const within of [this.offers.board, document.getElementById("table"), document.getElementById("my-hand")]) {
      within?.addEventListener("keydown", (e) => {
        if (e.key !== "Enter" && e.key !== " ") return;
        const place = e.target.closest?.("[data-offers]");
        if (!place || this.panel.hidden) return;
        e.preventDefault();
        this.pickOnBoard(place);
      });
    }
  }

  get renderer() { return this.ctx.renderer; }

  label(move) {
    return this.renderer?.moveLabel?.(move, this.ctx) || plainLabel(move, this.renderer);
  }

  // The seat's moves now (whatever version the viewer is looking at).
  async refresh(seatAudience) {
    if (!seatAudience || !this.api.token) {
      this.panel.hidden = true;
      this.offers.close();
      this.offers.unmark();
      document.body.classList.remove("playing");
      return;
    }
    let answer;
    try {
      answer = await this.api.legalMoves();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) { this.panel.hidden = true; this.offers.unmark(); return; }
      throw error;
    }
    if (this.version === answer.version && this.panel.dataset.version === String(answer.version)) return;
    this.version = answer.version;
    this.draw(answer.moves, answer.version);
  }

  draw(moves, version) {
    this.moves = moves;
    this.offers.close();
    this.offers.mark(moves);
    document.body.classList.add("playing");
    const panel = this.panel;
    panel.hidden = false;
    panel.dataset.version = String(version);
    const groups = new Map();
    for (const move of moves) {
      if (!groups.has(move.type)) groups.set(move.type, []);
      groups.get(move.type).push(move);
    }
    const parts = [h("h2", {}, t("Your moves"))];
    if (this.message) parts.push(h("p", { class: `play-message ${this.message.kind}`, role: "alert" }, this.message.text));
    if (!moves.length) parts.push(h("p", { class: "play-wait" }, t("Not your turn: waiting for the other players.")));
    for (const [type, list] of groups) parts.push(list.length === 1 ? this.single(list[0]) : this.choice(type, list));
    panel.replaceChildren(...parts);
  }

  single(move) {
    const button = h("button", { type: "button", class: "move", dataset: { move: JSON.stringify(move) } }, this.label(move));
    button.addEventListener("click", () => this.send(move));
    return h("div", { class: "move-group", dataset: { type: move.type } }, button);
  }

  choice(type, moves) {
    const name = typeName(this.renderer, type);
    const group = h("fieldset", { class: "move-group", dataset: { type } }, h("legend", {}, `${name} (${moves.length})`));
    const confirm = h("button", { type: "button", class: "confirm", disabled: true }, t("Confirm"));
    const places = new Map();
    for (const move of moves) {
      const place = this.renderer?.moveTarget?.(move) ?? null;
      if (!places.has(place)) places.set(place, []);
      places.get(place).push(move);
    }
    if (moves.length > FEW && places.size > 1 && !places.has(null)) this.byPlace(group, places, name);
    else if (moves.length > LONG) this.dropDown(group, moves, name);
    else group.append(this.options(moves, name));
    group.addEventListener("change", (e) => {
      const chosen = this.chosenIn(group);
      confirm.disabled = !chosen;
      if (chosen && e.target.matches("input[data-move], select.move-choice")) this.preview(chosen);
    });
    confirm.addEventListener("click", () => {
      const chosen = this.chosenIn(group);
      if (chosen) this.send(chosen);
    });
    group.append(confirm);
    return group;
  }

  // The moves as a list of options (a radio group), each drawn where the game can draw it.
  options(moves, name, hidden = false) {
    const options = moves.map((move) => {
      const target = this.renderer?.moveTarget?.(move);
      const input = h("input", { type: "radio", name: `move-${move.type}`, dataset: { move: JSON.stringify(move) } });
      const option = h("label", { class: "move-option", dataset: target === undefined || target === null ? {} : { target: String(target) }, hidden },
        input, h("span", {}, this.label(move)));
      if (!hidden) this.thumbnail(option, move);
      return option;
    });
    return h("div", { class: "move-options", role: "radiogroup", "aria-label": name }, options);
  }

  thumbnail(option, move) {
    if (option.dataset.drawn) return;
    option.dataset.drawn = "yes";
    const thumb = this.offers.thumbnail(move);
    if (thumb) option.querySelector("input").after(thumb);
  }

  // A long choice tied to places: the place first (on the board, or in this list), then its
  // moves. Every move is in the list, under its place; only the chosen place's are shown.
  byPlace(group, places, name) {
    const select = h("select", { class: "move-place", "aria-label": t("Where: {moves}", { moves: name }) },
      h("option", { value: "" }, tn("— {n} place: choose one on the board or here —", "— {n} places: choose one on the board or here —", places.size)),
      [...places].map(([place, here]) => h("option", { value: String(place) }, `${this.placeName(place)} (${here.length})`)));
    group.append(h("p", { class: "move-hint" }, t("Tap or click a place on the board, or choose it here.")));
    if (places.size > FILTER_FROM) {
      const filter = h("input", { type: "search", class: "move-filter", placeholder: t("filter"), "aria-label": t("Filter the places of {moves}", { moves: name }) });
      filter.addEventListener("input", () => {
        const wanted = filter.value.trim().toLowerCase();
        for (const option of select.options) if (option.value) option.hidden = !option.textContent.toLowerCase().includes(wanted);
      });
      group.append(filter);
    }
    select.addEventListener("change", () => this.showPlace(group, select.value));
    group.append(select);
    // Each place's moves, hidden until it is chosen: a few as options, many as a drop-down.
    for (const [place, here] of places) {
      const moves = h("div", { class: "place-moves", dataset: { target: String(place) }, hidden: true });
      if (here.length > LONG) this.dropDown(moves, here, `${name}: ${this.placeName(place)}`);
      else moves.append(this.options(here, name, true));
      group.append(moves);
    }
  }

  // A long choice tied to no place (or many moves at one): one drop-down of the moves in words.
  dropDown(group, moves, name) {
    const select = h("select", { class: "move-choice", "aria-label": name },
      h("option", { value: "" }, t("— choose —")),
      moves.map((move, i) => h("option", { value: String(i), dataset: { move: JSON.stringify(move) } }, this.label(move))));
    group.append(select);
  }

  placeName(place) {
    return this.renderer?.placeName?.(place) || String(place);
  }

  // The moves at `place` shown (each drawn), the others hidden and unchosen.
  showPlace(group, place) {
    const select = group.querySelector("select.move-place");
    if (select && select.value !== place) select.value = place;
    for (const moves of group.querySelectorAll(".place-moves")) {
      moves.hidden = moves.dataset.target !== place;
      for (const option of moves.querySelectorAll(".move-option")) {
        option.hidden = moves.hidden;
        if (!moves.hidden) this.thumbnail(option, JSON.parse(option.querySelector("input").dataset.move));
        else option.querySelector("input").checked = false;
      }
      if (moves.hidden) for (const choice of moves.querySelectorAll("select.move-choice")) choice.value = "";
    }
    group.querySelector("button.confirm").disabled = !this.chosenIn(group);
    return group.querySelectorAll(".place-moves:not([hidden]) .move-option, .place-moves:not([hidden]) option[data-move]");
  }

  chosenIn(group) {
    const input = group.querySelector("input[data-move]:checked");
    if (input) return JSON.parse(input.dataset.move);
    for (const choice of group.querySelectorAll("select.move-choice")) {
      const option = choice.selectedOptions[0];
      if (option?.dataset.move && !choice.closest("[hidden]")) return JSON.parse(option.dataset.move);
    }
    return null;
  }

  // A move chosen in the list, drawn on the board as it would stand (the board of now).
  async preview(move) {
    await this.present();
    this.offers.draw(move);
  }

  // The moves are drawn on the board as it stands now: a viewer looking at an earlier event is
  // brought to the present first.
  async present() {
    const shown = Number(document.getElementById("board").dataset.version);
    if (this.version && shown !== this.version && window.replay) await window.replay.go(this.version);
  }

  // A click on the board or on a card: the moves tied to the place clicked, offered beside it
  // and picked out of their lists.
  async pickOnBoard(element) {
    const picked = placesAt(this.renderer, element);
    if (!picked) return 0;
    for (const place of picked.places) this.pick(place);
    await this.present();
    return this.offers.open(element, this.moves);
  }

  // The list's option for `move` marked as chosen (the board's choice, kept in step).
  check(move) {
    const wanted = JSON.stringify(move);
    const element = [...this.panel.querySelectorAll("[data-move]")].find((e) => e.dataset.move === wanted);
    const group = element?.closest("fieldset");
    if (!element || !group) return;
    const place = element.closest(".place-moves");
    if (place?.hidden) this.showPlace(group, place.dataset.target);
    if (element.tagName === "OPTION") element.selected = true; else element.checked = true;
    group.querySelector("button.confirm")?.removeAttribute("disabled");
  }

  // A place picked on the board: its moves shown in their lists (one alone is chosen).
  pick(target) {
    let found = 0;
    for (const group of this.panel.querySelectorAll("fieldset.move-group")) {
      const tied = group.querySelectorAll(`[data-target="${CSS.escape(String(target))}"]`);
      if (!tied.length) continue;
      // A short list stays whole; a list by place shows that place's moves.
      const shown = group.querySelector("select.move-place") ? this.showPlace(group, String(target)) : tied;
      found += shown.length;
      if (shown.length === 1) shown[0].querySelector?.("input")?.click();
      group.querySelector("button.confirm").disabled = !this.chosenIn(group);
    }
    return found;
  }

  async send(move) {
    if (this.busy) return;
    this.busy = true;
    this.panel.setAttribute("aria-busy", "true");
    try {
      await this.api.move(move, this.version, newKey());
      this.message = { kind: "ok", text: t("Sent: {move}", { move: this.label(move) }) };
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        this.message = { kind: "conflict", text: t("The game moved on before your move arrived: your moves are reloaded, choose again.") };
      } else {
        this.message = { kind: "refused", text: t("Your move was refused: {error}", { error: error.message }) };
      }
    } finally {
      this.busy = false;
      this.panel.removeAttribute("aria-busy");
      this.version = null; // read the moves again, whatever happened
      await this.onMoved();
    }
  }
}
