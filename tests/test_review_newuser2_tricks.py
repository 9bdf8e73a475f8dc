"""What a second new user's review found in trick play's citations (helper report, 2026-11-27), each rebuilt
here from a seeded record (random bots) with one action or stated result changed.

3. euchre: a first lead out of turn cites the first-lead clause alone when the dealer's left leads, as the text
   says; the ``loner-lead`` entry only when a seat sitting out moved the lead.
4. bird-dog-11 and bird-dog-2p: a wrong trick winner cites the part of the winner clause that decides the trick
   (the highest card of the lead suit, the highest trump card, the Bird Dog / highest card of the hand).
5. buck-euchre: with a club turned (clubs trump at once) an order up, pass or named suit cites "There is no
   bidding or dropping out", as a drop does.
7. bird-dog-2p: a wrong score of the solo player cites the pair row, not the register entry on the non-solo
   player's share ("Distribution of points is unchanged for the two players."); a wrong score a row choice
   accounts for (a bonus point missed or given wrongly) cites the bonus table's row.
9. bird-dog-2p: the Bird Dog playing a card not among its face-up cards, or not following suit among them,
   cites the clauses on its three visible cards.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.errors import Source
from cardspec.engine.game import Game
from cardspec.engine.record import record_of

EU_LEAD = "Once trump has been picked, the person to the left of the dealer begins by laying out a card"
NO_BIDDING = "There is no bidding or dropping out"


def _record(system: str, seed: int, options: dict[str, Any] | None = None, hands: int = 1) -> dict[str, Any]:
    g = Game.from_system(system, options or {})
    st, _ = play_stepped(g, seed, "random", hand_limit=hands)
    return record_of(st)


def _rejection(rec: dict[str, Any]) -> tuple[int | None, str, Source]:
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None and v.error.source is not None, v.line()
    return v.error.index, str(v.error), v.error.source


def _first_play(rec: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(rec["actions"]) if a["action"].startswith("play "))


# --- 3. euchre: who leads the first trick ---------------------------------------------------------------------
def _lead_out_of_turn(rec: dict[str, Any]) -> tuple[int, int, Source]:
    """The record with its first play made by the next seat instead: the seat that should lead (read from the
    message), the dealer's left, and the clause cited."""
    bad = copy.deepcopy(rec)
    i = _first_play(bad)
    leader = bad["actions"][i]["seat"]
    bad["actions"][i]["seat"] = (leader + 1) % 4
    index, msg, src = _rejection(bad)
    assert index == i and f"it is seat {leader}'s turn" in msg, msg
    return leader, (rec["results"]["hands"][0]["dealer"] + 1) % 4, src


@pytest.mark.parametrize("going_alone", [True, False])
def test_once_trump_has_been_picked_the_person_to_the_left_of_the_dealer_begins(going_alone: bool) -> None:
    """A lead out of turn where the dealer's left leads cites the text's clause alone (no register entry)."""
    seen = 0
    for seed in range(12):
        rec = _record("euchre", seed, {"going_alone": going_alone})
        if rec["results"]["hands"][0]["thrown_in"]:
            continue
        leader, left, src = _lead_out_of_turn(rec)
        if leader != left:
            continue
        seen += 1
        assert (src.quote, src.register) == (EU_LEAD, None)
    assert seen >= 3


@pytest.mark.parametrize("reading", ["left_of_dealer", "left_of_loner"])
def test_loner_lead_entry_decides_a_first_lead_moved_by_a_seat_sitting_out(reading: str) -> None:
    """When the dealer's left sits out (the lone maker's partner) the lead moves: the entry is cited."""
    for seed in range(400):
        rec = _record("euchre", seed, {"loner_lead": reading})
        if rec["results"]["hands"][0]["thrown_in"]:
            continue
        i = _first_play(rec)
        left = (rec["results"]["hands"][0]["dealer"] + 1) % 4
        if rec["actions"][i]["seat"] == left:
            continue
        leader, left, src = _lead_out_of_turn(rec)
        assert leader != left
        assert (src.quote, src.register) == (EU_LEAD, "loner-lead")
        return
    pytest.fail("no hand in 400 seeds where the lead moved from the dealer's left")


