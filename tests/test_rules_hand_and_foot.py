"""Rule tests for Hand and Foot (source 004_945a3021da002f83.txt), solo and in teams.

Each test is named after the clause it pins and quotes it in its docstring; each
reading of each register entry, each scoring row and each zone's visibility per
seat has a test. Expected values come from the text (the card values, the
minimums, the passing, the books), not from engine output.

Positions come from explicit deals built by :func:`deal`: for each seat the
pile it will choose as its hand (``choose 1``) and its foot, and the pickup
pile's top cards. Cards are named by face (``KC``, ``JK``); the helper takes the
next free copy of the shuffled-together decks. Actions are named by rank
(``meld K K K``, ``add 2 Q``, ``discard 9S``) and matched against the legal
list, which names one action per class of interchangeable cards.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from cardspec.engine.bots import random_bot, rule_bot
from cardspec.engine.errors import IllegalActionError
from cardspec.engine.game import Game
from cardspec.engine.state import State

DOC = "004_945a3021da002f83.txt"
SYSTEM = "hand-and-foot"

# "The Points:" as the text lists them (a test's own table, not the spec's)
POINTS = {"A": 20, "2": 20, "4": 5, "5": 5, "6": 5, "7": 5, "8": 5, "9": 5, "10": 10, "J": 10, "Q": 10, "K": 10,
          "JK": 50}


def points(face: str) -> int:
    """A card's value from the text: "Black 3: -5 points", "Red 3: -500 points"."""
    if face.startswith("3"):
        return -500 if face[1] in "DH" else -5
    return POINTS[rank(face)]


def rank(face: str) -> str:
    """``KC`` -> ``K``, ``10H`` -> ``10``, ``JK`` -> ``JK``."""
    return face if face == "JK" else face[:-1]


def face_of(name: str) -> str:
    """A card name without its copy number: ``KC#3`` -> ``KC``."""
    return name.split("#")[0]


@functools.lru_cache(maxsize=64)
def _game(opts: tuple[tuple[str, Any], ...]) -> Game:
    return Game.from_system(SYSTEM, dict(opts))


def game(**opts: Any) -> Game:
    """The game under these options (built once: a Game is frozen, so tests share it)."""
    return _game(tuple(sorted(opts.items())))


def first_dealer(g: Game, seed: int = 0) -> int:
    """The dealer the seed draws for the first round (the first player sits to its left)."""
    return g.new_initial_state(seed=seed).dealer


def deal(g: Game, dealer: int, hands: Mapping[int, Sequence[str]], feet: Mapping[int, Sequence[str]] | None = None,
         stock_top: Sequence[str] = (), round_index: int = 0) -> dict[str, Any]:
    """An explicit deal: seat ``s`` receives ``hands[s]`` as its first pile and ``feet[s]`` as its second (so
    ``choose 1`` makes them hand and foot); the pickup pile starts with ``stock_top``. Piles not given are
    filled with the free cards in deck order."""
    deck = g.deck
    free: dict[str, list[str]] = {}
    for name in deck.names:
        free.setdefault(face_of(name), []).append(name)

    def take(face: str) -> str:
        assert free.get(face), f"no free copy of {face}"
        return free[face].pop(0)

    n = g.num_players
    want: list[list[list[str]]] = [[[], []] for _ in range(n)]
    for s, cards in hands.items():
        assert len(cards) == 13, f"seat {s}'s hand pile must be 13 cards"
        want[s][0] = [take(f) for f in cards]
    for s, cards in (feet or {}).items():
        assert len(cards) == 13, f"seat {s}'s foot must be 13 cards"
        want[s][1] = [take(f) for f in cards]
    top = [take(f) for f in stock_top]
    rest = [c for f in sorted(free) for c in free[f]]
    rest.sort(key=deck.names.index)
    for s in range(n):
        for k in (0, 1):
            while len(want[s][k]) < 13:
                want[s][k].append(rest.pop(0))
    comp = g.phases[0]
    offs = comp.offsets[round_index]  # type: ignore[attr-defined]
    order: list[str] = []
    for d in [(dealer + i) % n for i in range(1, n + 1)]:  # each player deals, from the dealer's left
        for k in (0, 1):
            order += want[(d + offs[k]) % n][k]
    return {"dealer": dealer, "hands": [[] for _ in range(n)], "piles": {"stock": order + top + rest}}


def start(g: Game, hands: Mapping[int, Sequence[str]], feet: Mapping[int, Sequence[str]] | None = None,
          stock_top: Sequence[str] = (), seed: int = 0) -> State:
    """The first round dealt as given, every player choosing pile 1 as the hand; the first player to move."""
    d = first_dealer(g, seed)
    st = g.new_initial_state(seed=seed, deals=[deal(g, d, hands, feet, stock_top)])
    for _ in range(g.num_players):
        st.apply_name("choose 1")
    return st


def faces(st: State, seat: int, zone: str = "hand") -> Counter[str]:
    deck = st.game.deck
    mask = st.hands[seat] if zone == "hand" else st.seat_piles[zone][seat]
    return Counter(face_of(deck.names[c]) for c in deck.cards_of(mask))


def is_face(token: str) -> bool:
    """``9S`` names a face; ``9``, ``K`` and ``JK`` name a rank."""
    return token != "JK" and token[-1] in "CDHS" and token[:-1] in {*POINTS, "3"}


def _matches(name: str, want: list[str]) -> bool:
    got = [face_of(x) for x in name.split()[1:] if not x.isdigit()]
    if all(is_face(w) for w in want):
        return sorted(got) == sorted(want)
    return sorted(rank(g) for g in got) == sorted(want)


def find(st: State, text: str) -> str | None:
    """The legal action named ``text`` by kind, set number and ranks (``meld K K 2``, ``add 1 Q``) or faces
    (``discard 9S``), or None."""
    legal = st.legal_action_names()
    if text in legal:
        return text
    kind, *rest = text.split()
    number = rest.pop(0) if kind == "add" else None
    for name in legal:
        parts = name.split()
        if parts[0] != kind or (number is not None and parts[1] != number):
            continue
        if _matches(name, rest):
            return name
    return None


def do(st: State, *texts: str) -> None:
    """Apply each action, which must be legal now."""
    for text in texts:
        name = find(st, text)
        assert name is not None, f"'{text}' is not legal; legal: {st.legal_action_names()}"
        st.apply_name(name)


def held_name(st: State, seat: int, text: str) -> str:
    """An action naming cards the player holds (legal or not), for testing refusals."""
    kind, *rest = text.split()
    number = [rest.pop(0)] if kind == "add" else []
    deck = st.game.deck
    pool = [deck.names[c] for c in deck.cards_of(st.hands[seat])]
    out: list[str] = []
    for want in rest:
        hit = next(n for n in pool if (face_of(n) if is_face(want) else rank(face_of(n))) == want)
        pool.remove(hit)
        out.append(hit)
    return " ".join([kind, *number, *out])


def refused(st: State, text: str, quote: str) -> IllegalActionError:
    """Applying ``text`` (with held cards) is refused, citing a clause whose quote contains ``quote``."""
    with pytest.raises(IllegalActionError) as e:
        st.apply_name(held_name(st, st.current_player(), text))
    assert e.value.source is not None and e.value.source.doc == DOC
    assert quote in e.value.source.quote, e.value.source.quote
    return e.value


def view(st: State) -> dict[str, Any]:
    return st.comp.public_view(st)  # type: ignore[attr-defined, no-any-return]


def sets(st: State) -> list[dict[str, Any]]:
    return view(st)["sets"]  # type: ignore[no-any-return]


# hands with no three cards of a rank and no wild card, for seats whose cards do not matter
QUIET = ["AC", "4C", "5C", "6D", "7D", "8H", "9H", "10S", "JS", "QC", "KD", "AD", "4H"]
QUIET2 = ["5D", "6H", "7S", "8C", "9D", "10C", "JH", "QS", "KH", "AS", "4S", "5S", "6C"]


def raw_deal(g: Game, dealer: int) -> dict[str, Any]:
    """The whole deck in deck order as the pile the players deal from (top first)."""
    n = g.num_players
    return {"dealer": dealer, "hands": [[] for _ in range(n)], "piles": {"stock": list(g.deck.names)}}


