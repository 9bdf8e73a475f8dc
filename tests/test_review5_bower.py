"""A revoke that turns on the left bower names it and cites the clause that makes it trump (review of
2026-11-28, finding 6): "the “little/left” bower is considered part of the trump suit, and not its original/actual
suit" (004) and "the left bower ... counts for all purposes as belonging to the trump suit" (003).

Two ways: the only card a seat holds of the led trump suit is the left bower, and it plays another card; or the
seat plays the left bower on a lead of its printed suit while holding that suit. Each is found in seeded matches
of random bots and rebuilt as a record with that one play changed; the audit rejects it at that action."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.game import Game
from cardspec.engine.record import record_of
from cardspec.engine.state import State

Q004 = "the “little/left” bower is considered part of the trump suit, and not its original/actual suit"
Q003 = ("When there are trumps, the left bower (the other jack of the same colour as trumps) counts for all purposes "
        "as belonging to the trump suit.")
QUOTE = {"euchre": Q004, "bid-euchre": Q004, "buck-euchre": Q003, "buck-euchre-3p": Q003, "dirty-clubs": Q003}


def _case(g: Game, rec: dict[str, Any], kind: str) -> tuple[int, str, str] | None:
    """The first play of ``rec`` where ``kind`` can be planted: (action index, the card to play instead, the left
    bower's name)."""
    st: State = g.new_initial_state(rec["seed"])
    deck = g.deck
    for i, a in enumerate(rec["actions"]):
        tt = st.contract.tt
        cs = st.comp
        if a["action"].startswith("play ") and tt is not None and st.piles.get("trick") and hasattr(cs, "_s"):
            led = cs._s(st).led
            hand = st.hands[st.cur]
            of_led = deck.cards_of(hand & tt.suit_mask[led])
            bowers = [c for c in deck.cards_of(hand) if tt.eff_suit[c] != deck.suit_of[c]]
            others = [c for c in deck.cards_of(hand) if tt.eff_suit[c] != led]
            if kind == "only_bower" and of_led and all(deck.suit_of[c] != led for c in of_led) and others:
                return i, deck.names[others[0]], deck.names[of_led[0]]
            printed = [c for c in bowers if deck.suit_of[c] == led]
            if kind == "bower_as_printed" and printed and any(deck.suit_of[c] == led and c not in printed
                                                               for c in deck.cards_of(hand)):
                return i, deck.names[printed[0]], deck.names[printed[0]]
        st.apply_name(a["action"])
    return None


@pytest.mark.parametrize("kind", ["only_bower", "bower_as_printed"])
@pytest.mark.parametrize("system", sorted(QUOTE))
def test_the_left_bower_is_considered_part_of_the_trump_suit(system: str, kind: str) -> None:
    g = Game.from_system(system)
    for seed in range(400):
        st, _ = play_stepped(g, seed, "random", hand_limit=1)
        rec = record_of(st)
        found = _case(g, rec, kind)
        if found is None:
            continue
        i, card, bower = found
        bad = copy.deepcopy(rec)
        bad["actions"][i]["action"] = f"play {card}"
        v = audit("t: ", bad)
        assert v.verdict == "rejected" and v.error is not None and v.error.source is not None, v.line()
        assert v.error.index == i, v.line()
        assert v.error.source.quote == QUOTE[system], v.line()
        assert bower in str(v.error), v.line()
        assert "counts as" in str(v.error) and "trump suit" in str(v.error), v.line()
        return
    pytest.fail(f"no {kind} case in 400 seeds")
