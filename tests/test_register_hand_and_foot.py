"""Register entries of Hand and Foot (source 004_945a3021da002f83.txt) added by the clause-by-clause reading.

One test per reading of each new entry (``team-play``), named after the clause it reads, and one that pins
which entries are house rules outside the text. Expected values come from the text and the reading's own
words, not from engine output.

Positions come from the explicit deals of ``test_rules_hand_and_foot``: in the quick round the first player
lays out a clean book of kings (set 1) and a dirty book of queens (set 2), takes up the foot, draws the JS
and 10S and lays sets of jacks, tens, nines and eights (sets 3 to 6).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from test_rules_hand_and_foot import (
    QUICK_FOOT,
    QUICK_HAND,
    QUICK_MELDED,
    QUIET,
    QUIET2,
    do,
    faces,
    find,
    first_dealer,
    game,
    held_points,
    points,
    quick,
    refused,
    sets,
    start,
    view,
)

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
    assert marked == {"take-pile-condition", "lay-out-timing", "going-out-bonus", "clean-for-dirty", "out-by-discard",
                      *NEW_HOUSE_RULES}
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


# --- house rules of other Hand and Foot tables, as playable options --------------------------------------

NEW_HOUSE_RULES = {"red-threes", "frozen-pile", "wild-cap", "partner-ask-required"}
"""Entries added as house rules outside the text; each decides the text's own reading."""


def scored(g: Game, st: State, seat: int, table_id: str) -> int:
    """What table ``table_id`` gives the seat's side for the position as it stands, as if the round ended
    with someone going out."""
    facts = {**g.scoring.hand_facts(st)[g.entity_of[seat]], "ended_by": "went_out"}
    return int(next(t for t in g.scoring.tables if t.id == table_id).evaluate(facts))


def test_red_3_minus_500_held_or_laid_aside() -> None:
    """Register red-threes. ``held`` (the decision): "Red 3: -500 points" and "Red threes in particular count
    500 points against you": the first player's dealt 3D stays in the hand, and so does the 3D drawn; held,
    each counts 500 against the player. ``laid_aside`` (a house rule): at the player's draw, the dealt red
    three and the one drawn are laid face up and replaced by cards from the pickup pile; each scores 100 for a
    side that has laid out, and counts 100 against a side that has not (the next player, who laid out
    nothing, with one red three)."""
    first_hand = ["JC", "JD", "JH", "7C", "7D", "7H", "7S", "AC", "4C", "5D", "6H", "8S", "3D"]
    stock_top = ["5H", "3D", "6C", "KC", "8D", "QH", "9S"]
    for reading in ("held", "laid_aside"):
        g = game(red_threes=reading)
        d = first_dealer(g)
        me, nxt = (d + 1) % 4, (d + 2) % 4
        st = start(g, {me: first_hand, nxt: ["3H", *QUIET2[:12]]}, stock_top=stock_top)
        assert st.current_player() == me and faces(st, me)["3D"] == 1  # dealt: held until the first draw
        do(st, "meld J J J", "meld 7 7 7", "add 2 7", "draw stock")  # lays out 50, draws 5H and 3D
        rest = ["AC", "4C", "5D", "6H", "8S"]
        foot = sum(abs(points(f)) for f in faces(st, me, "foot").elements())  # the foot counts too, untaken
        if reading == "held":
            assert faces(st, me) == Counter([*rest, "3D", "5H", "3D"]) and not faces(st, me, "threes")
            kept = [*rest, "3D", "5H", "3D"]
        else:
            # the two red threes go face up, replaced by 6C and KC
            assert faces(st, me, "threes") == Counter(["3D", "3D"])
            kept = [*rest, "5H", "6C", "KC"]
        assert faces(st, me) == Counter(kept)
        do(st, "discard AC")
        assert st.current_player() == nxt
        do(st, "draw stock")  # 8D and QH, then 9S for the 3H under laid_aside
        assert view(st)["laid_out"] == [me]
        if reading == "held":
            assert faces(st, nxt)["3H"] == 1 and not faces(st, nxt, "threes")
            assert scored(g, st, me, "red_threes") == 0 and scored(g, st, nxt, "red_threes") == 0
            assert -points("3D") == 500  # held, a red three counts 500 against its holder
        else:
            assert faces(st, nxt, "threes") == Counter(["3H"]) and faces(st, nxt)["3H"] == 0
            assert faces(st, nxt)["9S"] >= 1 and sum(faces(st, nxt).values()) == 15
            assert scored(g, st, me, "red_threes") == 2 * 100  # laid out: +100 each
            assert scored(g, st, nxt, "red_threes") == -100  # not laid out: -100
        held = [c for c in kept if c != "AC"]
        assert scored(g, st, me, "cards") == 50 - sum(abs(points(f)) for f in held) - foot


