"""The declarations that verification proves hold in the engine, and verification fails without them.

``cardspec verify`` proves card conservation transfer by transfer and bounds
hand length from what each component *declares*
(:mod:`cardspec.engine.components.declared`). These tests tie that model to
the engine:

* seeded random matches of every bundled spec under every option set: for
  every applied action, the change of the cards per place (hands, piles, the
  trick, won cards) is exactly one transfer declared by the component of the
  phase that was active (same source, destination and count, made by that
  action kind; an action that makes several at once, such as going out,
  may make several in declared order), possibly followed by that component's
  declared follow-on transfers (collecting the trick its last card completes;
  reshuffling an empty stock as the next turn begins) and by the
  :data:`~cardspec.engine.components.declared.START` transfers of the phases
  the action entered (refilling a dummy's hand); the places at the end of a
  hand are taken before the next deal; no phase takes more actions in a hand
  than it declares, nor a hand more than the spec's bound; every transfer is
  made by action kinds the component has, and each is made in some match;
* removing a component's declarations, or a fact's, makes ``verify`` fail and
  name it.

``CARDSPEC_SOAK=1`` plays many more matches per option set.
"""

from __future__ import annotations

import dataclasses
import os
import random
import shutil
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from cardspec.cli import main
from cardspec.engine.components import COMPONENTS
from cardspec.engine.components.declared import ALL, DEALER, HAND, START, TRICK, WON, Declared, Transfer
from cardspec.engine.components.tricks import Tricks
from cardspec.engine.game import Game
from cardspec.engine.loader import spec_dir
from cardspec.engine.options import key_of
from cardspec.engine.scoring import Scoring
from cardspec.engine.spec import available, load
from cardspec.engine.state import State
from cardspec.verification.report import failed, verify

pytestmark = pytest.mark.pure_only  # it watches each hand's end by patching State methods

SOAK = bool(os.environ.get("CARDSPEC_SOAK"))
MATCHES = 60 if SOAK else 3
"""Seeded matches per option set, at most."""
BUDGET = 50_000 if SOAK else 1_500
"""Actions per option set (and per match) after which play stops: random draw-and-discard
play (Riding the Bus, The Card Game) can go on for a long time, and every action is checked alike."""

CASES = [(sid, opts) for sid in available() for opts in load(sid).option_sets()]


def _id(case: tuple[str, dict[str, Any]]) -> str:
    sid, opts = case
    return sid + "[" + ",".join(f"{k}={key_of(v)}" for k, v in opts.items()) + "]"


# --- the card difference of one action, explained by declared transfers ----------------------------

Places = dict[int, str]


def places(st: State) -> Places:
    """Card to its one place (``hand 2``, ``kitty``, ``trick``, ``won 1``, ...)."""
    where = st.where_is()
    bad = {c: p for c, p in where.items() if len(p) != 1}
    assert not bad and len(where) == st.game.deck.size, f"conservation broken: {bad}"
    return {c: p[0] for c, p in where.items()}


Step = tuple[str, str, Transfer]  # a transfer with its zones resolved to places


SEAT_ZONES: set[str] = set()
"""Seat-owned zones of the game under test besides the hand and the won cards (hand-and-foot's foot and
piles): a transfer naming one moves the acting seat's instance (``foot 2``)."""


def _resolve(zone: str, mover: int, dealer: int, winner: int) -> str:
    if zone in SEAT_ZONES:
        return f"{zone} {mover}"
    return {HAND: f"hand {mover}", DEALER: f"hand {dealer}", WON: f"won {winner}", TRICK: "trick"}.get(zone, zone)


def _path(steps: list[Step], a: str, b: str) -> list[tuple[int, bool]] | None:
    """The shortest way through the steps (in order) from place ``a`` to ``b``: (step, forward) pairs."""
    best: list[tuple[int, bool]] | None = None

    def go(i: int, p: str, acc: list[tuple[int, bool]]) -> None:
        nonlocal best
        if p == b and acc:
            if best is None or len(acc) < len(best):
                best = list(acc)
            return
        for j in range(i, len(steps)):
            src, dst, t = steps[j]
            if src == p:
                go(j + 1, dst, [*acc, (j, True)])
            if t.swap and dst == p:
                go(j + 1, src, [*acc, (j, False)])

    go(0, a, [])
    return best


