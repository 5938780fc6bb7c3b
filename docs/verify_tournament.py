"""Verify an exported Caboose tournament with the standard library alone:
    python3 verify_tournament.py TOURNAMENT.jsonl
The file is `caboose tournament export`'s: the tournament's records (`tournament_id`), then
each table's game record (`game_id`). From the records alone this re-derives, from the
revealed secret, every player's draw and every table's seed and seat order; checks each
game record with verify_record.py (beside this file) and against its table; recomputes
places, points, standings and advancement; and says what it could not check. Exits 1 when
anything does not verify. See docs/tournaments.md, "Checking a tournament"."""
import hashlib
import hmac
import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

canon = lambda x: json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
sha = lambda b: hashlib.sha256(b).hexdigest()
notes = []


def fail(why):
    sys.exit(f"FAILED: {why}")


def chain(records, id_field):
    """FORMAT.md's chain: versions 1, 2, ..., each linked to the one before, each hash its body's."""
    prev = "0" * 64
    for n, e in enumerate(records, 1):
        secrets = [{"to": s["to"], "digest": s.get("digest") or sha(bytes.fromhex(s["salt"]) + canon(s["value"]))} for s in e["secrets"]]
        body = {**{k: v for k, v in e.items() if k != "hash"}, "secrets": secrets}
        if e["version"] != n or e["prev_hash"] != prev or sha(canon(body)) != e["hash"] or id_field not in e:
            fail(f"{id_field} {e.get(id_field)} event {n}: its version, link or hash does not match")
        prev = e["hash"]


# -- what the secret decides (FORMAT.md's generator, keyed by HMAC-SHA256(secret, canonical identity)) --
def derived(secret, **identity):
    return hmac.new(secret, canon(identity), hashlib.sha256).digest()


def shuffled(seed, items):
    stream = (b for i in range(10**9) for b in hmac.new(seed, i.to_bytes(8, "big"), hashlib.sha256).digest())
    def below(n):
        while (x := int.from_bytes(bytes(next(stream) for _ in range(8)), "big")) >= 2**64 - 2**64 % n: pass
        return x % n
    out = sorted(items, key=canon)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# -- table sizes, places and points (docs/tournaments.md) --
