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

import functools
import gzip
import itertools
import json
import operator
import re
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, NoReturn

import fastjsonschema
import jsonschema

from .actions import Action, ExtraWordError
from .cards import Card, CardMask, Deck
from .components.base import Component
from .errors import (
    ActionError,
    CardspecError,
    IllegalActionError,
    MalformedRecordError,
    OptionError,
    RecordError,
    Source,
    SpecError,
    StartRuleError,
)
from .game import Game  # imported for real: Replay's field types must exist at run time in the compiled build
from .loader import (
    MAX_SCHEMA_ERRORS,
    counted,
    error_order,
    not_readable,
    quick_gate,
    record_schema,
    short_repr,
    unexpected_key,
)
from .state import State
from .unseen import UNCHECKED, UNSEEN, Unseen, in_hand, reading

FORMAT = "cardspec-record/1"
MAX_RECORD_BYTES = 64 << 20
"""The longest record (a line of JSON Lines, or a whole document) a replay reads: 64 MiB. Every record the engine
writes must be read back, and the largest are far below it: a match that runs to its action bound stops with an
error, unwritten, and a bundled game that declares its actions per hand stops within 570,000 actions
(``Game.action_bound``: dirty-clubs' 57 a hand times 10,000 hands) at about 66 bytes an action, deals and results
included (measured), so under 40 MB; the games of a fixed number of rounds (the-card-game, hand-and-foot) write
a few MB at most (the-card-game's 22 rounds with 3 players: 3.7 MB; 1.2 MB with 6). The limit still bounds a
hostile line: a line past :data:`DENSE_FREE_BYTES` is parsed only when no denser than records are (tiny containers,
about 25 bytes of Python objects per byte, are refused unparsed), and the worst it may then hold, short strings,
costs about 1.5 GB at the limit (``docs/records.md``)."""
_CHUNK = 1 << 18
_NON_SPACE = re.compile(rb"[^ \t\r\n]")
_BOM = b"\xef\xbb\xbf"
RESULT_FIELDS = ("hand", "dealer", "trump", "maker", "thrown_in", "trick_winners", "scores", "totals", "ended_by",
                 "contract", "went_out", "melds", "hands_shown")
_UNSEEN_CARD = " " + UNSEEN  # how an action with an unseen card ends: "discard ?"


def explicit_deal(st: State, d: Mapping[str, Any], seats: Sequence[int]
                  ) -> tuple[list[CardMask], dict[str, list[Card]], list[Card]]:
    """Hands and piles from an explicit deal; every card exactly once, sizes checked. A deal that is no deal of
    the game (a wrong number of hands or cards, an unknown card) is malformed in any hand; a dealer other than
    the rotation's is a disagreement with the rules.

    A card written ``?`` is unseen (:mod:`cardspec.engine.unseen`): it gets a stand-in, one of the
    cards the deal does not show, in deck order; the stand-ins are returned third.
    """
    g = st.game
    deck = g.deck
    where = f"deals.{st.hand_no - st.first_hand}"
    if d.get("dealer", st.dealer) != st.dealer:
        raise RecordError(f"dealer {d.get('dealer')} but the rotation gives {st.dealer}",
                          path=f"{where}.dealer", source=g.match.rotation_source)
    hands_in = d.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != g.num_seats:
        raise MalformedRecordError(f"hands must list {g.num_seats} hands, one per seat", path=f"{where}.hands")
    reader = _DealReader(deck, where)
    hands = [0] * g.num_seats
    rules = g.deal_for(st.hand_no)
    for s, h in enumerate(hands_in):
        want = rules.hand_size if s in seats else 0
        if not isinstance(h, list) or len(h) != want:
            raise MalformedRecordError(f"seat {s} must hold {want} cards", path=f"{where}.hands.{s}")
        hands[s] = reader.mask(h, s)
    sizes = rules.pile_sizes(deck.size, len(seats))
    piles_in = d.get("piles", {})
    if not isinstance(piles_in, dict) or piles_in.keys() != sizes.keys():
        raise MalformedRecordError(f"piles must give exactly {sorted(sizes)}", path=f"{where}.piles")
    piles: dict[str, list[Card]] = {}
    for name, want in sizes.items():
        lst = piles_in[name]
        if not isinstance(lst, list) or len(lst) != want:
            raise MalformedRecordError(f"pile '{name}' must hold {want} cards", path=f"{where}.piles.{name}")
        piles[name] = reader.cards(lst, name)[::-1]
    blanks, used = reader.blanks, reader.used
    stand_ins = [c for c in range(deck.size) if not used >> c & 1][:len(blanks)] if blanks else []
    for (pile, s, i), c in zip(blanks, stand_ins, strict=True):
        if pile:
            piles[pile][len(piles[pile]) - 1 - i] = c
        else:
            hands[s] = hands[s] | (1 << c)
    return hands, piles, stand_ins


class _DealReader:
    """Reads the hands and piles of one explicit deal, card names to cards, each card at most once.

    A list of cards each named by its own name (``9H#2`` for a later copy), none taken before, is read
    at C speed, its bits summed: a duplicate within it carries, so the sum has fewer bits than the list
    has cards. Anything else (``?``, ``T`` for 10, a wrong name, a card twice) is read card by card,
    and an error names the card's path; only then is the path spelt out.
    """

    def __init__(self, deck: Deck, where: str) -> None:
        self.deck = deck
        self.where = where
        self.used: CardMask = 0
        """The cards taken so far, as a mask."""
        self.blanks: list[tuple[str, int, int]] = []
        """Each unseen card: (pile name, or "" for a hand; seat; position in the list)."""

    def mask(self, lst: list[Any], seat: int) -> CardMask:
        """The mask of a seat's hand (its unseen cards noted in :attr:`blanks`, left out)."""
        m = self._all_at_once(lst)
        return m if m >= 0 else sum(1 << c for c in self._one_by_one(lst, "", seat) if c >= 0)

    def cards(self, lst: list[Any], pile: str) -> list[Card]:
        """The cards of a table pile as listed (-1 for each unseen one, noted in :attr:`blanks`)."""
        if self._all_at_once(lst) >= 0:
            return list(map(self.deck.by_name.__getitem__, lst))
        return self._one_by_one(lst, pile, -1)

    def _all_at_once(self, lst: list[Any]) -> CardMask:
        """The mask of ``lst``, now taken, when each entry is a card's own name and none is taken before or
        listed twice; else -1, and nothing is taken."""
        try:
            m = sum(map(self.deck.bit_by_name.__getitem__, lst))
        except (KeyError, TypeError):  # a name that is not a card's own, or an unhashable entry
            return -1
        if m & self.used or m.bit_count() != len(lst):
            return -1
        self.used |= m
        return m

    def _one_by_one(self, lst: list[Any], pile: str, seat: int) -> list[Card]:
        at = f"{self.where}.piles.{pile}" if pile else f"{self.where}.hands.{seat}"
        out: list[Card] = []
        for i, name in enumerate(lst):
            if name == UNSEEN:
                self.blanks.append((pile, seat, i))
                out.append(-1)
            else:
                out.append(self._take(name, at, i))
        return out

    def _take(self, name: Any, at: str, i: int) -> Card:
        """The card ``name`` at position ``i`` of the list at path ``at``."""
        deck = self.deck
        c = deck.by_name.get(name) if type(name) is str else None
        if c is None:
            if not isinstance(name, str):
                raise MalformedRecordError(f"card {name!r} is not a card name", path=f"{at}.{i}")
            try:  # 'T' for 10, either case, spaces around
                c = deck.parse(name)
            except (CardspecError, KeyError) as exc:  # the deck's reason: unknown, or which copy is meant
                why = exc.args[0] if exc.args and isinstance(exc.args[0], str) else \
                    f"'{name}' is not a card of this deck"
                raise MalformedRecordError(why, path=f"{at}.{i}") from None
        if self.used >> c & 1:
            raise MalformedRecordError(f"'{name}' appears more often than the deck holds it", path=f"{at}.{i}")
        self.used |= 1 << c
        return c


