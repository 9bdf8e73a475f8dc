"""The replay's fast paths decide exactly as the slow ones (issue 9: one-hand records audited faster).

The quick schema check (jsonschema-rs) may pass only what the schema accepts; an explicit deal read at C speed gives the
slow path's errors; the unseen cards' kept places agree with :func:`locate`; the matching of unseen cards
to places is the augmenting-path search over slots it always was (its placement is played out, so results
such as ``hands_shown`` depend on it).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_partial_records import hide_kitty, one_hand

from cardspec.engine import record, unseen
from cardspec.engine.audit import audit
from cardspec.engine.errors import RecordError
from cardspec.engine.loader import quick_gate, record_schema, spec_schema
from cardspec.engine.state import State
from cardspec.engine.unseen import Place, Unseen, locate

ITEM_VALUES: list[Any] = [None, True, False, 0, 15, 16, -1, 2.0, 2.5, "", "x" * 64, "x" * 65, "pass", [], {}]


def test_a_valid_record_takes_the_quick_check() -> None:
    assert quick_gate(record_schema())(one_hand(1))
    assert quick_gate(record_schema())(hide_kitty(one_hand(2)))


def test_the_quick_check_passes_only_what_the_schema_accepts() -> None:
    """Mutations of the action items, which the quick check tests itself, and of the rest."""
    validator = jsonschema.Draft202012Validator(record_schema())
    rng = random.Random(5)
    base = one_hand(4)
    passed = failed = 0
    for _ in range(600):
        rec = copy.deepcopy(base)
        step = rng.choice(rec["actions"])
        x = rng.random()
        if x < 0.1:
            del step[rng.choice(["seat", "action"])]
        elif x < 0.2:
            step["extra"] = 1
        elif x < 0.3:
            rec["actions"][rec["actions"].index(step)] = rng.choice(ITEM_VALUES)
        elif x < 0.9:
            step[rng.choice(["seat", "action"])] = rng.choice(ITEM_VALUES)
        else:
            rec[rng.choice(["seed", "scope", "options", "deals"])] = rng.choice(ITEM_VALUES)
        valid = validator.is_valid(rec)
        if quick_gate(record_schema())(rec):
            assert valid, rec
            passed += 1
        else:
            failed += 1
        try:
            record._validate(rec, "")
        except RecordError:
            assert not valid
        else:
            assert valid
    assert passed > 50 and failed > 300


def test_the_spec_schemas_quick_gate_passes_only_what_jsonschema_accepts() -> None:
    """``Game`` checks the rules an option set resolves to against the spec schema, through the same gate:
    mutations of every bundled spec's rules (a key dropped or added, a value of another kind, an id
    with a trailing newline) pass it only where jsonschema accepts them, and every bundled spec passes."""
    from cardspec.engine.spec import available, load

    validator = jsonschema.Draft202012Validator(spec_schema())
    gate = quick_gate(spec_schema())
    rng = random.Random(7)
    passed = failed = 0
    for sid in available():
        data = load(sid).data
        assert gate(data), sid
        for _ in range(40):
            rec = copy.deepcopy(data)
            node: Any = rec
            while isinstance(node, (dict, list)) and node and rng.random() < 0.7:
                inner = node[rng.choice(list(node))] if isinstance(node, dict) else rng.choice(node)
                if not isinstance(inner, (dict, list)) or not inner:
                    break
                node = inner
            if isinstance(node, dict) and node:
                key = rng.choice(list(node))
                x = rng.random()
                if x < 0.25:
                    del node[key]
                elif x < 0.4:
                    node["unexpected_key"] = 1
                elif x < 0.55 and isinstance(node[key], str):
                    node[key] += "\n"
                else:
                    node[key] = rng.choice(ITEM_VALUES)
            elif isinstance(node, list) and node:
                node[rng.randrange(len(node))] = rng.choice(ITEM_VALUES)
            if gate(rec):
                assert validator.is_valid(rec), (sid, rec)
                passed += 1
            else:
                failed += 1
    assert passed > 20 and failed > 200, (passed, failed)


def test_a_seat_written_2_0_passes_the_schema_but_not_the_replay() -> None:
    """JSON Schema counts a number with a zero fraction as an integer; the replay does not (a seat is an
    integer, as an option value is): the record is malformed, naming the first such seat."""
    rec = one_hand(6)
    for step in rec["actions"]:
        step["seat"] = float(step["seat"])
    assert quick_gate(record_schema())(rec)
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None and v.error.path == "actions.0.seat"


def test_the_quick_check_reads_only_json_data() -> None:
    """A dict key that is not a string (only a caller of the Python API can write one) is left to the slower
    checks, which decide as they always did."""
    rec = one_hand(9)
    rec["options"] = {1: 2}
    assert not quick_gate(record_schema())(rec)


def test_a_sha256_with_a_trailing_newline_is_named() -> None:
    """Python's ``$`` matches before a final newline, the schema's own regex dialect does not: the length bound
    makes every validator refuse it, with a message naming the field."""
    rec = one_hand(10)
    rec["spec_sha256"] = "a" * 64 + "\n"
    with pytest.raises(RecordError) as exc:
        record._validate(rec, "")
    assert exc.value.path == "spec_sha256" and "long" in str(exc.value)


@pytest.mark.parametrize(("change", "message", "path"), [
    (lambda h: h.__setitem__(0, h[1]), "appears more often", "deals.0.hands.1.1"),
    (lambda h: h.__setitem__(2, ["JD"]), "is not a card name", "deals.0.hands.1.2"),
    (lambda h: h.__setitem__(4, "ZZ"), "is not a card of this deck", "deals.0.hands.1.4"),
])
def test_a_deal_read_at_c_speed_gives_the_slow_paths_errors(change: Any, message: str, path: str) -> None:
    rec = one_hand(7)
    deals = copy.deepcopy(rec["deals"])
    change(deals[0]["hands"][1])
    with pytest.raises(RecordError, match=message) as exc:  # the engine's API: no schema first
        record.game_for(rec).new_initial_state(None, deals, None, 1)
    assert exc.value.path == path


def test_a_card_spelt_otherwise_is_read_by_the_slow_path() -> None:
    rec = one_hand(8)
    hand = rec["deals"][0]["hands"][2]
    hand[:] = [f" {c.lower()} " for c in hand]
    assert audit("t: ", rec).verdict == "accepted"


@pytest.mark.pure_only  # it watches Unseen by patching its methods
def test_the_kept_places_of_unseen_cards_agree_with_locate(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = 0

    def checking(method: Any) -> Any:
        def run(self: Unseen, st: State, *args: Any) -> None:
            nonlocal checked
            method(self, st, *args)
            if st.unseen is self:
                assert unseen._cards_at(self._where(st)) == locate(st, self.cards)
                checked += 1
        return run

    monkeypatch.setattr(Unseen, "play", checking(Unseen.play))
    monkeypatch.setattr(Unseen, "play_hidden", checking(Unseen.play_hidden))
    for seed in range(40):
        assert audit("t: ", hide_kitty(one_hand(seed))).verdict == "accepted"
    assert checked > 500


def _reference_matching(u: Unseen, where: dict[int, Place]) -> dict[int, Place] | None:
    """The matching as first written: every slot tried in order for every card."""
    cap: dict[Place, int] = {}
    for c in u.cards:
        cap[where[c]] = cap.get(where[c], 0) + 1
    slots = [p for p in sorted(cap) for _ in range(cap[p])]
    owner: list[int | None] = [None] * len(slots)

    def augment(c: int, seen: set[int]) -> bool:
        for i, p in enumerate(slots):
            if p in u.allowed[c] and i not in seen:
                seen.add(i)
                o = owner[i]
                if o is None or augment(o, seen):
                    owner[i] = c
                    return True
        return False

    for c in sorted(u.cards, key=lambda c: (len(u.allowed[c]), c)):
        if not augment(c, set()):
            return None
    return {c: slots[i] for i, c in enumerate(owner) if c is not None}


def test_the_matching_is_the_one_it_always_was() -> None:
    rng = random.Random(3)
    places: list[Place] = [("hand", 0), ("hand", 1), ("hand", 2), ("kitty", -1), ("won", 1)]
    found = 0
    for _ in range(3000):
        cards = rng.sample(range(24), rng.randint(1, 9))
        where = {c: rng.choice(places) for c in cards}
        allowed = {c: set(rng.sample(places, rng.randint(1, 3))) | ({where[c]} if rng.random() < 0.5 else set())
                   for c in cards}
        u = Unseen(set(cards), allowed)
        want = _reference_matching(u, where)
        assert unseen._matching(u, where) == want
        found += want is not None
    assert 300 < found < 2700


@pytest.mark.pure_only  # it turns the gate off by patching a function the compiled record module binds
def test_without_the_quick_gate_the_verdicts_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where jsonschema-rs is not installed the gate passes nothing, and fastjsonschema and jsonschema decide
    alone: the same verdicts on good records and on mutated ones."""
    recs = [one_hand(11), hide_kitty(one_hand(12))]
    bad = copy.deepcopy(recs[0])
    bad["actions"][3]["seat"] = "2"
    with_gate = [audit("t: ", r).verdict for r in [*recs, bad]]
    monkeypatch.setattr(record, "quick_gate", lambda schema: (lambda rec: False))
    assert [audit("t: ", r).verdict for r in [*recs, bad]] == with_gate == ["accepted", "accepted", "malformed"]


