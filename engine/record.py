"""Game records: a documented JSON form of a whole match, written and replayed.

A record holds the system, every option value, the seed and/or explicit deals,
every action in order with its seat, and optionally the results (per hand:
dealer, trump, maker, trick winners, scores, running totals; the winners).
Replaying checks every action against the rules and every stated result
against the engine, and names the first that does not match: its action index
or result path, and the clause it breaks. ``spec/schema/record.schema.json``
is the schema; ``docs/records.md`` documents it.

Records serialise canonically (sorted keys, no spaces), so the same system,
options and seed give the same bytes.
"""

from __future__ import annotations

import itertools
import json
import re
import reprlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema

from .cards import Card, CardMask
from .errors import ActionError, CardspecError, IllegalActionError, OptionError, RecordError, SpecError
from .loader import MAX_SCHEMA_ERRORS, record_schema, unexpected_key
from .options import parse_value

if TYPE_CHECKING:
    from .game import Game
    from .state import State

FORMAT = "cardspec-record/1"
MAX_RECORD_BYTES = 5_000_000
_CHUNK = 1 << 18
_NON_SPACE = re.compile(rb"[^ \t\r\n]")
_BOM = b"\xef\xbb\xbf"
RESULT_FIELDS = ("dealer", "trump", "maker", "thrown_in", "trick_winners", "scores", "totals", "ended_by")


def explicit_deal(st: State, d: Mapping[str, Any], seats: Sequence[int]
                  ) -> tuple[list[CardMask], dict[str, list[Card]]]:
    """Hands and piles from an explicit deal; every card exactly once, sizes checked."""
    g = st.game
    deck = g.deck
    where = f"deals.{st.hand_no}"
    if d.get("dealer", st.dealer) != st.dealer:
        raise RecordError(f"dealer {d.get('dealer')} but the rotation gives {st.dealer}",
                          path=f"{where}.dealer")
    free: dict[str, list[Card]] = {}
    for c in range(deck.size):
        free.setdefault(deck.names[c], []).append(c)

    def take(name: Any, path: str) -> Card:
        if not isinstance(name, str):
            raise RecordError(f"card {name!r} is not a card name", path=path)
        key = name.strip().upper()
        if key not in free:
            raise RecordError(f"'{name}' is not a card of this deck", path=path)
        if not free[key]:
            raise RecordError(f"'{name}' appears more often than the deck holds it", path=path)
        return free[key].pop(0)

    hands_in = d.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != g.num_players:
        raise RecordError(f"hands must list {g.num_players} hands, one per seat", path=f"{where}.hands")
    hands = [0] * g.num_players
    for s, h in enumerate(hands_in):
        want = g.deal.hand_size if s in seats else 0
        if not isinstance(h, list) or len(h) != want:
            raise RecordError(f"seat {s} must hold {want} cards", path=f"{where}.hands.{s}")
        for i, name in enumerate(h):
            hands[s] |= 1 << take(name, f"{where}.hands.{s}.{i}")
    sizes = g.deal.pile_sizes(deck.size, len(seats))
    piles_in = d.get("piles", {})
    if not isinstance(piles_in, dict) or set(piles_in) != set(sizes):
        raise RecordError(f"piles must give exactly {sorted(sizes)}", path=f"{where}.piles")
    piles: dict[str, list[Card]] = {}
    for name, want in sizes.items():
        lst = piles_in[name]
        if not isinstance(lst, list) or len(lst) != want:
            raise RecordError(f"pile '{name}' must hold {want} cards", path=f"{where}.piles.{name}")
        top_first = [take(x, f"{where}.piles.{name}.{i}") for i, x in enumerate(lst)]
        piles[name] = list(reversed(top_first))
    return hands, piles