@pytest.mark.parametrize("system", ["dirty-clubs", "buck-euchre"])
def test_the_player_to_dealers_left_leads_to_the_first_trick(system: str) -> None:
    """The Ohio texts: the plain clause when the dealer's left leads, the ``dropped-leader`` entry when that seat
    dropped out and the lead moved."""
    seen: set[str | None] = set()
    for seed in range(60):
        rec = _record(system, seed)
        if rec["results"]["hands"][0]["thrown_in"]:
            continue
        i = _first_play(rec)
        moved = rec["actions"][i]["seat"] != (rec["results"]["hands"][0]["dealer"] + 1) % 4
        if ("dropped-leader" if moved else None) in seen:
            continue
        bad = copy.deepcopy(rec)
        bad["actions"][i]["seat"] = (bad["actions"][i]["seat"] + 1) % 4
        _, msg, src = _rejection(bad)
        assert "acts but it is seat" in msg, msg
        assert src.quote == "The player to dealer's left leads to the first trick."
        assert src.register == ("dropped-leader" if moved else None), (seed, msg)
        seen.add(src.register)
        if seen == {None, "dropped-leader"}:
            return
    pytest.fail(f"{system}: only {seen} in 60 seeds")


# --- 4. bird dog: the part of the winner clause that decides the trick -----------------------------------------
TWIN = {"C": "S", "S": "C", "D": "H", "H": "D"}


def _tricks_of(rec: dict[str, Any]) -> list[tuple[int, list[tuple[int, str]], str, str]]:
    """Hand 0's tricks from the record replayed: (trick number, its (seat, card) plays, trump suit, the Bird Dog)."""
    g = Game.from_system(rec["system"], rec["options"])
    st = g.new_initial_state(rec["seed"])
    out: list[tuple[int, list[tuple[int, str]], str, str]] = []
    current: list[tuple[int, str]] = []
    dog = ""
    for step in rec["actions"]:
        text = step["action"]
        if text.startswith("play ") and not dog:
            tt = st.contract.tt
            assert tt is not None and st.contract.trump_card >= 0
            up = g.deck.names[st.contract.trump_card]
            dog = up[:-1] + TWIN[up[-1]]  # the same rank, the other suit of the trump card's colour
        done = len(st.hand_results)
        st.apply(g.parse_action(text))
        if text.startswith("play "):
            current.append((step["seat"], text[len("play "):]))
            if not st.piles.get("trick"):
                out.append((len(out), current, rec["results"]["hands"][0]["trump"], dog))
                current = []
        if len(st.hand_results) > done:
            break
    return out


def _kind(plays: list[tuple[int, str]], winner: int, trump: str, dog: str) -> str:
    card = next(c for s, c in plays if s == winner)
    if card == dog:
        return "top"
    if card[-1] == trump:
        return "trump"
    assert card[-1] == plays[0][1][-1], (plays, winner)  # any other winner is of the suit led
    return "lead"


BD_QUOTES = {
    "bird-dog-11": {"lead": "The trick is taken by the player who plays either: the highest card of the lead suit",
                    "trump": "or if a trump card was played the highest trump card",
                    "top": "or if the Bird Dog was played, the Bird Dog"},
    "bird-dog-2p": {"lead": "The trick is taken by the player who plays either: the highest card of the lead suit",
                    "trump": "or if a trump card was played, the highest trump card",
                    "top": "or if the highest card of the hand was played, the highest card of the hand"},
}


