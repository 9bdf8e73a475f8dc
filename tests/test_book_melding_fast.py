"""``book_melding``'s legal list, built from bit-mask tables, against the plain reading of its rules.

:func:`reference_legal` lists the legal actions the plain way, from the component's own rule methods
(``take_allowed``, ``can_meld``, ``_new_sets``, ``_rank_taken``, ``fits``, ``_barred_out``...), card by card
and set by set. The fast ``legal`` (class masks, a per-byte discard table, new sets per rank from masks,
a summary of what fits each set) must give the same list at every position of seeded random matches,
under every option set of Hand and Foot; ``is_legal`` accepts every listed action, and an action only if the
one the list names for its class of equivalent actions is listed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardspec.engine.actions import Action
from cardspec.engine.components.book_melding import WILD, BookMelding, BookState
from cardspec.engine.game import Game
from cardspec.engine.spec import load
from cardspec.engine.state import State

SPEC = load("hand-and-foot")


def reference_legal(comp: BookMelding, st: State) -> list[Action]:
    """The legal actions, the plain way (one rule method at a time)."""
    bs: BookState = st.cstate[comp.index]  # type: ignore[assignment]
    seat, codec, hand = st.cur, comp.codec, st.hands[st.cur]
    if bs.stage == "answer":
        return sorted(comp._answers)
    out: list[Action] = []
    if bs.pending >= 0:
        out.append(comp._retract)
    elif bs.stage == "draw":
        if st.piles[comp.stock]:
            out.append(comp._draw)
        if comp.take_allowed(st, seat):
            out.append(comp._take)
    else:
        deck = st.game.deck
        held = deck.canonical(hand) if deck.has_copies else hand
        if not comp._barred_out(st, seat, 1, True):
            out += [comp._discard_acts[c] for c in deck.cards_of(held)]
        if comp.ask_on and comp.partnered and not bs.asked and comp.could_be_done(st, seat):
            out.append(comp._ask)
    reps = comp._reps(hand)
    if comp.can_meld(st, seat) and not comp._barred_out(st, seat, comp.min_size):
        out += [codec.encode("meld", cards=cs) for cs in comp._new_sets(hand, reps)
                if not comp._rank_taken(st, seat, cs)]
    if bs.melds and not comp._barred_out(st, seat, 1):
        side = st.game.entity_of[seat]  # own side's sets; while laying out, the new ones only
        first = (bs.opened if bs.opened >= 0 else len(bs.melds)) if bs.pending >= 0 or bs.stage == "draw" else \
            0 if bs.laid_out >> seat & 1 else len(bs.melds)
        firsts = [cs[0] for cs in reps.values()]
        for i in range(first, len(bs.melds)):
            m = bs.melds[i]
            if m[0] == side:
                out += [codec.encode("add", number=i + 1, cards=(c,)) for c in firsts
                        if (comp.meld_rank[c] == m[2] or comp.meld_rank[c] == WILD) and comp.fits(m, c)]
    return sorted(out)


def _label(opts: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in opts.items()) or "defaults"


@pytest.mark.parametrize("opts", SPEC.option_sets(), ids=_label)
def test_the_fast_legal_list_is_the_plain_one(opts: dict[str, Any]) -> None:
    g = Game(SPEC, opts)
    comp = next(ph for ph in g.phases if isinstance(ph, BookMelding))
    rnd = random.Random(3)
    checked = melds = 0
    seen: list[Action] = []  # actions legal somewhere earlier: probes, mostly illegal here
    for seed in range(8):
        st = g.new_initial_state(seed)
        while not st.is_terminal() and len(st.hand_results) < 2 and len(st.history) < 1500:
            legal = st.legal_actions()
            if st.comp is comp:
                assert legal == reference_legal(comp, st), (seed, len(st.history))
                assert all(comp.is_legal(st, a) for a in legal)
                for probe in rnd.sample(seen, min(3, len(seen))):
                    # an action is legal only if the one the list names for its class is listed
                    assert not comp.is_legal(st, probe) or comp.representative(st, probe) in legal, \
                        (seed, len(st.history), probe)
                checked += 1
                seen = (seen + legal)[-400:]
            # lean towards laying down (meld and add), so that sets, books and lay-outs are reached
            grow = [a for a in legal if g.action_name(a).startswith(("meld", "add"))]
            a = rnd.choice(grow) if grow and rnd.random() < 0.7 else rnd.choice(legal)
            melds += a in grow
            st.apply(a)
        if checked >= 400:
            break
    assert checked > 100 and melds > 5
