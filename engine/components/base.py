"""The interface every phase component implements.

A phase component runs one part of a hand (calling trump, declarations, trick
play, draw-and-discard turns). It is built from its spec clause, then bound to
the game once the action labels are known. At play time it is stateless: all
position data lives in :class:`~cardspec.engine.state.State`: the zones, and one
typed :class:`PhaseState` per component (``st.cstate[component.index]``, from
:meth:`Component.new_state`), so a state copies cheaply.

Each action has a check (:meth:`legal`, and :meth:`why_illegal` for the clause
an illegal one breaks) and a doer (:meth:`apply`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, ActionCodec, KindSig
from ..cards import CardMask
from ..errors import IllegalActionError, Source, SpecError
from ..tables import Value

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State
    from .declared import Declared


class PhaseState:
    """A component's own part of a position, reset at the start of every hand.

    Subclasses are small dataclasses whose fields hold immutable values (ints,
    strings, tuples), so that :meth:`copy` (a shallow copy) makes an independent
    position; a component replaces such a field, it never mutates one. A state
    that keeps lists for speed (trick play's) copies them in its :meth:`copy`.

    Each subclass overrides :meth:`copy` with its constructor and every field, the cheap copy a search
    makes at every node; ``tests/test_engine_api.py`` holds each one to its fields (a field added but not
    copied, or a subclass left with its parent's copy, fails there).

    Each subclass is a ``@dataclass(init=False)`` with an ``__init__`` of its own over its fields, in their
    order and with their defaults: a compiled (mypyc) build runs the ``__init__`` that ``@dataclass`` writes
    as interpreted Python (about 0.3 us a call, against 0.08 for one written out), and every hand builds
    each phase's state, every copy too. ``tests/test_engine_api.py`` holds each constructor to the fields.
    """

    def copy(self) -> PhaseState:
        """An independent copy: the constructor given every field (slower than a subclass's own)."""
        return type(self)(*[getattr(self, f.name) for f in dataclasses.fields(self)])  # type: ignore[arg-type]


class Component:
    """Base class of phase components."""

    kind: ClassVar[str] = "component"
    index = -1
    """The component's position in ``game.phases`` (set by :class:`~cardspec.engine.game.Game`)."""
    guests: list[Component]
    """The phases whose actions are offered on this one's turns (set by ``Game``; empty unless ``hosts_guests``)."""

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        self.id: str = d["id"]
        self.key = key
        self.file = file
        self.source = Source(**d["source"])
        self.game: Game | None = None
        self.keeps_list = False
        """Whether ``State.legal_actions()`` keeps the list it returns (``State.listed``), so that ``State.apply``
        carries out an action from it, applied next, with :meth:`apply_listed`, with no second check. True for a
        component whose legality check lists every legal action (as :meth:`is_legal`'s default does), and for one
        whose own check costs more than a look-up in the list (``book_melding``); a component whose check is
        cheap leaves it False, and no list is kept. (An instance attribute: the compiled build reads it as a
        struct field.)"""
        self.list_piles: tuple[str, ...] = ()
        """The table's zones whose sizes the list also depends on (``State.list_key`` adds them, so that a list
        kept for a position is not used once those zones were changed from outside; draw_discard's stock and
        discard pile)."""

    # --- building -----------------------------------------------------------------
    def action_sigs(self) -> list[KindSig]:
        """The action kinds this component's actions use, with what each carries."""
        return []

    def declaration_facts(self) -> list[tuple[str, int, str]]:
        """Scoring facts this component provides: (name, declaration bit, 'flag' or 'bet')."""
        return []

    def declarations(self) -> Declared | None:
        """What this component declares for verification: card transfers, its bound on actions
        per hand, the scoring facts it offers (see :mod:`cardspec.engine.components.declared`).

        Called once the component is bound. None (the default) means undeclared:
        ``cardspec verify`` then fails with ``no proof for <kind> '<id>'``.
        """
        return None

    def bind(self, game: Game) -> None:
        """Called once the game's action codec exists."""
        self.game = game
        self.codec: ActionCodec = game.codec

    # --- a guest on another phase's turns (``also_on_turns_of``) ---------------------
    host: str | None = None
    """The id of the earlier phase on whose turns this component's actions are also offered, if any."""
    hosts_guests = False
    """Whether this component offers guests' actions on its turns (``Game`` links guests to hosts)."""

    def action_effect(self, st: State, a: Action) -> str:
        """What legal action ``a`` does, in words, where its name does not say and nothing hidden is told (a
        menu shows it): ``""`` for most actions."""
        return ""

    def deals_from(self, pile: str) -> int:
        """How many cards this phase deals out of ``pile`` as it begins (a ``pile_deal`` phase's piles); 0 for
        a phase that deals none. A later phase that draws from the pile asks (:meth:`check_stock`)."""
        return 0

    def check_stock(self, game: Game, pile: str) -> None:
        """Refuse rules under which the pile this phase draws from is empty when its first turn begins, in any
        round: every round would end before anyone drew (hand-and-foot with two players, one deck and no
        jokers deals all 52 cards into hands and feet)."""
        dealt = sum(ph.deals_from(pile) for ph in game.phases[:self.index])
        left = min(d.pile_sizes(game.deck.size, game.num_players).get(pile, 0) for d in game.round_deals) - dealt
        if left < 1:
            raise SpecError(f"the '{pile}' pile is empty when the first turn begins (the {game.deck.size} cards are "
                            "all dealt): every round would end before anyone drew", self.file, key=f"{self.key}.stock")

    def host_round_count(self) -> int:
        """How many rounds a host's turns come in (a guest names them from 0); 1 unless the host has rounds."""
        return 1

    def bind_host(self, host: Component) -> None:
        """Called by ``Game`` when it links this guest to its host; a guest checks the host suits it."""
        raise SpecError(f"'{self.kind}' cannot be offered on another phase's turns", self.file,
                        key=f"{self.key}.also_on_turns_of")

    def offered(self, st: State, seat: int, host_round: int) -> list[Action]:
        """The actions this guest offers ``seat`` on a turn of the host (in the host's round ``host_round``)."""
        return []

    def act_on_turn(self, st: State, seat: int, a: Action) -> bool:
        """Carry out an offered action for ``seat``; return whether it is that turn's pass."""
        raise NotImplementedError

    def bars_host_actions(self, st: State, seat: int) -> bool:
        """Whether ``seat`` may now only pass on the host's turns, because of what it did as a guest."""
        return False

    def why_not_offered(self) -> tuple[str, Source]:
        """Why a guest action named now is refused, and the clause."""
        return f"'{self.id}' does not offer that now", self.source

    def codec_kinds(self) -> frozenset[str]:
        """The action kinds this component declares."""
        return frozenset(sig.kind for sig in self.action_sigs())

    def zone_ids(self) -> list[str]:
        """The zones (by id, see :mod:`cardspec.engine.zones`) this component moves cards in or out of."""
        return []

    def new_state(self) -> PhaseState | None:
        """This component's state for a new hand (None: it keeps none)."""
        return None

    def add_facts(self, st: State, seats: tuple[int, ...], into: dict[str, Value]) -> None:
        """Write the scoring facts this component offers about a finished hand, for the entity of ``seats``,
        into ``into`` (scoring gathers every part's facts of an entity in one dict, with no dict per part)."""

    def hand_facts(self, st: State, seats: tuple[int, ...]) -> dict[str, Value]:
        """The facts :meth:`add_facts` writes, in a dict of their own."""
        facts: dict[str, Value] = {}
        self.add_facts(st, seats, facts)
        return facts

    def fact_names(self) -> list[str]:
        """The names of the facts :meth:`add_facts` gives, whatever :meth:`declarations` says
        (scoring tells a fact that is offered but undeclared from one nobody offers)."""
        return []

    def result_fields(self, st: State) -> dict[str, Any]:
        """Fields this component adds to a hand's result in a record (for example the contract)."""
        return {}

    def result_source(self, field: str) -> Source | None:
        """The clause that decides one of this component's result fields (an audit cites it); None when no one
        clause does."""
        return self.source

    def result_value_source(self, field: str, value: Any) -> Source | None:
        """The clause that decides one of this component's result fields where the replay gives it ``value`` (an
        audit cites it when a record states another): a field whose values each come by a clause of their own
        (how a round ended) answers per value; by default :meth:`result_source`'s."""
        return self.result_source(field)

    def trick_source(self, st: State, trick: int, later: tuple[Action, ...] = ()) -> Source | None:
        """For a phase that states ``trick_winners``: the clause that decides the winner of trick ``trick`` of the
        hand being played or just played in ``st``, ``later`` being the hand's actions after ``st`` (a phase whose
        tricks can be decided between copies of one card cites its own clause for those); by default
        :meth:`result_source`'s."""
        return self.result_source("trick_winners")

    def contract_source(self, st: State) -> Source | None:
        """For a phase that settles the contract (``settles_contract``): the clause by which this hand's trump
        and maker were settled, read while the hand is played (an audit cites it for a wrong ``trump`` or
        ``maker``); None when this phase did not settle them."""
        return None

    def word_source(self, kind: str, word: str) -> Source | None:
        """For an action name of one of this phase's kinds followed by ``word``, a word the kind does not take
        (``bid 1 H`` where bids name no suit): the clause saying so, where the spec gives one; None by default."""
        return None

    def turn_source(self, st: State) -> Source | None:
        """The clause that says whose turn it is now (an audit cites it for a seat acting out of
        turn); None when no clause of the text says so and the spec's own choice decides."""
        return self.source

    def public_view(self, st: State) -> dict[str, Any]:
        """Public facts of this component's part of the position, for every seat's observation
        (the turned-up cards, the trick being played); cards in zones are shown by the zones."""
        return {}

    settles_contract = False
    """Whether this component writes the hand's contract (``State.contract``: trump, maker, declarations)."""

    held_cards_forbid = False
    """Whether a card held can only forbid an action of this phase, never allow one (follow suit: a card of the
    suit led forbids another suit): then a play legal on a seat's known cards is legal with its unseen cards
    exactly when none of them alone forbids it, and a play no placement allows is told (:mod:`.unseen`)."""

    def allow_source(self, st: State, a: Action) -> Source | None:
        """The clause that allows ``a``, a legal action of the seat to act, here (a conformance report cites it
        when another engine forbids ``a``); by default the phase's own clause."""
        return self.source

    def sure_forbidding(self, st: State, a: Action) -> CardMask:
        """The cards whose holding (beside the action's own) makes ``a`` illegal for the seat to act in ``st``,
        whatever else its hand holds: an audit of a record with unseen cards rules them out of the seat's hand once
        ``a`` is found legal (:mod:`.unseen`). Only cards that forbid ``a`` for sure may be named (a card that
        forbids it only beside some other card must not be); 0 (the default) names none. climbing_tricks names
        them for a play of the lowest cards; a phase with ``held_cards_forbid`` is judged by that instead."""
        return 0

    def tallies(self) -> list[str]:
        """The public per-seat counts this component keeps in ``State.tally`` (``tricks``: tricks won).

        Other parts read a tally by name (a bet broken by a trick, a contract made);
        only the component that declares it writes it.
        """
        return []

    # --- play -----------------------------------------------------------------------
    def start(self, st: State) -> None:
        """Enter the phase: set ``st.cur`` or finish at once with ``st.next_phase()``."""
        raise NotImplementedError

    def legal(self, st: State) -> list[Action]:
        """Every legal action of the player to act, sorted."""
        raise NotImplementedError

    def is_legal(self, st: State, a: Action) -> bool:
        """Whether ``a`` is legal now (override for a faster check).

        With copies of a card in the deck, an action naming another copy of a
        listed card from the same hand is legal too (see ``ActionCodec.canonical``).
        """
        legal = self.legal(st)
        if a in legal:
            return True
        return st.game.deck.has_copies and st.cur >= 0 and self.codec.canonical(a, st.hands[st.cur]) in legal

    def apply_listed(self, st: State, a: Action) -> None:
        """Carry out ``a``, which :meth:`legal` listed for this very position (``State.apply``, when
        ``State.legal_actions()`` kept the list; the bulk loop): legal, so a component that :attr:`keeps_list`
        does not check it again. By default the doer, :meth:`apply`; a :class:`CheckingDoer` that keeps its
        lists gives its doer without the check."""
        self.apply(st, a)

    def previous_fields(self) -> tuple[str, ...]:
        """The fields of ``start.previous`` this phase reads: what the hands before a record's first one left that a
        rule of a hand reads (a record that starts mid-match gives them in ``start.previous``; a field no phase
        reads is refused there). Used by: ``climbing_tricks`` (``losers``, birdhead), ``drop_out`` (``drop_outs``,
        with a limit on consecutive drop-outs)."""
        return ()

    def check_previous(self, st: State, prev: Mapping[str, Any] | None) -> None:
        """Refuse the ``start.previous`` of a record that starts at a later hand (``st.first_hand > 0``) where this
        phase's fields are missing or cannot be (raise :class:`~cardspec.engine.errors.MalformedRecordError`, naming
        the path); ``prev`` is None when the start gives none. Called as the state takes up the start, before the
        first hand begins. By default nothing is checked.
        Used by: ``climbing_tricks`` (``losers``; their absence is refused as the hand's first lead is placed),
        ``drop_out`` (``drop_outs``)."""

    def previous_values(self, st: State) -> dict[str, Any]:
        """What ``start.previous`` says for this phase's fields (:meth:`previous_fields`) of a record that would
        start at the hand ``st`` is about to play (the conformance harness gives a hand taken from a match its
        start). By default each field as the previous hand's result gives it (:meth:`State.previous_result`),
        where that result has it and it is not empty."""
        prev = st.previous_result()
        if prev is None:
            return {}
        out: dict[str, Any] = {}
        for f in self.previous_fields():
            v = prev.get(f)
            if v:
                out[f] = list(v) if type(v) is list else v
        return out

    def play_random(self, st: State, getrandbits: Callable[[int], int], bound: int) -> bool:
        """The bulk loop's phase-long step for uniform random play: choose and carry out this phase's actions as
        the bulk loop would one at a time (each ``legal(st)[below(getrandbits, len(legal))]``, recorded in
        ``st.history`` and carried out), until the phase ends or the history reaches ``bound`` actions; True.
        False, with nothing done, where the component has no such loop (the bulk loop then steps). A loop must
        give the same actions and the same position as the steps (``tests/test_bulk.py``).

        Used by: ``tricks`` (every trick-taking system)."""
        return False

    def representative(self, st: State, a: Action) -> Action:
        """The action that ``legal_actions()`` lists for ``a``'s class of equivalent actions.

        By default, copies of one face held by the player are interchangeable (see
        ``ActionCodec.canonical``); a component whose rules read only part of a card
        (hand-and-foot's sets read the rank alone) lists one action per wider class.
        """
        if not st.game.deck.has_copies or st.cur < 0:
            return a
        return self.codec.canonical(a, st.hands[st.cur])

    def apply(self, st: State, a: Action) -> None:
        """Carry out a legal action."""
        raise NotImplementedError

    def try_apply(self, st: State, a: Action) -> bool:
        """Check and carry out ``a``; False (and nothing done) if it is illegal.

        The hot path of ``State.apply``; a component may fuse the check into the doer.
        """
        if not self.is_legal(st, a):
            return False
        self.apply(st, a)
        return True

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source | None]:
        """Why ``a`` is not legal now, and the clause it breaks: None when no clause does (a card the player
        does not hold: no text needs to say that only cards held are played)."""
        return f"not allowed in the '{self.id}' phase now", self.source

    def number_bound(self, kind: str, number: int) -> tuple[str, Source] | None:
        """For an action of this component's ``kind`` whose ``number`` lies outside the range the kind takes, the
        limit it passes in words and the clause that sets it (with its register entry when a reading of a silent
        text sets it); None when no clause does."""
        return None

    def closed_reason(self, st: State, a: Action) -> tuple[str, Source] | None:
        """Why this phase, already passed this hand, takes no more action ``a`` (one of its kinds, named in a later
        phase) this hand, and the clause saying so: it was not played at all (a condition of its spec held), or
        its limit is used up (one declaration a hand, made). None when no clause closes it to ``a``."""
        return None

    def refusal(self, st: State, a: Action) -> tuple[str, Source | None]:
        """Why ``a`` is refused now, and the clause: an action of an earlier phase that is closed to it this hand
        cites the clause that closes it (:meth:`closed_reason`: a bid in a hand with no bidding, a second Nil where
        one is allowed a hand); anything else, :meth:`why_illegal`."""
        return self.closed_earlier(st, a) or self.why_illegal(st, a)

    def closed_earlier(self, st: State, a: Action) -> tuple[str, Source] | None:
        """Why ``a``, an action of an earlier phase of the hand (not one of this phase's kinds), is closed to every
        seat now, and the clause (:meth:`closed_reason`); None when it is not. It does not depend on who names
        it, so an audit may cite it for a seat acting out of turn too."""
        codec = st.game.codec
        if not codec.valid(a):
            return None
        kind = codec.kind(a)
        if kind in self.codec_kinds():
            return None
        for ph in st.game.phases[:self.index]:
            if kind in ph.codec_kinds():
                why = ph.closed_reason(st, a)
                if why is not None:
                    return why
        return None

    def hidden(self, a: Action) -> bool:
        """Whether the cards of this action are hidden from the other players."""
        return False


class CheckingDoer(Component):
    """A component whose doer checks legality itself: :meth:`try_apply` is the fused check
    and doer (the hot path of ``State.apply``), and :meth:`apply` raises
    :class:`IllegalActionError` with :meth:`why_illegal`'s clause when it refuses."""

    def try_apply(self, st: State, a: Action) -> bool:
        raise NotImplementedError

    def apply(self, st: State, a: Action) -> None:
        if not self.try_apply(st, a):
            reason, src = self.refusal(st, a)
            raise IllegalActionError(st.game.action_name(a), reason, src)
