"""conform's seeded hands come from later in a match too, every deal is given as dealt, and a hand that needs a
reshuffle the deal cannot give is left out rather than ending the run.

- Seeded hand ``i`` is hand ``i % 4`` of match ``seed + i`` (``docs/conformance.md``, *Deals*): a rule that
  only later hands reach (the-card-game's later rounds) is compared by seeded hands, not only by vectors.
- hand-and-foot's first phase deals each player's piles from the stock at once, so the state's zones are not
  the deal: conform gives the deal as dealt (the whole stock), and hand-and-foot conforms like every system
  (before, it was refused as bad input).
- A riding-the-bus hand whose pickup pile runs out needs the discards shuffled again, a chance event only a
  seed gives: conform compares up to there and lists the hand as left out (before, the whole run ended with
  ``chance needed but the record has no seed``).
"""

from __future__ import annotations

from typing import Any

from test_review_conform3 import IgnoresStart, InMatch, Selfie

from cardspec.conform.harness import SEEDED_SPAN, conform, seeded_cases
from cardspec.engine.bulk import play_stepped
from cardspec.engine.game import Game
from cardspec.engine.record import logged_deals


def test_seeded_hand_i_is_hand_i_mod_4_of_match_seed_plus_i_as_dealt() -> None:
    g = Game.from_system("euchre")
    cases = seeded_cases(g, 8, 10)
    assert SEEDED_SPAN == 4
    for i, case in enumerate(cases):
        k = i % SEEDED_SPAN
        assert case.label == (f"seed {10 + i}" if k == 0 else f"seed {10 + i} hand {k}")
        st, _ = play_stepped(g, 10 + i, "random", hand_limit=k + 1, keep_deals=True)  # kept as the hand began
        assert case.deal == logged_deals(st)[k]
        assert case.origin == "seeded" and case.start is None  # a euchre hand is the same from its deal alone
        assert (len(case.script) > 0) == (k > 0)  # a later hand follows its match's play while both allow it


def test_hand_and_foot_deals_are_the_whole_stock_and_it_conforms_with_itself() -> None:
    g = Game.from_system("hand-and-foot")
    for case in seeded_cases(g, 4, 0):
        assert case.deal["hands"] == [[] for _ in range(g.num_seats)]
        assert len(case.deal["piles"]["stock"]) == g.deck.size
    r = conform(lambda s, o: InMatch(s, o), "hand-and-foot", hands=4, vectors=False)
    assert r.ok and r.hands_run == 4, r.text()


def test_the_card_games_later_rounds_are_compared_by_seeded_hands() -> None:
    """An engine that plays every hand as round 1 agrees on first hands; the seeded later hands, run where
    their match stands, find it out."""
    cases = seeded_cases(Game.from_system("the-card-game"), 4, 0)
    later = [c for c in cases if c.start is not None]
    assert later and all(c.start is not None and c.start["hand"] >= 1 and c.fallback is not None for c in later)
    first_only = conform(lambda s, o: IgnoresStart(s, o), "the-card-game", hands=1, vectors=False)
    assert first_only.ok, first_only.text()
    r = conform(lambda s, o: IgnoresStart(s, o), "the-card-game", hands=4, vectors=False)
    assert not r.ok and r.disagreements
    assert all(" hand " in d.label for d in r.disagreements)  # only hands after the first
    good = conform(lambda s, o: InMatch(s, o), "the-card-game", hands=4, vectors=False)
    assert good.ok and good.hands_run == 4, good.text()


def test_without_new_hand_in_match_seeded_later_hands_become_first_hands() -> None:
    r = conform(lambda s, o: Selfie(s, o), "the-card-game", hands=4, vectors=False)
    assert r.ok and r.hands_run == 4 and r.left_out == [] and r.sources == {"seeded": 4}, r.text()


class _SeededSelf(Selfie):
    """cardspec as the other engine, dealing from the deal but with a seed of its own for later chance (so that
    it can shuffle the discards again, as an engine with its own shuffle would)."""

    def new_hand(self, deal: dict[str, Any]) -> None:
        self.st = self.game.new_initial_state(0, deals=[deal], hand_limit=1)


def test_a_hand_that_needs_a_reshuffle_is_left_out_and_the_run_goes_on() -> None:
    n = 150
    r = conform(lambda s, o: _SeededSelf(s, o), "riding-the-bus", {"players": 15}, hands=n, vectors=False)
    assert r.left_out, "no hand of 150 ran out of its pickup pile"
    assert r.ok and r.hands_run + len(r.left_out) == n, r.text()
    for why in r.left_out:
        assert "cardspec needs a chance event its deal does not give (the discards shuffled again" in why
        assert why.endswith("the engines agreed up to there")
    assert f"{len(r.left_out)} hand" in r.text().splitlines()[1]


class _WhenUnable(Selfie):
    """cardspec under the other reading of birdhead's lowest cards (only when unable to play equal or higher),
    whatever the options asked for."""

    def __init__(self, system: str, options: dict[str, Any]) -> None:
        super().__init__(system, {**options, "lowest_cards": "when_unable"})


def test_an_action_only_cardspec_allows_cites_the_clause_that_allows_it() -> None:
    """New-user review: a lowest play the other engine forbids was put to birdhead's general clause ("After deal,
    several tricks are played ..."); the text's second choice of a follower allows it ("Play the lowest card(s) in
    the hand."), where the register's reading decides when it may be taken."""
    r = conform(lambda s, o: _WhenUnable(s, o), "birdhead", hands=6, vectors=False)
    legal = [d for d in r.disagreements if d.kind == "legal"]
    assert legal and len(legal) == len(r.disagreements)
    for d in legal:
        assert d.clause is not None
        assert (d.clause.quote, d.clause.register) == ("Play the lowest card(s) in the hand.", "lowest-cards-when-able")
        assert all(n.allowed_by == "cardspec" for n in d.notes)


def test_a_forced_dealers_bid_is_allowed_by_the_forced_bid_clause() -> None:
    """bid-euchre: after three passes the dealer must bid; the clause that allows the dealer's bid (cited when
    another engine forbids it) is the forced-bid clause, while an ordinary bid's is the auction's."""
    g = Game.from_system("bid-euchre")
    st = g.new_initial_state(0)
    bid = g.parse_action("bid 3 H")
    assert st.comp.allow_source(st, bid) == st.comp.source
    for _ in range(3):
        st.apply_name("pass")
    assert st.cur == st.dealer and "pass" not in st.legal_action_names()
    src = st.comp.allow_source(st, bid)
    assert src is not None and (src.quote, src.register) == ("May as well bid 1, and pick a suit.",
                                                             "forced-dealer-bid")