def deal_of(st: State) -> dict[str, Any]:
    """The current hand's deal as an explicit-deal mapping (before any action)."""
    names = st.game.deck.names
    return {"dealer": st.dealer,
            "hands": [[names[c] for c in st.game.deck.cards_of(h)] for h in st.hands],
            "piles": {p.name: [names[c] for c in reversed(st.piles[p.name])] for p in st.game.deal.piles}}


def logged_deals(st: State) -> list[dict[str, Any]]:
    """The deals ``st`` kept (``keep_deals``: each hand's cards as dealt, before its first phase began) as
    explicit-deal mappings, the form :func:`deal_of` gives and a record's ``deals`` take."""
    return [_kept_deal(st, d) for d in st.deal_log or ()]


def _kept_deal(st: State, kept: tuple[int, tuple[CardMask, ...], Mapping[str, Sequence[Card]]]) -> dict[str, Any]:
    """One entry of ``State.deal_log`` (dealer, hands, piles) as an explicit-deal mapping."""
    dealer, hands, piles = kept
    names = st.game.deck.names
    return {"dealer": dealer,
            "hands": [[names[c] for c in st.game.deck.cards_of(h)] for h in hands],
            "piles": {p.name: [names[c] for c in reversed(piles.get(p.name, ()))] for p in st.game.deal.piles}}


def current_deal(st: State) -> dict[str, Any]:
    """The current hand's deal as dealt, before its first phase began: the last deal ``st`` kept (a state made
    with ``keep_deals``), else :func:`deal_of` (the same for a system whose first phase moves no cards as it
    starts; hand-and-foot's deals the players' piles from the stock at once, so keep the deals for it)."""
    return _kept_deal(st, st.deal_log[-1]) if st.deal_log else deal_of(st)


def canonical_options(game: Game) -> dict[str, Any]:
    """Every option with its value."""
    return dict(sorted(game.options.items()))


def record_of(st: State, results: bool = True) -> dict[str, Any]:
    """The record of a match so far."""
    g = st.game
    rec: dict[str, Any] = {"format": FORMAT, "system": g.id, "options": canonical_options(g),
                           "seed": st.seed}
    if not g.spec.bundled:  # a spec file: named by path and content, never judged by a bundled namesake
        rec["system"] = g.spec.file
        rec["spec_sha256"] = g.spec.sha256
    if st.hand_limit == 1:
        rec["scope"] = "hand"
    if st.start is not None:
        rec["start"] = dict(st.start)
    if st.deals:
        rec["deals"] = list(st.deals)
    elif st.deal_log:
        rec["deals"] = logged_deals(st)
    rec["actions"] = [{"seat": s, "action": g.action_name(a)} for s, a, _ in st.history]
    if results:
        rec["results"] = {"hands": [{k: r[k] for k in ("hand", *RESULT_FIELDS) if k in r}
                                    for r in st.hand_results],
                          "winners": list(st.winners) if st.winners is not None else None}
    return rec


def dumps(rec: Mapping[str, Any]) -> str:
    """Canonical one-line JSON."""
    return json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@cache
def _record_checker() -> Callable[[Any], Any]:
    """The record schema compiled to Python by fastjsonschema (jsonschema takes seconds on a 1 MB record)."""
    schema = dict(record_schema())
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"  # the keywords used are draft-07's too
    return fastjsonschema.compile(schema)


def _validate(rec: Any, where: str) -> None:
    """Check a record against its schema: jsonschema-rs as the quick gate (:func:`~.loader.quick_gate`; about
    6 us for a one-hand record against fastjsonschema's 30), then fastjsonschema, then jsonschema for the
    message."""
    if quick_gate(record_schema())(rec):
        return
    try:
        _record_checker()(rec)
        return
    except fastjsonschema.JsonSchemaValueException:
        pass
    if type(rec) is not dict:  # worded here: jsonschema would spell out the whole value first
        raise RecordError(f"{short_repr(rec)} is not of type 'object'", path=f"{where}<top>")
    found = itertools.islice(jsonschema.Draft202012Validator(record_schema()).iter_errors(rec),
                             MAX_SCHEMA_ERRORS)
    errors = sorted(found, key=error_order)
    if not errors:  # pragma: no cover - the two validators disagree
        raise RecordError("does not match the record schema", path=f"{where}<top>")
    e = errors[0]
    parts = [str(p) for p in e.absolute_path]
    extra = unexpected_key(e)
    if extra is not None:
        parts.append(extra)
    path = ".".join(parts) or "<top>"
    message = e.message
    if e.validator == "type":
        types = e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
        message = f"{short_repr(e.instance)} is not of type {', '.join(repr(t) for t in types)}"
    elif e.validator == "maxLength" and isinstance(e.instance, str):  # the value cut, the reason kept
        message = f"{short_repr(e.instance)} is longer than {e.validator_value} characters"
    missing = sorted({repr(k) for x in errors if x.validator == "required" and x.absolute_path == e.absolute_path
                      and isinstance(x.instance, dict) for k in x.validator_value if k not in x.instance})
    if e.validator == "required" and missing:
        message = f"missing required {'key' if len(missing) == 1 else 'keys'} {', '.join(missing)}"
    elif missing:  # an unknown key is often a misspelt required one: name both
        message = f"{message[:160]}; missing required {'key' if len(missing) == 1 else 'keys'} {', '.join(missing)}"
    raise RecordError(message[:400], path=f"{where}{path}")