def _standard(text: str) -> str:
    """What the standard parser, reading key by key, makes of a text: the value's repr, or the error's."""
    try:
        return repr(json.loads(text, object_pairs_hook=record._no_duplicates))
    except (ValueError, RecursionError) as exc:
        return f"{type(exc).__name__}: {exc}"


def _quick(text: str) -> str:
    try:
        return repr(record._loads(text))
    except (ValueError, RecursionError) as exc:
        return f"{type(exc).__name__}: {exc}"


QUICK_PARSE_CASES = [
    '{"a":1,"a":2}', '{"a":{"b":1,"b":1}}', '[{"x":"a:b","y":1}]', '{"x":"a:b","x":1}', '{"x":"a:b"}',
    "[]", "{}", "3", "3.5", '"a:b"', "2.0", '{"seat":2.0}', '{"a":NaN}', "Infinity", "1e400", "-0", "-0.0",
    '{"seed":123456789012345678901234567890}', "[-123456789012345678901234567890]", "18446744073709551616",
    '"\\ud800"', '{"a":"\\udc80"}', "[" * 1100 + "]" * 1100, "[" * 5000 + "]" * 5000, '{"a":1', "{}x", "",
    '{"a" : 1, "b" :{"a":[1,{"c":[]}]}}', '{"k":1,"k":1}', '[{"a":1},{"a":1}]',
]