def deal_of(st: State) -> dict[str, Any]:
    """The current hand's deal as an explicit-deal mapping (before any action)."""
    names = st.game.deck.names
    return {"dealer": st.dealer,
            "hands": [[names[c] for c in st.game.deck.cards_of(h)] for h in st.hands],
            "piles": {k: [names[c] for c in reversed(v)] for k, v in st.piles.items()}}


def canonical_options(game: Game) -> dict[str, Any]:
    """Every option with its value."""
    return dict(sorted(game.options.items()))


def record_of(st: State, results: bool = True) -> dict[str, Any]:
    """The record of a match so far."""
    g = st.game
    rec: dict[str, Any] = {"format": FORMAT, "system": g.id, "options": canonical_options(g),
                           "seed": st.seed}
    if st.deals:
        rec["deals"] = list(st.deals)
    rec["actions"] = [{"seat": s, "action": g.action_name(a)} for s, a, _ in st.history]
    if results:
        rec["results"] = {"hands": [{k: r[k] for k in ("hand", *RESULT_FIELDS) if k in r}
                                    for r in st.hand_results],
                          "winners": list(st.winners) if st.winners is not None else None}
    return rec


def dumps(rec: Mapping[str, Any]) -> str:
    """Canonical one-line JSON."""
    return json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# --- schema check -------------------------------------------------------------------------------
# jsonschema spends about 25 µs per node, so a record at the size limit (a million nodes) took
# many seconds. The record schema uses a small set of keywords; it is compiled once into nested
# closures that check a record in one pass, in the same sense as jsonschema (Draft 2020-12).
# A schema with any other keyword falls back to jsonschema.

Checker = Callable[[Any], None]
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "default",
                          "examples"})
_KEYWORDS = frozenset({"type", "const", "enum", "properties", "additionalProperties", "required",
                       "items", "maxItems", "maxLength", "maxProperties", "minimum", "maximum",
                       "anyOf"}) | _ANNOTATIONS
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxdict = 4


class _Invalid(Exception):
    """A schema violation; ``path`` is built innermost first while it propagates."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.path: list[str | int] = []


def _is_int(x: Any) -> bool:
    return (type(x) is int) or (type(x) is float and x.is_integer())


_TYPE_TESTS: dict[str, Callable[[Any], bool]] = {
    "object": lambda x: type(x) is dict,
    "array": lambda x: type(x) is list,
    "string": lambda x: type(x) is str,
    "integer": _is_int,
    "number": lambda x: type(x) in (int, float),
    "boolean": lambda x: type(x) is bool,
    "null": lambda x: x is None,
}


def _same(a: Any, b: Any) -> bool:
    """JSON equality: booleans are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _compile(schema: Any) -> Checker:
    """A checker for ``schema``; raises ValueError on a keyword it does not know."""
    if schema is True or schema == {}:
        return lambda x: None
    if schema is False:
        def never(x: Any) -> None:
            raise _Invalid(f"False schema does not allow {_SHORT.repr(x)}")
        return never
    unknown = set(schema) - _KEYWORDS
    if unknown:
        raise ValueError(f"unsupported schema keywords {sorted(unknown)}")
    checks: list[Checker] = []
    if "type" in schema:
        names = [schema["type"]] if isinstance(schema["type"], str) else list(schema["type"])
        tests = tuple(_TYPE_TESTS[n] for n in names)
        shown = ", ".join(repr(n) for n in names)

        def typed(x: Any) -> None:
            for t in tests:
                if t(x):
                    return
            raise _Invalid(f"{_SHORT.repr(x)} is not of type {shown}")
        checks.append(typed)
    if "const" in schema:
        const = schema["const"]

        def constant(x: Any) -> None:
            if not _same(x, const):
                raise _Invalid(f"{const!r} was expected")
        checks.append(constant)
    if "enum" in schema:
        values = list(schema["enum"])

        def member(x: Any) -> None:
            if not any(_same(x, v) for v in values):
                raise _Invalid(f"{_SHORT.repr(x)} is not one of {values!r}")
        checks.append(member)
    checks += _object_checks(schema) + _array_checks(schema) + _scalar_checks(schema)
    if "anyOf" in schema:
        options = [_compile(sub) for sub in schema["anyOf"]]

        def any_of(x: Any) -> None:
            for opt in options:
                try:
                    opt(x)
                except _Invalid:
                    continue
                return
            raise _Invalid(f"{_SHORT.repr(x)} is not valid under any of the given schemas")
        checks.append(any_of)
    if len(checks) == 1:
        return checks[0]

    def every(x: Any) -> None:
        for c in checks:
            c(x)
    return every


