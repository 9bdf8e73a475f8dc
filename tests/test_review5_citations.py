"""What the fifth review found uncited or cited wrongly (birdhead, bird-dog-21 and -11, dirty-clubs), each rebuilt
here from a seeded record (random bots) with one action or stated result changed.

1. bird-dog-21 / bird-dog-11: a wrong ``winners`` or final total of a plain end cites the first-to-the-target
   sentence; winners wrongly stated where the simultaneous rule decides (an extra hand) cite the tie sentence
   (``match.end.simultaneous_source``).
2. birdhead: a wrong score of a loser in a round with several losers cites "If there is more than one player
   who played the highest card, all of them become the losers of the round." (the ``several_losers`` fact).
3. birdhead: a first lead out of turn in the first round cites "At the first round, the player selected at
   random becomes the start player."; a play of cards not held cites no clause, as the other trick games do.
5. dirty-clubs: the five-point rows that take their amount from the ``penalty`` entry name it.
"""

from __future__ import annotations

import copy
from typing import Any

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.errors import Source
from cardspec.engine.game import Game
from cardspec.engine.record import record_of

BD21_FIRST = "The first player to reach 21 points wins the game."
BD21_TIE = "If two players reach 21 at the same time, another hand is played including all three players."
BD11_FIRST = "The first player to earn 11 points wins the game."
BD11_TIE = "If two players reach 11 on the same hand, another hand is played including all three players."
BH_SEVERAL = "If there is more than one player who played the highest card, all of them become the losers of the round."
BH_FIRST_ROUND = "At the first round, the player selected at random becomes the start player."


def _played(system: str, seed: int, options: dict[str, Any] | None = None, hands: int | None = None) -> Any:
    g = Game.from_system(system, options or {})
    st, _ = play_stepped(g, seed, "random", hand_limit=hands)
    return st


def _rejection(rec: dict[str, Any]) -> tuple[int | None, str | None, str, Source | None]:
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None, v.line()
    return v.error.index, v.error.path, str(v.error), v.error.source


# --- 1. bird-dog: the plain end and the simultaneous end ------------------------------------------------------
def _plain_and_extra(system: str, seeds: range) -> tuple[dict[str, Any], dict[str, Any]]:
    plain = extra = None
    for seed in seeds:
        st = _played(system, seed)
        if st.extra_hand and extra is None:
            extra = record_of(st)
        elif not st.extra_hand and plain is None:
            plain = record_of(st)
        if plain is not None and extra is not None:
            return plain, extra
    raise AssertionError("no seed gives both ends")


