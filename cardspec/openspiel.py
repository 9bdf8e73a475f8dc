"""``cardspec import openspiel``: OpenSpiel euchre histories as cardspec records (no pyspiel needed).

OpenSpiel's euchre (open_spiel 2.x) is one hand a game. Its history is a list of action ids:

* chance: the dealer (0..3), then 20 cards, the k-th to seat ``(dealer + k) % 4``, then the up card;
  a card id is ``rank * 4 + suit`` (ranks ``9 T J Q K A``, suits ``C D H S``);
* ``24`` pass; ``25``..``28`` a suit (C, D, H, S): in the first round the up card's suit, which is
  cardspec's ``order_up``; in the second round ``name`` that suit;
* after an order-up, the dealer's discard (a card id);
* ``29`` alone, ``30`` with the partner: first the maker, then (``allow_lone_defender``) the defenders;
* then the cards played.

Seats are the same numbers in both (0..3 clockwise, partners 0+2 and 1+3). Each history becomes a
``scope: hand`` record of the ``euchre`` system under OpenSpiel's rules, as options: no Farmer's Hand,
the dealer may not discard the card picked up (``dealer_discard: not_turned_card``),
``lone_defender: always`` when ``allow_lone_defender`` is set, and stick the dealer
(``all_pass: dealer_must_name``) unless ``stick_the_dealer`` is false (``redeal``). The kitty's three
cards under the up card are never dealt in OpenSpiel's history: they are unseen (``?``). Returns, when
given, become the stated scores: the side with the positive return scores it. Returns as OpenSpiel's euchre
never gives them (partners' returns differ, or the teams' are not opposite) are refused.

Input: a file of JSON Lines, each line a list of action ids or an object ``{"history": [...],
"params": {...}, "returns": [...]}``; or a file holding one serialized state (``state.serialize()``:
one action id per line).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from .engine.actions import whole_number
from .engine.errors import CardspecError, RecordError
from .engine.game import Game
from .engine.loader import is_one_of, not_readable
from .engine.record import FORMAT, dumps

MAX_HISTORY_BYTES = 64 << 20
"""The largest file of histories read (a euchre history is about 100 bytes; a device never ends)."""

RANKS = ("9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
PASS, SUIT0, ALONE, PARTNER = 24, 25, 29, 30
PARAMS = {"allow_lone_defender": bool, "stick_the_dealer": bool}


def card_name(a: int) -> str:
    """An OpenSpiel card id as a cardspec card name.

    >>> card_name(0), card_name(10), card_name(23)
    ('9C', 'JH', 'AS')
    """
    return RANKS[a // 4] + SUITS[a % 4]


def options_for(params: dict[str, Any], where: str) -> dict[str, Any]:
    """cardspec euchre options for OpenSpiel game parameters."""
    for k, v in params.items():
        if k not in PARAMS:
            raise RecordError(f"{where}: OpenSpiel parameter '{k}' has no cardspec option "
                              f"(known: {', '.join(PARAMS)})")
        if type(v) is not PARAMS[k]:
            raise RecordError(f"{where}: OpenSpiel parameter '{k}' must be true or false")
    return {"farmers_hand": "off", "dealer_discard": "not_turned_card",
            "lone_defender": "always" if params.get("allow_lone_defender") else "off",
            "all_pass": "dealer_must_name" if params.get("stick_the_dealer", True) else "redeal"}


def record_of_history(history: list[int], params: dict[str, Any], returns: list[int] | None,
                      where: str) -> tuple[dict[str, Any], list[str]]:
    """One OpenSpiel history as a one-hand cardspec record, and what could not be mapped."""
    if not isinstance(history, list) or any(type(a) is not int for a in history):
        raise RecordError(f"{where}: a history is a list of action ids")
    if len(history) < 22:
        raise RecordError(f"{where}: the history stops before the deal is complete ({len(history)} ids, 22 needed)")
    dealer = history[0]
    if not 0 <= dealer < 4:
        raise RecordError(f"{where}: action 0 (the dealer) must be 0..3, got {dealer}")
    cards = history[1:22]
    if any(not 0 <= c < 24 for c in cards) or len(set(cards)) != 21:
        raise RecordError(f"{where}: actions 1..21 must be 21 different card ids 0..23")
    hands: list[list[str]] = [[] for _ in range(4)]
    for k, c in enumerate(cards[:20]):
        hands[(dealer + k) % 4].append(card_name(c))
    up = cards[20]
    deal = {"dealer": dealer, "hands": hands, "piles": {"kitty": [card_name(up), "?", "?", "?"]}}
    options = options_for(params, where)
    game = Game.from_system("euchre", options)
    st = game.new_initial_state(None, [deal], None, 1)
    actions: list[dict[str, Any]] = []
    problems: list[str] = []
    bids = 0
    stepping = True
    for i, a in enumerate(history[22:], start=22):
        phase = st.comp.id if stepping else ""
        if phase == "calling" and SUIT0 <= a < SUIT0 + 4:
            name = "order_up" if bids < 4 and a - SUIT0 == up % 4 else f"name {SUITS[a - SUIT0]}"
        elif phase == "calling" and a == PASS:
            name = "pass"
        elif phase == "calling" and 0 <= a < 24:
            name = f"discard {card_name(a)}"
        elif phase in ("going_alone", "defending_alone") and a in (ALONE, PARTNER):
            name = ("alone" if phase == "going_alone" else "defend_alone") if a == ALONE else "pass"
        elif 0 <= a < 24:
            name = f"play {card_name(a)}"
        elif a in (ALONE, PARTNER):
            name = "alone" if a == ALONE else "pass"
        elif a == PASS:
            name = "pass"
        else:
            raise RecordError(f"{where}: action {i} is no OpenSpiel euchre action id: {a}")
        if (phase == "calling" and name in ("pass", "order_up")) or name.startswith("name "):
            bids += 1
        actions.append({"seat": st.cur, "action": name})
        if stepping:
            try:
                st.apply_name(name)
            except CardspecError as exc:
                stepping = False
                problems.append(f"{where}: action {i} ('{name}') is illegal under cardspec's rules "
                                f"({exc}); the seats of the actions after it are assumed")
    rec: dict[str, Any] = {"format": FORMAT, "system": "euchre", "options": options, "seed": None,
                           "scope": "hand", "deals": [deal], "actions": actions}
    if returns is not None:
        if not isinstance(returns, list) or len(returns) != 4 or any(
                not isinstance(r, int | float) or isinstance(r, bool) or not math.isfinite(r) or abs(r) > 1e9
                for r in returns):
            raise RecordError(f"{where}: returns must list 4 finite numbers")
        if any(r != int(r) for r in returns):
            raise RecordError(f"{where}: returns {_shown(returns)}: OpenSpiel euchre's returns are whole numbers")
        if returns[2] != returns[0] or returns[3] != returns[1] or returns[0] != -returns[1]:
            raise RecordError(f"{where}: returns {_shown(returns)}: OpenSpiel euchre gives partners (seats 0 "
                              "and 2, 1 and 3) the same return and the teams opposite ones (zero-sum), so these "
                              "state no result of a hand")
        team = [int(returns[0]), int(returns[1])]
        rec["results"] = {"hands": [{"hand": 0, "dealer": dealer, "thrown_in": team == [0, 0],
                                     "scores": [max(0, t) for t in team]}], "winners": None}
    return rec, problems


def _shown(returns: list[Any]) -> str:
    """Returns as written in the log (whole floats without their ``.0``)."""
    return "[" + ", ".join(str(int(r)) if r == int(r) else str(r) for r in returns) + "]"


def read_histories(path: Path) -> list[tuple[str, list[int], dict[str, Any], list[int] | None]]:
    """(where, history, params, returns) for each history of a file."""
    why = not_readable(path)
    if why is not None:
        raise RecordError(f"cannot read {path}: {why}")
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_HISTORY_BYTES + 1)
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    if len(raw) > MAX_HISTORY_BYTES:
        raise RecordError(f"cannot read {path}: larger than {MAX_HISTORY_BYTES} bytes")
    lines = [(n, ln.strip()) for n, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    if not lines:
        raise RecordError(f"{path}: no history in the file (it is empty)")
    if all(ln.lstrip("-").isdigit() for _, ln in lines):  # one serialized state
        ids = [whole_number(ln) for _, ln in lines]
        bad = next((n for (n, _), a in zip(lines, ids, strict=True) if a is None), None)
        if bad is not None:
            raise RecordError(f"{path}:{bad}: not an action id (a whole number in the digits 0 to 9)")
        return [(f"{path}", [a for a in ids if a is not None], {}, None)]
    out: list[tuple[str, list[int], dict[str, Any], list[int] | None]] = []
    for n, ln in lines:
        where = f"{path}:{n}"
        try:
            obj = json.loads(ln)
        except RecursionError:  # as replay and export egn say it
            raise RecordError(f"{where}: JSON nested too deeply") from None
        except ValueError as exc:
            raise RecordError(f"{where}: not JSON: {str(exc)[:120]}") from None
        if isinstance(obj, list):
            out.append((where, obj, {}, None))
        elif isinstance(obj, dict) and "history" in obj:
            params = obj.get("params", {})
            if not isinstance(params, dict):
                raise RecordError(f"{where}: params must be an object")
            out.append((where, obj["history"], params, obj.get("returns")))
        else:
            raise RecordError(f"{where}: a line is a list of action ids or an object with 'history'")
    return out


def configure_import(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("files", nargs="+", metavar="FILE")
    sp.add_argument("-o", "--output", metavar="OUT", help="write the records here (JSON Lines; default stdout)")


def cmd_import(args: argparse.Namespace) -> int:
    """Write one record per history; what could not be mapped goes to stderr as warnings."""
    clash = is_one_of(args.output, args.files) if args.output else None
    if clash is not None:
        raise RecordError(f"-o {args.output} is the input {clash}: writing there would destroy it")
    recs: list[str] = []
    for f in args.files:
        for where, history, params, returns in read_histories(Path(f)):
            rec, problems = record_of_history(history, params, returns, where)
            recs.append(dumps(rec))
            for p in problems:
                print(f"cardspec: warning: {p}", file=sys.stderr)
    text = "".join(r + "\n" for r in recs)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot write {args.output}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0
