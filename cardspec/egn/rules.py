"""EGN's ruleset against cardspec's euchre options, and the few euchre facts the importer works out itself.

:func:`options_of` maps a ruleset to options, reporting every key it cannot map (a value of the wrong type is
an error, :class:`RulesetError`); :func:`ruleset_of`
maps options back. Options that another change may add (``loner_lead``, ``lone_defender``,
``target``, ``dealer_discard``, ``canadian_loner``) are used only when the euchre spec declares them.

The importer places each card of a trick on a seat by EGN's own rules (FORMAT: the first leader by
``loner_lead``, then each trick's winner): :func:`trick_winner` and :func:`hand_points`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ..engine.errors import CardspecError
from ..engine.game import Game
from ..engine.spec import load
from .notation import kind_of, short

SYSTEM = "euchre"
SUIT_LETTERS = "cdhs"
_PARTNER_SUIT = {"c": "s", "s": "c", "d": "h", "h": "d"}
_ORDER = ("9", "T", "J", "Q", "K", "A")
RULESET_DEFAULTS: dict[str, Any] = {
    "std": True, "min_rank": 9, "winning_score": 10, "num_deals": 0, "canadian": False,
    "loner_lead": "LEFT_OF_DEALER", "loner_march_score": 4, "loner_euchred_score": 2, "defend_alone": False,
    "farmers": False, "partners_best": False, "go_under": False, "joker": False, "num_players": 4,
    "allow_no_trump": False, "fast_break": False, "four_trick_tokens": False,
}
_NO_FORM = {  # ruleset keys with no cardspec option, and why
    "partners_best": "calling for the partner's best card is no option of cardspec's euchre",
    "go_under": "going under (swapping with the kitty) is no option of cardspec's euchre",
    "joker": "cardspec's euchre deck has no Joker",
    "allow_no_trump": "cardspec's euchre has no no-trump call",
    "fast_break": "the fast break (no score after 2-3 tricks) is no option of cardspec's euchre",
    "four_trick_tokens": "four-trick tokens are no option of cardspec's euchre",
    "num_deals": "a fixed number of deals is no option of cardspec's euchre",
    "farmers": "EGN's farmer's hand says neither when it may be used nor what is exchanged; the record uses "
               "farmers_hand: off, and any exchanges are not kept",
}


@cache
def declared() -> dict[str, tuple[str, Any, tuple[Any, ...]]]:
    """The euchre spec's options: name -> (type, default, enum values)."""
    return {k: (d.type, d.default, tuple(getattr(d, "values", ()) or ())) for k, d in load(SYSTEM).option_decls.items()}


def has_option(name: str, value: Any = None) -> bool:
    """Whether euchre declares the option (and, for an enum, the value)."""
    d = declared().get(name)
    return d is not None and (value is None or d[0] != "enum" or value in d[2])


_TYPE_NAMES: dict[type, str] = {bool: "true or false", int: "an integer", str: "a string"}
"""What each type of :data:`RULESET_DEFAULTS` is called in an error."""