# the quick round: the first player lays out a clean book of kings, builds a dirty book of queens, takes up
# the foot, draws two and goes out, all in one turn (solo, the default decks)
QUICK_HAND = ["KC", "KD", "KH", "KS", "KC", "KD", "KH", "QC", "QD", "QH", "QS", "QC", "2C"]
QUICK_FOOT = ["QD", "JC", "JD", "JH", "10C", "10D", "10H", "9C", "9D", "9H", "8C", "8D", "8H"]
QUICK_STOCK = ["JS", "10S"]


def quick(g: Game, dealer: int, round_index: int, **kw: Any) -> dict[str, Any]:
    first = (dealer + 1) % g.num_players
    return deal(g, dealer, {first: QUICK_HAND, **kw.get("hands", {})}, {first: QUICK_FOOT, **kw.get("feet", {})},
                QUICK_STOCK, round_index)


def go_out_quickly(st: State) -> None:
    """Play the quick round's only turn (after the piles are chosen); the round ends with it."""
    hand_no = st.hand_no
    for _ in range(st.game.num_players):
        st.apply_name("choose 1")
    do(st, "meld K K K", *["add 1 K"] * 4, "meld Q Q 2", *["add 2 Q"] * 3)
    assert view(st)["in_foot"] == [st.current_player()]
    do(st, "add 2 Q", "draw stock", "meld J J J", "meld 10 10 10", "meld 9 9 9", "meld 8 8 8", "add 3 J", "add 4 10")
    assert st.hand_no == hand_no + 1 or st.is_terminal(), "the quick round ends when its first player goes out"
    assert st.hand_results[hand_no]["ended_by"] == "went_out"


def at_round(g: Game, round_index: int, last: dict[str, Any] | None = None, seed: int = 0) -> State:
    """A state at the start of round ``round_index`` (from 0): the earlier rounds are quick rounds; the
    round itself is dealt by ``last(dealer)`` if given, else from the deck in order."""
    d0 = first_dealer(g, seed)
    n = g.num_players
    rotate = 0 if g.options["first_player"] == "fixed" else 1
    dealers = [(d0 + rotate * i) % n for i in range(round_index + 1)]
    deals = [quick(g, dealers[i], i) for i in range(round_index)]
    deals.append(last or raw_deal(g, dealers[-1]))
    st = g.new_initial_state(seed=seed, deals=deals)
    for _ in range(round_index):
        go_out_quickly(st)
    assert st.hand_no == round_index
    return st


# --- the points, the decks, the piles ---------------------------------------------------------