def fits(steps: list[Step], before: Places, after: Places) -> bool:
    """Whether carrying out ``steps`` in order turns ``before`` into ``after``, each as declared."""
    moved = {c: (before[c], after[c]) for c in before if before[c] != after[c]}
    paths = {}
    for c, (a, b) in moved.items():
        p = _path(steps, a, b)
        if p is None:
            return False
        paths[c] = p
    for j, (src, _dst, t) in enumerate(steps):
        fwd = {c for c, p in paths.items() if (j, True) in p}
        back = {c for c, p in paths.items() if (j, False) in p}
        if not fwd and not back:
            return False  # a step that moved nothing: the shorter sequence is tried on its own
        if t.swap and len(fwd) != len(back):
            return False
        if not t.allows(len(fwd)):
            return False
        if t.count == ALL:  # every card in the source just before this step moves
            for c in before:
                place = before[c]
                for k, forward in paths.get(c, []):
                    if k < j:
                        place = steps[k][1] if forward else steps[k][0]
                if place == src and c not in fwd:
                    return False
    return True


def _subsequences(xs: list[Transfer]) -> Iterator[tuple[Transfer, ...]]:
    for r in range(len(xs) + 1):
        yield from combinations(xs, r)


def explain(decl: Declared, kind: str, mover: int, dealer: int, before: Places, after: Places,
            starts: Sequence[Transfer] = ()) -> tuple[str, ...] | None:
    """The declared transfers (names, in order) that make this difference, or None.

    The difference must be one transfer that the action kind makes (or, where one
    action makes several, such as going out by laying melds and discarding, several
    of them in declared order), then any of the component's follow-on transfers of
    that kind; a follow-on stands alone only for a kind that makes no transfer of
    its own (a knock before a reshuffle); then any of ``starts``, the transfers
    declared for the start of the phases the action entered (refilling a dummy's hand).
    """
    if before == after:
        return ()
    own = [t for t in decl.transfers if kind in t.actions and not t.follow_on]
    then = [t for t in decl.transfers if kind in t.actions and t.follow_on]
    winners = sorted({int(p.split()[1]) for p in after.values() if p.startswith("won ")}) or [0]
    for first in _subsequences(own):
        for rest in _subsequences(then) if first or not own else [()]:
            for begun in _subsequences(list(starts)):
                seq = [*first, *rest, *begun]
                if seq and (found := _fits_some_winner(seq, mover, dealer, winners, before, after)):
                    return found
    return None


def _fits_some_winner(seq: list[Transfer], mover: int, dealer: int, winners: list[int], before: Places,
                      after: Places) -> tuple[str, ...] | None:
    for w in winners if any(WON in (t.source, t.dest) for t in seq) else [0]:
        steps = [(_resolve(t.source, mover, dealer, w), _resolve(t.dest, mover, dealer, w), t) for t in seq]
        if fits(steps, before, after):
            return tuple(t.name for t in seq)
    return None


def _diff(before: Places, after: Places) -> str:
    moves = Counter((before[c], after[c]) for c in before if before[c] != after[c])
    return ", ".join(f"{n} from {a} to {b}" for (a, b), n in sorted(moves.items()))


# --- played matches -----------------------------------------------------------------------------------

Ends = list[tuple[bool, Places]]
"""Hands ended during one action: (scored, card places at the end, before the next deal)."""


@pytest.fixture
def hand_ends(monkeypatch: pytest.MonkeyPatch) -> Ends:
    """Card places at the end of each hand (scored, or thrown in), before the next deal replaces them."""
    ends: Ends = []
    score, redeal = Scoring.score, State.redeal

    def scored(self: Scoring, st: State) -> Any:
        ends.append((True, places(st)))
        return score(self, st)

    def thrown_in(self: State) -> None:
        ends.append((False, places(self)))
        redeal(self)

    monkeypatch.setattr(Scoring, "score", scored)
    monkeypatch.setattr(State, "redeal", thrown_in)
    return ends


