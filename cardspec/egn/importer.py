"""EGN games as cardspec euchre records.

Each game becomes one record (more when a deal in the middle is incomplete: the engine cannot play
past it, so the deals after it make a further record that starts where they do). A record has
``seed: null`` and an explicit deal per hand: what EGN shows of the hands (``playerCards``; the 1.0
``kitty``) and the turned card; every card EGN does not show is ``?`` (unseen), so the audit checks
what the known cards decide and never guesses. The actions are the calls (``calls[k]`` is made by
seat ``dealer + 1 + k``), the dealer's discard after an order-up (``discard ?`` when not recorded),
the going-alone declarations, and the plays, each card placed on its seat by EGN's own rules: the
first leader by ``loner_lead``, then each trick's winner. Seats and the rules therefore come from
the EGN file, not from the engine, so an out-of-turn or illegal card is rejected by the audit at
that card.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import CardspecError, MalformedRecordError, RecordError
from ..engine.record import FORMAT, dumps, replay
from .notation import EgnDeal, EgnGame, Reader
from .rules import SYSTEM, Rules, RulesetError, game, hand_points, options_of, partner_suit, trick_winner

UNSEEN = "?"
Note = Callable[[str, str], None]


class Unmappable(Exception):
    """Something of a deal that has no cardspec form: the deal (and its record) stops there."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path, self.message = path, message


def card_name(card: str | None) -> str:
    """cardspec's name of an EGN card (``Tc`` -> ``10C``); ``?`` when unseen."""
    if card is None:
        return UNSEEN
    return ("10" if card[0] == "T" else card[0]) + card[1].upper()


def egn_card(text: str, trump: str | None, path: str, note: Note) -> str | None:
    """An EGN card as rank and lower-case suit (``Tc``), or None when it is unseen (``Xx``, ``Xc``, ``Jx``)."""
    if text in ("R", "L"):
        if trump is None:
            note(path, f"'{text}' (a bower) with no trump made is written '?'")
            return None
        return "J" + (trump if text == "R" else partner_suit(trump))
    if text == "B":
        raise Unmappable(path, "the Joker 'B' is not in cardspec's euchre deck")
    rank, suit = ("9" if text[0] == "N" else text[0]), text[1]
    if rank in "78":
        raise Unmappable(path, f"'{text}' is not in cardspec's 24-card euchre deck")
    if suit in "tng":
        real = None if trump is None or suit == "g" else trump if suit == "t" else partner_suit(trump)
        if real is None:
            note(path, f"'{text}': the generic suit '{suit}' cannot be resolved here; written '?'")
            return None
        suit = real
    suit = suit.lower()
    if rank == "X" or suit == "x":
        if text != "Xx":
            note(path, f"'{text}' is written '?': what EGN knows of it (its {'suit' if rank == 'X' else 'rank'}) "
                 "is not checked")
        return None
    return rank + suit


@dataclass
class Outcome:
    """One deal as written: its record deal, actions, and (when complete) each team's points."""

    deal: dict[str, Any] | None
    actions: list[dict[str, Any]] = field(default_factory=list)
    complete: bool = False
    points: list[int] | None = None
    stop: tuple[str, str] | None = None
    """What has no cardspec form (JSON path, why): the deal is written up to it."""


def _trump(d: EgnDeal) -> str | None:
    """Trump as the calls make it (None if unknown), before any card is mapped."""
    if d.bidding is None:
        return None
    for c in d.bidding.calls[:8]:
        if c == "Order":
            up = d.up_card
            return up[1].lower() if len(up) == 2 and up[1].lower() in "cdhs" else None
        if c != "Pass":
            return c if c in "cdhs" else None
    return None


def _build_deal(d: EgnDeal, trump: str | None, note: Note) -> dict[str, Any]:
    seen: set[str] = set()

    def place(text: str, path: str) -> str:
        c = egn_card(text, trump, path, note)
        if c is None:
            return UNSEEN
        if c in seen:
            note(path, f"'{text}' is already placed in this deal; written '?' here")
            return UNSEEN
        seen.add(c)
        return card_name(c)

    sp = f"{d.path}.initialState"
    kitty = [place(d.up_card, f"{sp}.upCard")]
    kitty += [place(c, f"{sp}.kitty.{i}") if c else UNSEEN for i, c in enumerate(d.kitty[:3])]
    if len(d.kitty) > 3:
        note(f"{sp}.kitty", f"holds {len(d.kitty)} cards; the kitty under the turned card holds 3; the rest ignored")
    kitty += [UNSEEN] * (4 - len(kitty))
    hands = []
    for s in range(4):
        given = d.player_cards[s] if s < len(d.player_cards) else []
        if len(given) > 5:
            note(f"{sp}.playerCards.{s}", f"holds {len(given)} cards; a dealt hand holds 5; written all '?'")
            given = []
        hands.append([place(c, f"{sp}.playerCards.{s}.{i}") for i, c in enumerate(given)] + [UNSEEN] * (5 - len(given)))
    if any(d.player_cards[4:]):
        note(f"{sp}.playerCards", "hands beyond seat 3 are ignored (4 players)")
    return {"dealer": d.dealer, "hands": hands, "piles": {"kitty": kitty}}


