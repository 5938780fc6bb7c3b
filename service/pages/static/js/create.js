// The new-game form: the game, its seats (named, or open with an invite), its content pack
// and options, all read from GET /api/v1/rulesets; the answer's tokens are kept in this
// browser and its invites shown as links to send.
import * as rest from "./rest.js";
import { keep } from "./held.js";
import { el, titleOf } from "./words.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
// The bot levels' names in the reader's language.
const LEVELS = { random: t("random"), playout: t("playout"), greedy: t("greedy"), planner: t("planner") };
// The games' options, in words (an option not named here shows its own name).
const OPTIONS = {
  map: t("Map"),
  turns: t("Turns"),
  max_shares: t("Most shares a player may issue"),
  share_price: t("Cash per share"),
  max_locomotive: t("Highest locomotive"),
  ownership_markers: t("Ownership markers per player"),
  town_discs: t("Town discs in the game"),
  hex_8_0_is_lake: t("Hex 8,0 is a lake"),
  upgrade_simple_to_coexisting_cost: t("Cost to upgrade simple track to coexisting"),
  upgrade_simple_to_crossing_cost: t("Cost to upgrade simple track to a crossing"),
  town_exit_addition_cost: t("Cost to add an exit to a town"),
  redirect_cost: t("Cost to redirect track"),
  growth_takes_top_cube: t("Goods growth takes the top cube"),
  track_vp_once_per_tile: t("Track scores once per tile"),
  no_stop_visited_twice_towns_included: t("Goods pass each town only once too"),
  goods_growth_in_last_turn: t("Goods grow in the last turn"),
  upgrade_and_redirect_in_one_placement: t("Upgrade and redirect in one placement"),
  initial_order_ties_reroll: t("Ties for the starting order roll again"),
  content: t("Content"),
  first_game: t("First game (the suggested city tiles)"),
  trains_per_seat: t("Trains per player"),
  longest_path_bonus: t("Longest path bonus"),
  market_wipe_locomotives: t("Locomotives that wipe the market"),
  max_market_wipes: t("Most market wipes in a row"),
  market_wipe_needs_refill: t("A wiped market is refilled"),
  market_slots_may_stay_empty: t("Market slots may stay empty"),
  short_ticket_draw: t("Draw fewer tickets when the deck is short"),
  pass_only_without_legal_move: t("Pass only when no move is possible"),
  replacement_locomotive_as_second_card: t("A revealed locomotive may be the second card"),
  double_routes_both_usable: t("Both routes of a double route usable"),
  end_when_every_seat_passes: t("The game ends when every seat passes"),
  pack: t("Pack"),
  penalty_supply: t("Penalty tokens in the supply"),
  goods_supply: t("Limited goods supply"),
  round_limit: t("Most rounds"),
};
// The bot levels of the chosen game (GET /api/v1/rulesets), weakest first.
let botLevels = [];

function seatRow(index) {
  const name = el("input", { attrs: { name: "seat-name", maxlength: "64", autocomplete: "off" } });
  const open = el("input", { attrs: { type: "checkbox", name: "seat-open" } });
  const bot = el("select", { attrs: { name: "seat-bot" } }, [
    el("option", { text: t("a person"), attrs: { value: "" } }),
    ...botLevels.map((level) => el("option", { text: t("the {level} bot", { level: LEVELS[level] ?? level }), attrs: { value: level } })),
  ]);
  const fit = () => {
    const byBot = bot.value !== "";
    if (byBot) open.checked = false;  // a bot's seat is taken, never open to an invite
    open.disabled = byBot;
    name.disabled = open.checked && !byBot;
    name.required = !name.disabled && !byBot;
  };
  open.addEventListener("change", fit);
  bot.addEventListener("change", fit);
  if (index > 0) open.checked = true;
  fit();
  return el("li", {}, [el("div", { cls: "row" }, [
    el("label", { text: index === 0 ? t("Name (you)") : t("Name") }, [name]),
    el("label", { cls: "check" }, [open, t(" open seat, joined by invite")]),
    el("label", { text: t("Played by ") }, [bot]),
  ])]);
}

// One option as a field of its own type (GET /api/v1/rulesets' `option_types`): a checkbox, a
// choice among its values (null is "no limit"), a number within its bounds, or text. The
// field keeps its default as JSON, so only a changed option is sent, and sent typed.
function optionField(name, schema) {
  const text = OPTIONS[name] ?? name.replaceAll("_", " ");
  const label = el("label", { text, attrs: { "data-option": name } });
  const attrs = { name, "data-default": JSON.stringify(schema.default ?? null) };
  let input;
  if (schema.type === "boolean") {
    input = el("input", { attrs: { ...attrs, type: "checkbox" } });
    input.checked = schema.default === true;
    label.className = "check";
    label.prepend(input);
    return label;
  }
  if (Array.isArray(schema.enum)) {
    input = el("select", { attrs }, schema.enum.map((value) =>
      el("option", { text: value === null ? t("no limit") : value === "random" ? t("random, rolled at setup") : String(value),
        attrs: { value: JSON.stringify(value) } })));
    input.value = JSON.stringify(schema.default ?? null);
  } else if (schema.type === "integer" || schema.type === "number") {
    input = el("input", { attrs: { ...attrs, type: "number", required: "", step: schema.type === "integer" ? "1" : "any" } });
    if (schema.minimum !== undefined) input.min = String(schema.minimum);
    if (schema.maximum !== undefined) input.max = String(schema.maximum);
    input.value = String(schema.default);
  } else {
    input = el("input", { attrs: { ...attrs, type: "text" } });
    input.value = String(schema.default ?? "");
  }
  label.append(input);
  return label;
}