@dataclass
class Replay:
    """The outcome of replaying a record: the final state, and the filled-in record (built on demand)."""

    state: State
    unchecked: list[str]
    """What could not be checked (cards the record never shows: :mod:`cardspec.engine.unseen`)."""
    unseen_actions: dict[int, str] = field(default_factory=dict)
    """The actions the record gives with an unseen card (``discard ?``), by index, as given."""

    @property
    def record(self) -> dict[str, Any]:
        """The record with its results filled in; an action with an unseen card stays as given (the stand-in
        the engine played for it is never written)."""
        return filled_record(self.state, self.unseen_actions)


def filled_record(st: State, unseen_actions: Mapping[int, str]) -> dict[str, Any]:
    """:func:`record_of` a replayed state, with the actions given with an unseen card written as given."""
    rec = record_of(st)
    for i, text in unseen_actions.items():
        rec["actions"][i]["action"] = text
    return rec


_GAMES: dict[tuple[Any, ...], Game] = {}
"""Games built for records, by (bundled system id, options as given): a file of records with one
system and options builds its Game once. Spec files named by path are not kept here (the file may
change); their Game is still cached by content through :func:`_game`."""


def game_for(rec: Mapping[str, Any]) -> Game:
    """The game a record names, with its options (built once per bundled system and options)."""
    system = rec["system"]
    options = rec.get("options", {})
    try:  # the options, and their values' types: 1, 1.0 and true are equal as values, and must not share a Game
        key: tuple[Any, ...] = (system, tuple(options.items()), tuple(map(type, options.values())))
        g = _GAMES.get(key)
    except (AttributeError, TypeError):  # not a mapping, or a value that is not hashable (the schema refuses both)
        key = (system, repr(options))
        g = _GAMES.get(key)
    if g is None:  # options listed in another order are another key; their Game is cached by content (_game)
        from .spec import available

        g = _game_for(rec)
        if system in available() and len(_GAMES) < 1024:
            _GAMES[key] = g
    return g


def _game_for(rec: Mapping[str, Any]) -> Game:
    from .spec import load

    try:
        spec = load(rec["system"])
    except SpecError as exc:
        raise RecordError(str(exc), path="system") from None
    want = rec.get("spec_sha256")
    if want is not None and want != spec.sha256:
        chain = spec.loaded.files()[1:]
        with_parents = f" (with the files it extends: {', '.join(chain)})" if chain else ""
        raise RecordError(f"the record was written with a spec file of SHA-256 {want[:16]}…, but "
                          f"{spec.file}{with_parents} now has {spec.sha256[:16]}…", path="spec_sha256")
    decls = spec.option_decls
    opts: dict[str, Any] = {}
    for k, v in rec.get("options", {}).items():
        if k not in decls:
            raise RecordError(f"unknown option '{k}'", path=f"options.{k}")
        try:
            opts[k] = decls[k].check(v)  # a record writes values as JSON: true, 3, "redeal" (never "yes")
        except OptionError as exc:
            raise RecordError(str(exc), path=f"options.{k}") from None
    try:
        return _game(spec.file, json.dumps(opts, sort_keys=True))
    except CardspecError as exc:
        raise RecordError(str(exc), path="options") from None
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError) as exc:
        # A spec whose option maps give values of the wrong kind for these options.
        raise RecordError(f"the spec does not compile with these options: {type(exc).__name__}: "
                          f"{str(exc)[:160]}", path="options") from None


@lru_cache(maxsize=256)
def _game(spec_file: str, options: str) -> Game:
    """The game of a spec and options, built once per process (a Game is frozen; building one with
    non-default options validates the resolved rules against the schema, which costs milliseconds)."""
    from .spec import _load_path

    return Game(_load_path(spec_file), json.loads(options))


def replay(rec: Any, where: str = "") -> Replay:
    """Replay a record; raise :class:`RecordError` at the first disagreement (a
    :class:`MalformedRecordError` when the record cannot be read as one of a known game). What the record says
    ahead decides an instant end that only unseen cards could make (:meth:`Unseen.instant`)."""
    with reading(rec):
        return _replay(rec, where)


def check_record(rec: Any, where: str = "") -> State:
    """What :func:`replay` checks before it plays a record's first action, the checks that make a record
    malformed: the record schema, whole numbers, the system and options, each action's seat, each deal's cards
    and dealer, and the start; the state play starts from. Raises :class:`RecordError` (a shape the checks refuse)
    or :class:`~cardspec.engine.errors.CardspecError` (a start the game refuses). An importer calls it on each
    record it writes, so that nothing is written that a replay would call malformed."""
    _validate(rec, where)
    _check_integers(rec)
    g = game_for(rec)
    _check_seats(g, rec["actions"])
    start = rec.get("start")
    _check_deals(g, rec.get("deals"), start.get("hand", 0) if isinstance(start, dict) else 0)
    return _initial_state(g, rec)


def _replay(rec: Any, where: str) -> Replay:
    try:
        st = check_record(rec, where)
        g = st.game
    except StartRuleError:
        raise
    except RecordError as exc:
        raise MalformedRecordError(exc.message, exc.index, exc.path, exc.source) from None
    except CardspecError as exc:
        raise MalformedRecordError(str(exc), path="deals") from None
    stated = rec.get("results")
    checked_hands = 0
    notes: list[str] = []
    hidden_steps: dict[int, str] = {}
    ended: _Ended | None = None  # a hand that ended with unseen cards at the last action
    for i, step in enumerate(rec["actions"]):
        last = ended
        if last is None:  # the common case
            ended = _carry(st, g, step, i, hidden_steps, notes)
        else:
            try:
                ended = _carry(st, g, step, i, hidden_steps, notes)
            except RecordError as exc:  # what follows a hand's end may follow from where its unseen cards lie
                if isinstance(exc, MalformedRecordError) or not last[0].rescue(
                        st, last[1], functools.partial(_carries, g=g, step=step, i=i)):
                    raise
                ended = _carry(st, g, step, i, hidden_steps, notes)
        if stated is not None and len(st.hand_results) > checked_hands:  # a hand ended: check what it states
            checked_hands = _check_hands(st, stated, checked_hands, i, rec)
    if stated is not None and ended is not None and not _ends_as_stated(st, stated, checked_hands, rec):
        ended[0].rescue(st, ended[1], lambda t: _ends_as_stated(t, stated, checked_hands, rec))  # the match's end
    _check_unused_deals(st, rec.get("deals"))
    if stated is not None:
        _check_hands(st, stated, checked_hands, len(rec["actions"]) - 1, rec, final=True)
        want = stated.get("winners")
        got = list(st.winners) if st.winners is not None else None
        if want != got:
            if not any("totals" in r.get(UNCHECKED, ()) for r in st.hand_results):
                raise RecordError(_winners_disagree(st, want, got), path="results.winners",
                                  source=g.match.winners_source(want, got, st))
            notes.append(f"winners: the record states {want}, the replay gives {got} on its placement of the unseen "
                         "cards; they follow from totals that depend on it, and were not checked")
    if st.unseen is not None:
        if st.is_terminal():
            st.unseen.ended()
        notes.extend(st.unseen.notes)
    return Replay(st, notes, hidden_steps)


