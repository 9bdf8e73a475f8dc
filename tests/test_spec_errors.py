"""Every semantic check a component makes on its clause, with the exact error it gives.

The schema catches malformed specs; these checks catch well-formed ones whose parts do
not fit together (or that an option map bends out of shape). Each case edits a real
spec in memory, builds the game without the schema (so the component's own check is
the one that fires) and pins the message and the key it names.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardspec.engine.errors import SpecError
from cardspec.engine.game import Game
from cardspec.engine.spec import Spec, load

Edit = Callable[[dict[str, Any]], None]


def phase(d: dict[str, Any], component: str) -> dict[str, Any]:
    return next(p for p in d["phases"] if p["component"] == component)


def table(d: dict[str, Any], i: int = 0) -> dict[str, Any]:
    t: dict[str, Any] = d["scoring"]["tables"][i]
    return t


CASES: list[tuple[str, str, Edit, str, str]] = [
    # (system, case, edit, exact message, key)
    ("euchre", "two piles share a name",
     lambda d: d["deal"]["undealt"].append({"pile": "kitty", "count": 0}),
     "two undealt piles share a name", "deal.undealt"),
    ("riding-the-bus", "two rest piles",
     lambda d: d["deal"]["undealt"].append({"pile": "more", "count": "rest"}),
     "at most one pile may take the rest", "deal.undealt"),
    ("euchre", "deal short of the deck", lambda d: d["deal"]["undealt"][0].update(count=3),
     "the deal uses 23 cards but the deck has 24", "deal"),
    ("euchre", "deal beyond the deck", lambda d: d["deal"].update(hand_size=6),
     "the deal uses 28 cards but the deck has 24", "deal"),
    ("bird-dog-11", "declarations who", lambda d: phase(d, "declarations").update(who="everyone"),
     "who must be one of ['maker', 'all', 'not_declarer', 'defenders'], got 'everyone'", "phases.1.who"),
    ("bird-dog-11", "declarations limit", lambda d: phase(d, "declarations").update(limit="two"),
     "limit must be one of ['any', 'one'], got 'two'", "phases.1.limit"),
    ("euchre", "declarations enabled", lambda d: phase(d, "declarations").update(enabled="yes"),
     "enabled must be true or false", "phases.2.enabled"),
    ("riding-the-bus", "knock first turn", lambda d: phase(d, "draw_discard")["knock"].update(first_turn="x"),
     "knock.first_turn must be allowed or forbidden", "phases.0.knock.first_turn"),
    ("riding-the-bus", "stock exhausted", lambda d: phase(d, "draw_discard").update(stock_exhausted="x"),
     "stock_exhausted must be reshuffle or end_round", "phases.0.stock_exhausted"),
    ("riding-the-bus", "discard drawn", lambda d: phase(d, "draw_discard").update(discard_drawn="x"),
     "discard_drawn must be allowed or forbidden", "phases.0.discard_drawn"),
    ("riding-the-bus", "no hand value", lambda d: d.pop("hand_value"),
     "a draw_discard phase needs a hand_value or a melding clause", "phases.0"),
    ("riding-the-bus", "stock not dealt", lambda d: phase(d, "draw_discard").update(stock="pickup"),
     "phase 'turns' uses zone 'pickup', which the zones clause does not declare", "zones"),
    ("riding-the-bus", "take count", lambda d: phase(d, "draw_discard")["take_several"].update(count=2),
     "take_several.count must equal the hand size (the whole hand is exchanged)", "phases.0.take_several"),
    ("euchre", "tricks without ranking", lambda d: d.pop("ranking"),
     "a tricks phase needs a ranking clause", "phases.4"),
    ("euchre", "more tricks than cards", lambda d: phase(d, "tricks").update(tricks=6),
     "6 tricks but hands hold 5 cards", "phases.4.tricks"),
    ("euchre", "all pass", lambda d: phase(d, "turn_up_trump").update(all_pass="shrug"),
     "all_pass must be dealer_must_name, redeal, turn_up_fixed, up_card_fixed or no_trump, got 'shrug'",
     "phases.0.all_pass"),
    ("euchre", "accept round without turn-up", lambda d: phase(d, "turn_up_trump")["rounds"][0].pop("turn_up"),
     "an accept_turn_up round needs turn_up and action", "phases.0.rounds.0"),
    ("euchre", "turn-up pile not dealt", lambda d: phase(d, "turn_up_trump").update(pile="widow"),
     "phase 'calling' uses zone 'widow', which the zones clause does not declare", "zones"),
    ("bird-dog-11", "turn-up beyond the pile",
     lambda d: phase(d, "turn_up_trump")["rounds"][1].update(turn_up=2),
     "turn-up 3 needs more than the 3 cards of 'undealt'", "phases.0"),
    ("euchre", "trade ranks", lambda d: phase(d, "pile_trade").update(ranks=["8"]),
     "trade ranks ['8'] are not in the deck", "phases.1.ranks"),
    ("euchre", "trade host", lambda d: phase(d, "pile_trade").update(also_on_turns_of="play"),
     "also_on_turns_of names 'play', which is no earlier phase that offers actions on its turns "
     "(a turn_up_trump phase does)", "phases.1.also_on_turns_of"),
    ("euchre", "trade scope", lambda d: phase(d, "pile_trade").update(scope="week"),
     "scope must be turn or hand, got 'week'", "phases.1.scope"),
    ("euchre", "match counter", lambda d: d["match"]["end"].update(counter="goals"),
     "match counter 'goals' is not the scoring counter 'points'", "match.end.counter"),
    ("euchre", "target missing", lambda d: d["match"]["end"].pop("target"),
     "a target end needs a target", "match.end"),
    ("riding-the-bus", "limit missing", lambda d: d["match"]["end"].update(limit="three"),
     "an elimination end needs an integer limit", "match.end.limit"),
    ("euchre", "rotation", lambda d: d["match"].update(rotation="up"),
     "rotation must be left, right, none or loser", "match.rotation"),
    ("bird-dog-11", "extra hand among", lambda d: d["match"]["end"].update(extra_hand_among="third"),
     "extra_hand_among must be all or tied", "match.end.extra_hand_among"),
    ("riding-the-bus", "all out", lambda d: d["match"]["end"].update(all_out="coin"),
     "all_out must be shared_win, replay_round or fewest_strikes", "match.end.all_out"),
    ("bird-dog-11", "simultaneous", lambda d: d["match"]["end"].update(simultaneous="both"),
     "simultaneous must be extra_hand, highest, furthest, shared_win or maker_first", "match.end.simultaneous"),
    ("bird-dog-11", "pair ranks", lambda d: d["scoring"]["pairs"].update(ranks=["J", "X"]),
     "pair ranks ['X'] are not in the deck", "scoring.pairs"),
    ("euchre", "unknown fact", lambda d: table(d)["inputs"].update(luck={"type": "bool"}),
     "table input 'luck' is not a fact of this game; known: alone, alone_against, defend_alone, "
     "defend_alone_against, maker, tricks, trump_made",
     "scoring.tables.0.inputs"),
    ("euchre", "narrow input",
     lambda d: (table(d)["inputs"]["tricks"].update(max=4), table(d).update(rows=table(d)["rows"][-1:])),
     "table input 'tricks' omits reachable values [5]", "scoring.tables.0.inputs.tricks"),
    ("euchre", "linear on a bool", lambda d: table(d)["rows"][0].update(then={"per": {"maker": 1}}),
     "linear term on 'maker', which is not an integer fact", "scoring.tables.0"),
    ("riding-the-bus", "hand value rank", lambda d: d["hand_value"]["values"].update(Z=1),
     "hand_value.values names ranks ['Z'] not in the deck", "hand_value.values"),
    ("riding-the-bus", "quarter point", lambda d: d["hand_value"]["values"].update(A=11.25),
     "value 11.25 is not a multiple of 0.5", "hand_value.values"),
    ("riding-the-bus", "negative value", lambda d: d["hand_value"]["values"].update(A=-1),
     "value -1 is negative", "hand_value.values"),
    ("riding-the-bus", "set value", lambda d: d["hand_value"]["sets"].update(value=30.1),
     "value 30.1 is not a multiple of 0.5", "hand_value.sets"),
    ("euchre", "int input range", lambda d: table(d)["inputs"]["tricks"].update(min=6),
     "int input 'tricks' needs min <= max (at most 10000 apart)", "scoring.tables.0.inputs.tricks"),
    ("bird-dog-11", "enum without values", lambda d: table(d, 2)["inputs"]["nil"].update(values=[]),
     "enum input 'nil' needs values", "scoring.tables.2.inputs.nil"),
    ("euchre", "int condition shape", lambda d: table(d)["rows"][0]["when"].update(tricks=[3, 4, 5]),
     "int condition on 'tricks' must be [lo, hi]", "scoring.tables.0.rows.0.when.tricks"),
    ("euchre", "condition outside the domain", lambda d: table(d)["rows"][0]["when"].update(tricks=9),
     "condition 9 on 'tricks' is outside its domain [0, 1, 2, 3, 4, 5]",
     "scoring.tables.0.rows.0.when.tricks"),
    ("euchre", "condition of the wrong type", lambda d: table(d)["rows"][0]["when"].update(maker="yes"),
     "condition 'yes' on 'maker' is outside its domain [False, True]",
     "scoring.tables.0.rows.0.when.maker"),
    ("euchre", "condition on a non-input", lambda d: table(d)["rows"][0]["when"].update(luck=True),
     "condition on 'luck', which is not an input of table 'hand_points'",
     "scoring.tables.0.rows.0.when.luck"),
    ("euchre", "row output", lambda d: table(d)["rows"][0].update(then="one"),
     "row output must be an int or {add, per}, got 'one'", "scoring.tables.0.rows.0.then"),
    ("euchre", "players", lambda d: d["players"].update(count=1),
     "players.count must be an integer 2..16, got 1", "players.count"),
    ("euchre", "partnerships", lambda d: d["players"].update(partnerships=[[0, 2], [1, 2]]),
     "partnerships must name every seat exactly once", "players.partnerships"),
    ("euchre", "ranking ranks", lambda d: d["ranking"].update(plain=["9", "10", "J", "Q", "K", "A", "2"]),
     "ranks ['2'] are not in the deck", "ranking.plain"),
    ("euchre", "bower rank", lambda d: d["ranking"].update(bowers={"rank": "Z"}),
     "ranks ['Z'] are not in the deck", "ranking.bowers"),
    # hand-and-foot: the passing table must cover every round and player count exactly once
    ("hand-and-foot", "passing gap", lambda d: phase(d, "pile_deal")["passing"].pop(1),
     "no passing row covers round 2 with 4 players", "phases.0.passing"),
    ("hand-and-foot", "passing overlap",
     lambda d: phase(d, "pile_deal")["passing"].append(dict(phase(d, "pile_deal")["passing"][0], players=[8, 9])),
     "2 passing rows cover round 1 with 8 players", "phases.0.passing"),
    ("hand-and-foot", "passing offsets",
     lambda d: phase(d, "pile_deal")["passing"][0].update(to=[1]),
     "passing row 1 gives 1 offsets for 2 piles", "phases.0.passing.0.to"),
    ("hand-and-foot", "piles with a hand dealt", lambda d: d["deal"].update(hand_size=1),
     "with a pile_deal phase the deal clause deals no hands (hand_size: 0)", "phases.0"),
    ("hand-and-foot", "piles beyond the stock", lambda d: phase(d, "pile_deal").update(size=60),
     "the 'stock' pile holds fewer than the 480 cards the players deal", "phases.0.size"),
    ("hand-and-foot", "wild rank", lambda d: phase(d, "book_melding")["sets"]["wild"].update(ranks=["1"]),
     "rank '1' is not in the deck", "phases.1.sets"),
    ("hand-and-foot", "card values", lambda d: phase(d, "book_melding")["values"].pop("JK"),
     "values gives no points for 'JK#1'", "phases.1.values"),
    ("hand-and-foot", "book points", lambda d: phase(d, "book_melding")["books"]["points"].pop("wild"),
     "books.points needs 'wild'", "phases.1.books.points"),
    ("hand-and-foot", "lay-out timing", lambda d: phase(d, "book_melding")["lay_out"].update(timing="later"),
     "lay_out.timing must be before_draw or any_time", "phases.1.lay_out.timing"),
    ("hand-and-foot", "take pile", lambda d: phase(d, "book_melding").update(take_pile="some"),
     "take_pile must be any, top_usable or never", "phases.1.take_pile"),
    ("hand-and-foot", "partners opposite, odd count",
     lambda d: d["players"].update(count=5, partnerships="opposite"),
     "partners sitting opposite need an even number of players, four or more (two sides at least), not 5",
     "players.partnerships"),
    ("hand-and-foot", "partners opposite, one side",
     lambda d: d["players"].update(count=2, partnerships="opposite"),
     "partners sitting opposite need an even number of players, four or more (two sides at least), not 2",
     "players.partnerships"),
]


@pytest.mark.parametrize("system, case, edit, message, key", CASES, ids=[c[1] for c in CASES])
def test_semantic_check(system: str, case: str, edit: Edit, message: str, key: str) -> None:
    base = load(system)
    data = copy.deepcopy(base.data)
    edit(data)
    with pytest.raises(SpecError) as err:
        Game(Spec(data, base.file, base.loaded))
    assert err.value.detail == message
    assert err.value.key == key
    assert err.value.file == base.file
    assert str(err.value).startswith(base.file)


def test_an_option_map_that_bends_a_clause_is_reported_with_the_options() -> None:
    """A resolved option set is validated again: a map giving a bad value names the option set."""
    base = load("euchre")
    data = copy.deepcopy(base.data)
    phase(data, "turn_up_trump")["all_pass"] = {"$option": "all_pass", "map": {"dealer_must_name": "dealer_must_name",
                                                                               "redeal": 7}}
    Game(Spec(data, base.file, base.loaded))  # the default reading is fine
    with pytest.raises(SpecError) as err:
        Game(Spec(data, base.file, base.loaded), {"all_pass": "redeal"})
    assert err.value.detail.startswith("with options all_pass=redeal:") and "7" in err.value.detail
    assert err.value.key == "phases.0.all_pass"


def test_a_clause_that_the_chosen_options_break_names_those_options() -> None:
    """Partners sitting opposite need an even number of players: three players in teams is the options' fault,
    and the error names the options set away from their defaults (not the others), with the clause's key."""
    base = load("hand-and-foot")
    with pytest.raises(SpecError) as err:
        Game(base, {"teams": True, "players": 3})
    assert err.value.detail.startswith("with options ") and "teams=true" in err.value.detail
    assert "players=3" in err.value.detail and "extra_decks" not in err.value.detail
    assert err.value.key == "players.partnerships"
    with pytest.raises(SpecError) as plain:  # the same clause broken by the spec itself: no options named
        data = copy.deepcopy(base.data)
        data["players"]["partnerships"] = "opposite"
        data["players"]["count"] = 3
        Game(Spec(data, base.file, base.loaded))
    assert not plain.value.detail.startswith("with options") and plain.value.key == "players.partnerships"


@pytest.mark.parametrize(("extra", "message"), [
    ("{seats: 3}", "check: option set 6 names 'seats', which is not a declared option"),
    ("{players: 9}", "check: option set 6: "),
])
def test_the_check_clause_names_declared_options_and_values(tmp_path: Path, extra: str, message: str) -> None:
    """The option sets a spec's ``check`` clause names are validated on load, with the line of the clause."""
    base = load("hand-and-foot")
    text = Path(base.file).read_text(encoding="utf-8")
    old = "option_sets: [{players: 2}, {players: 3}, {}, {teams: true}, {players: 6, teams: true}]"
    assert old in text
    bad = tmp_path / "hf.yaml"
    bad.write_text(text.replace(old, old[:-1] + ", " + extra + "]"), encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load(str(bad))
    assert err.value.detail.startswith(message) and err.value.key == "check.option_sets.5"
    assert err.value.line == text[:text.index(old)].count("\n") + 1
