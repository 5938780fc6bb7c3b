// The dispute desk on the tournament page: with the tournament's referee token (kept for
// the tab in sessionStorage, never in the address), every open dispute of every table, each
// with a form to rule on it; a ruling that gives places changes the table's result, and the
// tournament's stream then moves the standings on the page.
import { call } from "./rest.js";
import { el } from "./words.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const id = document.body.dataset.tournamentId;
const base = `/api/v1/tournaments/${encodeURIComponent(id)}`;
const KEPT = `caboose.referee.${id}`;

function say(message, kind = "info") {
  $("notice").textContent = message;
  $("notice").dataset.kind = kind;
  $("notice").hidden = !message;
}

function places(text) {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  return parts.length ? parts.map(Number) : null;
}

function rulingForm(dispute, token) {
  const form = el("form", { cls: "ruling", attrs: { autocomplete: "off" } });
  const text = el("textarea", { attrs: { required: "", rows: "2" } });
  const outcome = el("select", {}, ["upheld", "dismissed", "withdrawn"].map((value) =>
    el("option", { text: { upheld: t("upheld"), dismissed: t("dismissed"), withdrawn: t("withdrawn") }[value], attrs: { value } })));
  const placesField = el("input", { attrs: { inputmode: "numeric", placeholder: t("e.g. 2, 1, 3, 4") } });
  form.append(
    el("label", { text: t("Ruling") }, [text]),
    el("label", { text: t("Outcome") }, [outcome]),
    el("label", { text: t("The table's places, seat 0 first (empty: the result stands)") }, [placesField]),
    el("button", { text: t("Rule"), attrs: { type: "submit" } }),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await call("POST", `${base}/rulings`, {
        token, body: { game_id: dispute.game_id, dispute: dispute.dispute, text: text.value, outcome: outcome.value,
          places: places(placesField.value) },
      });
      say(answer.note || t("Ruled."));
      show(token);
    } catch (error) {
      say(t("Not ruled: {error}", { error: error.message }), "error");
    }
  });
  return form;
}

function disputeCard(dispute, token) {
  return el("li", { cls: "card", attrs: { "data-game-id": dispute.game_id, "data-dispute": String(dispute.dispute) } }, [
    el("h3", { text: t("Round {round}, table {table}: dispute {dispute}", dispute) }),
    el("p", { text: t("About event {version}, raised by {who}: {claim}", { version: dispute.about_version, who: dispute.raised_by,
      claim: dispute.claim }) }),
    el("p", { cls: "actions" }, [el("a", { text: t("Watch the replay"), attrs: { href: `/games/${dispute.game_id}/replay?at=${dispute.about_version}` } })]),
    rulingForm(dispute, token),
  ]);
}

async function show(token) {
  try {
    const answer = await call("GET", `${base}/disputes`, { token });
    $("disputes").replaceChildren(...answer.disputes.map((d) => disputeCard(d, token)));
    $("desk-empty").hidden = answer.disputes.length > 0;
    sessionStorage.setItem(KEPT, token);
  } catch (error) {
    sessionStorage.removeItem(KEPT);
    say(error.status === 401 ? t("This is not the tournament's referee token.") : t("Not available: {error}", { error: error.message }), "error");
  }
}

$("desk-form").addEventListener("submit", (event) => {
  event.preventDefault();
  show($("desk-token").value.trim());
});
const kept = sessionStorage.getItem(KEPT);
if (kept) show(kept);
