"""Reading EGN (Euchre Game Notation, 1.2 to 1.4) and EMN (Euchre Match Notation) JSON.

The reader checks the structure the importer relies on (types, required keys, the card and call
syntax) and turns each game into :class:`EgnGame`. What it cannot use (metadata, annotations,
analysis lines, keys it does not know) it reports as problems, never silently. Versions 1.0 and
1.1 are read through the renames of the spec's ``egn-upgrade`` tool. A bad file raises
:class:`EgnError`, which names the file and the JSON path.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from ..engine.errors import RecordError
from ..engine.loader import not_readable
from ..engine.record import _no_duplicates  # the records' JSON reader refuses duplicate keys the same way
from .condensed import CondensedError, unpack

EGN_TYPE = "Euchre Game Notation"
EMN_TYPE = "Euchre Match Notation"
MAX_BYTES = 8 << 20  # the spec's own cap on a file
MAX_DEAL_NUMBER = 100_000
"""The largest ``dealNumber`` read: the record schema's largest hand number (``start.hand``)."""
CARD = re.compile(r"^([78N9TJQKAX][SsHhCcDdxtngh]|[LRB])$")
CALLS = ("Pass", "Order", "s", "h", "d", "c", "n", "x")
_VERSION = re.compile(r"^1\.(\d+)(?:\.\d+)?$")
_LEGACY_KEYS = {  # egn-upgrade's renames (1.0/1.1 snake_case, and the unreleased max_deals)
    "player_cards": "playerCards", "calls_annotations": "callAnnotations", "tricks_annotations": "playAnnotations",
    "card_exchanges": "cardExchanges", "match_id": "gameId", "matchId": "gameId", "max_deals": "num_deals",
    "player_ids": "playerIds", "initial_state": "initialState", "up_card": "upCard", "is_alone": "isAlone",
    "deal_number": "dealNumber", "phase_number": "phaseNumber", "initial_score": "initialScore",
    "alone_defender": "aloneDefender", "alternative_lines": "alternativeLines", "branch_index": "branchIndex",
    "initial_lead": "initialLead", "file_type": "fileType", "final_score": "finalScore",
}
_LEGACY_DROPPED = ("timings", "views", "layouts", "videoUrl", "viewSwitches", "screens")
_METADATA = ("gameId", "title", "description", "date", "players")


class EgnError(RecordError):
    """An EGN or EMN file that cannot be read: names the file and the JSON path."""

    def __init__(self, file: str, path: str, message: str) -> None:
        super().__init__(f"{file}: {path or '<top>'}: {message}")
        self.file, self.path, self.detail = file, path, message