def _check_unused_deals(st: State, deals: Sequence[Any] | None) -> None:
    """Refuse a record that lists deals for hands never played, once play is over (the match won, or the
    record's one hand played): no match deals them, so the record cannot have come from one (``malformed``,
    path ``deals.K``, the first deal no hand used). A record that stops before the match is over may list deals
    of the hands still to come."""
    if not deals or not st.is_terminal():
        return
    used = st.hand_no - st.first_hand + 1  # the deals of hands first_hand .. hand_no (thrown-in hands too)
    if len(deals) > used:
        over = "the record's one hand is over" if st.halted == "hand_limit" else "the match is over"
        raise MalformedRecordError(f"{counted(len(deals), 'deal')} listed, but {over} after "
                                   f"{counted(used, 'hand')}: deal {used} and those after it are dealt for no hand",
                                   path=f"deals.{used}")


_Ended = tuple[Unseen, Action]
"""A hand that ended with unseen cards: its :class:`Unseen`, and the action that ended it (:meth:`Unseen.rescue`)."""


def _carry(st: State, g: Game, step: Mapping[str, Any], i: int, hidden_steps: dict[int, str], notes: list[str]
           ) -> _Ended | None:
    """Carry out action ``i`` of a record (its seat and move checked); a hand it ends with unseen cards."""
    if st.is_terminal():
        raise _after_the_end(st, step["action"], i)
    if step["seat"] != st.cur:  # the acting seat (a dummy seat acts through its controller)
        raise _closed_to_all(st, g, step["action"], i) or _out_of_turn(st, step["seat"], i)
    text: str = step["action"]  # a string: the schema said so (typed, the compiled build checks it as one)
    try:
        if st.unseen is None and not text.endswith(_UNSEEN_CARD):  # every card known: the common case
            st.apply(g.parse_action(text))  # called as methods: native calls in the compiled build
            return None
        return _step_with_unseen(st, text, i, hidden_steps, notes)
    except IllegalActionError as exc:
        raise RecordError(f"'{exc.action}' is illegal: {exc.reason} ({in_hand(st, i)})", index=i,
                          source=exc.source) from None
    except ExtraWordError as exc:  # a word the action's kind does not take: the clause of the phase owning it
        ph = next((p for p in g.phases if exc.kind in p.codec_kinds()), None)
        src: Source | None = ph.word_source(exc.kind, exc.word) if ph is not None else None
        raise RecordError(f"{exc} ({in_hand(st, i)})", index=i, source=src) from None
    except ActionError as exc:
        raise RecordError(f"{exc} ({in_hand(st, i)})", index=i) from None


def _carries(st: State, g: Game, step: Mapping[str, Any], i: int) -> bool:
    """Whether action ``i`` of a record can be carried out on (a copy of) ``st``."""
    try:
        _carry(st.copy(), g, step, i, {}, [])
    except (CardspecError, LookupError, ValueError):
        return False
    return True


def _ends_as_stated(st: State, stated: Mapping[str, Any], done: int, rec: Mapping[str, Any]) -> bool:
    """Whether the stated results agree with ``st`` at the record's end: the hands played and the winners."""
    try:
        _check_hands(st, stated, done, len(rec["actions"]) - 1, rec, final=True)
    except RecordError:
        return False
    return stated.get("winners") == (list(st.winners) if st.winners is not None else None)


def _initial_state(g: Game, rec: Mapping[str, Any]) -> State:
    """The state a record's play starts from: its seed, deals, start and scope."""
    return g.new_initial_state(rec.get("seed"), rec.get("deals"), rec.get("start"),
                               1 if rec.get("scope") == "hand" else None)


_SEAT = operator.itemgetter("seat")


def _check_seats(g: Game, actions: list[Any]) -> None:
    """Refuse an action by a seat the game does not have (the schema refuses a negative one), naming its
    path: such a record is malformed, not merely out of turn."""
    if actions and max(map(_SEAT, actions)) >= g.num_seats:
        i = next(i for i, step in enumerate(actions) if step["seat"] >= g.num_seats)
        raise RecordError(f"seat {actions[i]['seat']}: this game has seats 0 to {g.num_seats - 1}",
                          path=f"actions.{i}.seat")


def _check_deals(g: Game, deals: list[Any] | None, first_hand: int = 0) -> None:
    """Refuse, before play, a deal that is no deal of the game wherever it stands in the record: a dealer who is
    no player, a pile the hand's deal does not have or one it has left out (named before any card is read: a
    card in an unknown pile is no duplicate of the one dealt), a name that is no card of the deck, a card dealt
    more often than the deck holds it. ``deals[i]`` is the deal of hand ``first_hand + i``. (The number of hands
    and the sizes a hand's rules give are checked as each hand is dealt, also as malformed:
    :func:`explicit_deal`.)"""
    for i, d in enumerate(deals or ()):
        dealer = d.get("dealer")
        if dealer is not None and not 0 <= dealer < g.num_players:
            raise RecordError(f"dealer {dealer}: the dealer must be a player, 0..{g.num_players - 1}",
                              path=f"deals.{i}.dealer")
        _check_pile_names(g, d.get("piles", {}), first_hand + i, f"deals.{i}.piles")
        reader = _DealReader(g.deck, f"deals.{i}")
        for s, h in enumerate(d.get("hands") or ()):  # their number and sizes: explicit_deal's, as each is dealt
            reader.mask(h, s)
        for name, pile in (d.get("piles") or {}).items():
            reader.cards(pile, name)


def _check_pile_names(g: Game, piles: Any, hand_no: int, at: str) -> None:
    """Refuse a deal's ``piles`` whose names are not exactly the piles the deal of hand ``hand_no`` makes: an
    unknown pile is named (path ``at.NAME``), a missing one too (path ``at``), before any card in them is read.
    Not a mapping: left to :func:`explicit_deal` (the schema refuses it first)."""
    if not isinstance(piles, dict):
        return
    names = [p.name for p in g.deal_for(hand_no).piles]
    if piles.keys() == set(names):
        return
    exactly = f"piles must give exactly {sorted(names)}"
    unknown = next((k for k in piles if k not in names), None)
    if unknown is not None:
        raise RecordError(f"unknown pile {short_repr(unknown)}: {exactly}", path=f"{at}.{unknown}")
    missing = [k for k in names if k not in piles]
    raise RecordError(f"{exactly} (missing {', '.join(map(repr, missing))})", path=at)


