"""cardspec euchre records as EGN 1.4: one game per record (an EMN match file for several).

The actions are read back by euchre's grammar (calls, the dealer's discard, the declarations, five
tricks of plays), so a record the audit rejects still exports as it is written. A record with a seed
and no explicit deals is replayed to find its deals. Unseen cards (``?``) become ``Xx``; unknown
player names become ``Seat 0`` and so on. What EGN cannot say goes to the problems.

A Farmer's Hand (``farmers_hand C1 C2 C3``: three nines or tens for the kitty's bottom three) has no
EGN 1.4 form. It is the trader's turn to call (``counts_as_pass`` in the spec), so it exports as
``Pass``, and the deal's ``playerCards`` are the hands as they stand after the trade: every later
call and play then reads against the hand it came from. The warning names the trade.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.errors import CardspecError
from ..engine.record import deal_of, game_for
from .notation import EGN_TYPE, EMN_TYPE, EgnError
from .rules import SYSTEM, ruleset_of

_RANKS = {"9": "9", "10": "T", "T": "T", "J": "J", "Q": "Q", "K": "K", "A": "A"}


def egn_name(name: Any, where: str, path: str) -> str:
    """The EGN form of a cardspec card name (``10C`` -> ``Tc``; ``?`` -> ``Xx``)."""
    if name == "?":
        return "Xx"
    text = name.strip().upper() if isinstance(name, str) else ""
    rank = _RANKS.get(text[:-1])
    if rank is None or text[-1:] not in ("C", "D", "H", "S"):
        raise EgnError(where, path, f"{name!r} is not a card of euchre's deck")
    return rank + text[-1].lower()


def export_egn(records: Sequence[Mapping[str, Any]], problems: list[str] | None = None,
               where: Sequence[str] | None = None) -> dict[str, Any]:
    """EGN 1.4 for one record, an EMN 1.0 match of EGN games for several.

    ``problems`` (when given) receives what EGN cannot say; ``where`` names each record in messages
    (default ``record N``). Raises :class:`EgnError` on a record that is not a euchre record.
    """
    notes = problems if problems is not None else []
    names = list(where) if where is not None else [f"record {i}" for i in range(len(records))]
    if not records:
        raise EgnError("<records>", "", "no records to export")
    games = [_Game(rec, names[i], notes).egn() for i, rec in enumerate(records)]
    if len(games) == 1:
        return games[0]
    ids = [f"seat-{s}" for s in range(4)]
    return {"fileType": EMN_TYPE, "version": "1.0",
            "metadata": {"players": [{"id": i, "name": f"Seat {s}"} for s, i in enumerate(ids)]},
            "games": [{"gameIndex": i, "players": ids, "gameData": g} for i, g in enumerate(games)]}


class _Game:
    """One record read back as an EGN game."""

    def __init__(self, rec: Mapping[str, Any], where: str, notes: list[str]) -> None:
        self.where, self.notes = where, notes
        if not isinstance(rec, Mapping):
            raise EgnError(where, "", "a record must be a JSON object")
        if rec.get("system") != SYSTEM:
            raise EgnError(where, "system", f"{rec.get('system')!r} is not euchre; EGN records euchre only")
        self.rec = rec
        acts = rec.get("actions", [])
        if not isinstance(acts, list) or not all(isinstance(a, Mapping) and isinstance(a.get("action"), str)
                                                 and type(a.get("seat")) is int for a in acts):
            raise EgnError(where, "actions", "must be a list of {seat, action}")
        self.actions: list[Mapping[str, Any]] = acts
        self.pos = 0
        self.held: list[list[Any]] = []
        """The hands of the deal being exported, as they stand after any Farmer's Hand."""
        self.under: list[Any] = []
        """The kitty's cards under the turned card, top first (a trade puts the given cards there)."""
        start = rec.get("start") if isinstance(rec.get("start"), Mapping) else {}
        assert isinstance(start, Mapping)
        self.first = start.get("hand", 0) if type(start.get("hand", 0)) is int else 0
        totals = start.get("totals", [0, 0])
        self.initial = list(totals) if isinstance(totals, list) and len(totals) == 2 else [0, 0]

    def note(self, path: str, message: str) -> None:
        self.notes.append(f"{self.where}: {path}: {message}")

    def egn(self) -> dict[str, Any]:
        rec = self.rec
        options = rec.get("options", {})
        if not isinstance(options, Mapping):
            raise EgnError(self.where, "options", "must be an object")
        ruleset = ruleset_of(dict(options), lambda k, m: self.note(f"options.{k}", m))
        meta: dict[str, Any] = {"players": [f"Seat {s}" for s in range(4)], "initialScore": self.initial,
                                "ruleset": ruleset}
        results = rec.get("results")
        hands = results.get("hands") if isinstance(results, Mapping) else None
        if isinstance(hands, list) and hands and isinstance(hands[-1], Mapping) and "totals" in hands[-1]:
            meta["finalScore"] = list(hands[-1]["totals"])
        deals = []
        kitties = 0
        for i, d in enumerate(self._deals()):
            path = f"deals.{i}"
            if not isinstance(d, Mapping) or type(d.get("dealer")) is not int or not isinstance(d.get("hands"), list) \
                    or not all(isinstance(h, list) for h in d["hands"]) or not isinstance(d.get("piles"), Mapping) \
                    or not isinstance(d["piles"].get("kitty"), list):
                raise EgnError(self.where, path, "a euchre deal needs dealer, hands and piles.kitty")
            kitty = d["piles"]["kitty"]
            kitties += bool(kitty[1:] and any(c != "?" for c in kitty[1:]))
            up = egn_name(kitty[0] if kitty else "?", self.where, f"{path}.piles.kitty.0")
            state: dict[str, Any] = {"dealer": d["dealer"], "upCard": up}
            for s, h in enumerate(d["hands"]):
                for j, c in enumerate(h):
                    egn_name(c, self.where, f"{path}.hands.{s}.{j}")  # every dealt card is a euchre card
            self.held = [list(h) for h in d["hands"]]
            self.under = list(kitty[1:])
            phases = self._hand(d["dealer"])
            shown = [[egn_name(c, self.where, f"{path}.hands.{s}") for c in h if c != "?"]
                     for s, h in enumerate(self.held)]
            if any(shown):
                state["playerCards"] = shown
            deals.append({"dealNumber": self.first + i, "initialState": state, "phases": phases})
        if kitties:
            self.note("deals", f"the cards under the turned card ({kitties} of {len(deals)} deals) have no EGN 1.4 "
                      "field; not exported")
        if self.pos < len(self.actions):
            self.note(f"actions.{self.pos}", f"{len(self.actions) - self.pos} actions after the last deal or after "
                      "one with no EGN form are not exported")
        return {"fileType": EGN_TYPE, "version": "1.4", "metadata": meta, "deals": deals}

    def _deals(self) -> list[Any]:
        deals = self.rec.get("deals")
        if isinstance(deals, list) and deals:
            return deals
        if type(self.rec.get("seed")) is not int:
            raise EgnError(self.where, "deals", "no deals and no seed: nothing to export")
        return self._replayed_deals()

    def _replayed_deals(self) -> list[dict[str, Any]]:
        """The deals of a seeded record, by stepping the engine through its actions."""
        rec = self.rec
        try:
            g = game_for(rec)
            st = g.new_initial_state(rec["seed"], None, rec.get("start"), 1 if rec.get("scope") == "hand" else None)
        except CardspecError as exc:
            raise EgnError(self.where, "", f"cannot deal the record's hands: {exc}") from None
        out = [deal_of(st)]
        for i, step in enumerate(self.actions):
            hand = st.hand_no
            try:
                st.apply(g.parse_action(step["action"]))
            except CardspecError as exc:
                self.note(f"actions.{i}", f"the deals after this action are unknown ({exc}); not exported")
                break
            if st.hand_no != hand and not st.is_terminal():
                out.append(deal_of(st))
        return out

    # --- reading the actions back ---------------------------------------------------------------
    def _peek(self) -> Mapping[str, Any] | None:
        return self.actions[self.pos] if self.pos < len(self.actions) else None

    def _stop(self, what: str) -> None:
        step = self.actions[self.pos]
        self.note(f"actions.{self.pos}", f"'{step['action']}' has no EGN form ({what}); the export stops here")
        self.pos = len(self.actions) + 1

    def _trade(self, seat: int, give: list[str]) -> None:
        """A Farmer's Hand: ``give`` leaves the seat's hand for the kitty's bottom three (``self.under``),
        which take their place (a later trader takes these). An unseen card given makes the hand unknown."""
        held = self.held[seat]
        took = self.under[-len(give):] if len(self.under) >= len(give) else ["?"] * len(give)
        if "?" in give or not all(c in held for c in give):
            self.held[seat] = ["?"] * len(held)
            what = "the hand after it is unknown, and exported empty"
        else:
            for c in give:
                held.remove(c)
            held += took
            what = "the hand is exported as it stands after the trade"
        self.under[-len(give):] = list(reversed(give))
        self.note(f"actions.{self.pos}", f"seat {seat}'s Farmer's Hand ({' '.join(give)} for the kitty's bottom "
                  f"{len(give)}) has no EGN 1.4 form: exported as its Pass, and {what}")

    def _hand(self, dealer: int) -> list[dict[str, Any]]:
        """One hand's phases, taken from the actions."""
        calls: list[str] = []
        maker, picked = -1, False
        while (step := self._peek()) is not None and maker < 0 and len(calls) < 8:
            word, seat = step["action"], step["seat"]
            if word == "pass":
                calls.append("Pass")
            elif word == "order_up":
                calls.append("Order")
                maker, picked = seat, True
            elif word.startswith("name ") and word[5:].strip().upper() in ("C", "D", "H", "S"):
                calls.append(word[5:].strip().lower())
                maker = seat
            elif word.startswith("farmers_hand ") and 0 <= seat < len(self.held):
                self._trade(seat, word.split()[1:])
                calls.append("Pass")
            else:
                self._stop("not a call")
                break
            if seat != (dealer + len(calls)) % 4:
                self.note(f"actions.{self.pos}", f"seat {seat} calls where EGN's order gives seat "
                          f"{(dealer + len(calls)) % 4}; EGN keeps only the order")
            self.pos += 1
        if not calls:
            return []
        bid: dict[str, Any] = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls, "isAlone": False}
        if maker < 0:
            return [bid]
        step = self._peek()
        if picked and step is not None and step["action"].startswith("discard "):
            card = step["action"][8:].strip()
            if card != "?":
                bid["discard"] = egn_name(card, self.where, f"actions.{self.pos}.action")
            self.pos += 1
        defender = -1
        for _ in range(3):  # the maker's going-alone, then a defender's
            step = self._peek()
            if step is None or step["action"].startswith("play ") or " " in step["action"]:
                break
            if step["action"] != "pass":
                if step["seat"] == maker:
                    bid["isAlone"] = True
                elif step["seat"] % 2 != maker % 2:
                    defender = step["seat"]
                    bid["aloneDefender"] = defender
                else:
                    self._stop("a declaration by the maker's partner")
                    return [bid]
            self.pos += 1
        per = 4 - (1 if bid["isAlone"] else 0) - (1 if defender >= 0 else 0)
        cards: list[str] = []
        while (step := self._peek()) is not None and len(cards) < 5 * per:
            if not step["action"].startswith("play "):
                self._stop("not a play")
                break
            cards.append(egn_name(step["action"][5:].strip(), self.where, f"actions.{self.pos}.action"))
            self.pos += 1
        if not cards:
            return [bid]
        return [bid, {"phaseNumber": 1, "type": "TRICK_PLAY",
                      "tricks": [cards[i:i + per] for i in range(0, len(cards), per)]}]
