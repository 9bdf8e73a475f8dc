"""Register entries of BirdHead, source 002_29e942c63f1e9741.txt.

One test per reading of each entry added by the clause-by-clause reading (won-tricks-face-down,
dealer-rotation), named after the clause it reads. Expected values come from the text and the reading's own words,
not from engine output.

Cards have no suits: a card is its rank and copy (``7#1`` ... ``7#5``). The deal is written as ranks;
copies are numbered in order of appearance and the rest of the 50 cards lie aside. Dealer 3, so
seat 0 is the first start player.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SYSTEM = "birdhead"
RANKS = [str(r) for r in range(2, 12)]

# Seat 0 leads three 11s; nobody holds three cards of at least 11, so each plays its three lowest:
# seat 1 2-2-3, seat 2 5-5-5, seat 3 7-7-7; seat 0 takes the trick (twelve cards).
HANDS = ["11 11 11 10 10 10 9 9 2 2", "2 2 3 3 3 4 4 4 5 5", "5 5 5 6 6 6 6 6 7 7", "7 7 7 8 8 8 8 8 9 9"]
FIRST_TRICK = [2, 2, 3, 5, 5, 5, 7, 7, 7, 11, 11, 11]


def deal(hands: list[str], dealer: int = 3) -> dict[str, Any]:
    used: Counter[str] = Counter()
    out = []
    for h in hands:
        names = []
        for r in h.split():
            used[r] += 1
            names.append(f"{r}#{used[r]}")
        out.append(names)
    aside = [f"{r}#{k}" for r in RANKS for k in range(used[r] + 1, 6)]
    return {"dealer": dealer, "hands": out, "piles": {"aside": aside}}


def play(st: State, *ranks: int) -> None:
    """The player to act plays cards of these ranks (the first copies held)."""
    g = st.game
    held = [g.deck.names[c] for c in g.deck.cards_of(st.hands[st.cur])]
    names: list[str] = []
    for r in ranks:
        names.append(next(n for n in held if n.split("#")[0] == str(r) and n not in names))
    st.apply_name("play " + " ".join(names))


def after_first_trick(option: str) -> State:
    st = Game.from_system(SYSTEM, {"won_tricks": option}).new_initial_state(seed=3, deals=[deal(HANDS)])
    assert st.cur == 0
    for ranks in ((11, 11, 11), (2, 2, 3), (5, 5, 5), (7, 7, 7)):
        play(st, *ranks)
    assert st.cur == 0  # seat 0 "takes the trick, and becomes the next start player"
    return st


def reading(entry: str) -> Any:
    return next(a for a in load(SYSTEM).ambiguities if a.id == entry)


# --- won-tricks-face-down: "takes the trick, and becomes the next start player" -----------------------
def test_takes_the_trick_face_down_only_the_count_is_seen() -> None:
    """won_tricks=face_down (the decision): how many cards each player took is public (seat 0 took
    the twelve cards of the first trick), the cards are not shown again, to anyone."""
    st = after_first_trick("face_down")
    for viewer in range(4):
        won = st.observation(viewer)["zones"]["won"]
        assert [w["count"] for w in won] == [12, 0, 0, 0]
        assert all("cards_top_first" not in w for w in won)
    a = reading("won-tricks-face-down")
    assert a.decision == "face_down" and not a.house_rule
    assert a.decision == str(load(SYSTEM).option_decls["won_tricks"].default)


def test_takes_the_trick_face_up_every_card_stays_in_view() -> None:
    """won_tricks=face_up: every card taken stays in view of every player, the taker's or not: the
    three 11s, 2-2-3, 5-5-5 and 7-7-7 of the first trick lie before seat 0."""
    st = after_first_trick("face_up")
    for viewer in range(4):
        won = st.observation(viewer)["zones"]["won"]
        assert [w["count"] for w in won] == [12, 0, 0, 0]
        assert sorted(int(c.split("#")[0]) for c in won[0]["cards_top_first"]) == FIRST_TRICK
        assert all(w["cards_top_first"] == [] for w in won[1:])


# --- dealer-rotation: "Shuffle cards and deal 10 cards to each player as a hand." -----------------------------
def _after_first_round(reading: str, seed: int = 4) -> tuple[int, int, int, list[int]]:
    """The first round's dealer, the second round's dealer and start player, and the first round's scores, with
    uniform random play (the first round is the same under both readings: same seed, same first dealer)."""
    import random

    st = Game.from_system(SYSTEM, {"dealer_rotation": reading}).new_initial_state(seed)
    first = st.dealer
    rng = random.Random(seed)
    while not st.hand_results:
        st.apply(rng.choice(st.legal_actions()))
    return first, st.dealer, st.current_player(), list(st.hand_results[0]["scores"])


def test_the_deal_passes_to_the_left() -> None:
    """dealer_rotation=left (the decision): the second round is dealt by the player left of the first dealer."""
    a = reading("dealer-rotation")
    assert a.decision == "left" == str(load(SYSTEM).option_decls["dealer_rotation"].default)
    assert not a.house_rule
    first, second, _, _ = _after_first_round("left")
    assert second == (first + 1) % 4


def test_the_same_player_deals_every_round_and_the_start_player_does_not_change() -> None:
    """dealer_rotation=none: the first dealer deals again; who starts the second round comes from the last loser
    ("the last player in them"), so it is the same seat under both readings."""
    first, second, start, scores = _after_first_round("none")
    assert second == first
    first_l, _, start_l, scores_l = _after_first_round("left")
    assert (first_l, scores_l) == (first, scores)  # the same first round
    assert start == start_l