def split(count, preferred, allowed):
    low, high = min(allowed), max(allowed)
    for n in range(-(-count // preferred), 0, -1) if count >= low else ():
        size, extra = divmod(count, n)
        if low <= size and size + (extra > 0) <= high:
            return [size + 1] * extra + [size] * (n - extra)
    return None


def fitted(order, preferred, allowed):
    players = list(order)
    while players and split(len(players), preferred, allowed) is None:
        players.pop()
    return players, split(len(players), preferred, allowed) or []


def places(keys, forfeited=()):
    keyed = [(0 if s in forfeited else 1, tuple(k)) for s, k in enumerate(keys)]
    return [1 + sum(o > mine for o in keyed) for mine in keyed]


def points(table_places, worth):
    worth = [Fraction(str(w)) for w in worth]
    at = lambda i: worth[i] if i < len(worth) else Fraction(0)
    return [sum((at(i) for i in range(p - 1, p - 1 + table_places.count(p))), Fraction(0)) / table_places.count(p) for p in table_places]


def snake(order, sizes):
    tables, forward, index = [[] for _ in sizes], True, 0
    for player in order:
        while True:
            span = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
            pick = next((i for i in span if len(tables[i]) < sizes[i] and (i >= index if forward else i <= index)), None)
            if pick is not None:
                tables[pick].append(player)
                index = pick + 1 if forward else pick - 1
                break
            forward, index = not forward, 0 if not forward else len(sizes) - 1
    return tables


class Tournament:
    """The tournament folded from its records: what the standings and the advancement need."""

    def __init__(self, created):
        self.created, self.players, self.ratings, self.tables, self.rounds, self.withdrawn = created, {}, {}, [], [], set()

    def figures(self, stages):
        """Each player's figures over the tables of `stages` (byes only for Swiss and schedule)."""
        scoring, out = self.created["scoring"], {}
        for p, draw in self.players.items():
            out[p] = {"points": Fraction(0), "wins": 0, "games": 0, "place_points": Fraction(0), "winner_percentage": Fraction(0), "score_sum": 0, "draw": draw}
        for t in self.tables:
            if t["stage"] not in stages or t["result"] is None:
                continue
            table_places, scores = t["result"]
            earned, wbc = points(table_places, scoring["place_points"]), points(table_places, [1000, 100, 10, 1])
            winning = max((s for s, p in zip(scores, table_places, strict=True) if p == 1), default=0)
            for seat, p in enumerate(t["seats"]):
                f = out[p]
                f["points"] += earned[seat]; f["place_points"] += wbc[seat]; f["games"] += 1; f["score_sum"] += scores[seat]
                if table_places[seat] == 1: f["wins"] += 1
                elif winning > 0: f["winner_percentage"] = max(f["winner_percentage"], Fraction(max(scores[seat], 0) * 100, winning))
        if "heat" not in stages:
            for r in self.rounds:
                for p in r["byes"]: out[p]["points"] += Fraction(str(scoring["bye_points"]))
        return out

    def ladder(self, players, stages):
        ladder = [t for t in self.created["scoring"]["tie_breaks"] if t != "draw"] + ["draw"]
        f = self.figures(stages)
        return sorted(players, key=lambda p: tuple(f[p]["draw"] if t == "draw" else -f[p][t] for t in ladder))

    def heats(self):
        return self.created["format"]["kind"] == "heats"

    def place_at(self, stage, player):
        return next((t["result"][0][t["seats"].index(player)] for t in self.tables if t["stage"] == stage and player in t["seats"] and t["result"]), None)

    def standing(self):
        stages = {"heat"} if self.heats() else {"round"}
        ranked = self.ladder(list(self.players), stages)
        if not self.heats():
            return sorted(ranked, key=lambda p: p in self.withdrawn)
        rank, placed = {p: i for i, p in enumerate(ranked)}, []
        for stage in ("final", "semifinal"):
            placed += sorted((p for p in ranked if p not in placed and self.place_at(stage, p) is not None), key=lambda p: (self.place_at(stage, p), rank[p]))
        return placed + sorted((p for p in ranked if p not in placed), key=lambda p: p in self.withdrawn)

    def advancing(self, stage):
        fmt = self.created["format"]
        figures = self.figures({"heat"})
        heats = [p for p in self.ladder([p for p in self.players if p not in self.withdrawn], {"heat"}) if figures[p]["games"] > 0]
        if stage == "semifinal":
            return heats[:fmt["semifinal"]]
        semis = [t for t in self.tables if t["stage"] == "semifinal"]
        if not semis:
            return heats[:fmt["final"]]
        rank, entries = {p: i for i, p in enumerate(heats)}, []
        for t in semis:
            at = dict(zip(t["seats"], t["result"][0], strict=True))
            seated = sorted((p for p in t["seats"] if p not in self.withdrawn), key=lambda p: (at[p], rank.get(p, len(rank))))
            entries += [(0 if i == 0 else 1, at[p], rank.get(p, len(rank)), p) for i, p in enumerate(seated)]
        return [e[-1] for e in sorted(entries)[:fmt["final"]]]


def main(path):
    try:
        lines = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
        records = [r for r in lines if "tournament_id" in r]
        games = {}
        for r in lines:
            if "game_id" in r: games.setdefault(r["game_id"], []).append(r)
        assert records and records[0]["kind"] == "TournamentCreated", "no tournament record, or it does not start with TournamentCreated"
        chain(records, "tournament_id")
        for game in games.values(): chain(game, "game_id")
    except (ValueError, KeyError, TypeError, AttributeError, AssertionError) as error:
        fail(f"not a tournament export: {type(error).__name__}: {error}")
    created = records[0]["data"]
    physical = created["seed_source"] == "table"
    revealed = next((r["data"]["secret"] for r in records if r["kind"] == "SecretRevealed"), None)
    if revealed is None:
        notes.append("the secret is not revealed (the tournament has not ended): draws, seeds and seat orders not checked")
    secret = bytes.fromhex(revealed) if revealed else None
    if secret is not None and sha(secret) != created["commitment"]:
        fail("the revealed secret does not match the creation's commitment")
    state, fmt, allowed = Tournament(created), created["format"], created["table_sizes"]
    for e in records[1:]:
        d, v = e["data"], e["version"]
        if e["kind"] == "PlayerRegistered":
            if secret and d["draw"] != derived(secret, use="draw", player=d["player"]).hex()[:16]: fail(f"event {v}: {d['player']}'s draw is not the secret's")
            state.players[d["player"]], state.ratings[d["player"]] = d["draw"], d.get("rating")
        elif e["kind"] == "PlayerWithdrawn":
            state.withdrawn.add(d["player"])
        elif e["kind"] == "RoundPaired":
            check_round(state, secret, e, [r["data"]["seats"] for r in records if r["kind"] == "TableSeated" and r["data"]["round"] == d["round"]], fmt, allowed)
            state.rounds.append(d)
        elif e["kind"] == "TableSeated":
            if d["game_id"] is not None: check_table(d, v, secret, physical, records[0]["tournament_id"], games)
            elif secret and shuffled(derived(secret, use="seats", round=d["round"], table=d["table"]), d["seats"]) != d["seats"]: fail(f"event {v}: the seat order is not the secret's")
            state.tables.append({"round": d["round"], "table": d["table"], "stage": state.rounds[-1]["stage"], "seats": d["seats"], "game_id": d["game_id"], "result": None})
        elif e["kind"] == "TableOpened":  # a physical table's game, made from its opening as laid out there
            table = next(t for t in state.tables if (t["round"], t["table"]) == (d["round"], d["table"]))
            table["game_id"] = d["game_id"]
            check_table({**d, "seats": table["seats"], "seed_commitment": None}, v, secret, physical, records[0]["tournament_id"], games)
        elif e["kind"] == "TableFinished":
            table = next(t for t in state.tables if t["game_id"] == d["game_id"])
            check_result(d, v, games[d["game_id"]], state.withdrawn)
            table["result"] = (d["places"], d["scores"])
        elif e["kind"] == "ResultRuled":
            table = next(t for t in state.tables if t["game_id"] == d["game_id"])
            if d.get("dispute") is not None and not any(g["kind"] == "DisputeRaised" and g["version"] == d["dispute"] for g in games[d["game_id"]]):
                fail(f"event {v}: the ruling cites dispute {d['dispute']}, which game {d['game_id']} does not hold")
            table["result"] = (d["places"], table["result"][1] if table["result"] else [0] * len(table["seats"]))
        elif e["kind"] == "TournamentFinished" and state.standing() != d["standing"]:
            fail(f"event {v}: the final standing does not follow from the results")
    for game_id, game in games.items():
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as handle:
            handle.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in game)
        said = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "verify_record.py"), handle.name], capture_output=True, text=True)
        os.unlink(handle.name)
        if said.returncode: fail(f"game {game_id}: {(said.stderr or said.stdout).strip()}")
    seated = [t["game_id"] for t in state.tables if t["game_id"]]
    if sorted(seated) != sorted(games): fail("the file's games are not exactly the tournament's tables")
    finished = any(r["kind"] == "TournamentFinished" for r in records)
    seeds = "every table's seat order" + ("" if physical else " and seed") if secret else ""
    print(f"OK: {len(records)} tournament events, {len(games)} table games: every chain intact; every game record verified (verify_record.py)"
          + (f"; from the revealed secret: every draw, {seeds} re-derived" if secret else "")
          + ("; the tables played with physical components: the commitment covers the seating only" if physical else "")
          + "; every result is its game's (places recomputed from the game's order of finish; the tie-break values beyond the score are the game's own, which `caboose tournament verify` replays)"
          + "; heats' tables and every semifinal's and final's players recomputed" * (fmt["kind"] == "heats")
          + "; Swiss and schedule rounds: each round's order and byes checked, its tables (an assignment solver's) not re-solved" * (fmt["kind"] != "heats")
          + ("; points, standings and the final standing recomputed" if finished else "; the tournament has not finished")
          + "".join(f"; NOT checked: {n}" for n in notes))