def play_checked(game: Game, seed: int, ends: Ends, seen: Counter[tuple[str, ...]],
                 budget: int = BUDGET) -> int:
    """One seeded random match (cut short after ``budget`` actions), checking every action against the
    declarations; returns its number of actions."""
    decls = [ph.declarations() for ph in game.phases]
    assert all(d is not None for d in decls), "every bundled component declares itself"
    SEAT_ZONES.clear()
    SEAT_ZONES.update(z for z in game.seat_zones if z != WON)
    starts = [[t for t in d.transfers if START in t.actions] if d else [] for d in decls]
    rng = random.Random(seed)
    st = game.new_initial_state(seed)
    per_phase: Counter[tuple[int, int]] = Counter()
    per_hand: Counter[int] = Counter()
    bounds = [d.actions_per_hand for d in decls if d is not None]
    hand_bound = sum(b for b in bounds if b is not None) if None not in bounds else None
    n = 0
    while not st.is_terminal() and n < budget:
        a = rng.choice(st.legal_actions())
        phase, mover, dealer, hand = st.phase, st.cur, st.dealer, st.hand_no
        kind = game.codec.kind(a)
        comp = game.phases[phase]
        owner = next((g for g in comp.guests if kind in g.codec_kinds()
                      and kind not in comp.codec_kinds()), comp)  # a guest's action, offered on the host's turn
        decl = decls[owner.index]
        assert decl is not None
        before = places(st)
        ends.clear()
        st.apply(a)
        n += 1
        if ends:  # the hand ended: every later phase began, unless it was thrown in
            scored, after = ends[0]
            entered = range(phase + 1, len(decls) if scored else phase + 1)
        else:
            after = places(st)
            entered = range(phase + 1, st.phase + 1)
        got = explain(decl, kind, mover, dealer, before, after, [t for i in entered for t in starts[i]])
        assert got is not None, (
            f"{game.id} {game.options} seed {seed}, action {n - 1} '{game.action_name(a)}' by seat {mover} "
            f"in phase '{game.phases[phase].id}': {_diff(before, after)} is no declared transfer of "
            f"{[t.name for t in decl.transfers if kind in t.actions]}")
        seen[got] += 1
        per_phase[hand, phase] += 1
        per_hand[hand] += 1
        host_decl = decls[phase]  # a guest's action is a turn of its host: the host's bound plus its guests'
        assert host_decl is not None
        lim = host_decl.actions_per_hand
        extra = [decls[g.index].actions_per_hand for g in comp.guests]  # type: ignore[union-attr]
        if lim is not None:
            lim = None if None in extra else lim + sum(x for x in extra if x is not None)
        assert lim is None or per_phase[hand, phase] <= lim, (
            f"{game.id} seed {seed}: phase '{game.phases[phase].id}' took {per_phase[hand, phase]} actions in "
            f"hand {hand}, more than the {lim} it declares")
        assert hand_bound is None or per_hand[hand] <= hand_bound
        assert game.actions_per_hand is None or per_hand[hand] <= game.actions_per_hand
    return n


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_action_moves_cards_as_declared(case: tuple[str, dict[str, Any]], hand_ends: Ends) -> None:
    sid, opts = case
    game = Game.from_system(sid, opts)
    seen: Counter[tuple[str, ...]] = Counter()
    done = 0
    for i in range(MATCHES):
        done += play_checked(game, 1000 * i + 17, hand_ends, seen, BUDGET - done)
        if done >= BUDGET:
            break
    declared = {t.name for ph in game.phases for d in [ph.declarations()] if d for t in d.transfers}
    made = {name for names in seen for name in names}
    assert made <= declared
    assert made, "no card moved in any match"


@pytest.mark.parametrize("sid", list(available()))
def test_every_declared_transfer_happens(sid: str, hand_ends: Ends) -> None:
    """No declaration is vacuous: some seeded match of some option set makes each declared transfer."""
    games = [Game.from_system(sid, opts) for opts in load(sid).option_sets()]
    # each game's own transfers, less those made with the deal (test_first_phase_start_moves covers them)
    own = [{t.name for ph in g.phases for d in [ph.declarations()] if d for t in d.transfers
            if not (ph.index == 0 and START in t.actions)} for g in games]
    declared = set().union(*own)
    seen: Counter[tuple[str, ...]] = Counter()
    made: set[str] = set()
    for i in range(COVERAGE_ROUNDS):
        for g, names in zip(games, own, strict=True):
            if names <= made:  # a match makes only transfers its own game declares: none new here
                continue
            play_checked(g, 7919 * i + 3, hand_ends, seen)
            made = {name for names_made in seen for name in names_made}
        if declared <= made:
            return
    pytest.fail(f"never made: {sorted(declared - made)}")


COVERAGE_ROUNDS = 30
"""Rounds of one match per option set before a declared transfer counts as never made."""


@pytest.mark.parametrize("sid", list(available()))
def test_declared_transfers_use_the_components_action_kinds(sid: str) -> None:
    """Each transfer names action kinds its component really has, under every option set."""
    for opts in load(sid).option_sets():
        game = Game.from_system(sid, opts)
        for ph in game.phases:
            d = ph.declarations()
            assert d is not None
            kinds = {s.kind for s in ph.action_sigs()}
            for t in d.transfers:
                assert set(t.actions) - {START} <= kinds, (ph.id, t.name, t.actions, kinds)


def test_a_wrong_declaration_is_caught_in_play(hand_ends: Ends, monkeypatch: pytest.MonkeyPatch) -> None:
    """Declaring the dealer's discard as going to the wrong place fails the played check."""
    game = Game.from_system("euchre")
    calling = game.phases[0]
    right = calling.declarations()
    assert right is not None
    wrong = dataclasses.replace(right, transfers=tuple(
        dataclasses.replace(t, dest=TRICK) if t.name == "dealer discards" else t for t in right.transfers))
    monkeypatch.setattr(calling, "declarations", lambda: wrong)
    with pytest.raises(AssertionError, match="dealer discards"):
        for i in range(20):
            play_checked(game, i, hand_ends, Counter())