class RulesetError(ValueError):
    """A ruleset value of the wrong type (``winning_score: 7.5``) or that maps to an option value the euchre spec
    refuses (``winning_score: 1000``): the game cannot be imported. ``key`` is the ruleset key."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key, self.message = key, message


@cache
def game(options: tuple[tuple[str, Any], ...]) -> Game:
    return Game.from_system(SYSTEM, dict(options))


@dataclass
class Rules:
    """The EGN game's own rules (what decides seats and scores), and the record's options."""

    options: dict[str, Any]
    loner_lead: str
    march: int
    euchred: int
    target: int
    defend_alone: bool
    importable: bool


def options_of(ruleset: dict[str, Any], note: Any) -> Rules:
    """The options for an EGN ruleset; ``note(key, message)`` is told each key that cannot be mapped."""
    rs = dict(RULESET_DEFAULTS)
    for k, v in ruleset.items():
        if k not in rs:
            note(k, "unknown ruleset key, ignored")
            continue
        want = type(RULESET_DEFAULTS[k])
        if type(v) is not want:  # a value of the wrong type: the file cannot be read (docs/egn.md)
            raise RulesetError(k, f"must be {_TYPE_NAMES[want]} (EGN's type for it), got {kind_of(v)} {short(v)}")
        rs[k] = v
    opts: dict[str, Any] = {"farmers_hand": "off", "all_pass": "dealer_must_name" if rs["std"] else "redeal"}
    importable = True
    for k, why in _NO_FORM.items():
        if rs[k] != RULESET_DEFAULTS[k]:
            note(k, f"{rs[k]!r} cannot be mapped: {why}")
    for k in ("num_players", "min_rank"):
        if rs[k] != RULESET_DEFAULTS[k]:
            note(k, f"{rs[k]!r} cannot be mapped: cardspec's euchre is for 4 players with a 24-card deck "
                 "(9 up); the game is not imported")
            importable = False
    if rs["loner_march_score"] != 4:
        note("loner_march_score", f"{rs['loner_march_score']} cannot be mapped: cardspec's euchre scores a lone "
             "march 4; the record keeps 4")
    if rs["loner_euchred_score"] in (2, 4):
        opts["lone_euchre"] = "two" if rs["loner_euchred_score"] == 2 else "four"
    else:
        note("loner_euchred_score", f"{rs['loner_euchred_score']} cannot be mapped: lone_euchre is two or four; "
             "the record keeps two")
    lead = "left_of_loner" if rs["loner_lead"] == "LEFT_OF_LONER" else "left_of_dealer"
    if rs["loner_lead"] not in ("LEFT_OF_DEALER", "LEFT_OF_LONER"):
        note("loner_lead", f"{rs['loner_lead']!r} is no EGN loner_lead; LEFT_OF_DEALER is used")
    if has_option("loner_lead", lead):
        opts["loner_lead"] = lead
    elif lead != "left_of_dealer":
        note("loner_lead", f"{rs['loner_lead']!r} cannot be mapped: this cardspec has no loner_lead option, so "
             "the record's loner hands follow the dealer's-left lead and seats may disagree")
    if rs["canadian"]:
        if has_option("canadian_loner", "on"):
            opts["canadian_loner"] = "on"
        else:
            note("canadian", "true cannot be mapped: this cardspec has no canadian_loner option")
    if rs["defend_alone"]:
        if has_option("lone_defender", "against_loner"):
            opts["lone_defender"] = "against_loner"
        else:
            note("defend_alone", "true cannot be mapped: this cardspec has no lone_defender option; a deal with "
                 "an aloneDefender ends its record")
    target = rs["winning_score"]
    if target != 10:
        if target > 0 and has_option("target"):
            try:
                load(SYSTEM).option_decls["target"].check(target)
            except CardspecError as exc:
                raise RulesetError("winning_score", f"{target} cannot be mapped: {exc}") from None
            opts["target"] = target
        else:
            note("winning_score", f"{target} cannot be mapped: " + (
                "this cardspec has no target option" if target > 0 else "a game with no score limit") +
                "; the record plays to 10")
            target = 10
    full = dict(sorted(game(tuple(sorted(opts.items()))).options.items()))
    return Rules(full, rs["loner_lead"] if rs["loner_lead"] == "LEFT_OF_LONER" else "LEFT_OF_DEALER",
                 rs["loner_march_score"], rs["loner_euchred_score"], target, rs["defend_alone"], importable)


def ruleset_of(options: dict[str, Any], note: Any) -> dict[str, Any]:
    """The EGN ruleset of a record's options; ``note(option, message)`` is told what EGN cannot say."""
    decls = declared()
    opts = {k: v for k, v in options.items()}
    for k in opts:
        if k not in decls:
            note(k, "unknown option of euchre; not exported")
    get = {k: opts.get(k, d[1]) for k, d in decls.items()}.get
    rs: dict[str, Any] = {"std": get("all_pass") != "redeal", "canadian": get("canadian_loner") == "on",
                          "loner_lead": "LEFT_OF_LONER" if get("loner_lead") == "left_of_loner" else "LEFT_OF_DEALER"}
    if get("farmers_hand") not in (None, "off"):
        rs["farmers"] = True
        note("farmers_hand", f"{get('farmers_hand')!r} is exported as farmers: true; EGN does not say when the "
             "farmer's hand may be used")
    if get("farmers_hand") not in (None, "off") and get("farmers_hand_pass") not in (None, "turn"):
        note("farmers_hand_pass", f"{get('farmers_hand_pass')!r} has no EGN form")
    if get("lone_euchre") == "four":
        rs["loner_euchred_score"] = 4
    if get("lone_defender") not in (None, "off"):
        rs["defend_alone"] = True
        if get("lone_defender") != "against_loner":
            note("lone_defender", f"{get('lone_defender')!r} has no EGN form (EGN's defend_alone is against a "
                 "loner only)")
    if get("target") not in (None, 10):
        rs["winning_score"] = get("target")
    if get("going_alone") is False:
        note("going_alone", "false has no EGN form (EGN always allows going alone)")
    handled = {"all_pass", "loner_lead", "farmers_hand", "farmers_hand_pass", "lone_euchre", "lone_defender",
               "target", "going_alone", "canadian_loner"}
    for k, d in decls.items():  # every other option EGN cannot say, at any value but the text's
        if k not in handled and get(k) != d[1]:
            note(k, f"{get(k)!r} has no EGN form")
    return rs


# --- card facts -------------------------------------------------------------------------------
def effective_suit(card: str, trump: str) -> str:
    """The suit a card follows as (EGN form ``Jd``): the left bower belongs to trump."""
    if card[0] == "J" and card[1] == _PARTNER_SUIT[trump]:
        return trump
    return card[1]


def strength(card: str, led: str, trump: str) -> int:
    """How strongly a card takes a trick: 0 when it cannot win."""
    if card[0] == "J" and card[1] == trump:
        return 100
    if card[0] == "J" and card[1] == _PARTNER_SUIT[trump]:
        return 99
    suit = effective_suit(card, trump)
    if suit == trump:
        return 80 + _ORDER.index(card[0])
    return 40 + _ORDER.index(card[0]) if suit == led else 0


def trick_winner(cards: list[str | None], trump: str) -> int | None:
    """The position that takes the trick; None when an unseen card (None) might take it (only a known
    right bower beats every card)."""
    if any(c is None for c in cards):
        return next((i for i, c in enumerate(cards) if c is not None and c[0] == "J" and c[1] == trump), None)
    known = [c for c in cards if c is not None]
    led = effective_suit(known[0], trump)
    return max(range(len(known)), key=lambda i: strength(known[i], led, trump))


def partner_suit(suit: str) -> str:
    return _PARTNER_SUIT[suit]


def hand_points(rules: Rules, maker_tricks: int, alone: bool, lone_defence: bool) -> tuple[int, int]:
    """(makers' points, defenders' points) by the EGN game's rules."""
    if maker_tricks == 5:
        return (rules.march if alone else 2), 0
    if maker_tricks >= 3:
        return 1, 0
    return 0, 4 if lone_defence else rules.euchred if alone else 2