@pytest.mark.parametrize("text", QUICK_PARSE_CASES)
def test_the_quick_json_parse_reads_as_the_standard_one(text: str) -> None:
    """orjson first, then a count of keys against colons: the same values (an integer past 64 bits stays
    whole, 2.0 stays a float), the same duplicate-key errors, the standard parser's message on bad JSON."""
    assert _quick(text) == _standard(text)


def _dumps_doubling(value: Any, target: int, seen: list[int]) -> str:
    """``value`` as JSON, its ``target``-th non-empty object (counted in writing order) with its first key
    written twice more before it."""
    if isinstance(value, list):
        return "[" + ", ".join(_dumps_doubling(v, target, seen) for v in value) + "]"
    if isinstance(value, dict):
        parts = [f"{json.dumps(k)}: {_dumps_doubling(v, target, seen)}" for k, v in value.items()]
        if value:
            seen[0] += 1
            if seen[0] == target:
                first = json.dumps(next(iter(value)))
                parts[:0] = [f"{first}: 0", f"{first}: 1"]
        return "{" + ", ".join(parts) + "}"
    return json.dumps(value)


@pytest.mark.pure_only  # it replaces a module function, which a compiled module has bound
@pytest.mark.parametrize("text", QUICK_PARSE_CASES)
def test_without_orjson_the_standard_parser_reads_alone(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where orjson has no wheel the standard parser is the quick one too: the same values and errors."""
    monkeypatch.setattr(record, "_quick_loads", lambda: json.loads)
    assert _quick(text) == _standard(text)
    got = record._record_or_error(text.encode(), "f:1")  # a line of a file, as bytes
    standard = _standard(text)
    if isinstance(got, RecordError):
        assert standard.startswith(("ValueError", "JSONDecodeError", "RecursionError")), standard
    else:
        assert repr(got) == standard


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
                    max_leaves=20), st.integers(1, 6))
def test_the_quick_json_parse_finds_every_repeated_key(value: Any, target: int) -> None:
    """Any JSON value, written out, reads as the standard parser reads it; and with one object's first key
    written twice more (the text then repeats a key), the same error."""
    text = json.dumps(value)
    assert _quick(text) == _standard(text)
    seen = [0]
    doubled = _dumps_doubling(value, target, seen)
    assert _quick(doubled) == _standard(doubled)
    if seen[0] >= target:
        assert "duplicate key" in _quick(doubled)


def test_a_pile_or_hand_naming_a_card_twice_is_named() -> None:
    """The sum of a list's bits carries when a card repeats: the card-by-card reading names where."""
    rec = one_hand(9)
    for change, path in [
        (lambda d: d["piles"]["kitty"].__setitem__(1, d["piles"]["kitty"][0]), "deals.0.piles.kitty.1"),
        (lambda d: d["piles"]["kitty"].__setitem__(0, d["hands"][3][4]), "deals.0.piles.kitty.0"),
        (lambda d: d["hands"][2].__setitem__(3, d["hands"][2][0]), "deals.0.hands.2.3"),
        (lambda d: d["hands"][1].__setitem__(0, d["hands"][0][4]), "deals.0.hands.1.0"),
    ]:
        deals = copy.deepcopy(rec["deals"])
        change(deals[0])
        with pytest.raises(RecordError, match="appears more often") as exc:
            record.game_for(rec).new_initial_state(None, deals, None, 1)
        assert exc.value.path == path


def test_options_in_another_order_are_the_same_game() -> None:
    """Records' Games are kept by their options as written; written in another order, or 1 for true, they
    are told apart by value, never confused."""
    rec = one_hand(10)
    flipped = dict(rec, options=dict(reversed(list(rec["options"].items()))))
    assert record.game_for(flipped).options == record.game_for(rec).options
    assert audit("t: ", flipped).verdict == "accepted"
    as_int = dict(rec, options=dict(rec["options"], going_alone=1))
    assert audit("t: ", as_int).verdict == "malformed"