def _check_integers(rec: Mapping[str, Any]) -> None:
    """Refuse a number written with a fraction or an exponent (``1.0``, ``1e0``) where the record wants an
    integer, naming its path. JSON Schema's ``integer`` admits them (a number whose fraction is zero), and a
    bool is already refused by the schema; but a seat, a score or a hand number is an integer, as an option
    value is (``target: 10.0`` is refused too). The record format holds no other numbers, so any float is
    refused: the seed, each action's seat (looked at C speed: a record may hold two million), a deal's
    dealer, the start, an option's value and every number of the results."""
    for k, v in rec.items():
        if k == "actions":
            if float in set(map(type, map(_SEAT, v))):
                i = next(i for i, step in enumerate(v) if type(step["seat"]) is float)
                _not_integer(v[i]["seat"], f"actions.{i}.seat")
        elif k == "deals":  # a deal's hands and piles hold card names only
            for i, d in enumerate(v):
                if type(d["dealer"]) is float:
                    _not_integer(d["dealer"], f"deals.{i}.dealer")
        else:
            at = _float_at(v)
            if at is not None:
                path = at[::-1]  # outermost first (a slice: the compiled build cannot loop over reversed() of Any)
                x: Any = v
                for part in path:
                    x = x[part]
                _not_integer(x, ".".join(map(str, [k, *path])))


def _float_at(x: Any) -> list[Any] | None:
    """Where the first float in ``x`` lies, looking into objects and arrays: its keys and indexes, innermost
    first (``[]``: ``x`` is one); None when there is none. A path is spelt only for a float found."""
    t = type(x)
    if t is float:
        return []
    if t is dict:
        for k, v in x.items():
            if type(v) in _NESTED:
                at = _float_at(v)
                if at is not None:
                    at.append(k)
                    return at
    elif t is list:
        for i, v in enumerate(x):
            if type(v) in _NESTED:
                at = _float_at(v)
                if at is not None:
                    at.append(i)
                    return at
    return None


_NESTED = frozenset((float, dict, list))
"""The types :func:`_float_at` looks at: a float, or what may hold one."""


def _not_integer(x: float, path: str) -> NoReturn:
    raise RecordError(f"{short_repr(x)} is not of type 'integer': write an integer without a fraction or an "
                      "exponent", path=path)


def _names_unseen(text: str) -> bool:
    """Whether an action is written with an unseen card (``discard ?``): a word, a space and ``?``."""
    return text.endswith(_UNSEEN_CARD) and len(text) > len(_UNSEEN_CARD)


def _step_with_unseen(st: State, text: str, i: int, hidden_steps: dict[int, str], notes: list[str]
                      ) -> _Ended | None:
    """Action ``i`` of a record whose hand has unseen cards, or written with one (:mod:`cardspec.engine.unseen`);
    when the hand is over, the notes on what it could not check join ``notes``. Returns the hand's :class:`Unseen`
    and the action when the action ended a hand with unseen cards (what follows may depend on where they lie)."""
    out: _Ended | None = None
    g = st.game
    unseen = st.unseen
    if unseen is not None and unseen.cards:
        unseen.check_turned(st, st.first_hand)
    done = len(st.hand_results)
    if _names_unseen(text):  # an action whose card is unseen (the deal may show every card)
        if unseen is None:
            unseen = st.unseen = Unseen(set(), {}, hand=st.hand_no)
        unseen.play_hidden(st, text[:-len(_UNSEEN_CARD)], i)
        hidden_steps[i] = text
    elif unseen is None or not unseen.cards:
        st.apply(g.parse_action(text))
    else:
        a = g.parse_action(text)
        try:
            unseen.play(st, a, i, g.action_name)
        except RecordError as exc:  # the next deal refused: it may follow from scores the unseen cards decide
            if not exc.path.startswith("deals.") or not unseen.rescue(st, a):
                raise
        if len(st.hand_results) > done and unseen.before is not None:
            out = unseen, a
    if unseen is not None and len(st.hand_results) > done:  # a hand ended: what its unseen cards leave unchecked
        if unseen.cards or unseen.unchecked_totals:
            unseen.results_unchecked(st)
        if unseen.unchecked_totals and st.unseen is not unseen and not st.is_terminal():  # carried to the next hand
            if st.unseen is None:
                st.unseen = Unseen(set(), {}, hand=st.hand_no)
            st.unseen.unchecked_totals = True
    if st.unseen is not unseen and unseen is not None:
        unseen.ended()
        notes.extend(unseen.notes)
    return out


def _after_the_end(st: State, action: str, i: int) -> RecordError:
    """The error for an action after play is over."""
    g = st.game
    return RecordError(f"'{action}' after " + (
        "the match is over" if st.winners is not None else
        "the record's one hand is over" if st.halted == "hand_limit" else
        f"the last hand the record deals (no seed, no deal for hand {st.hand_no + 1})"),
        index=i, source=g.match.source if st.halted != "hand_limit" else g.match.rotation_source)


def turn_clause(st: State) -> tuple[Source | None, str]:
    """The clause that says whose turn it is now, and what to add to a message when none does (``""`` when
    one does): what an audit or a conformance run cites for a seat acting out of turn."""
    src = st.comp.turn_source(st)
    return src, "" if src is not None else \
        f"; no clause of the text says whose turn it is here, the spec's '{st.comp.id}' phase decides"


def _closed_to_all(st: State, g: Game, text: Any, i: int) -> RecordError | None:
    """For an action by a seat whose turn it is not: when the action is one the hand has closed to every seat (a
    second Nil where one is allowed a hand, a bid in a hand with no bidding: ``Component.closed_earlier``), the
    error citing the clause that closes it, which the action breaks whoever names it; else None."""
    try:
        a = g.parse_action(text)
    except CardspecError:
        return None
    why = st.comp.closed_earlier(st, a)
    if why is None:
        return None
    return RecordError(f"'{g.action_name(a)}' is illegal: {why[0]} ({in_hand(st, i)})", index=i, source=why[1])


def _out_of_turn(st: State, seat: Any, i: int) -> RecordError:
    """The error for an action by a seat whose turn it is not; by a seat out of the match (eliminated), the
    clause that put it out."""
    g = st.game
    if g.match.kind == "elimination" and type(seat) is int and 0 <= seat < len(st.active) and not st.active[seat]:
        return RecordError(f"seat {seat} acts but it is out of the match: its total reached {g.match.limit} "
                           f"(it is seat {st.cur}'s turn; {in_hand(st, i)})", index=i, source=g.match.source)
    over = _hand_over(st, seat)
    if over is not None:
        return RecordError(f"seat {seat} acts but hand {st.hand_no - 1} is over (ended_by {over[0]}): it is seat "
                           f"{st.cur}'s turn ({in_hand(st, i)})", index=i, source=over[1])
    src, why = turn_clause(st)
    return RecordError(f"seat {seat} acts but it is seat {st.cur}'s turn ({in_hand(st, i)}{why})", index=i,
                       source=src)