class DealWriter:
    """Writes one deal's actions by EGN's rules."""

    def __init__(self, d: EgnDeal, rules: Rules, note: Note) -> None:
        self.d, self.rules, self.note = d, rules, note
        self.out = Outcome(None)

    def act(self, seat: int, action: str) -> None:
        self.out.actions.append({"seat": seat, "action": action})

    def write(self) -> Outcome:
        d = self.d
        if d.dealer > 3:
            raise Unmappable(f"{d.path}.initialState.dealer", f"dealer {d.dealer} is no seat of a 4-player game")
        self.out.deal = _build_deal(d, _trump(d), self.note)
        try:
            self._hand()
        except Unmappable as exc:
            self.out.complete, self.out.stop = False, (exc.path, exc.message)
        return self.out

    def _hand(self) -> None:
        d, b = self.d, self.d.bidding
        if b is None:
            if d.tricks is not None:
                raise Unmappable(d.tricks_path, "trick play without a bidding phase (trump unknown)")
            return
        maker, trump, picked = -1, "", False
        for k, c in enumerate(b.calls):
            path = f"{b.path}.calls.{k}"
            if k >= 8:
                self.note(path, "calls after the eighth are ignored")
                break
            seat = (d.dealer + 1 + k) % 4
            if c == "Pass":
                self.act(seat, "pass")
                continue
            if c in ("x", "n"):
                raise Unmappable(path, "the unknown call 'x' has no cardspec form" if c == "x" else
                                 "no trump ('n') is not a call of cardspec's euchre")
            if c == "Order":
                up = egn_card(d.up_card, None, f"{d.path}.initialState.upCard", lambda p, m: None)
                if up is None:
                    raise Unmappable(path, "'Order' of an unseen up card names no trump")
                trump, picked = up[1], True
                self.act(seat, "order_up")
            else:
                trump = c
                self.act(seat, f"name {c.upper()}")
            maker = seat
            if k + 1 < len(b.calls):
                self.note(f"{b.path}.calls.{k + 1}", "calls after the maker's call are ignored")
            break
        if maker < 0:
            if len(b.calls) >= 8:  # a throw-in: nobody made trump
                if d.tricks is not None:
                    self.note(d.tricks_path, "tricks after a thrown-in deal are ignored")
                self.out.complete, self.out.points = True, [0, 0]
            return
        if picked:
            disc = egn_card(b.discard, trump, f"{b.path}.discard", self.note) if b.discard else None
            self.act(d.dealer, f"discard {card_name(disc)}")
        elif b.discard is not None:
            self.note(f"{b.path}.discard", "a discard with no pick-up (trump was named in round 2) is ignored")
        out = self._declarations(maker)
        self._tricks(maker, trump, out)

    def _declarations(self, maker: int) -> set[int]:
        """The going-alone declarations as the record's rules ask for them; the seats that sit out."""
        b = self.d.bidding
        assert b is not None
        g = game(tuple(sorted(self.rules.options.items())))
        made: dict[str, int] = {}
        alone = defender = False
        for ph in g.phases:
            if ph.kind != "declarations" or not getattr(ph, "enabled", True):
                continue
            who, choice = getattr(ph, "who", ""), getattr(ph, "choice", "")
            window, after = getattr(ph, "window", "always"), getattr(ph, "after", None)
            if who == "maker":
                asked = [maker]
            elif who == "defenders":
                if window == "after_declaration" and after not in made:
                    continue
                asked = [s % 4 for s in range(self.d.dealer + 1, self.d.dealer + 5) if s % 2 != maker % 2]
            else:
                raise Unmappable(b.path, f"the declaration '{choice}' has no EGN form")
            for s in asked:
                want = b.is_alone if who == "maker" else s == b.alone_defender
                self.act(s, choice if want else "pass")
                if want:
                    made[choice] = s
                    alone = alone or who == "maker"
                    defender = defender or who == "defenders"
                    if getattr(ph, "limit", "any") == "one":
                        break
        if b.is_alone and not alone:
            raise Unmappable(f"{b.path}.isAlone", "going alone is not allowed by the record's options")
        if b.alone_defender >= 0 and not defender:
            raise Unmappable(f"{b.path}.aloneDefender", f"seat {b.alone_defender} defending alone cannot be "
                             "recorded (no lone-defender option, no loner, or not a defender)")
        out = {(maker + 2) % 4} if b.is_alone else set()
        if defender:
            out.add((b.alone_defender + 2) % 4)
        return out

    def _tricks(self, maker: int, trump: str, out: set[int]) -> None:
        d = self.d
        if d.tricks is None:
            return
        active = [s for s in range(4) if s not in out]
        alone = (maker + 2) % 4 in out
        start = maker if alone and self.rules.loner_lead == "LEFT_OF_LONER" else d.dealer
        leader = next(s % 4 for s in range(start + 1, start + 5) if s % 4 in active)
        if d.lead is not None and d.lead != leader:
            self.note(f"{d.tricks_path[:-len('.tricks')]}.initialLead",
                      f"names seat {d.lead} but the rules give seat {leader} (not kept)")
        won = [0, 0]
        for t, trick in enumerate(d.tricks):
            path = f"{d.tricks_path}.{t}"
            if t >= 5:
                self.note(path, "tricks after the fifth are ignored")
                break
            if len(trick) > len(active):
                raise Unmappable(path, f"{len(trick)} cards, but {len(active)} seats play")
            order = [s % 4 for s in range(leader, leader + 4) if s % 4 in active]
            cards = []
            for i, text in enumerate(trick):
                c = egn_card(text, trump, f"{path}.{i}", self.note)
                self.act(order[i], f"play {card_name(c)}")
                cards.append(c)
            if len(trick) < len(active):
                return
            w = trick_winner(cards, trump)
            if w is None:
                if t < 4:
                    raise Unmappable(path, "an unseen card may take this trick, so the seats of the later "
                                     "cards are unknown")
                self.out.complete = True  # the hand is over; its score is unknown
                return
            leader = order[w]
            won[leader % 2] += 1
        if len(d.tricks) < 5:
            return
        mine, theirs = hand_points(self.rules, won[maker % 2], alone, len(out) == 2)
        pts = [0, 0]
        pts[maker % 2], pts[1 - maker % 2] = mine, theirs
        self.out.complete, self.out.points = True, pts