def check_round(state, secret, e, tables, fmt, allowed):
    d, v = e["data"], e["version"]
    entered = d["order"] + d["byes"]
    if d["stage"] == "heat" and secret:
        if sorted(entered, key=lambda p: derived(secret, use="heat", round=d["round"], player=p)) != entered: fail(f"event {v}: the heat's players are not in its draw's order")
        seated, sizes = fitted(entered, fmt["table_size"], allowed)
        start = [sum(sizes[:i]) for i in range(len(sizes))]
        if [set(seated[s:s + n]) for s, n in zip(start, sizes, strict=True)] != [set(t) for t in tables]: fail(f"event {v}: the heat's tables are not its draw's")
    elif d["stage"] in ("semifinal", "final"):
        if state.advancing(d["stage"]) != d["order"]: fail(f"event {v}: the {d['stage']}'s players are not those the results advance")
        sizes = [len(d["order"])] if d["stage"] == "final" else fitted(d["order"], fmt["table_size"], allowed)[1]
        if [set(t) for t in snake(d["order"], sizes)] != [set(t) for t in tables]: fail(f"event {v}: the {d['stage']}'s tables are not its snake order")
    elif fmt["kind"] == "swiss":
        still_in = [p for p in state.players if p not in state.withdrawn]
        if d["round"] == 1:
            by_rating = fmt["seeding"] == "rating"
            ranked = sorted(still_in, key=lambda p: (-(state.ratings[p] if state.ratings[p] is not None else float("-inf")) if by_rating else 0, state.players[p]))
        else:
            ranked = state.ladder(still_in, {"round"})
        if [p for p in ranked if p not in d["byes"]] != d["order"]: fail(f"event {v}: the round's order is not the standing")