def test_the_checker_rejects_an_undeclared_movement() -> None:
    """The explainer is not vacuous: a card moved to the wrong place, or one card too many, is refused."""
    play = Transfer("play", HAND, TRICK, 1, ("play",))
    collect = Transfer("collect", TRICK, WON, ALL, ("play",), follow_on=True)
    decl = Declared((play, collect), 8)
    before = {0: "hand 0", 1: "hand 0", 2: "trick", 3: "hand 1"}
    assert explain(decl, "play", 0, 0, before, {**before, 0: "trick"}) == ("play",)
    assert explain(decl, "play", 0, 0, before, {**before, 0: "won 1", 2: "won 1"}) == ("play", "collect")
    assert explain(decl, "play", 0, 0, before, {**before, 0: "won 1"}) is None  # the trick was left behind
    assert explain(decl, "play", 0, 0, before, {**before, 0: "trick", 1: "trick"}) is None  # two cards
    assert explain(decl, "play", 1, 0, before, {**before, 0: "trick"}) is None  # not the mover's card
    assert explain(decl, "discard", 0, 0, before, {**before, 0: "trick"}) is None  # not made by that kind


# --- verification without declarations --------------------------------------------------------------

class UndeclaredTricks(Tricks):
    """Trick play that declares nothing."""

    def declarations(self) -> None:
        return None


class FactlessTricks(Tricks):
    """Trick play that declares its transfers and bound but not the ``tricks`` fact."""

    def declarations(self) -> Declared:
        return dataclasses.replace(super().declarations(), facts=())


def _euchre_copy(tmp_path: Path) -> str:
    path = tmp_path / "euchre.yaml"
    shutil.copy(spec_dir() / "euchre.yaml", path)
    return str(path)


def test_an_undeclared_component_fails_verification(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # the schema allows only the library's phase kinds: the registry maps 'tricks' to the undeclared subclass
    monkeypatch.setitem(COMPONENTS, "tricks", UndeclaredTricks)
    path = _euchre_copy(tmp_path)
    findings = verify(load(path))
    bad = failed(findings)
    assert bad
    named = [f for f in bad if f.property == "no proof for tricks 'play'"]
    assert named and all(f.status == "counterexample" for f in named)
    props = {f.property for f in findings if f.status == "proved"}
    assert "moves: play a card to the trick" not in props and "moves: collect a trick" not in props
    assert "termination: hand length" not in props
    assert "no proof for fact 'tricks'" in {f.property for f in bad}  # nothing else declares it
    assert main(["verify", path, "--json"]) == 1
    capsys.readouterr()


def test_an_undeclared_fact_fails_verification(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(COMPONENTS, "tricks", FactlessTricks)
    findings = verify(load(_euchre_copy(tmp_path)))
    bad = {f.property: f for f in failed(findings)}
    assert "no proof for fact 'tricks'" in bad and bad["no proof for fact 'tricks'"].status == "counterexample"
    assert "score bounds" in bad and "table checks (hand_points)" in bad
    assert not any(p.startswith("no proof for tricks") for p in bad)  # the component itself is declared
    proved = {f.property for f in findings if f.status == "proved"}
    assert "moves: play a card to the trick" in proved and "termination: hand length" in proved


@pytest.mark.parametrize("sid", list(available()))
def test_first_phase_start_moves(sid: str) -> None:
    """The first phase's start transfers happen with the deal (hand-and-foot's piles dealt by the players):
    right after it, every seat instance of a zone they fill holds their count (or nothing, a zone of
    another round), and the cards they took left their source, for every round of the schedule."""
    game = Game.from_system(sid)
    decl = game.phases[0].declarations()
    assert decl is not None
    moves = [t for t in decl.transfers if START in t.actions and isinstance(t.count, int)]
    if not moves:
        return
    st = game.new_initial_state(5)
    rounds = len(game.schedule) if game.schedule is not None else 1
    for _ in range(rounds):
        dealt = dict(st.dealt[1])
        moved: Counter[str] = Counter()
        for t in moves:
            assert t.dest in game.seat_zones
            sizes = [m.bit_count() for m in st.seat_piles[t.dest][:game.num_players]]
            assert set(sizes) <= {0, t.count}, (t.name, sizes)
            moved[t.source] += sum(sizes)
        assert moved, "no start transfer filled any zone"
        for src, k in moved.items():
            assert len(st.piles[src]) == dealt[src] - k
        hand = st.hand_no
        while st.hand_no == hand and not st.is_terminal():  # play the round out
            st.apply(st.legal_actions()[0])