@dataclass
class _Record:
    rules: Rules
    hand: int
    totals: list[int]
    origin: str
    """The JSON path of the EGN deal the record starts with."""
    initial: bool
    """Whether its start's totals are the game's ``initialScore``."""
    deals: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    deal_paths: list[str] = field(default_factory=list)
    """The JSON path of the EGN deal each of :attr:`deals` comes from."""
    action_paths: list[str] = field(default_factory=list)
    """The JSON path of the EGN deal each of :attr:`actions` comes from."""
    open: bool = True
    results: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        rec: dict[str, Any] = {"format": FORMAT, "system": SYSTEM, "options": dict(self.rules.options), "seed": None}
        if self.hand != 0 or self.totals != [0, 0]:
            rec["start"] = {"hand": self.hand, "dealer": self.deals[0]["dealer"], "totals": list(self.totals)}
        rec["deals"] = self.deals
        rec["actions"] = self.actions
        if self.results is not None:
            rec["results"] = self.results
        return rec


def game_records(r: Reader, g: EgnGame) -> list[dict[str, Any]]:
    """The records of one EGN game; what cannot be mapped goes to ``r``'s problems."""
    try:
        rules = options_of(g.ruleset, lambda k, m: r.note(f"metadata.ruleset.{k}", m))
    except RulesetError as exc:
        r.fail(f"metadata.ruleset.{exc.key}", exc.message)
    except CardspecError as exc:  # the options it maps to are refused by the spec
        r.fail("metadata.ruleset", f"cannot be mapped: {exc}")
    if not rules.importable:
        return []
    if not g.deals:
        r.note("deals", "no deals, so no record")
        return []
    records: list[_Record] = []
    totals = list(g.initial_score)  # by EGN's score table, for a record that starts part way
    unknown = False  # an unseen card decided a last trick: the totals since are not known
    cur: _Record | None = None
    last: Outcome | None = None

    def from_totals() -> str:
        return f"{totals}" + (" (the last known; an unseen card decided an earlier hand)" if unknown else "")

    for i, d in enumerate(g.deals):
        if cur is not None and cur.open and d.number != cur.hand + len(cur.deals):
            r.note(f"{d.path}.dealNumber", f"deal {d.number} where {cur.hand + len(cur.deals)} comes next: a "
                   f"further record starts here, from totals {from_totals()}")
            cur.open = False
        try:
            last = DealWriter(d, rules, r.note).write()
        except Unmappable as exc:
            last = Outcome(None, stop=(exc.path, exc.message))
        if last.deal is None:
            assert last.stop is not None
            r.note(last.stop[0], f"{last.stop[1]}; the deal cannot be written, so the record ends before it")
            if cur is not None:
                cur.open = False
            continue
        if cur is None or not cur.open:
            cur = _Record(rules, d.number, list(totals), d.path, not records and totals == list(g.initial_score))
            records.append(cur)
        cur.deals.append(last.deal)
        cur.actions.extend(last.actions)
        cur.deal_paths.append(d.path)
        cur.action_paths.extend([d.path] * len(last.actions))
        if last.complete:
            if last.points is None:
                unknown = True
            else:
                totals = [a + b for a, b in zip(totals, last.points, strict=True)]
            continue
        cur.open = False
        if last.stop is not None:
            r.note(last.stop[0], f"{last.stop[1]}; the deal is written up to here and its record ends")
        if i + 1 < len(g.deals):
            why = "the deal is dealt again" if g.deals[i + 1].number <= d.number else "what it scored is unknown"
            r.note(d.path, f"the deal is incomplete, so its record ends here; the deals after it make a further "
                   f"record from totals {from_totals()} ({why})")
    if g.final_score:
        if records and last is not None and last.complete and records[-1].open:
            rec = records[-1]
            hands: list[dict[str, Any]] = [{"hand": rec.hand + k} for k in range(len(rec.deals))]
            hands[-1]["totals"] = list(g.final_score)
            won = [t for t in (0, 1) if g.final_score[t] >= rules.target]
            rec.results = {"hands": hands, "winners": [won[0], won[0] + 2] if len(won) == 1 else None}
        else:
            r.note("metadata.finalScore", "not checked: the game's last deal is incomplete or not in a record")
    out = [rec.as_dict() for rec in records]
    for made, written in zip(records, out, strict=True):
        _well_formed(r, written, made)
    return out