def _object_checks(schema: Mapping[str, Any]) -> list[Checker]:
    out: list[Checker] = []
    most = schema.get("maxProperties")
    required = list(schema.get("required", ()))
    props = {k: _compile(v) for k, v in schema.get("properties", {}).items()}
    extra_schema = schema.get("additionalProperties", True)
    extra = None if extra_schema is False else _compile(extra_schema)
    if most is None and not required and not props and extra_schema is True:
        return out

    def obj(x: Any) -> None:
        if type(x) is not dict:
            return
        if most is not None and len(x) > most:
            raise _Invalid(f"{_SHORT.repr(x)} has too many properties")
        for k in required:
            if k not in x:
                raise _Invalid(f"{k!r} is a required property")
        if extra is None:
            stray = [k for k in x if k not in props]
            if stray:
                verb = "was" if len(stray) == 1 else "were"
                shown = ", ".join(repr(k[:40]) for k in stray[:5])
                err = _Invalid(f"Additional properties are not allowed ({shown} {verb} unexpected)")
                err.path.append(stray[0])
                raise err
        for k, v in x.items():
            check = props.get(k, extra)
            if check is None:
                continue
            try:
                check(v)
            except _Invalid as err:
                err.path.append(k)
                raise
    out.append(obj)
    return out


def _array_checks(schema: Mapping[str, Any]) -> list[Checker]:
    out: list[Checker] = []
    most = schema.get("maxItems")
    item = _compile(schema["items"]) if "items" in schema else None
    if most is None and item is None:
        return out

    def arr(x: Any) -> None:
        if type(x) is not list:
            return
        if most is not None and len(x) > most:
            raise _Invalid(f"{_SHORT.repr(x)} is too long")
        if item is not None:
            for i, v in enumerate(x):
                try:
                    item(v)
                except _Invalid as err:
                    err.path.append(i)
                    raise
    out.append(arr)
    return out


def _scalar_checks(schema: Mapping[str, Any]) -> list[Checker]:
    out: list[Checker] = []
    longest, low, high = schema.get("maxLength"), schema.get("minimum"), schema.get("maximum")
    if longest is not None:
        def string(x: Any) -> None:
            if type(x) is str and len(x) > longest:
                raise _Invalid(f"{_SHORT.repr(x)} is too long")
        out.append(string)
    if low is not None or high is not None:
        def number(x: Any) -> None:
            if type(x) not in (int, float):
                return
            if low is not None and x < low:
                raise _Invalid(f"{_SHORT.repr(x)} is less than the minimum of {low}")
            if high is not None and x > high:
                raise _Invalid(f"{_SHORT.repr(x)} is greater than the maximum of {high}")
        out.append(number)
    return out


@cache
def _record_checker() -> Checker | None:
    try:
        return _compile(record_schema())
    except (ValueError, KeyError, TypeError):
        return None


def _validate(rec: Any, where: str) -> None:
    check = _record_checker()
    if check is not None:
        try:
            check(rec)
        except _Invalid as err:
            path = ".".join(str(p) for p in reversed(err.path)) or "<top>"
            raise RecordError(err.message[:200], path=f"{where}{path}") from None
        return
    found = itertools.islice(jsonschema.Draft202012Validator(record_schema()).iter_errors(rec),
                             MAX_SCHEMA_ERRORS)
    errors = sorted(found, key=lambda e: len(list(e.path)))
    if errors:
        e = errors[0]
        parts = [str(p) for p in e.absolute_path]
        extra = unexpected_key(e)
        if extra is not None:
            parts.append(extra)
        path = ".".join(parts) or "<top>"
        raise RecordError(e.message[:200], path=f"{where}{path}")