function valueOf(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.tagName === "SELECT") return JSON.parse(input.value);
  if (input.type === "number") return Number(input.value);
  return input.value;
}

// Only the options changed from their defaults are sent: the rules fill in the rest.
function chosenOptions() {
  const options = {};
  for (const input of $("option-fields").querySelectorAll("input, select")) {
    const value = valueOf(input);
    if (JSON.stringify(value) !== input.dataset.default) options[input.name] = value;
  }
  return options;
}

// The options a game may choose, on the chosen pack (a pack may offer other choices: maps).
function showOptions(ruleset) {
  const pack = ruleset.packs.find((p) => p.id === $("create-pack").value);
  const types = { ...ruleset.option_types, ...(pack ? pack.option_types : {}) };
  const fields = Object.entries(types).filter(([name, schema]) => name !== ruleset.pack_option && !schema.readOnly);
  $("option-fields").replaceChildren(...fields.map(([name, schema]) => optionField(name, schema)));
  $("create-options").hidden = fields.length === 0;
}

function fitSeats(ruleset) {
  const rows = $("seat-rows");
  while (rows.children.length < ruleset.min_seats) rows.append(seatRow(rows.children.length));
  while (rows.children.length > ruleset.max_seats) rows.lastElementChild.remove();
  $("add-seat").disabled = rows.children.length >= ruleset.max_seats;
  $("remove-seat").disabled = rows.children.length <= ruleset.min_seats;
}

function choose(ruleset) {
  botLevels = ruleset.bot_levels || [];
  const names = [...$("seat-rows").querySelectorAll("[name=seat-name]")].map((input) => input.value);
  $("seat-rows").replaceChildren();
  fitSeats(ruleset);
  $("seat-rows").querySelector("[name=seat-name]").value = names[0] || "";
  $("create-pack").replaceChildren(...ruleset.packs.map((p) =>
    // A pack's title is its author's name for it, in the author's words: a proper name.
    el("option", { text: `${p.title} (${p.id}, v${p.version})`, attrs: { value: p.id, translate: "no" } })));
  if (ruleset.default_pack) $("create-pack").value = ruleset.default_pack;
  $("pack-label").hidden = ruleset.packs.length === 0;
  showOptions(ruleset);
}

function showCreated(created, players) {
  const list = $("created-list");
  list.replaceChildren();
  // Ids, tokens and links are codes to copy as they are: never a word to translate.
  const code = (text) => el("dd", { text, attrs: { translate: "no" } });
  const invite = (seat, invited) => {
    const link = `${location.origin}/#join=${encodeURIComponent(created.game_id)}&invite=${encodeURIComponent(invited)}`;
    return [el("dt", { text: t("Invite for seat {seat}", { seat: Number(seat) }) }),
      el("dd", { attrs: { translate: "no" } }, [el("a", { text: link, attrs: { href: link, "data-invite-seat": seat } })])];
  };
  list.append(el("dt", { text: t("Game id") }), code(created.game_id));
  for (const [seat, token] of Object.entries(created.seat_tokens)) {
    list.append(el("dt", { text: t("Token of {name} (seat {seat})", { name: players[seat], seat: Number(seat) }) }), code(token));
  }
  for (const [seat, invited] of Object.entries(created.invites)) list.append(...invite(seat, invited));
  list.append(el("dt", { text: t("Referee token") }), code(created.referee_token));
  $("created").hidden = false;
}

export function setUpCreate(rulesets, notify, onCreated) {
  const byName = new Map(rulesets.map((r) => [r.game, r]));
  $("create-game").replaceChildren(...rulesets.map((r) => el("option", { text: titleOf(r.game), attrs: { value: r.game, translate: "no" } })));
  const current = () => byName.get($("create-game").value);
  $("create-game").addEventListener("change", () => choose(current()));
  $("create-pack").addEventListener("change", () => showOptions(current()));
  $("add-seat").addEventListener("click", () => { $("seat-rows").append(seatRow($("seat-rows").children.length)); fitSeats(current()); });
  $("remove-seat").addEventListener("click", () => { $("seat-rows").lastElementChild.remove(); fitSeats(current()); });
  if (rulesets.length) choose(rulesets[0]);

  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const ruleset = current();
    const bots = {};
    const players = [...$("seat-rows").children].map((row, seat) => {
      const level = row.querySelector("[name=seat-bot]").value;
      const name = row.querySelector("[name=seat-name]").value.trim();
      if (level) {
        bots[seat] = level;
        return name || `${level} bot`;
      }
      return row.querySelector("[name=seat-open]").checked ? null : name;
    });
    const options = chosenOptions();
    if (ruleset.pack_option && $("create-pack").value) options[ruleset.pack_option] = $("create-pack").value;
    const hours = $("create-deadline").value.trim();
    const terms = hours ? { move_deadline: Math.round(Number(hours) * 3600) } : {};
    $("create-submit").disabled = true;
    try {
      const created = await rest.create({ game: ruleset.game, players, options, bots, ...terms });
      for (const [seat, token] of Object.entries(created.seat_tokens)) {
        if (seat in bots) continue;  // a bot's seat is no one's in this browser
        keep({ game_id: created.game_id, seat: Number(seat), token, name: players[seat], game: created.game });
      }
      keep({ game_id: created.game_id, seat: null, token: created.referee_token, name: "referee", game: created.game });
      showCreated(created, players);
      notify(t("{game} created.", { game: titleOf(created.game) }));
      await onCreated();
    } catch (error) {
      notify(t("The game was not created: {error}", { error: error.message }), "error");
    } finally {
      $("create-submit").disabled = false;
    }
  });
}