@pytest.mark.parametrize("system", ["bird-dog-11", "bird-dog-2p"])
def test_the_trick_is_taken_by_the_highest_card_of_the_lead_suit_trump_or_bird_dog(system: str) -> None:
    """A wrong winner of a trick won by a card of the suit led cites that part of the clause; one won by a
    trump, the highest trump card; one won by the Bird Dog (the trump card's twin), the Bird Dog."""
    seen: set[str] = set()
    for seed in range(80):
        rec = _record(system, seed)
        hand = rec["results"]["hands"][0]
        if hand["thrown_in"] or not hand["trick_winners"]:
            continue
        for n, plays, trump, dog in _tricks_of(rec):
            kind = _kind(plays, hand["trick_winners"][n], trump, dog)
            if kind in seen:
                continue
            bad = copy.deepcopy(rec)
            bad["results"]["hands"][0]["trick_winners"][n] = next(s for s, _ in plays if s != hand["trick_winners"][n])
            _, msg, src = _rejection(bad)
            assert f"trick {n}: states winner" in msg, msg
            assert src.quote == BD_QUOTES[system][kind], (seed, n, plays, kind)
            seen.add(kind)
        if seen == {"lead", "trump", "top"}:
            return
    pytest.fail(f"{system}: only {seen} in 80 seeds")


def test_each_subsequent_trick_is_led_by_the_winner_citing_what_decided_the_last_trick() -> None:
    """bird-dog-11: a later lead out of turn cites the part of the winner clause that decided the trick before."""
    seen: set[str] = set()
    for seed in range(80):
        rec = _record("bird-dog-11", seed)
        hand = rec["results"]["hands"][0]
        if hand["thrown_in"] or not hand["trick_winners"]:
            continue
        play_at = [i for i, a in enumerate(rec["actions"]) if a["action"].startswith("play ")]
        for n, plays, trump, dog in _tricks_of(rec)[:-1]:
            kind = _kind(plays, hand["trick_winners"][n], trump, dog)
            if kind in seen:
                continue
            i = play_at[3 * (n + 1)]  # three players, every one plays to every trick
            assert rec["actions"][i]["seat"] == hand["trick_winners"][n]
            bad = copy.deepcopy(rec)
            bad["actions"][i]["seat"] = (hand["trick_winners"][n] + 1) % 3
            index, msg, src = _rejection(bad)
            assert index == i and "acts but it is seat" in msg, msg
            assert src.quote == BD_QUOTES["bird-dog-11"][kind], (seed, n, kind)
            seen.add(kind)
        if seen == {"lead", "trump", "top"}:
            return
    pytest.fail(f"only {seen} in 80 seeds")


# --- 5. buck-euchre: no bidding when a club is turned ---------------------------------------------------------
@pytest.mark.parametrize("action", ["order_up", "pass", "name H", "drop"])
def test_there_is_no_bidding_or_dropping_out_when_a_club_is_turned(action: str) -> None:
    for seed in range(80):
        rec = _record("buck-euchre", seed)
        hand = rec["results"]["hands"][0]
        if hand["trump"] != "C" or hand["maker"] is not None:
            continue
        i = _first_play(rec)
        assert i == 0  # clubs were trump at once: nobody called, nobody stayed or dropped
        bad = copy.deepcopy(rec)
        bad["actions"].insert(0, {"seat": rec["actions"][0]["seat"], "action": action})
        index, msg, src = _rejection(bad)
        assert index == 0 and (src.quote, src.register) == (NO_BIDDING, None), msg
        assert ("nobody calls trump" if action != "drop" else "nobody stays in or drops out") in msg
        return
    pytest.fail("no hand with a club turned in 80 seeds")


def test_an_order_up_during_play_of_a_called_hand_does_not_cite_the_club_rule() -> None:
    for seed in range(40):
        rec = _record("buck-euchre", seed)
        hand = rec["results"]["hands"][0]
        if hand["maker"] is None:
            continue
        i = _first_play(rec)
        bad = copy.deepcopy(rec)
        bad["actions"].insert(i, {"seat": rec["actions"][i]["seat"], "action": "order_up"})
        _, msg, src = _rejection(bad)
        assert src.quote != NO_BIDDING and "nobody calls trump" not in msg, msg
        return
    pytest.fail("no called hand in 40 seeds")


# --- 7. bird-dog-2p: the solo player's score ------------------------------------------------------------------
PAIR = "Each pair earned throughout the hand is worth one point."
TEAM_ROW = {"bird-dog-2p": ("Distribution of points is unchanged for the two players.", "distribution-unchanged"),
            "bird-dog-21": ("The team members each earn their total tally from the hand.", None)}


BONUS = "If the solo player wins the hand, they earn a bonus point."
NO_BONUS = "If the team wins the hand, or if there is a tie, no bonus point is awarded."


