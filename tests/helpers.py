"""Helpers shared by the rule tests: play actions by name and whole tricks."""

from __future__ import annotations

from cardspec.engine.game import Game
from cardspec.engine.state import State


def act(st: State, *names: str) -> None:
    """Apply actions by name, in order."""
    for n in names:
        st.apply_name(n)


def plays(st: State) -> set[str]:
    """The cards the player to act may play."""
    return {n.split()[1] for n in st.legal_action_names() if n.startswith("play ")}


def _ask(st: State, query: str) -> object:
    """Ask the phase that answers ``query`` (a public query method of a component) about ``st``."""
    for ph in st.game.phases:
        q = getattr(ph, query, None)
        if q is not None:
            return q(st)
    raise AssertionError(f"no phase of {st.game.id} answers {query}")


def trick_winners(st: State) -> list[int]:
    """The winner of each trick completed so far this hand (asked of the trick-play phase)."""
    out = _ask(st, "trick_winners")
    assert isinstance(out, list)
    return out


def trick_seats(st: State) -> list[int]:
    """Who played each card of the trick being played."""
    out = _ask(st, "trick_seats")
    assert isinstance(out, list)
    return out


def led_suit(st: State) -> int:
    """The led suit of the trick being played (-1 before the lead)."""
    out = _ask(st, "led_suit")
    assert isinstance(out, int)
    return out


def up_card(st: State) -> int:
    """The card turned up for the current calling round (-1: none)."""
    out = _ask(st, "up_card")
    assert isinstance(out, int)
    return out


def trick(st: State, *cards_in_order: str) -> int:
    """Play one whole trick (cards in playing order); return the winning seat."""
    before, hands_before = len(trick_winners(st)), len(st.hand_results)
    for c in cards_in_order:
        st.apply_name(f"play {c}")
    if len(st.hand_results) > hands_before:  # the last trick ended the hand
        return int(st.hand_results[-1]["trick_winners"][-1])
    won = trick_winners(st)
    assert len(won) == before + 1, "the trick did not complete"
    return won[-1]


def suit(g: Game, s: str) -> int:
    """A suit's index."""
    return g.deck.suits.index(s)


def mask(g: Game, *cards: str) -> int:
    """The card mask of these card names."""
    return sum(1 << g.deck.names.index(c) for c in cards)


def score_captures(g: Game, maker: int, won: dict[int, tuple[str, ...]], nil: int = -1,
                   tricks: dict[int, int] | None = None, controller: tuple[int, ...] | None = None) -> list[int]:
    """Score a three-seat hand with these captured cards (tricks default: 1 per seat with cards),
    ``maker`` (-1: nobody declared), an optional bettor ``nil`` and the hand's ``controller`` per seat."""
    st = g.new_initial_state(3)
    st.contract.maker = maker
    st.seat_piles["won"] = [mask(g, *won.get(s, ())) for s in range(3)]
    st.tally["tricks"] = [(tricks or {}).get(s, 1 if won.get(s) else 0) for s in range(3)]
    st.contract.decl = [0, 0, 0]
    if nil >= 0:
        st.contract.decl[nil] = g.scoring.bet_facts[0][1]
    if controller is not None:
        st.controller = controller
    return g.scoring.score(st)[0]


def assert_won_tricks_seen(st: State, counts: list[int], taken: dict[int, list[str]] | None) -> None:
    """Every seat's view of the ``won`` zone (register entry won-tricks-face-down): each seat's count of cards
    taken is ``counts`` to every viewer; with ``taken`` None (face down) no card taken is shown to anyone, not
    even the taker; else (face up) every viewer sees exactly the cards ``taken`` lists per seat."""
    for viewer in range(len(counts)):
        won = st.observation(viewer)["zones"]["won"]
        assert [w["count"] for w in won] == counts, viewer
        if taken is None:
            assert all("cards_top_first" not in w for w in won), viewer
        else:
            assert [sorted(w["cards_top_first"]) for w in won] == \
                [sorted(taken.get(s, [])) for s in range(len(counts))], viewer


def assert_won_tricks_entry(system: str) -> None:
    """The won-tricks-face-down entry: option won_tricks, both readings, the text's own silence (no house
    rule), decided face down, its option's default."""
    from cardspec.engine.spec import load

    spec = load(system)
    a = next(e for e in spec.ambiguities if e.id == "won-tricks-face-down")
    assert a.option == "won_tricks" and set(a.readings) == {"face_down", "face_up"} and not a.house_rule
    assert a.decision == "face_down" == str(spec.option_decls["won_tricks"].default)