def test_red_threes_in_your_foot_held_or_laid_aside() -> None:
    """Register red-threes: "having one or more of them in your foot is rather troublesome". The first player
    uses up the hand (seven kings, four queens and a 2) and takes up the foot, which holds a 3H. ``held``: the
    3H is in the new hand. ``laid_aside``: it is laid face up at once and replaced by the pickup pile's top
    card, AS."""
    foot = ["3H", *QUICK_FOOT[1:]]
    for reading in ("held", "laid_aside"):
        g = game(red_threes=reading)
        d = first_dealer(g)
        me = (d + 1) % 4
        st = start(g, {me: QUICK_HAND}, {me: foot}, stock_top=["AS", "JS", "10S"])
        do(st, "meld K K K", *["add 1 K"] * 4, "meld Q Q 2", *["add 2 Q"] * 3)
        assert view(st)["in_foot"] == [me]
        if reading == "held":
            assert faces(st, me) == Counter(foot) and not faces(st, me, "threes")
        else:
            assert faces(st, me) == Counter([*QUICK_FOOT[1:], "AS"]) and faces(st, me, "threes") == Counter(["3H"])


def test_grab_the_entire_discard_pile_frozen_by_a_wild_card() -> None:
    """Register frozen-pile. ``off`` (the decision): "or grab the entire discard pile", with no condition: the
    pile is taken with a 2 on top, or by a player holding a single natural card of its top card's rank.
    ``on`` (a house rule): once the 2C is discarded the pile is frozen; with the 2 on top nobody takes it, a
    player holding one 9 does not take it with 9S on top, a player holding two natural 9s takes it with 9C on
    top; the pile taken, the wild card is gone from it and the next pile is not frozen."""
    for reading in ("off", "on"):
        g = game(frozen_pile=reading)
        d = first_dealer(g)
        p1, p2, p3, p4 = ((d + i) % 4 for i in (1, 2, 3, 4))
        hands = {p1: QUIET, p2: QUIET2, p3: QUIET, p4: ["9D", "9H", *[c for c in QUIET if c[:-1] != "9"][:11]]}
        assert Counter(x[:-1] for x in hands[p4])["9"] == 2 and Counter(x[:-1] for x in hands[p3])["9"] == 1
        st = start(g, hands, stock_top=["2C", "5S", "9S", "KS", "9C", "QD"])
        do(st, "draw stock", "discard 2C")  # a wild card onto the pile
        assert st.current_player() == p2
        assert ("take" in st.legal_action_names()) == (reading == "off")  # the 2 on top
        if reading == "on":
            refused(st, "take", "or grab the entire discard pile")
        do(st, "draw stock", "discard 9S")
        assert st.current_player() == p3  # holds one natural 9
        assert ("take" in st.legal_action_names()) == (reading == "off")
        if reading == "on":
            refused(st, "take", "or grab the entire discard pile")
        do(st, "draw stock", "discard 9C")
        assert st.current_player() == p4  # holds two natural 9s
        do(st, "take")
        assert faces(st, p4)["2C"] == 1 and st.piles["discard"] == []
        do(st, "discard KD")
        assert st.current_player() == p1 and "take" in st.legal_action_names()  # no wild card in the pile now