def _stated(system: str, seed: int, e: int, off: int) -> tuple[str, Source]:
    """The rejection of hand 0's record with entity ``e``'s stated score (and total) off by ``off``."""
    bad = _record(system, seed)
    bad["results"]["hands"][0]["scores"][e] += off
    bad["results"]["hands"][0]["totals"][e] += off
    _, msg, src = _rejection(bad)
    assert f"seat {e} scores" in msg, msg
    return msg, src


@pytest.mark.parametrize("system", ["bird-dog-2p", "bird-dog-21"])
def test_each_pair_earned_is_worth_one_point_for_the_solo_player(system: str) -> None:
    """A wrong score cites the row that accounts for the stated points. The solo who won the hand: one point
    more than the pairs and the bonus, which no row choice gives, cites the pair row; one point less (the bonus
    missed) cites the bonus row. A team member's point less cites the team row (in bird-dog-2p with the register
    entry on the non-solo player's share); a point more for anyone without the bonus (a bonus given wrongly)
    cites the row that withholds it."""
    want = {"solo won +1", "solo won -1", "team -1", "no bonus +1"}
    seen: set[str] = set()
    for seed in range(120):
        g = Game.from_system(system)
        st, _ = play_stepped(g, seed, "random", hand_limit=1)
        hand = st.hand_results[0]
        if hand["thrown_in"] or hand["maker"] is None:
            continue
        for e, f in enumerate(hand["facts"]):
            if not f["teams"] or f["nil"] != "none" or f["nil_against"] != "none" or f["side_pairs"] == 0:
                continue
            solo_won = bool(f["maker"]) and bool(f["side_most"])
            if solo_won and "solo won +1" not in seen:
                msg, src = _stated(system, seed, e, +1)
                assert (src.quote, src.register) == (PAIR, None), msg
                msg, src = _stated(system, seed, e, -1)
                assert (src.quote, src.register) == (BONUS, None), msg
                seen |= {"solo won +1", "solo won -1"}
            if not f["maker"] and "team -1" not in seen:
                msg, src = _stated(system, seed, e, -1)
                assert (src.quote, src.register) == TEAM_ROW[system], msg
                seen.add("team -1")
            if not solo_won and "no bonus +1" not in seen:
                msg, src = _stated(system, seed, e, +1)
                assert (src.quote, src.register) == (NO_BONUS, None), msg
                seen.add("no bonus +1")
        if seen == want:
            return
    pytest.fail(f"only {sorted(seen)} in 120 seeds")


# --- 9. bird-dog-2p: the Bird Dog's hand is its three visible cards -----------------------------------------
HAND_CLAUSE = "These three cards act as the Bird Dog’s entire hand for the forthcoming trick."
FOLLOW_CLAUSE = "The Bird Dog must follow suit in respect only to the three visible cards."


def _dog_plays(rec: dict[str, Any], seat: int = 2) -> list[tuple[int, set[str], set[str], list[str]]]:
    """Each play of the Bird Dog (the dummy seat 2; or of another ``seat``) in hand 0: its action index, its
    hand (the Bird Dog's face-up cards), the cards it may play, and the Bird Dog's face-down pile."""
    g = Game.from_system(rec["system"], rec["options"])
    st = g.new_initial_state(rec["seed"])
    out = []
    for i, step in enumerate(rec["actions"]):
        done = len(st.hand_results)
        if step["action"].startswith("play ") and st.cur == seat:
            legal = {n.split()[1] for n in st.legal_action_names() if n.startswith("play ")}
            out.append((i, {g.deck.names[c] for c in g.deck.cards_of(st.hands[seat])}, legal,
                        [g.deck.names[c] for c in st.piles["dog_pile"]]))
        st.apply(g.parse_action(step["action"]))
        if len(st.hand_results) > done:
            break
    return out