def test_the_points_card_values() -> None:
    """"Ace: 20 points", "2: 20 points (and WILD)", "4-9: 5 points", "10, J, Q, K: 10 points", "Joker: 50 points
    (and WILD)", "Black 3: -5 points", "Red 3: -500 points"."""
    g = game()
    m = g.phases[1]
    for c, name in enumerate(g.deck.names):
        assert m.value[c] == points(face_of(name)), name  # type: ignore[attr-defined]
    wild = {face_of(g.deck.names[c]) for c in range(g.deck.size) if m.meld_rank[c] == -1}  # type: ignore[attr-defined]
    assert {rank(f) for f in wild} == {"2", "JK"}


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("extra", [0, 1, 2])
def test_at_least_one_full_deck_for_every_two_people_with_jokers(players: int, extra: int) -> None:
    """"Card Decks: At least 1 Full Deck for every 2 people", "Jokers: Yes": ceil(players / 2) decks of 54
    cards (two jokers each), and ``extra_decks`` more (register: decks-for-players)."""
    g = game(players=players, extra_decks=extra)
    decks = -(-players // 2) + extra
    assert g.deck.size == 54 * decks
    assert sum(1 for n in g.deck.names if n.startswith("JK")) == 2 * decks


@pytest.mark.parametrize(("players", "extra"), [(2, 0), (3, 0), (4, 2), (8, 2), (5, 1)])
def test_each_player_deals_two_piles_of_13_and_the_rest_is_the_pickup_pile(players: int, extra: int) -> None:
    """"each player deals 2 piles of 13 cards" and "The remaining cards are all placed in a pile face down in
    the center. This becomes the “pickup” pile." Nobody holds a hand before choosing."""
    g = game(players=players, extra_decks=extra)
    st = g.new_initial_state(seed=3)
    assert st.hands == [0] * players
    for z in ("pile_1", "pile_2"):
        assert [m.bit_count() for m in st.seat_piles[z]] == [13] * players
    assert len(st.piles["stock"]) == g.deck.size - 26 * players
    assert st.piles["discard"] == [] and st.legal_action_names() == ["choose 1", "choose 2"]
    assert st.current_player() == (st.dealer + 1) % players


def expected_passing(players: int, round_no: int, r2: str = "as_round_1", r3: str = "across_and_keep"
                     ) -> tuple[int, int]:
    """Where a player's two piles go, in seats to the left, from the text and the register's readings."""
    if round_no == 1:
        return (1, -1)  # "hand one pile to the person on their left, and one pile to the person on their right"
    if round_no == 2:
        if players == 4:
            return (1, -1)  # "if you have 4 players, just do the same as last time"
        if players > 4:
            return (2, -2)  # "hand your cards to the person 2nd to your left and right"
        return (1, -1) if r2 == "as_round_1" else (2, -2)  # register: round-2-passing-few
    if round_no == 3:
        if players == 4:
            return (2, 0)  # "hand 1 pile to the player across from you, and keep the other one"
        if r3 == "across_and_keep":  # register: round-3-passing-others
            return (players // 2, 0)
        if r3 == "left_and_keep":
            return (1, 0)
        return (1, -1) if players < 4 else (2, -2)
    return (0, 0)  # "you keep both piles"


def check_passing(st: State, offs: tuple[int, int], zones: tuple[str, str] = ("pile_1", "pile_2")) -> None:
    """Each player, from the dealer's left, dealt two piles of 13 from the top of the deck in order; the
    ``k``-th went ``offs[k]`` seats to the left, face down into that player's ``k``-th pile."""
    g = st.game
    n = g.num_players
    names = list(g.deck.names)
    i = 0
    for d in [(st.dealer + j) % n for j in range(1, n + 1)]:
        for k in (0, 1):
            pile = names[i:i + 13]
            i += 13
            to = (d + offs[k]) % n
            got = {g.deck.names[c] for c in g.deck.cards_of(st.seat_piles[zones[k]][to])}
            assert set(pile) <= got, f"dealer {d}'s pile {k + 1} is not with seat {to}"


@pytest.mark.parametrize("players", range(2, 9))
def test_round_1_one_pile_to_the_left_and_one_to_the_right(players: int) -> None:
    """"Each person will then hand one pile to the person on their left, and one pile to the person on their
    right. Thus, each person will again have 2 piles of 13 cards in front of them"."""
    g = game(players=players)
    st = g.new_initial_state(seed=0, deals=[raw_deal(g, first_dealer(g))])
    check_passing(st, expected_passing(players, 1))


@pytest.mark.parametrize(("players", "opts"), [
    (4, {}), (5, {}), (6, {}), (8, {}), (3, {}), (3, {"round_2_few": "second_left_right"}), (2, {}),
    (2, {"round_2_few": "second_left_right"})])
def test_round_2_passing_second_left_and_right_with_more_than_four(players: int, opts: dict[str, Any]) -> None:
    """"If you are playing with more than 4 people, than hand your cards to the person 2nd to your left and
    right, if you have 4 players, just do the same as last time." Two and three players: register entry
    round-2-passing-few, both readings."""
    g = game(players=players, **opts)
    st = at_round(g, 1)
    check_passing(st, expected_passing(players, 2, r2=g.options["round_2_few"]))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("reading", ["across_and_keep", "as_round_1", "left_and_keep"])
def test_round_3_passing_across_and_keep(players: int, reading: str) -> None:
    """"The third round, if you have 4 players, you hand 1 pile to the player across from you, and keep the
    other one." Other counts: register entry round-3-passing-others, each reading."""
    g = game(players=players, round_3_others=reading)
    st = at_round(g, 2)
    check_passing(st, expected_passing(players, 3, r3=reading))


@pytest.mark.parametrize("players", [2, 4, 7])
def test_round_4_keep_both_piles_and_look_at_both(players: int) -> None:
    """"The fourth [and final] round, you keep both piles, and look at both of them, and decide which one you
    want as your foot": both piles kept, in the looked-at zones, seen by their holder only."""
    g = game(players=players)
    st = at_round(g, 3)
    check_passing(st, (0, 0), ("seen_1", "seen_2"))
    assert all(m == 0 for z in ("pile_1", "pile_2") for m in st.seat_piles[z])
    me = st.current_player()
    obs = st.observation(me)["zones"]
    assert len(obs["seen_1"][me]["cards_top_first"]) == 13 and len(obs["seen_2"][me]["cards_top_first"]) == 13
    other = (me + 1) % players
    assert "cards_top_first" not in obs["seen_1"][other] and obs["seen_1"][other]["count"] == 13


# --- choosing, seeing, the turn -----------------------------------------------------------------


def test_the_piles_are_chosen_without_looking_and_the_other_is_the_foot() -> None:
    """"The players choose one of the two piles (without looking at them. All the cards are still face down in
    piles) and this pile becomes their “hand“" and "The other pile is set to the side. This is the “foot”"."""
    g = game()
    d = first_dealer(g)
    hand, foot = QUIET, QUIET2
    me = (d + 1) % 4
    st = g.new_initial_state(seed=0, deals=[deal(g, d, {me: hand}, {me: foot})])
    obs = st.observation(me)["zones"]
    for z in ("pile_1", "pile_2"):  # face down: not even their holder sees them
        assert "cards_top_first" not in obs[z][me] and obs[z][me]["count"] == 13
    assert st.current_player() == me
    st.apply_name("choose 2")  # the second pile becomes the hand
    assert faces(st, me) == Counter(foot) and faces(st, me, "foot") == Counter(hand)
    assert st.seat_piles["pile_1"][me] == st.seat_piles["pile_2"][me] == 0


def test_zone_visibility_per_seat() -> None:
    """The hand is seen by its holder only ("they keep them hidden from everyone else"); the foot "can not be
    viewed until the player has completely used all the cards in their hand" (a count, even to its holder); the
    pickup pile is face down; sets are laid "face up"; discards are thrown "face up" (register:
    discard-pile-view, both readings)."""
    for view_opt, shown in (("all", 2), ("top", 1)):
        g = game(discard_view=view_opt)
        st = start(g, {})
        first = st.current_player()
        for _ in range(2):  # two turns: draw two, discard one
            do(st, "draw stock")
            st.apply_name(st.legal_action_names()[0])
        for seat in range(4):
            obs = st.observation(seat)["zones"]
            for other in range(4):
                hand = obs["hand"][other]
                assert ("cards_top_first" in hand) == (other == seat)
                assert hand["count"] == st.hands[other].bit_count()
                assert "cards_top_first" not in obs["foot"][other] and obs["foot"][other]["count"] == 13
            assert "cards_top_first" not in obs["stock"]
            assert len(obs["discard"]["cards_top_first"]) == shown and obs["discard"]["count"] == 2
        assert first != st.current_player()
    st = first_turn(game(), ["KC", "KD", "KH", "KS", "KC", *QUIET[:8]])
    do(st, "meld K K K", "add 1 K", "add 1 K")
    for seat in range(4):
        assert sorted(face_of(c) for c in st.observation(seat)["zones"]["melds"]["cards_top_first"]) == \
            ["KC", "KC", "KD", "KH", "KS"]


def test_the_first_player_draws_two_and_discards_one() -> None:
    """"This person’s turn begins by drawing 2 cards from the pickup pile. They then must discard 1 card face up
    onto the discard pile." The first player sits left of the dealer."""
    g = game()
    st = start(g, {(first_dealer(g) + 1) % 4: QUIET}, stock_top=["9C", "KS"])
    me = st.current_player()
    assert me == (st.dealer + 1) % 4
    assert st.legal_action_names() == ["draw stock"]  # nothing to take, nothing to lay out
    stock = len(st.piles["stock"])
    do(st, "draw stock")
    assert faces(st, me) == Counter(QUIET) + Counter(["9C", "KS"]) and len(st.piles["stock"]) == stock - 2
    assert {n.split()[0] for n in st.legal_action_names()} == {"discard"}
    with pytest.raises(IllegalActionError):
        st.apply_name("draw stock")
    do(st, "discard KS")
    assert st.current_player() == (me + 1) % 4 and [face_of(st.game.deck.names[c]) for c in st.piles["discard"]] \
        == ["KS"]


def test_grab_the_entire_discard_pile_all_or_nothing() -> None:
    """"The next player may either pick up two cards from the pickup pile, or grab the entire discard pile (It’s
    all or nothing with that thing). Then they discard one card, and we continue." """
    g = game()
    d = first_dealer(g)
    p1, p2, p3 = ((d + i) % 4 for i in (1, 2, 3))
    st = start(g, {p1: QUIET, p2: QUIET2, p3: QUIET}, stock_top=["9C", "9S", "KC", "KS"])
    do(st, "draw stock", "discard 9S", "draw stock", "discard KS")
    assert st.current_player() == p3
    assert sorted(st.legal_action_names()) == ["draw stock", "take"]  # no action takes part of the pile
    before = faces(st, p3)
    do(st, "take")
    assert faces(st, p3) == before + Counter(["9S", "KS"]) and st.piles["discard"] == []
    assert {n.split()[0] for n in st.legal_action_names()} == {"discard"}


def test_take_pile_condition_readings() -> None:
    """Register take-pile-condition: ``any`` (the text puts no condition on grabbing the pile) and
    ``top_usable`` (only when the player could meld its top card)."""
    g_any, g_top = game(), game(take_pile="top_usable")
    for g in (g_any, g_top):
        d = first_dealer(g)
        p1, p2 = (d + 1) % 4, (d + 2) % 4
        hand2 = ["9D", "9H", "KD", "KH", "AC", "4C", "5C", "6D", "7D", "8H", "10S", "JS", "QC"]
        for top, usable in (("9S", True), ("KS", True), ("QS", False), ("2S", False)):
            st = start(g, {p1: QUIET, p2: hand2}, stock_top=["9S", top] if top != "9S" else ["9S", "5S"])
            do(st, "draw stock", f"discard {top}")
            legal = "take" in st.legal_action_names()
            assert legal == (usable or g is g_any), (g.options["take_pile"], top)
            if not legal:
                refused(st, "take", "grab the entire discard pile")


# --- laying out -------------------------------------------------------------------------------------

LAY_50 = ["JC", "JD", "JH", "7C", "7D", "7H", "7S", "AC", "4C", "5D", "6H", "8S", "9C"]


def first_turn(g: Game, hand: Sequence[str], stock_top: Sequence[str] = ("5H", "6C"),
               foot: Sequence[str] | None = None) -> State:
    """The first round, the first player to move holding ``hand``."""
    me = (first_dealer(g) + 1) % g.num_players
    return start(g, {me: hand}, {me: foot} if foot else None, stock_top)


def test_lay_out_three_jacks_and_four_sevens_make_50() -> None:
    """"If I had 3 Jacks (Jacks are 10 points) and 4 7’s (7’s are 5 points) then my total is 50 points" and
    "For the first round, this total is 50 points"; "rather than picking up cards they first must lay these
    cards out"."""
    st = first_turn(game(), LAY_50)
    me = st.current_player()
    assert view(st)["lay_out_minimum"] == 50
    do(st, "meld J J J")
    legal = st.legal_action_names()
    assert "draw stock" not in legal and "retract" in legal  # short of 50: go on laying out or take it back
    e = refused(st, "draw_stock", "In order to “lay out” a player must have enough cards in sets")
    assert "50" in e.reason
    do(st, "meld 7 7 7")  # 45
    assert view(st)["laid_out"] == []
    do(st, "add 2 7")  # 50
    assert view(st)["laid_out"] == [me]
    assert "draw stock" in st.legal_action_names() and "retract" not in st.legal_action_names()
    do(st, "draw stock")
    assert faces(st, me) == Counter(["AC", "4C", "5D", "6H", "8S", "9C", "5H", "6C"])


def test_lay_out_a_joker_and_two_sixes_make_60() -> None:
    """"So too if I had a Joker and two 6’s that’s a total of 60 points, as Jokers are worth 50." """
    st = first_turn(game(), ["JK", "6C", "6D", *QUIET[:10]])
    do(st, "meld 6 6 JK")
    assert view(st)["laid_out"] == [st.current_player()]


def test_a_lay_out_short_of_the_minimum_is_taken_back_once() -> None:
    """Register ``short-lay-out``, reading ``take_back`` (the decision): "Once they have done so, and it’s
    been verified that they reached the point total needed, they can continue their turn": three kings (30)
    do not reach 50; the set goes back to the hand (once a turn) and the player draws."""
    hand = ["KC", "KD", "KH", *QUIET[:10]]
    st = first_turn(game(), hand)
    me = st.current_player()
    do(st, "meld K K K")
    assert faces(st, me) == Counter(QUIET[:10]) and len(sets(st)) == 1
    do(st, "retract")
    assert faces(st, me) == Counter(hand) and sets(st) == [] and st.piles["melds"] == []
    assert st.legal_action_names() == ["draw stock"]  # no second attempt this turn


def test_short_lay_out_lose_turn_ends_the_turn_at_the_take_back() -> None:
    """Register ``short-lay-out``, reading ``lose_turn``: "it’s been verified that they reached the point
    total needed" names no remedy; under this reading the three kings (30 of 50) go back to the hand and the
    turn passes to the left at once, with nothing drawn and nothing discarded."""
    hand = ["KC", "KD", "KH", *QUIET[:10]]
    g = game(short_lay_out="lose_turn")
    st = first_turn(g, hand)
    me = st.current_player()
    stock = len(st.piles["stock"])
    do(st, "meld K K K", "retract")
    assert faces(st, me) == Counter(hand) and sets(st) == []
    assert st.current_player() == (me + 1) % g.num_players
    assert len(st.piles["stock"]) == stock and st.piles["discard"] == []
    assert "draw stock" in st.legal_action_names()  # the next player's turn starts with the draw


def test_the_minimum_rises_50_90_120_150() -> None:
    """"Points needed to lay out: 50 points, 90 points, 120 points, 150 points" (rounds one to four); "In the
    second round you must have 90 points": five kings (50) lay out in the first round, not in the second."""
    g = game()
    assert g.phases[1].minimum == (50, 90, 120, 150)  # type: ignore[attr-defined]
    hand = ["KC", "KD", "KH", "KS", "KC", *QUIET[:8]]
    st = first_turn(g, hand)
    do(st, "meld K K K", "add 1 K", "add 1 K")
    assert view(st)["laid_out"] == [st.current_player()]
    for rnd, minimum in ((1, 90), (2, 120), (3, 150)):
        st = at_round(g, rnd, last=None)
        d = st.dealer
        me = (d + 1) % 4
        st = at_round(g, rnd, last=deal(g, d, {me: hand}, round_index=rnd))
        for _ in range(4):
            st.apply_name("choose 1")
        assert st.current_player() == me and view(st)["lay_out_minimum"] == minimum
        do(st, "meld K K K", "add 1 K", "add 1 K")
        assert view(st)["laid_out"] == [] and "draw stock" not in st.legal_action_names()


def test_lay_out_counts_books_seven_fives_are_535() -> None:
    """Register lay-out-counts-books: "if you were to lay out a complete book of something (e.g. seven 5’s) you
    can count the entire book bonus as well. Thus seven 5’s is not 35 points, but 535 points" (``true``); the
    cards only (``false``)."""
    hand = ["5C", "5D", "5H", "5S", "5C", "5D", "5H", *QUIET[:6]]
    for counts, laid in ((True, True), (False, False)):
        st = first_turn(game(lay_out_books=counts), hand)
        do(st, "meld 5 5 5", *["add 1 5"] * 4)
        assert sets(st)[0]["book"] == "clean"
        assert bool(view(st)["laid_out"]) == laid, counts


def test_lay_out_timing_readings() -> None:
    """Register lay-out-timing: ``before_draw`` ("rather than picking up cards they first must lay these cards
    out") and ``any_time`` (after drawing too)."""
    for timing in ("before_draw", "any_time"):
        st = first_turn(game(lay_out_timing=timing), LAY_50)
        do(st, "draw stock")
        melds = [n for n in st.legal_action_names() if n.startswith("meld")]
        assert bool(melds) == (timing == "any_time")
        if timing == "before_draw":
            refused(st, "meld J J J", "In order to “lay out”")
        else:
            do(st, "meld J J J", "meld 7 7 7", "add 2 7")
            assert view(st)["laid_out"] == [st.current_player()]


def test_once_laid_out_pick_up_then_add_on_or_begin_new_sets() -> None:
    """"Once a player has “laid out”, then on their turn, they pick up their two (or the pile) and can add on to
    their sets, or begin new sets as they’d like, and once they discard, their turn is over." """
    hand = [*LAY_50[:7], "QC", "QD", "QH", "JS", "AC", "4C"]
    st = first_turn(game(), hand, stock_top=["7S", "5H"])
    me = st.current_player()
    do(st, "meld J J J", "meld 7 7 7", "add 2 7", "draw stock")
    do(st, "add 2 7", "add 1 J", "meld Q Q Q")
    assert [len(s["cards"]) for s in sets(st)] == [4, 5, 3]
    do(st, "discard AC")
    assert st.current_player() == (me + 1) % 4


# --- sets, wild cards, books ----------------------------------------------------------------------------


def laid_out_with(g: Game, extra: Sequence[str], stock_top: Sequence[str] = ("5H", "6C")) -> State:
    """The first player lays out with three jacks and four sevens (50), draws, and holds ``extra`` (up to 6
    cards, the rest of the 13 quiet)."""
    hand = LAY_50[:7] + list(extra) + [c for c in ("AC", "4C", "5D", "6H", "8S", "9C") if c not in extra][
        :6 - len(extra)]
    st = first_turn(g, hand, stock_top)
    do(st, "meld J J J", "meld 7 7 7", "add 2 7", "draw stock")
    return st


def test_only_one_wild_for_every_two_normal_cards() -> None:
    """"you are allowed only 1 wild for every 2 “normal” cards. So one 2 or Joker with three 4’s, for example.
    With four 4’s you could add another 2 or Joker." """
    st = laid_out_with(game(), ["4C", "4D", "2C", "2D", "JK", "4H"], stock_top=["4S", "8C"])
    do(st, "meld 4 4 2")  # set 3: two naturals, one wild
    refused(st, "meld 2 JK 4", "only 1 wild for every 2")  # one natural, two wilds: the ratio decides
    assert find(st, "add 3 2") is None and find(st, "add 3 JK") is None
    refused(st, "add 3 JK", "only 1 wild for every 2")
    do(st, "add 3 4")  # three 4's with one wild
    assert find(st, "add 3 2") is None  # two wilds need four naturals
    do(st, "add 3 4")  # four 4's
    do(st, "add 3 JK")
    assert sorted(rank(face_of(c)) for c in sets(st)[2]["cards"]) == ["2", "4", "4", "4", "4", "JK"]


def test_threes_can_not_be_used_to_make_sets() -> None:
    """"Note that 3‘s are only negative. This means they can not be used to make sets/books (i.e. you can not
    have a set of 3’s)." """
    st = laid_out_with(game(), ["3C", "3S", "3D", "2C"])
    assert not any("3" in rank(face_of(x)) for n in st.legal_action_names() if not n.startswith("discard")
                   for x in n.split()[1:] if not x.isdigit())
    refused(st, "meld 3 3 3", "you can not have a set of 3’s")
    refused(st, "meld 3 3 2", "you can not have a set of 3’s")


def test_books_are_sets_of_at_least_seven_clean_or_dirty() -> None:
    """"Books are sets of at least 7 cards. A “clean book” is a set of 7+ with no wilds, and a “dirty book” is a
    set of 7+ cards that included at least one wild." """
    st = laid_out_with(game(), ["JS", "JC", "JD", "7C", "2C", "JK"], stock_top=["JD", "7H"])
    do(st, "add 1 J", "add 1 J", "add 1 J")  # six jacks
    assert sets(st)[0]["book"] is None
    do(st, "add 1 J")
    assert sets(st)[0]["book"] == "clean" and len(sets(st)[0]["cards"]) == 7
    do(st, "add 2 7", "add 2 7")  # six sevens
    assert sets(st)[1]["book"] is None
    do(st, "add 2 2")
    assert sets(st)[1]["book"] == "dirty"
    do(st, "add 2 JK")  # 8 cards: still a book
    assert sets(st)[1]["book"] == "dirty" and len(sets(st)[1]["cards"]) == 8


def test_a_clean_book_is_closed_clean_readings() -> None:
    """Register clean-book-closed: "once a “clean book” has been formed, you can not add Wilds to it to make it
    “dirty”. If it has 7+ cards in it, it’s “closed clean”." (``closed``); ``open``: the wild makes it dirty. A
    set of six naturals still takes a wild either way."""
    for reading in ("closed", "open"):
        st = laid_out_with(game(clean_books_closed=reading), ["JS", "JC", "JD", "2C"], stock_top=["7H", "7S"])
        do(st, "add 1 J", "add 1 J", "add 1 J")  # six jacks: not yet a book, so a wild still fits
        do(st, "add 1 2")
        assert sets(st)[0]["book"] == "dirty"
    for reading in ("closed", "open"):
        st = laid_out_with(game(clean_books_closed=reading), ["JS", "JC", "JD", "2C"], stock_top=["JH", "7S"])
        do(st, *["add 1 J"] * 4)  # seven jacks: a clean book
        assert sets(st)[0]["book"] == "clean"
        if reading == "closed":
            assert find(st, "add 1 2") is None
            refused(st, "add 1 2", "you can not add Wilds to it")
        else:
            do(st, "add 1 2")
            assert sets(st)[0]["book"] == "dirty"


def test_closed_books_readings() -> None:
    """Register closed-books: "So if you closed a book of 5’s, and then had three 5’s in your foot, you’re better
    off just starting a new book of 5’s." With seven jacks on the table and an eighth in hand, ``open`` (a book
    is "a set of 7+") lets the jack join it; ``closed`` refuses it."""
    for reading in ("open", "closed"):
        st = laid_out_with(game(full_books=reading), ["JS", "JC", "JD", "JC", "JH"], stock_top=["JD", "7S"])
        do(st, *["add 1 J"] * 4)  # seven jacks: a book
        assert sets(st)[0]["book"] == "clean"
        if reading == "open":
            do(st, "add 1 J")
            assert len(sets(st)[0]["cards"]) == 8
        else:
            assert find(st, "add 1 J") is None
            refused(st, "add 1 J", "you closed a book of 5’s")
            assert len(sets(st)[0]["cards"]) == 7


def test_second_set_without_teams_readings() -> None:
    """Register second-set-without-teams: "You are allowed to have more than one set (or book, even) of a given
    number." (a team "difference"). Alone, with three jacks on the table and five more in hand: ``allowed``
    starts a second set of jacks; ``teams_only`` refuses it (the jacks go onto the first set)."""
    for reading in ("allowed", "teams_only"):
        st = laid_out_with(game(second_set=reading), ["JS", "JC", "JD", "JC", "JH"], stock_top=["JD", "5S"])
        if reading == "allowed":
            do(st, "meld J J J")
            assert len(sets(st)) == 3
        else:
            assert find(st, "meld J J J") is None
            refused(st, "meld J J J", "more than one set (or book, even) of a given number")
            do(st, "add 1 J")
            assert len(sets(st)) == 2 and len(sets(st)[0]["cards"]) == 4


def test_more_than_one_set_of_a_number_is_allowed() -> None:
    """"You are allowed to have more than one set (or book, even) of a given number." """
    st = laid_out_with(game(), ["JS", "JC", "JD", "JC", "JH"], stock_top=["JD", "5S"])
    do(st, "meld J J J")
    assert [rank(face_of(s["cards"][0])) for s in sets(st)] == ["J", "7", "J"]
    do(st, "meld J J J")
    assert len(sets(st)) == 4


def test_wild_books_readings() -> None:
    """Register wild-books: ``forbidden`` (a set is of one card number) and ``allowed`` ("One fun addition I like
    is “Wild Books”. This is just as it sounds: a book of nothing but Wild cards.")."""
    wilds = ["2C", "2D", "JK", "2H", "2S", "JK"]
    st = laid_out_with(game(), wilds, stock_top=["JK", "5S"])
    assert find(st, "meld 2 2 JK") is None and find(st, "meld 2 2 2") is None
    refused(st, "meld 2 2 JK", "at least 3 cards in the group")
    st = laid_out_with(game(wild_books="allowed"), wilds, stock_top=["JK", "5S"])
    do(st, "meld 2 2 JK", "add 3 2", "add 3 2", "add 3 JK", "add 3 JK")
    assert sets(st)[2]["book"] == "wild"
    assert find(st, "add 3 7") is None  # a natural card never joins a wild set


# --- the foot, going out, scoring ------------------------------------------------------------------

QUICK_MELDED = 7 * 10 + 6 * 10 + 20 + 4 * 10 + 4 * 10 + 3 * 5 + 3 * 5  # K x7, Q x6 + 2, J x4, 10 x4, 9 x3, 8 x3


def held_points(st: State, seat: int) -> int:
    """What a player's hand and foot count against: "All cards still in a person’s hand (or in their foot ...)
    count against your total score", threes included ("3‘s are only negative")."""
    return sum(abs(points(f)) * k for z in ("hand", "foot") for f, k in faces(st, seat, z).items())


def quick_until_last(g: Game, keep_two: bool = False) -> tuple[State, int]:
    """The quick round up to its last action (with ``keep_two``, up to its last two, the player holding a jack
    and a ten); returns the state and the first player."""
    d = first_dealer(g)
    st = g.new_initial_state(seed=0, deals=[quick(g, d, 0)])
    for _ in range(g.num_players):
        st.apply_name("choose 1")
    me = st.current_player()
    do(st, "meld K K K", *["add 1 K"] * 4, "meld Q Q 2", *["add 2 Q"] * 4, "draw stock",
       "meld J J J", "meld 10 10 10", "meld 9 9 9", "meld 8 8 8", *([] if keep_two else ["add 3 J"]))
    return st, me


def test_when_the_hand_is_used_up_move_on_to_the_foot_readings() -> None:
    """Register foot-pickup: "This continues until a player has used up all the cards in their hand. Then they
    move on to their foot, and continue with those cards." ``at_once``: in the same turn; ``next_turn``: the
    turn ends there."""
    for reading in ("at_once", "next_turn"):
        g = game(foot_pickup=reading)
        d = first_dealer(g)
        st = g.new_initial_state(seed=0, deals=[quick(g, d, 0)])
        for _ in range(4):
            st.apply_name("choose 1")
        me = st.current_player()
        do(st, "meld K K K", *["add 1 K"] * 4, "meld Q Q 2", "add 2 Q", "add 2 Q")
        assert view(st)["in_foot"] == [] and faces(st, me, "foot") == Counter(QUICK_FOOT)
        do(st, "add 2 Q")  # the hand is used up
        assert faces(st, me) == Counter(QUICK_FOOT) and st.seat_piles["foot"][me] == 0
        assert view(st)["in_foot"] == [me]
        assert (st.current_player() == me) == (reading == "at_once")
        obs = st.observation(me)["zones"]["hand"][me]
        assert obs["count"] == 13 and len(obs["cards_top_first"]) == 13  # the foot, now the hand, is seen


def test_going_out_ends_the_round_at_once_and_scores_as_the_text_lists() -> None:
    """"Once a player has all the clean and dirty books they need, they can end the game by using up all their
    cards (they need not discard to end the game ...). Once they are “out”, the game is done, and not one else
    takes a turn." Scoring: "Clean books are each worth 500 points", "Dirty books are each worth 300 points",
    "Each card (whether in a finished book or not) counts it’s point value as well", cards held "count against
    your total score"."""
    g = game()
    st, me = quick_until_last(g)
    held = [held_points(st, s) for s in range(4)]
    assert held[me] == 10  # the last ten
    do(st, "add 4 10")
    assert st.hand_no == 1, "nobody else takes a turn"
    res = st.hand_results[0]
    assert res["ended_by"] == "went_out" and res["went_out"] == me
    want = [500 + 300 + QUICK_MELDED if s == me else -held[s] for s in range(4)]
    assert res["scores"] == want and st.counters == want


def test_going_out_by_discarding_the_last_card() -> None:
    """"... but they can end the game by discarding": the quick round's player discards the last card instead."""
    g = game()
    st, me = quick_until_last(g)
    held = [held_points(st, s) for s in range(4)]
    do(st, "discard 10S")
    assert st.hand_no == 1
    res = st.hand_results[0]
    assert res["ended_by"] == "went_out" and res["went_out"] == me
    assert res["scores"][me] == 500 + 300 + QUICK_MELDED - 10  # the ten was thrown, not melded
    assert [res["scores"][s] for s in range(4) if s != me] == [-held[s] for s in range(4) if s != me]


def test_out_by_discard_readings() -> None:
    """Register out-by-discard (a house rule): "they need not discard to end the game, but they can end the game
    by discarding". ``off``: the last ten may go onto a set (the round ends) or be discarded; ``on``: adding it is
    refused, citing the clause, and the player goes out by discarding it."""
    for reading in ("off", "on"):
        st, me = quick_until_last(game(out_by_discard=reading))
        names = [n.split("#")[0] for n in st.legal_action_names()]  # this deck's copies are numbered
        assert ("add 4 10S" in names) is (reading == "off")
        assert "discard 10S" in names
        if reading == "on":
            refused(st, "add 4 10", "they need not discard to end the game")
        do(st, "discard 10S")
        assert st.hand_results[0]["went_out"] == me


def test_using_up_every_card_without_the_books_play_continues() -> None:
    """"Note that if you use up all your cards and do not have the needed number of books, the game continues as
    normal." (books_needed two_each: the quick round's one clean and one dirty book are not enough)."""
    g = game(books_needed="two_each")
    st, me = quick_until_last(g)
    do(st, "add 4 10")
    assert st.hand_no == 0 and st.hands[me] == 0 and st.seat_piles["foot"][me] == 0
    assert st.current_player() == (me + 1) % 4 and st.legal_action_names()[0] == "draw stock"
    for _ in range(3):
        do(st, "draw stock")
        st.apply_name(next(n for n in st.legal_action_names() if n.startswith("discard")))
    assert st.current_player() == me and "draw stock" in st.legal_action_names()
    do(st, "draw stock")
    assert st.hands[me].bit_count() == 2


@pytest.mark.parametrize(("opts", "need"), [({}, 1), ({"teams": True}, 3), ({"books_needed": "one_each"}, 1),
                                            ({"books_needed": "two_each", "teams": True}, 2),
                                            ({"books_needed": "three_each"}, 3),
                                            ({"teams": True, "books_needed": "one_each"}, 1)])
def test_books_needed_readings(opts: dict[str, Any], need: int) -> None:
    """Register books-needed: "With no teams, 1 clean and 1 dirty book needed to win. With teams, we often play 3
    clean and 3 dirty." (``as_text``), or that many of each (``one_each``, ``two_each``, ``three_each``)."""
    m = game(**opts).phases[1]
    assert (m.need_clean, m.need_dirty) == (need, need)  # type: ignore[attr-defined]


def test_going_out_bonus_readings() -> None:
    """Register going-out-bonus: ``none`` (the scoring list names books and cards only) and ``100`` (a house rule
    outside the text)."""
    for reading, bonus in (("none", 0), ("100", 100)):
        st, me = quick_until_last(game(going_out_bonus=reading))
        do(st, "add 4 10")
        assert st.hand_results[0]["scores"][me] == 800 + QUICK_MELDED + bonus


def test_pickup_pile_exhausted_ends_the_round_scored_as_it_stands_or_void() -> None:
    """Registers pickup-exhausted (``end_round``) and exhausted-round-scoring: ``as_it_stands`` ("Players add up
    all their books and cards and subtract the totals in their hand/foot") or ``void``. With two players and one
    deck the pickup pile holds two cards."""
    for scoring in ("as_it_stands", "void"):
        g = game(players=2, extra_decks=0, pickup_exhausted_scoring=scoring)
        st = start(g, {(first_dealer(g) + 1) % 2: QUIET}, {(first_dealer(g) + 1) % 2: QUIET2})
        assert len(st.piles["stock"]) == 2
        do(st, "draw stock")
        me = st.current_player()
        throw = next(n for n in st.legal_action_names() if n.startswith("discard"))
        held = [held_points(st, s) - (abs(points(face_of(throw.split()[1]))) if s == me else 0) for s in range(2)]
        st.apply_name(throw)
        assert st.hand_no == 1, "the next turn finds the pickup pile empty: the round ends"
        res = st.hand_results[0]
        assert res["ended_by"] == "exhausted" and res["went_out"] is None
        assert res["scores"] == ([-held[0], -held[1]] if scoring == "as_it_stands" else [0, 0])


def test_pickup_pile_exhausted_reshuffle_once() -> None:
    """Register pickup-exhausted, ``reshuffle_once``: the discards but the top one become a new pickup pile
    once; when it runs out again the round ends."""
    turns = {}
    for reading in ("end_round", "reshuffle_once"):
        g = game(players=3, extra_decks=0, pickup_exhausted=reading)
        st = g.new_initial_state(seed=4)
        for _ in range(3):
            st.apply_name("choose 1")
        assert len(st.piles["stock"]) == 108 - 78
        n = 0
        while st.hand_no == 0:
            if n == 15 and reading == "reshuffle_once":
                assert len(st.piles["stock"]) == 14 and len(st.piles["discard"]) == 1
            do(st, "draw stock")
            st.apply_name(next(a for a in st.legal_action_names() if a.startswith("discard")))
            n += 1
        turns[reading] = n
    assert turns == {"end_round": 15, "reshuffle_once": 15 + 7}


# --- teams -----------------------------------------------------------------------------------------------


def test_teams_partners_sit_across() -> None:
    """"Then the person across from you is your teammate.(as in, at a circle table.. so if there are 6 people, 1
    and 4 are partners, 2 and 5, and 3 and 6"; "You need an even number of players for teams"."""
    assert game(teams=True).teams == ((0, 2), (1, 3))
    assert game(teams=True, players=6).teams == ((0, 3), (1, 4), (2, 5))
    assert game(teams=True, players=8).teams == ((0, 4), (1, 5), (2, 6), (3, 7))
    assert game(players=6).teams == tuple((s,) for s in range(6))


def test_points_are_for_an_entire_team() -> None:
    """"Points are for an entire team. So you would add all the books and cards laid out, and subtract any cards
    in your hand/foot." """
    g = game(teams=True, books_needed="one_each")
    st, me = quick_until_last(g)
    held = [held_points(st, s) for s in range(4)]
    do(st, "add 4 10")
    res = st.hand_results[0]
    mine, theirs = g.entity_of[me], 1 - g.entity_of[me]
    assert res["scores"][mine] == 800 + QUICK_MELDED - held[(me + 2) % 4]
    assert res["scores"][theirs] == -held[(me + 1) % 4] - held[(me + 3) % 4]
    assert len(res["scores"]) == 2


def test_each_player_must_lay_out_on_their_own_with_distinct_sets() -> None:
    """"Each player must still “lay out” on their own, reaching the set number of points by laying out distinct
    sets." "So, if your partner has 4 Aces, you can’t add 3 aces to it ... You could lay out something else (like
    2 Queens and a Joker), then draw your two cards, then add the aces to your partner’s pile"."""
    g = game(teams=True)
    d = first_dealer(g)
    me, right, partner = (d + 1) % 4, (d + 2) % 4, (d + 3) % 4
    mine = ["AC", "AD", "AH", "AS", *QUIET2[:9]]
    theirs = ["AC", "AD", "AH", "QC", "QD", "JK", "4C", "5C", "6D", "7D", "8H", "9H", "10S"]
    st = start(g, {me: mine, right: QUIET, partner: theirs})
    do(st, "meld A A A", "add 1 A")  # 80: laid out
    do(st, "draw stock")
    st.apply_name(next(n for n in st.legal_action_names() if n.startswith("discard")))
    do(st, "draw stock")
    st.apply_name(next(n for n in st.legal_action_names() if n.startswith("discard")))
    assert st.current_player() == partner
    assert find(st, "add 1 A") is None  # not toward the lay-out
    refused(st, "add 1 A", "you may not simply add on to your partner’s sets")
    do(st, "meld Q Q JK")  # 70: laid out
    assert view(st)["laid_out"] == sorted([me, partner])
    assert find(st, "add 1 A") is None  # a lay-out is of the player's own sets, before drawing
    do(st, "draw stock", "add 1 A", "add 1 A", "add 1 A")
    assert len(sets(st)[0]["cards"]) == 7 and sets(st)[0]["book"] == "clean"


def test_is_it_okay_for_me_to_be_done_answer_readings() -> None:
    """Register partner-answer: "The only “table talk” allowed in the game is when you ask your partner “Is it
    okay for me to be done?”" and "the answer should be a simple yes or no": ``advisory`` (a no binds nothing)
    or ``binding`` (a no keeps the player from going out this turn)."""
    for reading in ("advisory", "binding"):
        g = game(teams=True, books_needed="one_each", partner_answer=reading)
        st, me = quick_until_last(g, keep_two=True)
        assert "ask" in st.legal_action_names()
        do(st, "ask")
        assert st.current_player() == (me + 2) % 4
        assert sorted(st.legal_action_names()) == ["no", "yes"]  # "a simple yes or no"
        do(st, "no")
        assert st.current_player() == me and "ask" not in st.legal_action_names()  # once a turn
        if reading == "advisory":
            do(st, "add 3 J", "add 4 10")
            assert st.hand_no == 1 and st.hand_results[0]["went_out"] == me
        else:
            assert find(st, "add 3 J") is None  # it would leave one card, and no way to keep one
            refused(st, "add 3 J", "Is it okay for me to be done?")
            do(st, "discard JS")
            assert st.hand_no == 0 and st.current_player() == (me + 1) % 4
    g = game(teams=True, books_needed="one_each", partner_answer="binding")
    st, me = quick_until_last(g, keep_two=True)
    do(st, "ask", "yes", "add 3 J", "add 4 10")
    assert st.hand_no == 1


def test_no_question_without_a_partner_and_none_before_drawing() -> None:
    """The question is asked of a partner: never in a game without teams; and only by a player who could be done
    (in the foot, with the books), after drawing."""
    st, _ = quick_until_last(game(), keep_two=True)
    assert "ask" not in st.legal_action_names()
    g = game(teams=True, books_needed="one_each")
    d = first_dealer(g)
    st = g.new_initial_state(seed=0, deals=[quick(g, d, 0)])
    for _ in range(4):
        st.apply_name("choose 1")
    do(st, "meld K K K", *["add 1 K"] * 4, "meld Q Q 2", *["add 2 Q"] * 4)
    assert "ask" not in st.legal_action_names()
    refused(st, "ask", "Is it okay for me to be done?")


def test_round_minimum_meaning_readings() -> None:
    """Register round-minimum-meaning: "In the second round you must have 90 points before you can go out." read
    as the lay-out minimum only (``lay_out``), or also a going-out condition (``lay_out_and_go_out``): a side
    holding its books with 85 points melded may not be done in the second round."""
    hand = ["5C", "5D", "5H", "5S", "5C", "5D", "5H", "6C", "6D", "6H", "6S", "6C", "2C"]
    foot = ["6D", *QUIET[:12]]
    for reading, may in (("lay_out", True), ("lay_out_and_go_out", False)):
        g = game(teams=True, books_needed="one_each", round_minimum=reading)
        st = at_round(g, 1)
        d = st.dealer
        me = (d + 1) % 4
        st = at_round(g, 1, last=deal(g, d, {me: hand}, {me: foot}, ["KC", "KD"], round_index=1))
        for _ in range(4):
            st.apply_name("choose 1")
        do(st, "meld 5 5 5", *["add 1 5"] * 4, "meld 6 6 2", *["add 2 6"] * 4, "draw stock")
        assert [s["book"] for s in sets(st)] == ["clean", "dirty"]
        assert ("ask" in st.legal_action_names()) == may
        assert st.comp.has_books(st, me) == may  # type: ignore[attr-defined]


# --- the match -----------------------------------------------------------------------------------------


def test_first_player_readings() -> None:
    """Register first-player: "Decide in whatever stupid way you’d like who is to go first." ``rotating`` (the
    next round starts to the left) or ``fixed`` (the same player every round)."""
    for reading, step in (("rotating", 1), ("fixed", 0)):
        g = game(first_player=reading)
        d0 = first_dealer(g)
        for rnd in range(4):
            st = at_round(g, rnd)
            for _ in range(4):
                st.apply_name("choose 1")
            assert st.current_player() == (d0 + 1 + step * rnd) % 4, (reading, rnd)


def test_the_highest_total_from_all_4_rounds_wins_ties_readings() -> None:
    """"In the end, the highest total score from all 4 rounds wins." Register final-tie: ``shared_win`` or
    ``extra_hand``. Two players taking turns to go out on the same cards tie after four rounds."""
    for reading in ("shared_win", "extra_hand"):
        g = game(players=2, final_tie=reading)
        st = at_round(g, 3, last=quick(g, (first_dealer(g) + 3) % 2, 3))
        go_out_quickly(st)
        assert st.counters[0] == st.counters[1]
        if reading == "shared_win":
            assert st.is_terminal() and st.winners == (0, 1) and len(st.hand_results) == 4
        else:
            assert not st.is_terminal() and st.hand_no == 4
    g = game(players=3)
    st = at_round(g, 3, last=quick(g, (first_dealer(g) + 3) % 3, 3))
    go_out_quickly(st)
    assert st.is_terminal() and len(st.hand_results) == 4
    twice = (first_dealer(g) + 1) % 3  # went out in rounds one and four
    assert st.winners == (twice,) and st.counters[twice] == max(st.counters)


@pytest.mark.parametrize("opts", [{}, {"players": 2}, {"players": 3}, {"teams": True},
                                  {"teams": True, "players": 6}])
def test_bots_finish_matches_of_four_rounds(opts: dict[str, Any]) -> None:
    """"The full game is made up of 4 rounds": the rule bot and the random bot both finish."""
    g = game(**opts)
    for bot in (rule_bot, random_bot):
        st = g.new_initial_state(seed=11)
        choose = bot(random.Random(11))
        while not st.is_terminal():
            st.apply(choose(st, st.legal_actions()))
        assert len(st.hand_results) >= 4


# --- every scoring row ---------------------------------------------------------------------------------


def table(g: Game, tid: str) -> Any:
    return next(t for t in g.scoring.tables if t.id == tid)


@pytest.mark.parametrize("ended_by", ["went_out", "exhausted"])
def test_scoring_rows_books_500_300_and_wild_books_1500(ended_by: str) -> None:
    """"Clean books are each worth 500 points", "Dirty books are each worth 300 points", wild books "are worth
    1500 points"; a round ended by the empty pickup pile scores as it stands, or nothing (void)."""
    facts = {"clean_books": 2, "dirty_books": 3, "wild_books": 1, "ended_by": ended_by}
    assert table(game(), "books").evaluate(facts) == 2 * 500 + 3 * 300 + 1500
    void = table(game(pickup_exhausted_scoring="void"), "books").evaluate(facts)
    assert void == (0 if ended_by == "exhausted" else 2 * 500 + 3 * 300 + 1500)


@pytest.mark.parametrize("ended_by", ["went_out", "exhausted"])
def test_scoring_rows_cards_laid_count_and_cards_held_count_against(ended_by: str) -> None:
    """"Each card (whether in a finished book or not) counts it’s point value as well" and "All cards still in a
    person’s hand (or in their foot ...) count against your total score" ("it can be negative")."""
    facts = {"melded": 240, "held": 575, "ended_by": ended_by}
    assert table(game(), "cards").evaluate(facts) == 240 - 575
    void = table(game(pickup_exhausted_scoring="void"), "cards").evaluate(facts)
    assert void == (0 if ended_by == "exhausted" else 240 - 575)


def test_scoring_rows_going_out() -> None:
    """Register going-out-bonus: nothing for going out as the text scores it, 100 under the house rule."""
    for reading, bonus in (("none", 0), ("100", 100)):
        t = table(game(going_out_bonus=reading), "going_out")
        assert t.evaluate({"went_out": True}) == bonus and t.evaluate({"went_out": False}) == 0


def test_a_wild_book_counts_toward_neither_kind_of_book() -> None:
    """"They don’t count towards your clean or dirty books, but they are worth 1500 points": a side holding a
    wild book and a clean book lacks the dirty book it needs."""
    g = game(wild_books="allowed")
    d = first_dealer(g)
    me = (d + 1) % 4
    hand = ["2C", "2D", "2H", "2S", "JK", "JK", "2C", "KC", "KD", "KH", "KS", "KC", "KD"]
    st = g.new_initial_state(seed=0, deals=[deal(g, d, {me: hand}, None, ["KH", "5S"])])
    for _ in range(4):
        st.apply_name("choose 1")
    do(st, "meld K K K", *["add 1 K"] * 3, "meld 2 2 2", *["add 2 2"] * 2, *["add 2 JK"] * 2, "draw stock",
       "add 1 K")
    assert [s["book"] for s in sets(st)] == ["clean", "wild"]
    m = st.comp
    assert m.books_of(m._bs(st).melds, g.entity_of[me]) == (1, 0, 1)  # type: ignore[attr-defined]
    assert not m.has_books(st, me)  # type: ignore[attr-defined]


# --- readings added by the clause-by-clause review ---------------------------------------------------


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_jokers_per_deck_readings(jokers: int) -> None:
    """Register jokers-per-deck: "Jokers: Yes", two with each deck (a standard pack), one, or none."""
    g = game(players=4, extra_decks=1, jokers_per_deck=jokers)  # 4 players: 2 decks, and one more
    assert g.deck.size == 3 * (52 + jokers)
    assert sum(1 for n in g.deck.names if n.startswith("JK")) == 3 * jokers


def test_pickup_short_readings() -> None:
    """Register pickup-short: "This person’s turn begins by drawing 2 cards from the pickup pile." With one card
    left (two players, one deck with one joker: 53 cards, 52 dealt), the player draws it (``draw_rest``) or the
    pile counts as empty and the round ends (``as_empty``)."""
    for reading in ("draw_rest", "as_empty"):
        g = game(players=2, extra_decks=0, jokers_per_deck=1, pickup_short=reading)
        st = g.new_initial_state(seed=2)
        st.apply_name("choose 1")
        st.apply_name("choose 1")
        if reading == "draw_rest":
            me = st.current_player()
            do(st, "draw stock")
            assert st.hands[me].bit_count() == 14 and st.piles["stock"] == []
        else:
            assert st.hand_no == 1 and st.hand_results[0]["ended_by"] == "exhausted"


def test_books_count_readings() -> None:
    """Register books-count: "Once a player has all the clean and dirty books they need": the side's books
    (``side``) or only those in sets the player started (``own_sets``)."""
    for reading, partner_may in (("side", True), ("own_sets", False)):
        g = game(teams=True, books_needed="one_each", books_count=reading)
        st, me = quick_until_last(g, keep_two=True)
        m = st.comp
        assert m.has_books(st, me)  # type: ignore[attr-defined]
        assert m.has_books(st, (me + 2) % 4) == partner_may  # type: ignore[attr-defined]
        assert not m.has_books(st, (me + 1) % 4)  # type: ignore[attr-defined]


def test_clean_for_dirty_readings() -> None:
    """Register clean-for-dirty: "With no teams, 1 clean and 1 dirty book needed to win." Two clean books and no
    dirty one go out only when a clean book may stand in for a dirty one (a house rule outside the text)."""
    hand = ["KC", "KD", "KH", "KS", "KC", "KD", "KH", "QC", "QD", "QH", "QS", "QC", "QD"]
    for reading in (False, True):
        g = game(clean_for_dirty=reading)
        d = first_dealer(g)
        st = g.new_initial_state(seed=0, deals=[deal(g, d, {(d + 1) % 4: hand}, {(d + 1) % 4: QUICK_FOOT},
                                                     QUICK_STOCK)])
        for _ in range(4):
            st.apply_name("choose 1")
        do(st, "meld K K K", *["add 1 K"] * 4, "meld Q Q Q", *["add 2 Q"] * 4, "draw stock",
           "meld J J J", "meld 10 10 10", "meld 9 9 9", "meld 8 8 8", "add 3 J", "add 4 10")
        assert (st.hand_no == 1) == reading


def test_ask_when_readings() -> None:
    """Register ask-when: "this question can be asked to make sure that their partner doesn’t have a number of
    high point cards": only when the player could go out now (``could_go_out``), or in any turn after drawing
    (``any_turn``)."""
    for reading in ("could_go_out", "any_turn"):
        st = start(game(teams=True, ask_when=reading), {})
        do(st, "draw stock")
        assert ("ask" in st.legal_action_names()) == (reading == "any_turn")


def test_a_binding_no_never_leaves_the_player_without_a_move() -> None:
    """ask_when=any_turn with a binding answer: a player holding one card may not ask (a no would bar both
    keeping and giving up the last card). Play that asks and answers no whenever it can, melding and adding
    often, always has a legal move until the match ends (before this rule, most such matches got stuck)."""
    g = game(teams=True, ask_when="any_turn", partner_answer="binding")
    for seed in range(6):
        rng = random.Random(seed)
        st = g.new_initial_state(seed)
        for _ in range(20_000):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            assert legal, f"seed {seed}: no legal move for seat {st.cur} after {len(st.history)} actions"
            eager = [a for a in legal if g.action_name(a).startswith(("ask", "no", "meld", "add"))]
            st.apply(rng.choice(eager) if eager and rng.random() < 0.7 else rng.choice(legal))
            if st.history[-1][1] == g.parse_action("ask"):
                assert st.hands[st.history[-1][0]].bit_count() >= 2
        assert st.is_terminal(), f"seed {seed}: unfinished"


def test_teams_need_two_sides() -> None:
    """"You need an even number of players for teams, obviously": two players make one side, no game."""
    from cardspec.engine.errors import SpecError

    with pytest.raises(SpecError, match="four or more"):
        game(players=2, teams=True)
    with pytest.raises(SpecError, match="even number"):
        game(players=5, teams=True)


def test_round_4_foot_readings() -> None:
    """Register round-4-foot: in the fourth round the player looked at both piles and chose the foot ("decide
    which one you want as your foot"); its holder keeps seeing it (``known``) or it is face down again
    (``face_down``). Nobody else sees it either way, and it is taken up when the hand is used up."""
    for reading in ("known", "face_down"):
        g = game(round_4_foot=reading)
        st = at_round(g, 3, last=quick(g, (first_dealer(g) + 3) % 4, 3))
        me = st.current_player()
        for _ in range(4):
            st.apply_name("choose 1")
        assert faces(st, me, "foot_seen") == Counter(QUICK_FOOT) and st.seat_piles["foot"] == [0] * 4
        for seat in range(4):
            z = st.observation(seat)["zones"]["foot_seen"][me]
            assert z["count"] == 13
            assert ("cards_top_first" in z) == (seat == me and reading == "known")
        do(st, "meld K K K", *["add 1 K"] * 4, "meld Q Q 2", *["add 2 Q"] * 3)
        assert faces(st, me) == Counter(QUICK_FOOT) and st.seat_piles["foot_seen"][me] == 0