def test_only_1_wild_for_every_2_normal_cards_or_at_most_3() -> None:
    """Register wild-cap. ``none`` (the decision): "you are allowed only 1 wild for every 2 “normal” cards ...
    With four 4’s you could add another 2 or Joker", so a set of eight 4s and three 2s takes a fourth 2.
    ``3`` (a house rule): at most three wild cards in a set, so the fourth 2 does not join it."""
    hand = ["4C", "4D", "4H", "4S", "4C", "4D", "4H", "4S", "2C", "2D", "2H", "2S", "KD"]
    for reading in ("none", "3"):
        g = game(wild_cap=reading)
        me = (first_dealer(g) + 1) % 4
        st = start(g, {me: hand})
        do(st, "meld 4 4 2", "add 1 4", "add 1 4", "add 1 2")  # 4 naturals, 2 wilds: 60, laid out
        assert view(st)["laid_out"] == [me]
        do(st, *["add 1 4"] * 4, "add 1 2")  # 8 naturals, 3 wilds (3 <= 8 / 2)
        assert sorted(c.split("#")[0][:-1] for c in sets(st)[0]["cards"]).count("2") == 3
        if reading == "none":
            do(st, "add 1 2")  # 4 wilds with 8 naturals: 1 for every 2
            assert len(sets(st)[0]["cards"]) == 12
        else:
            assert find(st, "add 1 2") is None
            refused(st, "add 1 2", "With four 4’s you could add another 2 or Joker.")


def test_is_it_okay_for_me_to_be_done_asked_or_required() -> None:
    """Register partner-ask-required (teams, one clean and one dirty book to go out). ``optional`` (the
    decision): "this question can be asked", so the player holding a jack and a ten uses both up and goes out
    without asking. ``required`` (a house rule): the player must ask first; unasked, a set or an addition keeps
    two cards; after a no the player throws the ten and keeps the jack (the turn passes, the round goes on);
    after a yes the player goes out."""
    for reading in ("optional", "required"):
        g = game(teams=True, books_needed="one_each", partner_ask=reading)
        st, me = quick_turn(g, keep_one=False)
        assert st.hands[me].bit_count() == 2 and "ask" in st.legal_action_names()
        if reading == "optional":
            do(st, "add 3 J", "add 4 10")
            assert st.hand_results[0]["went_out"] == me
            continue
        assert find(st, "add 3 J") is None  # it would leave one card: the question first
        refused(st, "add 3 J", "this question can be asked to make sure")
        do(st, "ask", "no")
        assert find(st, "add 3 J") is None
        do(st, "discard 10S")
        assert st.hand_no == 0 and st.current_player() == (me + 1) % 4 and st.hands[me].bit_count() == 1
    g = game(teams=True, books_needed="one_each", partner_ask="required")
    st, me = quick_turn(g, keep_one=False)
    do(st, "ask", "yes", "add 3 J", "add 4 10")
    assert st.hand_no == 1 and st.hand_results[0]["went_out"] == me


def test_red_threes_laid_aside_with_the_pickup_pile_empty_never_strand_a_player() -> None:
    """red_threes=laid_aside: a player in the foot who draws the last cards of the pickup pile and lays them
    all aside as red threes holds no card and cannot be given a replacement; the hand counts as used up (play
    passes on, and the round ends, the pickup pile being empty). Seeded rule-bot play that reached that
    position (seed 65, first hand; seed 10015, whole match) always has a legal move until it ends."""
    import random

    from cardspec.engine.bots import BOTS

    g = Game.from_system("hand-and-foot", {"red_threes": "laid_aside"})
    for seed, first_hand in ((65, True), (10015, False)):
        st = g.new_initial_state(seed)
        bot = BOTS["rule"](random.Random(f"materiality/{seed}"))
        while not st.is_terminal() and not (first_hand and st.hand_results) and len(st.history) < 100_000:
            legal = st.legal_actions()
            assert legal, f"seed {seed}: seat {st.cur} has no legal move after {len(st.history)} actions"
            st.apply(bot(st, legal))
        assert st.is_terminal() or (first_hand and st.hand_results)