def check_table(d, v, secret, physical, tournament_id, games):
    game = games.get(d["game_id"])
    if not game: fail(f"event {v}: the record of game {d['game_id']} (round {d['round']} table {d['table']}) is missing")
    g = game[0]["data"]
    if g.get("tournament") != {"tournament": tournament_id, "round": d["round"], "table": d["table"]}: fail(f"event {v}: game {d['game_id']} does not name this table")
    if [s["name"] for s in sorted(g["seats"], key=lambda s: s["seat"])] != d["seats"]: fail(f"event {v}: game {d['game_id']}'s seats are not the table's")
    if g.get("seed_commitment") != d["seed_commitment"]: fail(f"event {v}: game {d['game_id']}'s seed commitment is not the table's")
    if secret:
        if shuffled(derived(secret, use="seats", round=d["round"], table=d["table"]), d["seats"]) != d["seats"]: fail(f"event {v}: the seat order is not the secret's")
        if not physical and d["seed_commitment"] != sha(derived(secret, use="seed", round=d["round"], table=d["table"])): fail(f"event {v}: the table's seed is not the secret's")


def check_result(d, v, game, withdrawn):
    ended = next((g for g in reversed(game[:d["version"]]) if g["kind"] == "GameEnded"), None)
    if ended is None or len(game) < d["version"] or game[d["version"] - 1]["hash"] != d["head"]: fail(f"event {v}: game {d['game_id']} has not ended where the result says")
    if "scores" in ended["data"] and [ended["data"]["scores"][str(s)] for s in range(len(d["scores"]))] != d["scores"]: fail(f"event {v}: the scores are not game {d['game_id']}'s")
    if places(d["finish"], d["forfeited"]) != d["places"]: fail(f"event {v}: the places do not follow from the game's order of finish")
    winners = ended["data"].get("winners")
    if winners and not d["forfeited"] and sorted(s for s, p in enumerate(d["places"]) if p == 1) != sorted(winners): fail(f"event {v}: first place is not the game's winners")


if __name__ == "__main__":
    main(sys.argv[1])
