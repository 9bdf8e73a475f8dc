"""A conformance adapter for OpenSpiel's euchre (``pyspiel``, open_spiel 2.0.2).

Run it with ``cardspec conform --adapter examples/openspiel_adapter.py:factory euchre --option
farmers_hand=off`` (see docs/conformance.md). It plays one OpenSpiel game per hand:

* the deal: OpenSpiel's chance actions are the dealer, then 20 cards one at a time (the k-th card
  to seat ``dealer + k``, so the dealer gets the first), then the up card; the adapter feeds the
  cards so that each seat gets the hand cardspec's deal gives it, and the kitty's top card as the
  up card (the other three kitty cards never appear in OpenSpiel);
* seats: OpenSpiel's players are absolute seats 0..3 with partners 0+2 and 1+3, as in cardspec;
* actions: card ids ``rank * 4 + suit`` (ranks 9 T J Q K A, suits C D H S) become ``play JD`` or
  ``discard 9C``; 24 Pass is ``pass``; a suit bid is ``order_up`` in the first round and ``name H``
  in the second; 29 Alone is ``alone`` for the maker and ``defend_alone`` for a defender, and
  30 Partner is ``pass``;
* results: the trick winners from ``state.tricks()``; the scores from ``state.returns()``, which are
  zero-sum (the makers +1 and the defenders -1, say): each team gets ``max(its return, 0)``.

Options: ``all_pass`` maps to OpenSpiel's ``stick_the_dealer`` (``dealer_must_name``: True,
``redeal``: False, where eight passes end the game with no score, a thrown-in hand) and
``lone_defender`` to ``allow_lone_defender`` (``off``: False, ``always``: True). Values no setting of
those parameters plays raise :class:`Unsupported` (``lone_defender=against_loner``: OpenSpiel asks
the defenders whether or not the maker went alone), as does ``farmers_hand`` other than ``off``:
OpenSpiel has no kitty trade, so the adapter could not carry one out. Every other option is played
with OpenSpiel's fixed rules, and where they differ ``conform`` reports it: the dealer may not
discard the card picked up (cardspec's ``dealer_discard=not_turned_card``), the maker may always go
alone (``going_alone=true``), a euchred lone maker gives the defenders 2 (``lone_euchre=two``), a
march scores 2, alone 4 (``march_overlap=most_specific``), and the first lead is left of the dealer
(``loner_lead=left_of_dealer``). ``target`` does not matter for one hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyspiel  # type: ignore[import-not-found,unused-ignore]

from cardspec.conform import Unsupported

RANKS = ("9", "10", "J", "Q", "K", "A")
SUITS = "CDHS"
_E: Any = pyspiel.euchre
PASS: int = _E.PASS_ACTION
CLUBS: int = _E.CLUBS_TRUMP_ACTION
ALONE: int = _E.GO_ALONE_ACTION
PARTNER: int = _E.PLAY_WITH_PARTNER_ACTION


def card_id(name: str) -> int:
    """OpenSpiel's id of a card by cardspec name (``10D`` or ``TD``)."""
    rank, suit = name[:-1].upper(), name[-1:].upper()
    rank = "10" if rank == "T" else rank
    if rank not in RANKS or suit not in SUITS or not suit:
        raise ValueError(f"'{name}' is not a euchre card")
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def card_name(card: int) -> str:
    """cardspec's name of an OpenSpiel card id."""
    return RANKS[card // 4] + SUITS[card % 4]


def chance_actions(deal: Mapping[str, Any]) -> list[int]:
    """The 22 chance actions that deal ``deal``: the dealer, the 20 cards in OpenSpiel's order, the up card."""
    dealer = deal["dealer"]
    hands = deal["hands"]
    kitty = deal["piles"]["kitty"]
    if type(dealer) is not int or not 0 <= dealer < 4:
        raise ValueError(f"dealer {dealer!r} is not a seat 0..3")
    if len(hands) != 4 or any(len(h) != 5 for h in hands) or len(kitty) != 4:
        raise ValueError("a euchre deal has four hands of five cards and a kitty of four")
    cards = [card_id(c) for h in hands for c in h] + [card_id(kitty[0])]
    if len(set(cards)) != len(cards):
        raise ValueError("the deal names a card twice")
    return [dealer] + [card_id(hands[(dealer + k) % 4][k // 4]) for k in range(20)] + [card_id(kitty[0])]


class OpenSpielEuchre:
    """One OpenSpiel euchre game per hand, in cardspec's names (see the module docstring)."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.game: Any = pyspiel.load_game("euchre", dict(params))
        self.state: Any = None

    def new_hand(self, deal: dict[str, Any]) -> None:
        if any(c == "?" for h in deal["hands"] for c in h) or "?" in deal["piles"]["kitty"][:1]:
            raise Unsupported("OpenSpiel deals every card: a deal with unseen cards ('?') cannot be set up")
        s = self.game.new_initial_state()
        for a in chance_actions(deal):
            if not s.is_chance_node() or a not in dict(s.chance_outcomes()):
                raise ValueError(f"OpenSpiel refuses chance action {a} at history {s.history()}")
            s.apply_action(a)
        self.state = s

    def _name(self, a: int) -> str:
        s = self.state
        phase = s.current_phase()
        if phase == _E.Phase.BIDDING:
            if a == PASS:
                return "pass"
            return "order_up" if s.num_passes() < 4 else f"name {SUITS[a - CLUBS]}"
        if phase == _E.Phase.DISCARD:
            return f"discard {card_name(a)}"
        if phase == _E.Phase.GO_ALONE:
            if a == PARTNER:
                return "pass"
            return "alone" if s.current_player() == s.declarer() else "defend_alone"
        if phase == _E.Phase.PLAY:
            return f"play {card_name(a)}"
        raise ValueError(f"no cardspec name for action {a} in phase {phase}")

    def _legal(self) -> dict[str, int]:
        return {self._name(a): a for a in self.state.legal_actions()}

    def legal_actions(self) -> list[str]:
        return list(self._legal())

    def current_seat(self) -> int:
        return int(self.state.current_player())

    def apply(self, action: str) -> None:
        legal = self._legal()
        if action not in legal:
            raise ValueError(f"OpenSpiel does not allow '{action}' here (legal: {sorted(legal)})")
        self.state.apply_action(legal[action])

    def hand_over(self) -> bool:
        return bool(self.state.is_terminal())

    def results(self) -> dict[str, Any]:
        s = self.state
        returns = s.returns()
        return {"trick_winners": [int(t.winner()) for t in s.tricks() if t.winner() >= 0],
                "scores": [max(int(returns[0]), 0), max(int(returns[1]), 0)],
                "thrown_in": int(s.trump_suit()) < 0}


def params_for(options: Mapping[str, Any]) -> dict[str, Any]:
    """OpenSpiel's game parameters for cardspec's euchre options; :class:`Unsupported` where none fit."""
    if options.get("farmers_hand", "off") != "off":
        raise Unsupported(f"OpenSpiel's euchre has no Farmer's Hand (farmers_hand={options['farmers_hand']}); "
                          "run with farmers_hand=off")
    stick = {"dealer_must_name": True, "redeal": False}
    all_pass = options.get("all_pass", "dealer_must_name")
    if all_pass not in stick:
        raise Unsupported(f"OpenSpiel's euchre has no all_pass={all_pass}: it sticks the dealer or ends the hand")
    lone = {"off": False, "always": True}
    lone_defender = options.get("lone_defender", "off")
    if lone_defender not in lone:
        raise Unsupported(f"OpenSpiel's allow_lone_defender asks the defenders whether or not the maker went "
                          f"alone; it has no setting for lone_defender={lone_defender}")
    return {"stick_the_dealer": stick[all_pass], "allow_lone_defender": lone[lone_defender]}


def factory(system: str, options: dict[str, Any]) -> OpenSpielEuchre:
    """The conformance factory: euchre only."""
    if system != "euchre":
        raise Unsupported(f"the OpenSpiel adapter plays euchre only, not {system}")
    return OpenSpielEuchre(params_for(options))