def _well_formed(r: Reader, rec: dict[str, Any], made: _Record) -> None:
    """Refuse a record that ``cardspec replay`` would call malformed, naming the EGN key it comes from: nothing
    is written that cannot be read back. The record is replayed as replay reads it from the file written (the
    same checks, not only those made before the first action: the schema, the options, the start, such as a
    ``dealNumber`` past the most hands a record counts or an ``initialScore`` too large or that already ends
    the match, and those made as the actions are played, such as a turned card left unseen). A record that
    reads well but breaks a rule is written: the audit rejects it at the breach."""
    try:
        replay(json.loads(dumps(rec)))
    except MalformedRecordError as exc:
        bad: CardspecError = exc
    except RecordError:
        return
    except CardspecError as exc:  # a start the game refuses (replay itself stops on it)
        bad = exc
    else:
        return
    if isinstance(bad, RecordError):
        why = (f"action {bad.index}: " if bad.index is not None else f"{bad.path}: " if bad.path else "") + bad.message
    else:
        why = str(bad)
    r.fail(_source_of(bad, rec, made), f"cannot be imported: the record made from it would be malformed (record "
           f"{why})")


def _source_of(exc: CardspecError, rec: dict[str, Any], made: _Record) -> str:
    """The JSON path of the EGN key a malformed record's error comes from (the game's deal, when no finer)."""
    path = exc.path if isinstance(exc, RecordError) else ""
    index = exc.index if isinstance(exc, RecordError) else None
    if path.startswith("start.totals") and made.initial:
        return "metadata.initialScore"
    if path.startswith("start.hand"):
        return f"{made.origin}.dealNumber"
    if path.startswith("options"):
        return "metadata.ruleset"
    parts = path.split(".")
    if parts[0] == "deals" and len(parts) > 1 and parts[1].isdigit() and int(parts[1]) < len(made.deal_paths):
        k = int(parts[1])
        st = f"{made.deal_paths[k]}.initialState"
        field_ = parts[2] if len(parts) > 2 else ""
        if field_ == "hands":
            return f"{st}.playerCards" + (f".{parts[3]}" if len(parts) > 3 else "")
        if field_ == "dealer":
            return f"{st}.dealer"
        if field_ == "piles":  # the kitty: the turned card on top (upCard), the 1.0 kitty under it
            return f"{st}.upCard" if rec["deals"][k]["piles"]["kitty"][:1] == [UNSEEN] else st
        return made.deal_paths[k]
    if index is None and parts[0] == "actions" and len(parts) > 1 and parts[1].isdigit():
        index = int(parts[1])
    if index is not None and 0 <= index < len(made.action_paths):
        return made.action_paths[index]
    return made.origin