@dataclass
class Replay:
    """The outcome of replaying a record: the final state and the filled-in record."""

    state: State
    record: dict[str, Any]


def game_for(rec: Mapping[str, Any]) -> Game:
    """The game a record names, with its options."""
    from .game import Game
    from .spec import load

    try:
        spec = load(rec["system"])
    except SpecError as exc:
        raise RecordError(str(exc), path="system") from None
    decls = spec.option_decls
    opts: dict[str, Any] = {}
    for k, v in rec.get("options", {}).items():
        if k not in decls:
            raise RecordError(f"unknown option '{k}'", path=f"options.{k}")
        try:
            opts[k] = decls[k].check(v) if not isinstance(v, str) or decls[k].type == "enum" \
                else parse_value(decls[k], v)
        except OptionError as exc:
            raise RecordError(str(exc), path=f"options.{k}") from None
    try:
        return Game(spec, opts)
    except CardspecError as exc:
        raise RecordError(str(exc), path="options") from None
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError) as exc:
        # A spec whose option maps give values of the wrong kind for these options.
        raise RecordError(f"the spec does not compile with these options: {type(exc).__name__}: "
                          f"{str(exc)[:160]}", path="options") from None


def replay(rec: Any, where: str = "") -> Replay:
    """Replay a record; raise :class:`RecordError` at the first disagreement."""
    _validate(rec, where)
    g = game_for(rec)
    try:
        st = g.new_initial_state(rec.get("seed"), rec.get("deals"))
    except RecordError:
        raise
    except CardspecError as exc:
        raise RecordError(str(exc), path="deals") from None
    stated = rec.get("results")
    checked_hands = 0
    for i, step in enumerate(rec["actions"]):
        if st.is_terminal():
            raise RecordError(f"'{step['action']}' after the match is over", index=i,
                              source=g.match.source)
        if step["seat"] != st.current_player():
            raise RecordError(f"seat {step['seat']} acts but it is seat {st.current_player()}'s turn",
                              index=i, source=g.phases[st.phase].source)
        try:
            st.apply(g.parse_action(step["action"]))
        except IllegalActionError as exc:
            raise RecordError(f"'{exc.action}' is illegal: {exc.reason}", index=i,
                              source=exc.source) from None
        except ActionError as exc:
            raise RecordError(str(exc), index=i) from None
        if stated is not None:
            checked_hands = _check_hands(st, stated, checked_hands, i)
    if stated is not None:
        _check_hands(st, stated, checked_hands, len(rec["actions"]) - 1, final=True)
        want = stated.get("winners")
        got = list(st.winners) if st.winners is not None else None
        if want != got:
            raise RecordError(f"states winners {want} but the replay gives {got}",
                              path="results.winners", source=g.match.source)
    return Replay(st, record_of(st))


def _check_hands(st: State, stated: Mapping[str, Any], done: int, index: int, final: bool = False) -> int:
    hands = stated.get("hands", [])
    g = st.game
    while done < len(st.hand_results):
        if done >= len(hands):
            if final:
                raise RecordError(f"results list {len(hands)} hands but the replay plays "
                                  f"{len(st.hand_results)}", path="results.hands")
            return done
        got, want = st.hand_results[done], hands[done]
        for k in RESULT_FIELDS:
            if k in want and want[k] != got.get(k):
                src = g.scoring.tables[0].source if k in ("scores", "totals") else \
                    g.phases[-1].source if k in ("trick_winners", "ended_by") else g.match.rotation_source
                raise RecordError(f"states {k} {want[k]} but the replay gives {got.get(k)} "
                                  f"(hand {done}, ended at action {index})",
                                  path=f"results.hands.{done}.{k}", source=src)
        done += 1
    if final and len(hands) > done:
        raise RecordError(f"results list {len(hands)} hands but the replay plays {done}",
                          path="results.hands")
    return done


