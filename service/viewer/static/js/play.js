// The play page: the replay page opened with a seat's token offers that seat's legal moves,
// as the API lists them, and sends the one chosen. Every offered move is an element carrying
// the move as JSON in `data-move`; a move type with several moves is a choice, sent by a
// button labelled "Confirm". A move goes with If-Match (the version its list was read at)
// and an Idempotency-Key; a 412 says the game moved on and reloads the moves, a refused move
// shows the rule's message. Renderers may word moves (`moveLabel`) and tie them to the board
// (`moveTarget`: a click on a board element with that `data-route`/`data-hex` picks them out
// of the list and offers them on the board, offers.js); a game without those hooks gets the
// same list, worded from the move's fields.

import { ApiError } from "./api.js";
import { h } from "./dom.js";
import { BoardOffers, placesAt, typeName } from "./offers.js";
import { t } from "/pages/static/js/i18n.js";

const FILTER_FROM = 12; // a choice longer than this gets a filter box

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
    // A place on the board that holds moves is a button: Enter or Space opens it, as a click.
    this.offers.board.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      const place = e.target.closest?.("[data-offers]");
      if (!place || this.panel.hidden) return;
      e.preventDefault();
      this.pickOnBoard(place);
    });
  }

  label(move) {
    return this.ctx.renderer?.moveLabel?.(move, this.ctx) || plainLabel(move, this.ctx.renderer);
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
    const name = `move-${type}`;
    const options = moves.map((move) => {
      const input = h("input", { type: "radio", name, dataset: { move: JSON.stringify(move) } });
      const target = this.ctx.renderer?.moveTarget?.(move);
      return h("label", { class: "move-option", dataset: target ? { target } : {} }, input, " ", this.label(move));
    });
    const list = h("div", { class: "move-options", tabindex: "0", role: "radiogroup", "aria-label": typeName(this.ctx.renderer, type) }, options);
    const confirm = h("button", { type: "button", class: "confirm", disabled: true }, t("Confirm"));
    list.addEventListener("change", () => { confirm.disabled = !list.querySelector("input:checked"); });
    confirm.addEventListener("click", () => {
      const chosen = list.querySelector("input:checked");
      if (chosen) this.send(JSON.parse(chosen.dataset.move));
    });
    const group = h("fieldset", { class: "move-group", dataset: { type } }, h("legend", {}, `${typeName(this.ctx.renderer, type)} (${moves.length})`));
    if (moves.length > FILTER_FROM) {
      const filter = h("input", { type: "search", class: "move-filter", placeholder: t("filter"), "aria-label": t("Filter the {type} moves", { type: typeName(this.ctx.renderer, type) }) });
      filter.addEventListener("input", () => this.filter(group, filter.value));
      group.append(filter);
    }
    group.append(list, confirm);
    return group;
  }

  filter(group, text, target = null) {
    const wanted = text.trim().toLowerCase();
    for (const option of group.querySelectorAll(".move-option")) {
      option.hidden = target ? option.dataset.target !== target : !option.textContent.toLowerCase().includes(wanted);
    }
  }

  // A click on the board: the moves tied to the place clicked, offered beside it and picked
  // out of their lists.
  // The moves are drawn on the board as it stands now: a viewer looking at an earlier event
  // is brought to the present first.
  async pickOnBoard(element) {
    const picked = placesAt(this.ctx.renderer, element);
    if (!picked) return 0;
    for (const place of picked.places) this.pick(place);
    const shown = Number(document.getElementById("board").dataset.version);
    if (this.version && shown !== this.version && window.replay) await window.replay.go(this.version);
    return this.offers.open(element, this.moves);
  }

  // The list's option for `move` marked as chosen (the board's choice, kept in step).
  check(move) {
    const wanted = JSON.stringify(move);
    const input = [...this.panel.querySelectorAll("input[data-move]")].find((i) => i.dataset.move === wanted);
    if (input && !input.checked) {
      input.checked = true;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  // A click on the board (a route, a hex): the moves tied to it, picked out of their lists.
  pick(target) {
    let found = 0;
    for (const group of this.panel.querySelectorAll("fieldset.move-group")) {
      const tied = group.querySelectorAll(`.move-option[data-target="${CSS.escape(target)}"]`);
      if (!tied.length) continue;
      found += tied.length;
      this.filter(group, "", target);
      const filter = group.querySelector(".move-filter");
      if (filter) filter.value = "";
      if (tied.length === 1) tied[0].querySelector("input").click();
    }
    return found;
  }

  async send(move) {
    if (this.busy) return;
    this.busy = true;
    this.panel.setAttribute("aria-busy", "true");
    try {
      await this.api.move(move, this.version, newKey());
      this.message = { kind: "ok", text: `Sent: ${this.label(move)}` };
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