@dataclass
class Reader:
    """Where we are (file, path prefix) and the problems found so far."""

    file: str
    problems: list[str]
    prefix: str = ""

    def at(self, path: str) -> str:
        return f"{self.prefix}{path}"

    def fail(self, path: str, message: str) -> NoReturn:
        raise EgnError(self.file, self.at(path), message)

    def note(self, path: str, message: str) -> None:
        self.problems.append(f"{self.file}: {self.at(path) or '<top>'}: {message}")

    def obj(self, v: Any, path: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            self.fail(path, f"must be a JSON object, got {_kind(v)}")
        return v

    def arr(self, v: Any, path: str, limit: int) -> list[Any]:
        if not isinstance(v, list):
            self.fail(path, f"must be a JSON array, got {_kind(v)}")
        if len(v) > limit:
            self.fail(path, f"holds {len(v)} items; EGN allows at most {limit}")
        return v

    def integer(self, v: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
        if type(v) is not int:
            self.fail(path, f"must be an integer, got {_kind(v)}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            self.fail(path, f"{v} is out of range {lo}..{hi if hi is not None else ''}")
        return v

    def boolean(self, v: Any, path: str) -> bool:
        if type(v) is not bool:
            self.fail(path, f"must be true or false, got {_kind(v)}")
        return v

    def card(self, v: Any, path: str) -> str:
        if not isinstance(v, str) or not CARD.match(v):
            self.fail(path, f"{_short(v)} is not an EGN card (rank 9 T J Q K A, 7 8 N or X, then suit c d h s or x; "
                            "or R, L, B)")
        return v

    def cards(self, v: Any, path: str) -> list[str]:
        return [self.card(c, f"{path}.{i}") for i, c in enumerate(self.arr(v, path, 10))]

    def keys(self, d: dict[str, Any], path: str, known: tuple[str, ...]) -> None:
        for k in d:
            if k not in known:
                self.note(_join(path, k), "unknown key, ignored (EGN 1.4 does not define it)")


@dataclass
class Bidding:
    """A deal's EUCHRE_BIDDING phase."""

    path: str
    calls: list[str]
    is_alone: bool
    alone_defender: int
    discard: str | None
    exchanges: bool


@dataclass
class EgnDeal:
    """One deal (hand) of a game."""

    path: str
    number: int
    dealer: int
    up_card: str
    player_cards: list[list[str]]
    kitty: list[str]
    """Cards under the turned card: only the 1.0 ``kitty`` field gives them ('' when unknown)."""
    bidding: Bidding | None
    tricks: list[list[str]] | None
    tricks_path: str
    lead: int | None = None
    """The 1.0 ``initialLead``, checked against the rules."""


@dataclass
class EgnGame:
    """One game: what the importer maps."""

    path: str
    """The JSON path of the game ('' for an .egn file, ``games.N.gameData`` in a match)."""
    ruleset: dict[str, Any]
    initial_score: list[int]
    final_score: list[int] | None
    deals: list[EgnDeal]
    players: list[str] = field(default_factory=list)


def _kind(v: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null",
            int: "an integer", float: "a number"}.get(type(v), type(v).__name__)


def _short(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def kind_of(v: Any) -> str:
    """What a JSON value is, as an error names it (``an integer``, ``a number``, ``a string`` ...)."""
    return _kind(v)


def short(v: Any) -> str:
    """A JSON value as an error shows it, cut at 40 characters."""
    return _short(v)


def _join(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def read_file(path: Path) -> tuple[str, Any]:
    """The file's JSON value; :class:`EgnError` when it cannot be read or is not JSON."""
    name = str(path)
    why = not_readable(path)
    if why is not None:
        raise EgnError(name, "", f"cannot read the file: {why}")
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise EgnError(name, "", f"cannot read the file: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise EgnError(name, "", f"larger than {MAX_BYTES} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EgnError(name, "", f"not UTF-8 text (byte {exc.start})") from None
    try:
        return name, json.loads(text, object_pairs_hook=_no_duplicates)
    except RecursionError:
        raise EgnError(name, "", "JSON nested too deeply") from None
    except ValueError as exc:
        raise EgnError(name, "", f"not JSON: {str(exc)[:160]}") from None


def read_games(file: str, doc: Any, problems: list[str]) -> list[EgnGame]:
    """Every game of an EGN file (one) or an EMN match file (one per entry of ``games``)."""
    r = Reader(file, problems)
    top = r.obj(doc, "")
    kind = top.get("fileType")
    if kind == EGN_TYPE:
        return [_game(Reader(file, problems), top, "")]
    if kind != EMN_TYPE:
        r.fail("fileType", f"must be '{EGN_TYPE}' or '{EMN_TYPE}', got {_short(kind)}")
    version = top.get("version")
    if not isinstance(version, str) or not re.match(r"^1\.\d+(\.\d+)?$", version):
        r.fail("version", f"must be an EMN 1.x version, got {_short(version)}")
    r.keys(top, "", ("fileType", "version", "metadata", "games"))
    meta = r.obj(top.get("metadata"), "metadata")
    kept = [k for k in meta if k != "players"]
    r.note("metadata", "match metadata (" + ", ".join(["players", *kept]) + ") is not kept: records have no place "
           "for it")
    games = []
    seated = []
    for i, g in enumerate(r.arr(top.get("games"), "games", 10_000)):
        entry = r.obj(g, f"games.{i}")
        r.keys(entry, f"games.{i}", ("gameIndex", "players", "playersOverride", "gameData"))
        seated += [f"games.{i}.{k}" for k in ("players", "playersOverride") if k in entry]
        if "gameIndex" in entry:
            r.integer(entry["gameIndex"], f"games.{i}.gameIndex", 0)
        if "gameData" not in entry:
            r.fail(f"games.{i}", "missing the required key 'gameData'")
        data = r.obj(entry["gameData"], f"games.{i}.gameData")
        if data.get("fileType") != EGN_TYPE:
            r.fail(f"games.{i}.gameData.fileType", f"must be '{EGN_TYPE}', got {_short(data.get('fileType'))}")
        games.append(_game(Reader(file, problems, f"games.{i}.gameData."), data, f"games.{i}.gameData"))
    if seated:
        more = f" and {len(seated) - 3} more" if len(seated) > 3 else ""
        problems.append(f"{file}: {', '.join(seated[:3])}{more}: the players' ids in seat order are not kept")
    return games


def _upgrade(v: Any) -> Any:
    """The 1.0/1.1 key renames (annotation maps keep their numeric keys)."""
    if isinstance(v, list):
        return [_upgrade(x) for x in v]
    if isinstance(v, dict):
        return {_LEGACY_KEYS.get(k, k): _upgrade(x) for k, x in v.items()}
    return v


def _game(r: Reader, top: dict[str, Any], path: str) -> EgnGame:
    version = top.get("version")
    m = _VERSION.match(version) if isinstance(version, str) else None
    if m is None:
        r.fail("version", f"must be an EGN version 1.2 to 1.4 (or an older 1.x), got {_short(version)}")
    minor = int(m.group(1))
    legacy = minor < 2
    if legacy:
        r.note("version", f"version {version} predates EGN 1.2; read with egn-upgrade's renames "
               "(the 1.0 'kitty' is used, 'initialLead' is checked against the rules)")
        top = _upgrade(top)
    elif minor > 4:
        r.note("version", f"version {version} is newer than 1.4; read as 1.4")
    elif _has_key(top, "max_deals"):
        r.note("metadata.ruleset.max_deals", "the unreleased key max_deals is read as num_deals")
        top = _upgrade(top)
    for k in _LEGACY_DROPPED:
        if k in top:
            r.note(k, "a 1.0 renderer setting, not kept")
    r.keys(top, "", ("fileType", "version", "metadata", "deals", *_LEGACY_DROPPED))
    for k in ("metadata", "deals"):
        if k not in top:
            r.fail("", f"missing the required key '{k}'")
    meta = r.obj(top["metadata"], "metadata")
    r.keys(meta, "metadata", (*_METADATA, "initialScore", "finalScore", "ruleset"))
    if "players" not in meta:
        r.fail("metadata", "missing the required key 'players'")
    players = _players(r, meta["players"])
    dropped = [k for k in _METADATA if k in meta and (k != "players" or players)]
    if dropped:
        r.note("metadata", f"{', '.join(dropped)} not kept: records have no place for them")
    if "initialScore" not in meta:
        r.fail("metadata", "missing the required key 'initialScore'")
    initial = _score(r, meta["initialScore"], "metadata.initialScore")
    final = _score(r, meta["finalScore"], "metadata.finalScore") if "finalScore" in meta else None
    ruleset = r.obj(meta.get("ruleset", {}), "metadata.ruleset")
    deals = []
    extras: dict[str, list[str]] = {}
    for i, d in enumerate(r.arr(top["deals"], "deals", 100)):
        where = f"deals.{i}"
        if isinstance(d, str):
            try:
                d = unpack(d, i)
            except CondensedError as exc:
                r.fail(where, f"not a condensed deal string: {exc}")
        deals.append(_deal(r, r.obj(d, f"deals.{i}"), f"deals.{i}", legacy, extras))
    for what, paths in extras.items():
        more = f" and {len(paths) - 8} more" if len(paths) > 8 else ""
        r.problems.append(f"{r.file}: {', '.join(r.at(p) for p in paths[:8])}{more}: {what}")
    return EgnGame(path, ruleset, initial, final, deals, players)


def _has_key(v: Any, key: str) -> bool:
    if isinstance(v, dict):
        return key in v or any(_has_key(x, key) for x in v.values())
    return isinstance(v, list) and any(_has_key(x, key) for x in v)


def _players(r: Reader, v: Any) -> list[str]:
    out = []
    for i, p in enumerate(r.arr(v, "metadata.players", 10)):
        if isinstance(p, dict):
            name = p.get("name")
            if not isinstance(name, str):
                r.fail(f"metadata.players.{i}.name", "a player object needs a name (a string)")
            out.append(name)
        elif isinstance(p, str):
            out.append(p)
        else:
            r.fail(f"metadata.players.{i}", f"must be a name or a player object, got {_kind(p)}")
    return out


def _score(r: Reader, v: Any, path: str) -> list[int]:
    """``initialScore`` or ``finalScore``: two integers, team 0/2's score then team 1/3's; any other value is
    of the wrong type, and the file cannot be read (docs/egn.md)."""
    items = [r.integer(x, f"{path}.{i}") for i, x in enumerate(r.arr(v, path, 2))]
    if len(items) != 2:
        r.fail(path, f"must be an array of 2 integers (team 0/2's score, team 1/3's), got {_short(items)}")
    return items


def _deal(r: Reader, d: dict[str, Any], path: str, legacy: bool, extras: dict[str, list[str]]) -> EgnDeal:
    r.keys(d, path, ("dealNumber", "initialState", "phases", "alternativeLines"))
    for k in ("dealNumber", "initialState", "phases"):
        if k not in d:
            r.fail(path, f"missing the required key '{k}'")
    number = r.integer(d["dealNumber"], f"{path}.dealNumber", 0, MAX_DEAL_NUMBER)
    st = r.obj(d["initialState"], f"{path}.initialState")
    sp = f"{path}.initialState"
    r.keys(st, sp, ("dealer", "upCard", "playerCards", *(("kitty",) if legacy else ())))
    for k in ("dealer", "upCard"):
        if k not in st:
            r.fail(sp, f"missing the required key '{k}'")
    dealer = r.integer(st["dealer"], f"{sp}.dealer", 0, 9)
    up = r.card(st["upCard"], f"{sp}.upCard")
    hands = [r.cards(h, f"{sp}.playerCards.{s}") for s, h in enumerate(r.arr(st.get("playerCards", []),
                                                                             f"{sp}.playerCards", 10))]
    kitty: list[str] = []
    if "kitty" in st:
        for i, c in enumerate(r.arr(st["kitty"], f"{sp}.kitty", 10)):
            kitty.append("" if c == "" else r.card(c, f"{sp}.kitty.{i}"))
    if "alternativeLines" in d:
        r.arr(d["alternativeLines"], f"{path}.alternativeLines", 50)
        extras.setdefault("analysis lines (alternativeLines) are not kept", []).append(f"{path}.alternativeLines")
    bidding: Bidding | None = None
    tricks: list[list[str]] | None = None
    tricks_path = f"{path}.phases"
    lead = None
    for i, ph in enumerate(r.arr(d["phases"], f"{path}.phases", 2)):
        pp = f"{path}.phases.{i}"
        ph = r.obj(ph, pp)
        kind = ph.get("type")
        for k in ("type", "calls" if kind == "EUCHRE_BIDDING" else "tricks"):
            if k not in ph:
                r.fail(pp, f"missing the required key '{k}'")
        if "phaseNumber" in ph:
            r.integer(ph["phaseNumber"], f"{pp}.phaseNumber")
        if kind == "EUCHRE_BIDDING":
            if bidding is not None or tricks is not None:
                r.fail(pp, "a second bidding phase, or bidding after the play")
            bidding = _bidding(r, ph, pp, extras)
        elif kind == "TRICK_PLAY":
            if tricks is not None:
                r.fail(pp, "a second trick-play phase")
            r.keys(ph, pp, ("phaseNumber", "type", "tricks", "isAlone", "playAnnotations",
                            *(("initialLead",) if legacy else ())))
            tricks_path = f"{pp}.tricks"
            tricks = [r.cards(t, f"{tricks_path}.{j}") for j, t in enumerate(r.arr(ph["tricks"], tricks_path, 10))]
            if "isAlone" in ph and r.boolean(ph["isAlone"], f"{pp}.isAlone") != (bidding is not None and
                                                                                bidding.is_alone):
                r.note(f"{pp}.isAlone", "disagrees with the bidding phase's isAlone, which decides")
            if "initialLead" in ph:
                lead = r.integer(ph["initialLead"], f"{pp}.initialLead", 0, 9)
            if "playAnnotations" in ph:
                r.obj(ph["playAnnotations"], f"{pp}.playAnnotations")
                extras.setdefault("annotations are not kept", []).append(f"{pp}.playAnnotations")
        else:
            r.fail(f"{pp}.type", f"must be 'EUCHRE_BIDDING' or 'TRICK_PLAY', got {_short(kind)}")
    return EgnDeal(path, number, dealer, up, hands, kitty, bidding, tricks, tricks_path, lead)


def _bidding(r: Reader, ph: dict[str, Any], pp: str, extras: dict[str, list[str]]) -> Bidding:
    r.keys(ph, pp, ("phaseNumber", "type", "calls", "isAlone", "aloneDefender", "discard", "cardExchanges",
                    "callAnnotations"))
    calls = r.arr(ph["calls"], f"{pp}.calls", 16)
    for i, c in enumerate(calls):
        if c not in CALLS:
            r.fail(f"{pp}.calls.{i}", f"{_short(c)} is not an EGN call ({', '.join(CALLS)})")
    alone = r.boolean(ph.get("isAlone", False), f"{pp}.isAlone")
    defender = r.integer(ph.get("aloneDefender", -1), f"{pp}.aloneDefender", -1, 9)
    discard = r.card(ph["discard"], f"{pp}.discard") if "discard" in ph else None
    exchanges = False
    if "cardExchanges" in ph:
        for j, x in enumerate(r.arr(ph["cardExchanges"], f"{pp}.cardExchanges", 4)):
            ex = r.obj(x, f"{pp}.cardExchanges.{j}")
            r.cards(ex.get("cards", []), f"{pp}.cardExchanges.{j}.cards")
        exchanges = bool(ph["cardExchanges"])
        if exchanges:
            r.note(f"{pp}.cardExchanges", "card exchanges (farmers, partners_best, go_under) have no cardspec "
                   "form; not kept, so later plays are judged as if the cards had been dealt where they are played")
    if "callAnnotations" in ph:
        r.obj(ph["callAnnotations"], f"{pp}.callAnnotations")
        extras.setdefault("annotations are not kept", []).append(f"{pp}.callAnnotations")
    return Bidding(pp, list(calls), alone, defender, discard, exchanges)