def _hand_over(st: State, seat: Any) -> tuple[str, Source | None] | None:
    """Before the first action of a hand after another: when ``seat`` is the one that acted last in the last hand
    (a round that ended in the middle of its turn) or the one whose turn came next, it acts as if that hand went
    on; how it ended (``ended_by``) and the clause that ends a hand so (the phase that states ``ended_by``:
    ``Component.result_value_source``). None otherwise, or when no phase says how hands end."""
    if not st.hand_results or st.hand_start == 0 or len(st.history) != st.hand_start or type(seat) is not int:
        return None
    last = st.history[-1][0]
    if seat != last and seat != st.next_seat(last):  # the last hand's last actor goes on, or the next seat
        return None
    ended = st.hand_results[-1].get("ended_by")
    for ph in st.game.phases:
        if ended and "ended_by" in ph.fact_names():
            return str(ended), ph.result_value_source("ended_by", ended)
    return None


def _check_hands(st: State, stated: Mapping[str, Any], done: int, index: int, rec: Mapping[str, Any],
                 final: bool = False) -> int:
    hands = stated.get("hands", [])
    while done < len(st.hand_results):
        if done >= len(hands):
            if final:
                raise RecordError(f"results list {len(hands)} hands but the replay plays "
                                  f"{len(st.hand_results)}", path="results.hands")
            return done
        got, want = st.hand_results[done], hands[done]
        skip = got.get(UNCHECKED, ())  # fields the unseen cards leave open (a partial record)
        for k in RESULT_FIELDS:
            if k in want and k not in skip and want[k] != got.get(k) and \
                    not (k == "melds" and _same_sets(want[k], got.get(k))):
                _check_shape(st, k, want[k], got, done, index)
                msg, src = _disagreement(st, k, want[k], got, rec, index)
                raise RecordError(f"{msg} (hand {got['hand']}, ended at action {index})",
                                  path=f"results.hands.{done}.{k}", source=src)
        done += 1
    if final and len(hands) > done:
        raise RecordError(f"results list {len(hands)} hands but the replay plays {done}",
                          path="results.hands")
    return done


def _same_sets(want: Any, have: Any) -> bool:
    """Whether two ``melds`` lists hold the same sets in the same order, each set's cards in any order (a set
    is its cards; the order the engine writes them in is its own).

    >>> _same_sets([["9C#1", "9D#2", "2H#1"]], [["2H#1", "9C#1", "9D#2"]]), _same_sets([["9C#1"]], [["9D#1"]])
    (True, False)
    """
    return isinstance(want, list) and isinstance(have, list) and len(want) == len(have) and all(
        isinstance(w, list) and isinstance(h, list) and all(isinstance(c, str) for c in w)
        and sorted(w) == sorted(h) for w, h in zip(want, have, strict=True))


def _check_shape(st: State, k: str, want: Any, got: Mapping[str, Any], done: int, index: int) -> None:
    """A stated result field that cannot be a result of this hand at all, whatever the play, citing no clause
    (no rule decides it): a hand number other than its place in the list gives (the record disagrees with its
    own numbering: rejected), a scores or totals list of another length than the game's scoring entities
    (malformed)."""
    g = st.game
    path = f"results.hands.{done}.{k}"
    if k == "hand":
        first = f"the start's hand {st.first_hand}" if st.start is not None and "hand" in st.start else "hand 0"
        raise RecordError(f"states hand {short_repr(want)}, but entry {done} of results.hands is hand "
                          f"{got['hand']}: the entries are numbered in order from {first} (ended at action {index})",
                          path=path)
    if k in ("scores", "totals") and (not isinstance(want, list) or len(want) != len(g.teams)):
        who = "team" if any(len(t) > 1 for t in g.teams) else "player"
        size = f" ({len(want)} numbers)" if isinstance(want, list) else ""
        raise MalformedRecordError(f"states {k} {short_repr(want)}{size}, but {k} list one number per scoring "
                                   f"entity, and this game has {len(g.teams)} (one per {who}) (hand {got['hand']}, "
                                   f"ended at action {index})", path=path)


def _winners_disagree(st: State, want: list[int] | None, got: list[int] | None) -> str:
    """What a wrong statement of the match's winners gets wrong, in words (never a bare ``None``)."""
    if got is None:
        why = (" (the totals tie for the win: an extra hand is due)" if st.extra_hand and not st.is_terminal()
               else "")
        return f"states winners {want}, but in the replay the match is not over after these hands{why}"
    if want is None:
        return f"states no winners (the match not over), but in the replay it is over: winners {got}"
    return f"states winners {want} but the replay gives {got}"


def _entity(g: Game, e: int) -> str:
    team = g.teams[e]
    return f"team {e} (seats {', '.join(map(str, team))})" if len(team) > 1 else f"seat {team[0]}"


def _disagreement(st: State, k: str, want: Any, got: Mapping[str, Any], rec: Mapping[str, Any], index: int
                  ) -> tuple[str, Source | None]:
    """What a stated result field gets wrong, and the clause that decides it: the trick-winner
    clause for a trick's winner, the decision-table row that applies for a score, the match clause
    for a running total, the clause by which the hand's contract was settled for trump and maker
    (:func:`_contract_source`; the hand ended at action ``index`` of ``rec``)."""
    g = st.game
    have = got.get(k)
    if k == "trick_winners" and isinstance(want, list) and isinstance(have, list):
        tp = next(p for p in g.phases if k in p.result_fields(st))
        for i, (w, h) in enumerate(zip(want, have, strict=False)):
            if w != h:
                return (f"trick {i}: states winner seat {w} but the replay gives seat {h}",
                        _trick_source(g, tp, got["hand"], i, rec, index))
        return f"states {len(want)} trick winners but the replay gives {len(have)}", tp.result_source(k)
    if k == "scores" and isinstance(want, list) and isinstance(have, list) and len(want) == len(have):
        e = next((e for e, (w, h) in enumerate(zip(want, have, strict=True)) if w != h), 0)
        facts = got.get("facts")
        src: Source | None = g.scoring.tables[0].source if g.scoring.tables else None
        how = ""
        if facts is not None and not got.get("thrown_in"):
            src, shown = g.scoring.cite(facts[e], want[e])  # the row that accounts for the stated score
            how = "; " + ", ".join(f"{n} {v}" for n, v in shown.items())
        return (f"states scores {want} but the replay gives {have}: {_entity(g, e)} scores {have[e]}"
                f"{how}"), src
    if k == "totals":
        return f"states totals {want} but the replay gives {have}", g.match.source
    if k == "melds" and isinstance(want, list) and isinstance(have, list):
        mp = next(p for p in g.phases if k in p.result_fields(st))
        j = next((j for j, (w, h) in enumerate(zip(want, have, strict=False)) if not _same_sets([w], [h])), -1)
        if j < 0:  # the sets both name agree: one list is longer
            n = min(len(want), len(have))
            return (f"states {counted(len(want), 'set')} on the table but the replay gives {len(have)}; the first "
                    f"{'missing' if len(want) < len(have) else 'extra'} is set {n} (counted from 0): "
                    f"{short_repr((have if len(want) < len(have) else want)[n])}", mp.result_source(k))
        return (f"set {j} (counted from 0): states {short_repr(want[j])} but the replay gives {short_repr(have[j])}",
                mp.result_source(k))
    if k in ("trump", "maker"):
        return _states(k, want, have), _contract_source(g, got["hand"], rec, index)
    if k == "dealer":
        return _states(k, want, have), g.match.rotation_source
    if k == "thrown_in":  # a hand is thrown in when everyone passes: the all-pass clause of the bidding
        return _states(k, want, have), _all_pass_source(g)
    ph = next((p for p in g.phases if k in p.result_fields(st)), None) or \
        next((p for p in g.phases if k in p.fact_names()), None)  # a field the next hand's fresh state leaves out
    return _states(k, want, have), ph.result_value_source(k, have) if ph is not None else None


