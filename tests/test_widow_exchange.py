"""The ``widow_exchange`` component: its clause checks, its schema, and its moves in played matches.

Used by buck-euchre-3p; each bad clause is reported as a SpecError naming the file and the key.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from cardspec.engine.components.widow_exchange import WidowExchange
from cardspec.engine.errors import SpecError
from cardspec.engine.game import Game
from cardspec.engine.loader import spec_schema, validate
from cardspec.engine.spec import Spec, load

Edit = Callable[[dict[str, Any]], None]


def widow(d: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in d["phases"] if p["component"] == "widow_exchange")


def build(edit: Edit) -> Game:
    base = load("buck-euchre-3p")
    data = copy.deepcopy(base.data)
    edit(data)
    return Game(Spec(data, base.file, base.loaded))


def two_players(d: dict[str, Any]) -> None:
    """Two players: the dealer's right and left are one seat (the widow and a spare pile take the rest)."""
    d["players"]["count"] = 2
    d["deal"]["undealt"] = [{"pile": "widow", "count": 5}, {"pile": "spare", "count": "rest"}]


def small_widow(d: dict[str, Any]) -> None:
    d["deal"]["undealt"] = [{"pile": "widow", "count": 4}, {"pile": "spare", "count": "rest"}]


@pytest.mark.parametrize(("edit", "message", "key"), [
    (lambda d: widow(d).update(order=["dealer", "dealer"]),
     "order must list distinct positions of ['right_of_dealer', 'dealer', 'left_of_dealer'], got ['dealer', 'dealer']",
     "phases.0.order"),
    (lambda d: widow(d).update(order=["across"]),
     "order must list distinct positions of ['right_of_dealer', 'dealer', 'left_of_dealer'], got ['across']",
     "phases.0.order"),
    (lambda d: widow(d).update(limit="two"), "limit must be one of ['one', 'any'], got 'two'", "phases.0.limit"),
    (small_widow, "pile 'widow' must be an undealt pile of a hand's size (5 cards), got 4", "phases.0.pile"),
    (lambda d: widow(d).update(pile="spare"), "pile 'spare' must be an undealt pile of a hand's size (5 cards), got 4",
     "phases.0.pile"),
    (two_players, "order names 3 distinct seats but the game has 2 players", "phases.0.order"),
], ids=["repeated seat", "unknown seat", "limit", "widow too small", "wrong pile", "two players"])
def test_bad_clause_names_file_and_key(edit: Edit, message: str, key: str) -> None:
    base = load("buck-euchre-3p")
    with pytest.raises(SpecError) as err:
        build(edit)
    assert err.value.detail == message
    assert err.value.key == key
    assert err.value.file == base.file


def test_schema_rejects_unknown_keys_and_values() -> None:
    """The schema knows the component: an unknown key or position is refused before anything is built."""
    base = load("buck-euchre-3p")
    validate(base.data, spec_schema(), None, base.file)  # the spec itself is valid
    for edit in (lambda d: widow(d).update(visible=True), lambda d: widow(d).update(order=["north"])):
        data = copy.deepcopy(base.data)
        edit(data)
        with pytest.raises(SpecError):
            validate(data, spec_schema(), None, base.file)


def test_played_matches_every_exchange_is_a_whole_hand_swap() -> None:
    """In random matches every exchange swaps the mover's five cards with the widow's five, once a hand
    (decision one), and at most three answers are given a hand."""
    g = Game.from_system("buck-euchre-3p")
    comp = next(p for p in g.phases if isinstance(p, WidowExchange))
    rng = random.Random(5)
    for seed in range(3):
        st = g.new_initial_state(seed)
        answers = 0
        for _ in range(400):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            a = legal[rng.randrange(len(legal))]
            if st.comp is comp:
                answers += 1
                seat, hand, pile = st.cur, st.hands[st.cur], sum(1 << c for c in st.piles["widow"])
                st.apply(a)
                if g.codec.kind(a) == "exchange":
                    assert st.hands[seat] == pile and sum(1 << c for c in st.piles["widow"]) == hand
                    assert answers <= 3
                continue
            if answers:
                assert answers <= 3
                answers = 0
            st.apply(a)


@pytest.mark.pure_only  # doctest reads the module's Python functions
def test_docstring_examples() -> None:
    import doctest

    from cardspec.engine.components import widow_exchange

    result = doctest.testmod(widow_exchange)
    assert result.attempted > 0 and result.failed == 0
