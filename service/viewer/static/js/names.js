// Names in the reader's language: what a content pack calls its things (cities, buildings,
// goods, upgrades, cards: the board map's `names`, the pack's names.json in every language),
// and the compass directions the hex games name their edges by.

import { t, tag } from "/pages/static/js/i18n.js";

const primary = tag.split("-")[0];

// `named(kind, id, fallback)`: the name in the page's language, else its primary language
// ("zh" for "zh-TW"), else English, else `fallback`, else the id with spaces for "_".
export function namer(map) {
  const names = map?.names || {};
  return (kind, id, fallback) => {
    const given = names[kind]?.[id];
    const found = given && (given[tag] || given[primary] || given.en);
    return found || fallback || String(id ?? "").replace(/_/g, " ");
  };
}

const DIRECTIONS = {
  north: t("north"), "north-east": t("north-east"), east: t("east"), "south-east": t("south-east"),
  south: t("south"), "south-west": t("south-west"), west: t("west"), "north-west": t("north-west"),
};

// Edge `edge` of a hex whose edges a game numbers as `order` (its directions, from edge 0).
export function compass(order, edge) {
  return DIRECTIONS[order[edge]] ?? String(edge);
}
