"""A wrongly stated trick winner cites the clause that decides that trick.

In bid-euchre (two copies of every card) a trick whose two highest cards are copies of one card is decided by
the clause on identical cards ("the card laid first is higher"); any other trick by the clause naming the
winner. The audit cites the first for a wrong winner stated for a tied trick, and the second otherwise; a
game without copies (euchre) always cites the second. Which tricks are tied is read here from the cards'
names (``9H#1`` and ``9H#2`` are copies of the Nine of Hearts), not from the engine's tie test.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.game import Game
from cardspec.engine.record import record_of

BE_IDENTICAL = "since there is 2 of every card, the card laid first is higher than a card laid second"
WINNER = "The person laying the winning card (based on that card hierarchy above) takes the cards"


def _tricks(rec: dict[str, Any]) -> list[list[list[tuple[int, str]]]]:
    """Each hand's tricks, each as its (seat, card) plays in order, from the record replayed through the step API
    (a trick closes when the trick pile empties)."""
    g = Game.from_system(rec["system"], rec["options"])
    st = g.new_initial_state(rec["seed"])
    hands: list[list[list[tuple[int, str]]]] = [[]]
    current: list[tuple[int, str]] = []
    for step in rec["actions"]:
        done = len(st.hand_results)
        text = step["action"]
        st.apply(g.parse_action(text))
        if text.startswith("play "):
            current.append((step["seat"], text[len("play "):]))
            if not st.piles.get("trick"):
                hands[-1].append(current)
                current = []
        if len(st.hand_results) > done:
            hands.append([])
    return hands


def _base(name: str) -> str:
    return name.split("#")[0]


def _first_case(system: str, tied: bool) -> tuple[dict[str, Any], int, int, int]:
    """A record of ``system`` with a trick that is (or is not) decided between copies of the winning card: the
    record, the hand, the trick, and a seat that did not win it (for a tied trick, the seat of the later copy)."""
    g = Game.from_system(system)
    for seed in range(40):
        st, _ = play_stepped(g, seed, "random", hand_limit=3)
        rec = record_of(st)
        for h, tricks in enumerate(_tricks(rec)[:len(rec["results"]["hands"])]):
            winners = rec["results"]["hands"][h]["trick_winners"]
            for n, plays in enumerate(tricks):
                win = winners[n]
                card = next(c for s, c in plays if s == win)
                twins = [s for s, c in plays if _base(c) == _base(card) and s != win]
                if tied and twins:
                    return rec, h, n, twins[0]
                if not tied and not twins:
                    return rec, h, n, next(s for s, _ in plays if s != win)
    raise AssertionError(f"no {'tied' if tied else 'untied'} trick in 40 seeds of {system}")


def _cite_wrong_winner(rec: dict[str, Any], h: int, n: int, seat: int) -> tuple[str, str | None, str]:
    bad = copy.deepcopy(rec)
    bad["results"]["hands"][h]["trick_winners"][n] = seat
    v = audit("t: ", bad)
    assert v.verdict == "rejected", v.line()
    assert v.error is not None and v.error.source is not None, v.line()
    return v.error.path, v.error.source.quote, str(v.error)


def test_bid_euchre_wrong_winner_of_a_trick_of_two_copies_cites_the_identical_cards_clause() -> None:
    rec, h, n, seat = _first_case("bid-euchre", tied=True)
    path, quote, msg = _cite_wrong_winner(rec, h, n, seat)
    assert path == f"results.hands.{h}.trick_winners"
    assert quote == BE_IDENTICAL
    assert f"trick {n}: states winner seat {seat}" in msg


def test_bid_euchre_wrong_winner_of_a_trick_without_copies_cites_the_winner_clause() -> None:
    rec, h, n, seat = _first_case("bid-euchre", tied=False)
    path, quote, _ = _cite_wrong_winner(rec, h, n, seat)
    assert (path, quote) == (f"results.hands.{h}.trick_winners", WINNER)


def test_euchre_wrong_winner_cites_the_winner_clause() -> None:
    rec, h, n, seat = _first_case("euchre", tied=False)
    path, quote, _ = _cite_wrong_winner(rec, h, n, seat)
    assert (path, quote) == (f"results.hands.{h}.trick_winners", WINNER)


@pytest.mark.parametrize("tied", [True, False])
def test_the_tricks_are_read_as_the_record_states_them(tied: bool) -> None:
    """The test's own reading of the tricks agrees with the record's winners: each trick's winner played in it,
    and a tied trick's stated winner laid the first of the copies (the identical-cards clause)."""
    rec, h, n, seat = _first_case("bid-euchre", tied)
    tricks = _tricks(rec)[h]
    assert len(tricks) == len(rec["results"]["hands"][h]["trick_winners"])
    plays = tricks[n]
    win = rec["results"]["hands"][h]["trick_winners"][n]
    seats = [s for s, _ in plays]
    assert win in seats and seat in seats
    if tied:
        assert seats.index(win) < seats.index(seat)


# --- conform: another engine that gives a trick of two copies to the later copy ------------------------------
class _LaterCopyWins:
    """cardspec playing the other engine, except that a trick decided between copies of one card goes to the seat
    that laid the later copy (the text gives it to the first)."""

    def __init__(self, system: str, options: dict[str, Any]) -> None:
        self.game = Game.from_system(system, options)
        self.tricks: list[list[tuple[int, str]]] = []
        self.current: list[tuple[int, str]] = []

    def new_hand(self, deal: dict[str, Any]) -> None:
        self.st = self.game.new_initial_state(None, deals=[deal], hand_limit=1)
        self.tricks, self.current = [], []

    def legal_actions(self) -> list[str]:
        return self.st.legal_action_names()

    def current_seat(self) -> int:
        return self.st.cur

    def apply(self, action: str) -> None:
        seat = self.st.cur
        self.st.apply_name(action)
        if action.startswith("play "):
            self.current.append((seat, action[len("play "):]))
            if not self.st.piles.get("trick"):
                self.tricks.append(self.current)
                self.current = []

    def hand_over(self) -> bool:
        return self.st.is_terminal()

    def results(self) -> dict[str, Any]:
        r = self.st.hand_results[-1]
        winners = list(r["trick_winners"])
        for n, plays in enumerate(self.tricks):
            card = next(c for s, c in plays if s == winners[n])
            later = [s for s, c in plays if _base(c) == _base(card) and s != winners[n]]
            if later:
                winners[n] = later[0]
        return {"trick_winners": winners, "scores": list(r["scores"]), "thrown_in": r["thrown_in"]}


def test_conform_cites_the_identical_cards_clause_for_a_trick_of_two_copies() -> None:
    from cardspec.conform.harness import conform

    r = conform(_LaterCopyWins, "bid-euchre", {}, hands=30, vectors=False)
    wrong = [d for d in r.disagreements if d.kind == "trick_winners"]
    assert wrong, "no hand of 30 had a trick of two copies"
    assert len(wrong) == len(r.disagreements)
    for d in wrong:
        assert d.clause is not None and d.clause.quote == BE_IDENTICAL, d.message
        t = next(i for i, (a, b) in enumerate(zip(d.cardspec, d.other, strict=True)) if a != b)
        assert d.message.startswith(f"trick {t}:")
