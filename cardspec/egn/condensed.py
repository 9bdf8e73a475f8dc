"""EGN's condensed deal strings: Base64URL of a big-endian bit string (EGN ``docs/binary-format.md``).

Every integer takes ``bitlen(maxValue)`` bits; cards are indices into the deck listed rank by rank
(from the lowest rank up to A), each rank in the suit order s, h, c, d. A trick's cards are indices
into the cards not played yet. Headers ``0001`` (V1: dealer only), ``0010`` (V2) and ``0011`` (V3:
also dealt hands and the discard); the string ends with ``1010``. :func:`unpack` gives the deal as
its JSON form, so the reader checks it like any other deal.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

SUITS = ("s", "h", "c", "d")
RANKS = ("6", "7", "8", "9", "T", "J", "Q", "K", "A")
_MIN_RANKS = (9, 8, 7, 6)


class CondensedError(ValueError):
    """A string that is not a condensed deal."""


def deck(min_rank: int = 9) -> list[str]:
    """The bitpacker's deck: ``9s 9h 9c 9d Ts ... Ad`` for a 24-card deck."""
    return [r + s for r in RANKS[RANKS.index(str(min_rank)):] for s in SUITS]


class _Bits:
    def __init__(self, text: str) -> None:
        try:
            raw = base64.b64decode(text.replace("-", "+").replace("_", "/") + "=" * (-len(text) % 4), validate=True)
        except (binascii.Error, ValueError):
            raise CondensedError("not Base64URL") from None
        self.bits = "".join(f"{b:08b}" for b in raw)
        self.pos = 0

    def take(self, n: int) -> str:
        if self.pos + n > len(self.bits):
            raise CondensedError("the string ends too soon")
        out = self.bits[self.pos:self.pos + n]
        self.pos += n
        return out

    def int(self, max_value: int) -> int:
        return int(self.take(max(1, max_value.bit_length())), 2)

    def flag(self) -> bool:
        return self.take(1) == "1"


def _annotations(b: _Bits) -> dict[str, list[str]] | None:
    if not b.flag():
        return None
    out: dict[str, list[str]] = {}
    for _ in range(b.int(255)):
        key, n = b.int(255), b.int(255)
        texts = []
        for _ in range(n):
            data = bytes(b.int(255) for _ in range(b.int(65535)))
            try:
                texts.append(data.decode("utf-8"))
            except UnicodeDecodeError:
                raise CondensedError("an annotation is not UTF-8") from None
        out[str(key)] = texts
    return out


def _bidding(b: _Bits, up: str, start: int, players: int, version: int, cards: list[str]) -> dict[str, Any]:
    calls: list[str] = []
    done = False
    for _ in range(start, players):
        if b.flag():
            calls.append("Order")
            done = True
            break
        calls.append("Pass")
    if not done:
        others = [s for s in SUITS if s != up[1]]
        for _ in range(max(0, start - players), players):
            v = b.int(3)
            if v == 0:
                calls.append("Pass")
                continue
            if v > len(others):
                raise CondensedError("a round-2 call out of range")
            calls.append(others[v - 1])
            break
    ph: dict[str, Any] = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls, "isAlone": b.flag()}
    if version >= 2 and ph["isAlone"] and b.flag():
        ph["aloneDefender"] = b.int(7)
    if version >= 3 and b.flag():
        ph["discard"] = cards[min(b.int(len(cards) - 1), len(cards) - 1)]
    notes = _annotations(b)
    if notes:
        ph["callAnnotations"] = notes
    return ph


def _play(b: _Bits, per_trick: int, left: list[str], first: int | None = None) -> dict[str, Any]:
    tricks = []
    for t in range(b.int(7)):
        trick = []
        for _ in range(first if t == 0 and first else per_trick):
            if not left:
                break
            i = b.int(len(left) - 1)
            if i >= len(left):
                raise CondensedError("a card index out of range")
            trick.append(left.pop(i))
        tricks.append(trick)
    ph: dict[str, Any] = {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": tricks}
    notes = _annotations(b)
    if notes:
        ph["playAnnotations"] = notes
    return ph


def unpack(text: str, number: int) -> dict[str, Any]:
    """The deal a condensed string encodes, as an EGN deal object numbered ``number``; :class:`CondensedError`
    for a string that encodes none (a hostile string can hold any bits: an index past the deck, a table of one
    player)."""
    try:
        return _unpack(text, number)
    except CondensedError:
        raise
    except (IndexError, ZeroDivisionError, ValueError) as exc:  # bits no encoder writes: refused, not a traceback
        raise CondensedError(f"its bits decode to no deal ({type(exc).__name__})") from None


def _unpack(text: str, number: int) -> dict[str, Any]:
    b = _Bits(text)
    version = {"0001": 1, "0010": 2, "0011": 3}.get(b.take(4))
    if version is None:
        raise CondensedError("no V1-V3 header (a pre-1.2 string?)")
    if version == 1:
        dealer, players, cards = b.int(3), 4, deck()
    else:
        dealer, players, cards = b.int(7), b.int(7) + 1, deck(_MIN_RANKS[b.int(3)])
        if players < 2:
            raise CondensedError(f"a table of {players} player")
    up = cards[min(b.int(len(cards) - 1), len(cards) - 1)]
    state: dict[str, Any] = {"dealer": dealer, "upCard": up}
    if version == 3 and b.flag():
        state["playerCards"] = [[cards[min(b.int(len(cards) - 1), len(cards) - 1)] for _ in range(b.int(15))]
                                for _ in range(players)]
    deal: dict[str, Any] = {"dealNumber": number, "initialState": state, "phases": []}
    left = list(cards)
    alone = defended = False
    for _ in range(b.int(7)):
        if not b.flag():
            ph = _bidding(b, up, 0, players, version, cards)
            alone, defended = ph["isAlone"], "aloneDefender" in ph
        else:
            ph = _play(b, players - (2 if defended else 1) if alone else players, left)
        deal["phases"].append(ph)
    if b.flag():
        deal["alternativeLines"] = _alt_lines(b, deal, up, players, version, cards, alone)
    if b.take(4) != "1010":
        raise CondensedError("no end marker")
    return deal


def _alt_lines(b: _Bits, deal: dict[str, Any], up: str, players: int, version: int, cards: list[str],
               alone: bool) -> list[dict[str, Any]]:
    phases = deal["phases"]
    n_calls = len(phases[0]["calls"]) if phases and phases[0]["type"] == "EUCHRE_BIDDING" else 0
    played = [c for ph in phases if ph["type"] == "TRICK_PLAY" for t in ph["tricks"] for c in t]
    lines = []
    for _ in range(b.int(255)):
        branch = b.int(65535)
        left = list(cards)
        for c in played[:max(0, branch - n_calls)]:
            left.remove(c)
        out = []
        line_alone = alone
        for p in range(b.int(15)):
            if not b.flag():
                ph = _bidding(b, up, branch, players, version, cards)
                line_alone = ph["isAlone"]
            else:
                per = players - 1 if line_alone else players
                off = branch - n_calls
                ph = _play(b, per, left, per - off % per if p == 0 and off > 0 and off % per else None)
            out.append(ph)
        lines.append({"branchIndex": branch, "phases": out})
    return lines