def _states(k: str, want: Any, have: Any) -> str:
    """``states maker 1 but the replay gives 3``, worded where either side is none (``None``: no maker)."""
    if have is None:
        return f"states {k} {want} but the replay has no {k} for this hand"
    if want is None:
        return f"states no {k} but the replay gives {have}"
    return f"states {k} {want} but the replay gives {have}"


def _contract_source(g: Game, hand: int, rec: Mapping[str, Any], index: int) -> Source:
    """The clause by which a hand's trump and maker were settled, the hand ending at action ``index``: the
    record is played again up to that action (only when a stated trump or maker is wrong), and the first phase
    that settled the contract says (``Component.contract_source``: the up card that fixed trump, the calling
    round in which trump was made, the auction's bid), from its state while the hand was still being played.
    Else the first such phase's own clause."""
    default = next((ph.source for ph in g.phases if ph.settles_contract), g.match.rotation_source)
    if index < 0:
        return default
    st = _replayed_to(g, rec, index)
    if st.hand_no != hand:  # the action before ``index`` is not in that hand (a hand played with no action)
        return default
    for ph in g.phases:  # the first that settled them (an up card's auto_trump before the auction's bid)
        src = ph.contract_source(st) if ph.settles_contract else None
        if src is not None:
            return src
    return default


def _replayed_to(g: Game, rec: Mapping[str, Any], index: int) -> State:
    """The record played again up to (not including) action ``index``: an audit's look back, once a stated result
    is found wrong, at the position in which the hand that ended at ``index`` was still being played."""
    st = _initial_state(g, rec)
    for i, step in enumerate(itertools.islice(rec["actions"], index)):
        _step_with_unseen(st, step["action"], i, {}, [])
    return st


def _trick_source(g: Game, tp: Component, hand: int, trick: int, rec: Mapping[str, Any], index: int
                  ) -> Source | None:
    """The clause that decides the winner of trick ``trick`` of ``hand``, which ended at action ``index`` of
    ``rec``: the trick phase's (``Component.trick_source``: a trick decided between copies of one card cites the
    clause on identical cards), read from the record played again up to that action; else the phase's clause for
    trick winners (the hand's last action names a card the record does not show, or no trick phase is playing)."""
    default = tp.result_source("trick_winners")
    if index < 0:
        return default
    st = _replayed_to(g, rec, index)
    text = rec["actions"][index]["action"]
    if st.hand_no != hand or st.comp is not tp or _names_unseen(text):
        return default
    return tp.trick_source(st, trick, (g.parse_action(text),))


def _all_pass_source(g: Game) -> Source | None:
    """The clause saying what happens when everyone passes (a phase's ``all_pass_source``), if any."""
    for ph in g.phases:
        src = getattr(ph, "all_pass_source", None)
        if isinstance(src, Source):
            return src
    return None


def read_records(path: Path, keep_going: bool = False) -> Iterator[tuple[str, Any]]:
    """Records from a file: one JSON document, or JSON Lines, plain or gzip-compressed (told by the file's first
    bytes, not its name: ``cardspec simulate --records x.jsonl.gz`` writes gzip). Yields (where, record).

    Reads in chunks with a per-record size limit, so a huge file or a huge line
    fails fast in bounded memory (about :data:`MAX_RECORD_BYTES` plus a chunk),
    and long runs of blank lines are skipped at C speed. Errors name the file and
    the line. With ``keep_going``, a record that is not UTF-8 JSON is yielded as its
    :class:`RecordError` and reading goes on; a file that cannot be opened, a line
    over the size limit, or a broken gzip stream still raises (after the records before it).
    """
    if not keep_going:
        for where, rec in read_records(path, True):
            if isinstance(rec, RecordError):
                raise rec
            yield where, rec
        return
    why = not_readable(path)
    if why is not None:
        raise RecordError(f"cannot read {path}: {why}")
    try:
        opened = path.open("rb")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    with opened:
        try:
            yield from _records_of(opened, path)
        except OSError as exc:  # a read that fails midway (an I/O error of the device): named, not a traceback
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None


def _records_of(opened: Any, path: Path) -> Iterator[tuple[str, Any]]:
    """:func:`read_records` of an opened file (``keep_going``)."""
    fh: Any = _Gunzip(opened, path) if opened.peek(len(GZIP_MAGIC))[:len(GZIP_MAGIC)] == GZIP_MAGIC else opened
    lines = _lines(fh, path)
    first = next(lines, None)
    if first is None:
        return
    n, raw = first
    try:
        text = _decode(raw, f"{path}:{n}")
    except RecordError as exc:
        yield f"{path}:{n}: ", exc
        text = ""
    dense = _too_dense(text, f"{path}:{n}") if text else None
    if dense is not None:  # refused unparsed; the lines after it are records of their own
        yield f"{path}:{n}: ", dense
        text = ""
    parsed = _try_json(text) if text else _NOT_JSON
    if parsed is _NOT_JSON and text.lstrip()[:1] in ("{", "[") and not _whole_json(text):
        # The first line does not parse alone: the file is one (pretty-printed) document. (A line that
        # is whole JSON but refused, a key given twice, is a record of its own: its error names the line.)
        try:
            whole: Any = _single(fh, path)
        except RecordError as exc:
            whole = exc
        yield f"{path}: ", whole
        return
    if text:
        yield f"{path}:{n}: ", parsed if parsed is not _NOT_JSON else _record_or_error(raw, f"{path}:{n}")
    name = str(path)
    for n, raw in lines:
        at = f"{name}:{n}"
        yield at + ": ", _record_or_error(raw, at)


GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of every gzip stream."""


class _Gunzip:
    """A gzip stream read as the bytes it holds, a chunk at a time (``peek`` looked at its first bytes without
    taking them, so a pipe works too); a broken stream is a :class:`RecordError` naming the file."""

    def __init__(self, raw: Any, path: Path) -> None:
        self._z = gzip.GzipFile(fileobj=raw, mode="rb")
        self._path = path
        self._broken: RecordError | None = None
        """The error met after the bytes last returned: raised by the next read, so that every record
        decompressed before a break is read first (``GzipFile.read`` drops what it holds when it fails)."""

    def read(self, n: int = -1) -> bytes:
        if self._broken is not None:
            raise self._broken
        out = bytearray()
        try:
            while n < 0 or len(out) < n:
                part = self._z.read1(_CHUNK if n < 0 else n - len(out))
                if not part:
                    break
                out += part
        except (OSError, EOFError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
            self._broken = RecordError(f"{self._path}: not a valid gzip file ({exc})")
            if not out:
                raise self._broken from None
        return bytes(out)

    def seek(self, pos: int) -> int:
        try:
            return self._z.seek(pos)
        except (OSError, EOFError, zlib.error) as exc:
            raise RecordError(f"{self._path}: not a valid gzip file ({exc})") from None


def _record_or_error(raw: bytes, where: str) -> Any:
    """One line parsed, or the :class:`RecordError` that says why it is no record."""
    dense = _too_dense(raw, where)
    if dense is not None:
        return dense
    rec = _quick(raw)  # orjson reads UTF-8 bytes and checks them
    if rec is not _NOT_JSON:
        return rec
    try:
        return _parse_json(_decode(raw, where), where)
    except RecordError as exc:
        return exc


def _lines(fh: Any, path: Path) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of every line that is not blank; no line may exceed the limit."""
    buf = bytearray()
    n = 0  # newlines consumed so far: the current line is n + 1
    at_start = True
    seen = 0  # the bytes of buf's unfinished first line already searched for a newline (a long line: not again)
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
            nl = buf.find(b"\n", max(i, seen))
            seen = 0
            if nl < 0:
                pos = i
                seen = len(buf) - i  # kept from i on: searched up to the end
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

DENSE_FREE_BYTES = 1_000_000
"""A record up to this long is parsed whatever it holds (the densest such line, of tiny containers, costs about
25 MB of Python objects). A longer one is parsed only when it is no denser than records are (:func:`_too_dense`)."""
_BYTES_PER_CONTAINER = 12
"""In a record longer than :data:`DENSE_FREE_BYTES`, at least this many bytes per array or object (``[``, ``{``):
the records the engine writes hold one per 27 bytes or more (an action is an object of about 30 bytes)."""
_BYTES_PER_VALUE = 4
"""In such a record, at least this many bytes per value (an array, an object, or one after a comma): the engine's
records hold one per 7.7 bytes or more (a deal's card names, ``"10H",``)."""


def _too_dense(doc: str | bytes, where: str) -> RecordError | None:
    """The error for a record longer than :data:`DENSE_FREE_BYTES` that packs more arrays, objects or values in its
    bytes than any record does (a hostile line of tiny containers, which would cost tens of bytes of Python objects,
    and seconds of garbage collection, per byte it has), told by counting at C speed before it is parsed; else
    None. Brackets and commas inside strings are counted too: a record's strings are short card names and words."""
    n = len(doc)
    if n <= DENSE_FREE_BYTES:
        return None
    if isinstance(doc, bytes):
        containers = doc.count(b"[") + doc.count(b"{")
        values = containers + doc.count(b",")
    else:
        containers = doc.count("[") + doc.count("{")
        values = containers + doc.count(",")
    if containers * _BYTES_PER_CONTAINER <= n and values * _BYTES_PER_VALUE <= n:
        return None
    return RecordError(f"{where}: not a record: {n} bytes holding {containers} arrays and objects and {values} "
                       f"values, more than a record longer than {DENSE_FREE_BYTES} bytes holds (at most one array or "
                       f"object per {_BYTES_PER_CONTAINER} bytes, one value per {_BYTES_PER_VALUE})")


def _whole_json(text: str) -> bool:
    """Whether ``text`` is one JSON value, read leniently (a key given twice is allowed here)."""
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


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


@cache
def _quick_loads() -> Callable[[str | bytes], Any]:
    """orjson's parser where it is installed (a record in about half the time), else the standard one."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - installed wherever a wheel exists
        return json.loads
    return orjson.loads


def _quick(doc: str | bytes) -> Any:
    """JSON text (or its UTF-8 bytes) read by the quick parser (:func:`_quick_loads`), or :data:`_NOT_JSON`
    when the standard parser must read it: when the quick one refuses it, when it holds a float, and when
    its objects hold fewer keys than the text has colons.

    Every key is followed by a colon, and a colon elsewhere sits inside a string; so when the parsed
    objects hold as many keys as the text has colons, no key was repeated. The standard parser's verdict,
    message and numbers are the ones a record gets: orjson is stricter (no ``NaN``, no lone surrogate, at
    most 1,024 levels) and reads an integer past 64 bits as a float.
    """
    try:
        out = _quick_loads()(doc)
    except (ValueError, RecursionError):  # orjson.JSONDecodeError is a ValueError; without orjson, json may recurse
        return _NOT_JSON
    colons = doc.count(":") if isinstance(doc, str) else doc.count(b":")
    return out if _keys(out) == colons else _NOT_JSON


def _loads(text: str) -> Any:
    """JSON text parsed; a duplicate key in an object is an error (``ValueError``)."""
    out = _quick(text)
    if out is _NOT_JSON:
        out = json.loads(text, object_pairs_hook=_no_duplicates)
    return out


def _keys(x: object) -> int:
    """How many keys the objects in a parsed JSON value hold, nested ones included; -1 if it holds a
    float (orjson reads an integer past 64 bits as a float, where the standard parser keeps it whole)."""
    n = 0
    todo: list[object] = [x]
    while todo:
        v = todo.pop()
        if isinstance(v, dict):
            n += len(v)
            for y in v.values():
                if not isinstance(y, str) and _nested(y, todo):
                    return -1
        elif isinstance(v, list):
            for y in v:
                if not isinstance(y, str) and _nested(y, todo):
                    return -1
        elif isinstance(v, float):
            return -1
    return n


def _nested(y: object, todo: list[object]) -> bool:
    """Note a value inside an object or array: an object or array is looked into later; True for a float."""
    if isinstance(y, (dict, list)):
        todo.append(y)
        return False
    return isinstance(y, float)


def _parse_json(text: str, where: str) -> Any:
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"{where}: record larger than {MAX_RECORD_BYTES} bytes")
    dense = _too_dense(text, where)
    if dense is not None:
        raise dense
    try:
        return _loads(text)
    except RecursionError:
        raise RecordError(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:
        raise RecordError(f"{where}: malformed JSON: {str(exc)[:200]}") from None