def test_these_three_cards_act_as_the_bird_dogs_entire_hand() -> None:
    for seed in range(20):
        rec = _record("bird-dog-2p", seed)
        for i, visible, _, pile in _dog_plays(rec):
            if not pile:
                continue
            assert pile[0] not in visible
            bad = copy.deepcopy(rec)
            bad["actions"][i]["action"] = f"play {pile[0]}"
            index, msg, src = _rejection(bad)
            assert index == i and f"{pile[0]} is not one of seat 2's face-up cards" in msg, msg
            assert (src.quote, src.register) == (HAND_CLAUSE, None)
            return
    pytest.fail("no play of the Bird Dog with a face-down pile in 20 seeds")


@pytest.mark.parametrize("seat", [2, 0, 1])
def test_the_bird_dog_must_follow_suit_in_respect_only_to_the_three_visible_cards(seat: int) -> None:
    """The Bird Dog (seat 2) cites its own follow clause; a player (seats 0 and 1) still the general rule."""
    for seed in range(40):
        rec = _record("bird-dog-2p", seed)
        for i, held, legal, _ in _dog_plays(rec, seat):
            barred = sorted(held - legal)
            if not barred:
                continue
            bad = copy.deepcopy(rec)
            bad["actions"][i]["action"] = f"play {barred[0]}"
            index, msg, src = _rejection(bad)
            assert index == i and "must follow the led suit" in msg, msg
            if seat == 2:
                assert "among its face-up cards" in msg, msg
                assert (src.quote, src.register) == (FOLLOW_CLAUSE, None)
            else:
                assert "face-up" not in msg, msg
                assert (src.quote, src.register) == ("A player must follow the suit led at the start of the trick.",
                                                     None)
            return
    pytest.fail(f"no play of seat {seat} barred by follow suit in 40 seeds")


# --- buck-euchre: the maker reading of dropped_leader moves the lead only when the dealer's left dropped -------
@pytest.mark.parametrize("left_drops", [True, False])
def test_buck_euchre_maker_leads_only_when_the_dealers_left_dropped(left_drops: bool) -> None:
    """The register question is who leads "when the player to the dealer's left has dropped out": under the maker
    reading the maker leads then, and otherwise the dealer's left leads as the text says (as in dirty-clubs)."""
    g = Game.from_system("buck-euchre", {"dropped_leader": "maker"})
    for seed in range(80):
        st = g.new_initial_state(seed)
        rng = random.Random(seed)
        left = st.next_seat(st.dealer, skip_out=False)
        while st.comp.kind != "tricks" and not st.hand_results:
            names = st.legal_action_names()
            if st.comp.kind == "drop_out":
                st.apply_name("drop" if left_drops and st.cur == left and "drop" in names else "stay")
            elif "pass" in names and rng.random() < 0.6:  # pass often: a later seat makes trump
                st.apply_name("pass")
            else:
                st.apply(rng.choice(st.legal_actions()))
        if st.hand_results or st.contract.maker < 0 or st.contract.maker == left:
            continue
        assert bool(st.contract.out >> left & 1) == left_drops
        assert st.cur == (st.contract.maker if left_drops else left), (seed, st.dealer, st.contract.maker)
        return
    pytest.fail("no hand made by a seat other than the dealer's left in 80 seeds")


def test_another_engine_missing_the_solo_bonus_is_cited_the_bonus_row() -> None:
    """conform: an engine that never gives the solo player's bonus point disagrees on every hand the solo won,
    and each disagreement cites the bonus row ("If the solo player wins the hand, they earn a bonus point."),
    not the pair row that gives the solo the rest of its points."""
    from test_conform import SelfAdapter

    from cardspec.conform import conform

    class NoBonus(SelfAdapter):
        def results(self) -> dict[str, Any]:
            out = super().results()
            facts = self.st.hand_results[-1].get("facts") or []
            for e, f in enumerate(facts):
                bonus = f.get("teams") and f.get("maker") and f.get("side_most")
                if bonus and f.get("nil") == f.get("nil_against") == "none":
                    out["scores"][e] -= 1
            return out

    r = conform(lambda system, options: NoBonus(system, options), "bird-dog-2p", {}, hands=60, vectors=False)
    assert r.disagreements, r.text()
    for d in r.disagreements:
        assert d.kind == "scores" and d.clause is not None, d.line()
        assert d.clause.quote == BONUS, d.line()