def _other_winner(rec: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(rec)
    won = bad["results"]["winners"]
    bad["results"]["winners"] = [(won[0] + 1) % 3]
    return bad


def test_bird_dog_21_plain_end_cites_first_to_21_and_extra_hand_end_cites_the_tie_sentence() -> None:
    plain, extra = _plain_and_extra("bird-dog-21", range(60))
    _, path, _, src = _rejection(_other_winner(plain))
    assert path == "results.winners" and src is not None and src.quote == BD21_FIRST
    bad = copy.deepcopy(plain)
    last = bad["results"]["hands"][-1]
    last["totals"] = [t + 1 for t in last["totals"]]
    _, path, _, src = _rejection(bad)
    assert path is not None and path.endswith(".totals") and src is not None and src.quote == BD21_FIRST
    _, path, _, src = _rejection(_other_winner(extra))
    assert path == "results.winners" and src is not None
    assert (src.quote, src.register) == (BD21_TIE, "two-reach-21")


def test_bird_dog_21_a_win_claimed_when_two_reach_21_together_cites_the_tie_sentence() -> None:
    """The record stops after the hand that took two players to 21 and names one of them the winner; the
    replay plays another hand."""
    _, extra = _plain_and_extra("bird-dog-21", range(60))
    g = Game.from_system("bird-dog-21", {})
    hands = extra["results"]["hands"]
    tie = next(i for i, h in enumerate(hands) if sum(t >= 21 for t in h["totals"]) > 1)
    bad = copy.deepcopy(extra)
    end = 0  # the actions of hands 0..tie: replay them to find where hand ``tie`` ends
    st = g.new_initial_state(extra["seed"])
    for i, a in enumerate(extra["actions"]):
        st.apply(g.parse_action(a["action"]))
        if len(st.hand_results) > tie:
            end = i + 1
            break
    bad["actions"] = bad["actions"][:end]
    bad["results"]["hands"] = hands[:tie + 1]
    top = max(range(3), key=lambda s: hands[tie]["totals"][s])
    bad["results"]["winners"] = [top]
    _, path, msg, src = _rejection(bad)
    assert path == "results.winners" and "not over" in msg, msg
    assert src is not None and src.quote == BD21_TIE


def test_bird_dog_11_plain_end_cites_first_to_11_and_extra_hand_end_cites_the_tie_sentence() -> None:
    plain, extra = _plain_and_extra("bird-dog-11", range(60))
    _, _, _, src = _rejection(_other_winner(plain))
    assert src is not None and src.quote == BD11_FIRST
    _, _, _, src = _rejection(_other_winner(extra))
    assert src is not None and (src.quote, src.register) == (BD11_TIE, "two-reach-eleven")


# --- 2. birdhead: several losers -------------------------------------------------------------------------------
def test_birdhead_wrong_score_of_a_loser_among_several_cites_the_several_losers_sentence() -> None:
    for seed in range(40):
        st = _played("birdhead", seed, hands=1)
        losers = st.hand_results[0]["losers"]
        if len(losers) > 1:
            break
    else:
        raise AssertionError("no seed with several losers")
    bad = record_of(st)
    h = bad["results"]["hands"][0]
    h["scores"][losers[0]] = 0
    h["totals"][losers[0]] = 0
    _, path, _, src = _rejection(bad)
    assert path == "results.hands.0.scores" and src is not None and src.quote == BH_SEVERAL
    one = next(s for s in range(40) if len(_played("birdhead", s, hands=1).hand_results[0]["losers"]) == 1)
    bad = record_of(_played("birdhead", one, hands=1))
    h = bad["results"]["hands"][0]
    lo = _played("birdhead", one, hands=1).hand_results[0]["losers"][0]
    h["scores"][lo] = 0
    h["totals"][lo] = 0
    _, _, _, src = _rejection(bad)
    assert src is not None and src.quote != BH_SEVERAL


# --- 3. birdhead: the first lead, cards not held ----------------------------------------------------------------
def test_birdhead_first_lead_out_of_turn_cites_the_first_round_start_player() -> None:
    bad = record_of(_played("birdhead", 7, hands=1))
    lead = bad["actions"][0]["seat"]
    bad["actions"][0]["seat"] = (lead + 1) % 4
    index, _, msg, src = _rejection(bad)
    assert index == 0 and f"it is seat {lead}'s turn" in msg, msg
    assert src is not None and src.quote == BH_FIRST_ROUND


def test_birdhead_play_of_cards_not_held_cites_no_clause() -> None:
    rec = record_of(_played("birdhead", 0, hands=1))
    g = Game.from_system("birdhead", {})
    st = g.new_initial_state(rec["seed"])
    st.apply(g.parse_action(rec["actions"][0]["action"]))
    seat = st.cur
    other = next(c for c in range(g.deck.size) if not st.hands[seat] >> c & 1 and c not in st.piles["trick"])
    bad = copy.deepcopy(rec)
    bad["actions"][1]["action"] = f"play {g.deck.names[other]}"
    index, _, msg, src = _rejection(bad)
    assert index == 1 and "must be in seat" in msg, msg
    assert src is None


# --- 5. dirty-clubs: the penalty rows ---------------------------------------------------------------------------
def test_dirty_clubs_five_point_rows_name_the_penalty_entry() -> None:
    g = Game.from_system("dirty-clubs", {})
    table = next(t for t in g.spec.data["scoring"]["tables"] if t["id"] == "hand_points")
    five = [r for r in table["rows"] if r["then"] == 5]
    assert len(five) == 2 and all(r["source"].get("register") == "penalty" for r in five)
    for seed in range(60):
        st = _played("dirty-clubs", seed, hands=1)
        facts = st.hand_results[0]["facts"]
        e = next((e for e, f in enumerate(facts) if not f["dropped"] and f["tricks"] == 0), None)
        if e is not None:
            break
    else:
        raise AssertionError("no seed with a player in who took no trick")
    bad = record_of(st)
    h = bad["results"]["hands"][0]
    h["scores"][e] += 1
    h["totals"][e] += 1
    _, path, _, src = _rejection(bad)
    assert path == "results.hands.0.scores" and src is not None and src.register == "penalty", src