def read_records(path: Path) -> Iterator[tuple[str, Any]]:
    """Records from a file: one JSON document, or JSON Lines. Yields (where, record).

    Reads in chunks with a per-record size limit, so a huge file or a huge line
    fails fast in bounded memory (about :data:`MAX_RECORD_BYTES` plus a chunk),
    and long runs of blank lines are skipped at C speed. Errors name the file and
    the line.
    """
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    with fh:
        lines = _lines(fh, path)
        first = next(lines, None)
        if first is None:
            return
        n, raw = first
        text = _decode(raw, f"{path}:{n}")
        parsed = _try_json(text)
        if parsed is _NOT_JSON and text.lstrip()[:1] in ("{", "["):
            # The first line does not parse alone: the file is one (pretty-printed) document.
            yield f"{path}: ", _single(fh, path)
            return
        yield f"{path}:{n}: ", parsed if parsed is not _NOT_JSON else _parse_json(text, f"{path}:{n}")
        for n, raw in lines:
            yield f"{path}:{n}: ", _parse_json(_decode(raw, f"{path}:{n}"), f"{path}:{n}")


def _lines(fh: Any, path: Path) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of every line that is not blank; no line may exceed the limit."""
    buf = bytearray()
    n = 0  # newlines consumed so far: the current line is n + 1
    at_start = True
    while True:
        chunk = fh.read(_CHUNK)
        if at_start:
            chunk = chunk.removeprefix(_BOM)
            at_start = False
        buf += chunk
        pos = 0
        while True:
            m = _NON_SPACE.search(buf, pos)
            if m is None:
                n += buf.count(b"\n", pos)
                pos = len(buf)
                break
            i = m.start()
            n += buf.count(b"\n", pos, i)
            nl = buf.find(b"\n", i)
            if nl < 0:
                pos = i
                break
            if nl - i > MAX_RECORD_BYTES:
                raise RecordError(f"{path}:{n + 1}: line longer than {MAX_RECORD_BYTES} bytes")
            n += 1
            yield n, bytes(buf[i:nl])
            pos = nl + 1
        del buf[:pos]
        if len(buf) > MAX_RECORD_BYTES:
            raise RecordError(f"{path}:{n + 1}: line longer than {MAX_RECORD_BYTES} bytes")
        if not chunk:
            if buf.strip():
                yield n + 1, bytes(buf)
            return


_NOT_JSON = object()


def _try_json(text: str) -> Any:
    try:
        return _loads(text)
    except (ValueError, RecursionError):
        return _NOT_JSON


def _single(fh: Any, path: Path) -> Any:
    """The whole file as one JSON document, read up to the size limit."""
    fh.seek(0)
    raw = fh.read(MAX_RECORD_BYTES + 1).removeprefix(_BOM)
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"{path}: record larger than {MAX_RECORD_BYTES} bytes")
    return _parse_json(_decode(raw, f"{path}"), f"{path}")


def _decode(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start)
        at = f" (line {line + 1} of the document)" if line else ""
        raise RecordError(f"{where}: not UTF-8 text (byte {exc.start}{at})") from None


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise ValueError(f"duplicate key '{k[:64]}'")
            seen.add(k)
    return out


def _loads(text: str) -> Any:
    return json.loads(text, object_pairs_hook=_no_duplicates)


def _parse_json(text: str, where: str) -> Any:
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"{where}: record larger than {MAX_RECORD_BYTES} bytes")
    try:
        return _loads(text)
    except RecursionError:
        raise RecordError(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:
        raise RecordError(f"{where}: malformed JSON: {str(exc)[:200]}") from None
