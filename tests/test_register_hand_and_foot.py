"""Register entries of Hand and Foot (source 004_945a3021da002f83.txt) added by the clause-by-clause reading.

One test per reading of each new entry (``team-play``), named after the clause it reads, and one that pins
which entries are house rules outside the text. Expected values come from the text and the reading's own
words, not from engine output.

Positions come from the explicit deals of ``test_rules_hand_and_foot``: in the quick round the first player
lays out a clean book of kings (set 1) and a dirty book of queens (set 2), takes up the foot, draws the JS
and 10S and lays sets of jacks, tens, nines and eights (sets 3 to 6).
"""

from __future__ import annotations

from typing import Any

from test_rules_hand_and_foot import QUICK_MELDED, QUIET2, do, find, first_dealer, game, held_points, quick, sets, view

from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

PARTNER_HAND = ["AC", "AD", "AH", "AS", "KC", *QUIET2[:8]]
"""The hand of the player across from the first player: four aces (80 points, a lay-out) and a king."""


def entry(entry_id: str) -> Any:
    return next(a for a in load("hand-and-foot").ambiguities if a.id == entry_id)


def quick_turn(g: Game, keep_one: bool) -> tuple[State, int]:
    """The quick round's first turn; with ``keep_one`` the player stops before the last two cards (a jack
    and a ten), throws the ten and keeps the jack, so the turn passes. Returns the state and the first player."""
    d = first_dealer(g)
    me = (d + 1) % 4
    st = g.new_initial_state(seed=0, deals=[quick(g, d, 0, hands={(me + 2) % 4: PARTNER_HAND})])
    for _ in range(4):
        st.apply_name("choose 1")
    assert st.current_player() == me
    do(st, "meld K K K", *["add 1 K"] * 4, "meld Q Q 2", *["add 2 Q"] * 4, "draw stock",
       "meld J J J", "meld 10 10 10", "meld 9 9 9", "meld 8 8 8")
    assert [s["book"] for s in sets(st)[:2]] == ["clean", "dirty"]
    if keep_one:
        do(st, "discard 10S")
    return st, me


def across_lays_out_and_draws(st: State, me: int) -> int:
    """The next player draws and throws a card; the player across lays out four aces (set 7) and draws."""
    assert st.current_player() == (me + 1) % 4
    do(st, "draw stock")
    st.apply_name(next(n for n in st.legal_action_names() if n.startswith("discard")))
    across = (me + 2) % 4
    assert st.current_player() == across
    do(st, "meld A A A", "add 7 A", "draw stock")
    assert across in view(st)["laid_out"]
    return across


# --- team-play: "This game can be played with teams" -------------------------------------------------


def test_played_with_teams_or_not_every_player_alone() -> None:
    """teams=false (the decision): every player alone. The quick round's one clean and one dirty book are the
    solo books ("With no teams, 1 clean and 1 dirty book needed to win"), so using up the last card goes out;
    each player scores for themselves, the player across only their own cards held; and the player across
    may not add to the first player's sets."""
    assert entry("team-play").decision == "false"
    g = game()
    assert g.teams == ((0,), (1,), (2,), (3,))
    st, me = quick_turn(g, keep_one=False)
    held = [held_points(st, s) for s in range(4)]
    do(st, "add 3 J", "add 4 10")
    res = st.hand_results[0]
    assert res["ended_by"] == "went_out" and res["went_out"] == me
    assert len(res["scores"]) == 4
    assert res["scores"][me] == 500 + 300 + QUICK_MELDED
    assert res["scores"][(me + 2) % 4] == -held[(me + 2) % 4]
    st, me = quick_turn(g, keep_one=True)
    across_lays_out_and_draws(st, me)
    assert find(st, "add 1 K") is None  # the kings are another player's


def test_played_with_teams_partners_across() -> None:
    """teams=true: partners across the table. The side needs the team books ("With teams, we often play 3 clean
    and 3 dirty"), so the quick round's one and one do not end it when the last card is used; a side scores as
    one; and the partner, once laid out, adds a king to the first player's book ("then they may lay on their own
    or their partner’s sets")."""
    g = game(teams=True)
    assert g.teams == ((0, 2), (1, 3))
    st, me = quick_turn(g, keep_one=False)
    do(st, "add 3 J", "add 4 10")
    assert st.hand_no == 0 and st.hands[me] == 0 and st.current_player() == (me + 1) % 4  # play goes on
    g1 = game(teams=True, books_needed="one_each")  # with one of each, the side goes out and scores as one
    st, me = quick_turn(g1, keep_one=False)
    held = [held_points(st, s) for s in range(4)]
    do(st, "add 3 J", "add 4 10")
    res = st.hand_results[0]
    assert len(res["scores"]) == 2
    assert res["scores"][g1.entity_of[me]] == 500 + 300 + QUICK_MELDED - held[(me + 2) % 4]
    st, me = quick_turn(g, keep_one=True)
    across_lays_out_and_draws(st, me)
    do(st, "add 1 K")
    assert len(sets(st)[0]["cards"]) == 8 and sets(st)[0]["book"] == "clean"


# --- house rules outside the text -------------------------------------------------------------------


def test_readings_outside_the_text_are_marked_house_rules() -> None:
    """The text's own rules: the discard pile is grabbed with no condition ("grab the entire discard pile"),
    the lay-out comes first ("rather than picking up cards they first must lay these cards out"), the scoring
    list has no bonus for going out, clean and dirty books are needed apart ("1 clean and 1 dirty book"), and
    the last card may be melded ("they need not discard to end the game").
    The other readings of those entries are house rules of other tables; the entries are marked and decide the
    text, and the text's own silences (team-play among them) are not marked."""
    decls = load("hand-and-foot").option_decls
    marked = {a.id for a in load("hand-and-foot").ambiguities if a.house_rule}
    assert marked == {"take-pile-condition", "lay-out-timing", "going-out-bonus", "clean-for-dirty", "out-by-discard"}
    for a in load("hand-and-foot").ambiguities:
        default = decls[a.option].default
        assert a.decision == (str(default).lower() if isinstance(default, bool) else str(default)), a.id
    assert (entry("take-pile-condition").decision, entry("lay-out-timing").decision,
            entry("going-out-bonus").decision, entry("clean-for-dirty").decision) == \
        ("any", "before_draw", "none", "false")


# --- wild-book-value: "They don’t count towards your clean or dirty books, but they are worth 1500 points." ---


def test_a_wild_book_is_worth_1500_plus_or_in_all() -> None:
    """Register wild-book-value (with wild_books=allowed): a side with a wild book of seven (four Jokers at 50,
    three 2s at 20: 260) and a clean book of sevens (7 x 5 = 35) scores, after going out, 1500 + 500 for the
    books and then either every melded card (plus_cards: 295) or the cards outside the wild book (in_all: 35)."""
    from cardspec.engine.components.book_melding import WILD, BookMelding

    for reading, cards in (("plus_cards", 295), ("in_all", 35)):
        g = Game.from_system("hand-and-foot", {"wild_books": "allowed", "wild_book_value": reading})
        st = g.new_initial_state(0)
        comp = next(p for p in g.phases if isinstance(p, BookMelding))
        d = g.deck
        jokers = [c for c in range(d.size) if d.rank_of[c] < 0][:4]
        twos = [c for c in range(d.size) if d.rank_of[c] >= 0 and d.ranks[d.rank_of[c]] == "2"][:3]
        sevens = [c for c in range(d.size) if d.rank_of[c] >= 0 and d.ranks[d.rank_of[c]] == "7"][:7]
        seven_rank = comp.meld_rank[sevens[0]]
        melds = ((0, 0, WILD, tuple(jokers + twos)), (0, 0, seven_rank, tuple(sevens)))
        st.cstate[comp.index].melds = melds  # type: ignore[union-attr]
        facts = g.scoring.hand_facts(st)[0]
        assert facts["wild_books"] == 1 and facts["clean_books"] == 1
        assert facts["melded"] == 295 and facts["melded_plain"] == 35
        facts = {**facts, "ended_by": "went_out", "held": 0, "went_out": True}
        table = {t.id: t for t in g.scoring.tables}
        assert table["books"].evaluate(facts) == 1500 + 500
        assert table["cards"].evaluate(facts) == cards
