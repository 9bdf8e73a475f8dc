"""The ``climbing_tricks`` component: multi-card tricks that climb, and a last card revealed at once.

A trick's start player leads one card, or up to ``max_lead`` cards of one rank,
keeping at least ``keep`` cards in hand. Each other player, clockwise, plays as
many cards as were led: either cards that are *equal or higher* than the cards
they are compared with (``compare_with``), or the lowest cards of their hand
(the ``k`` lowest by rank). A player who holds no equal-or-higher play therefore
must play their lowest cards. ``lowest``: ``any_time`` (the default: the lowest cards
are always a choice) or ``when_unable`` (only without an equal-or-higher play: a
house rule of climbing games). Cards compare by rank alone (the deck's rank order,
low to high; suits, if any, are ignored).

``respectively`` says how a play of several cards is "equal or higher":

* ``sorted_pairs``: both plays sorted low to high, each card is at least the card
  in the same place (led 7-7, then 8-10 must be answered by a card >= 8 and a
  card >= 10: birdhead's worked example);
* ``above_highest``: every card is at least the highest card compared with.

``compare_with``: ``best`` (the play winning the trick so far), ``previous``
(the play just before) or ``every`` (every play so far, a lowest-cards play too:
card by card the highest of them, as ``respectively`` compares). ``winner``:
``equal_or_higher`` (a play that is equal or higher than the winning play, in the
``respectively`` sense, takes the lead) or
``highest_card`` (the play holding the highest single card) or ``highest_cards`` (the
highest card decides, then the next highest, and so on: 8-10 beats 5-10). ``ties``:
``last_wins`` (the default: among equal plays the last one wins) or
``first_wins``. The trick's cards go to the winner's ``won`` zone and the winner
leads the next trick.

When every hand holds ``keep`` cards, the last trick is played at once: every
player's remaining cards are revealed together into the ``last_trick`` zone (no
action; the end of the action that completed the previous trick). The players
whose revealed card is the highest are the *losers* of the hand; facts
``loser`` (the entity has a loser) and ``top_last`` (the value of the highest
revealed card, ``values: rank_number`` reading the rank's name as a number)
let a scoring table charge the rank as minus points; ``several_losers`` (more than one
player revealed the highest card) lets a table cite the clause that makes them all
losers (birdhead: "If there is more than one player who played the highest card,
all of them become the losers of the round."), as ``several_losers_source`` does for
a wrong ``losers`` result with several losers (``losers_source``: with one). A hand's result lists the
``losers`` in ``loser_order``: ``last_trick_order`` (clockwise from the start
player of the last trick, the winner of the trick before) or ``round_order``
(clockwise from the round's start player).

``first_leader``: ``left_of_dealer`` (the first hand's start player is then as
random as the first dealer) or ``left_of_last_loser``: from the second hand on,
the player left of the last of the previous hand's ``losers`` (read from the
match's hand results), else left of the dealer. ``first_round_leader_source`` is the clause
for a first lead that no previous loser places (birdhead: "At the first round, the player
selected at random becomes the start player."); an audit cites it for a first lead out of turn.

Used by: birdhead ("Players play up to three cards in a trick").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

from ..actions import Action, KindSig, whole_number
from ..cards import Card, CardMask, Deck
from ..errors import MalformedRecordError, RecordError, Source, SpecError
from ..tables import Value
from .base import CheckingDoer, PhaseState
from .declared import ALL, BOOL, HAND, TRICK, WON, Declared, Fact, Transfer, seat_hand

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State

RESPECTIVELY = ("sorted_pairs", "above_highest")
COMPARE_WITH = ("best", "previous", "every")
WINNER = ("equal_or_higher", "highest_card", "highest_cards")
TIES = ("last_wins", "first_wins")
LOSER_ORDER = ("last_trick_order", "round_order")
LOWEST = ("any_time", "when_unable")
FIRST_LEADER = ("left_of_dealer", "left_of_last_loser")
CACHE_LIMIT: Final = 1 << 16
"""The most plays whose cards and ranks a component keeps (``_play_info``, ``_ranks_of``) before it starts over."""


@dataclass(init=False)
class ClimbState(PhaseState):
    """The trick being played and the hand's outcome so far (immutable fields only)."""

    start: int = -1
    """The round's start player (the first trick's leader)."""
    plays: tuple[tuple[Card, ...], ...] = ()
    """The cards of each play of the trick being played, in order (each ascending by card id)."""
    seats: tuple[int, ...] = ()
    """Who made each play of the trick being played."""
    best: int = -1
    """The index in ``plays`` of the play winning the trick so far (-1 before the lead)."""
    winners: tuple[int, ...] = ()
    """The winner of each completed trick."""
    last_leader: int = -1
    """The start player of the last trick (revealed at once), once it is revealed."""
    losers: tuple[int, ...] = ()
    """The players holding the highest revealed card, in ``loser_order``."""
    top: int = -1
    """The value of the highest revealed card (-1 before the reveal)."""

    def __init__(
            self, start: int = -1, plays: tuple[tuple[Card, ...], ...] = (), seats: tuple[int, ...] = (),
            best: int = -1, winners: tuple[int, ...] = (), last_leader: int = -1, losers: tuple[int, ...] = (),
            top: int = -1
    ) -> None:
        self.start = start
        self.plays = plays
        self.seats = seats
        self.best = best
        self.winners = winners
        self.last_leader = last_leader
        self.losers = losers
        self.top = top

    def copy(self) -> ClimbState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return ClimbState(self.start, self.plays, self.seats, self.best, self.winners, self.last_leader, self.losers,
                          self.top)


class ClimbingTricks(CheckingDoer):
    """Multi-card climbing tricks with a last trick revealed at once."""

    kind: ClassVar[str] = "climbing_tricks"

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.max_lead: int = d.get("max_lead", 1)
        self.keep: int = d.get("keep", 1)
        self.respectively: str = d.get("respectively", "sorted_pairs")
        self.compare_with: str = d.get("compare_with", "best")
        self.winner: str = d.get("winner", "equal_or_higher")
        self.ties: str = d.get("ties", "last_wins")
        self.loser_order: str = d.get("loser_order", "last_trick_order")
        self.first_leader: str = d.get("first_leader", "left_of_dealer")
        self.lowest_when: str = d.get("lowest", "any_time")
        """``any_time``: a follower may always play their lowest cards; ``when_unable``: only with no equal or
        higher play (a house rule of climbing games)."""
        self.values: Any = d.get("values", "rank_number")
        for k, v, allowed in (("respectively", self.respectively, RESPECTIVELY),
                              ("compare_with", self.compare_with, COMPARE_WITH), ("winner", self.winner, WINNER),
                              ("ties", self.ties, TIES), ("loser_order", self.loser_order, LOSER_ORDER),
                              ("first_leader", self.first_leader, FIRST_LEADER), ("lowest", self.lowest_when, LOWEST)):
            if v not in allowed:
                raise SpecError(f"{k} must be one of {list(allowed)}, got {v!r}", file, key=f"{key}.{k}")
        for k, v in (("max_lead", self.max_lead), ("keep", self.keep)):
            if type(v) is not int or v < 1:
                raise SpecError(f"{k} must be a whole number of at least 1, got {v!r}", file, key=f"{key}.{k}")
        src = Source(**d["source"])
        self.lead_source = Source(**d["lead_source"]) if "lead_source" in d else src
        self.follow_source = Source(**d["follow_source"]) if "follow_source" in d else src
        self.lowest_source = Source(**d["lowest_source"]) if "lowest_source" in d else self.follow_source
        """The clause allowing a follower's lowest cards (``allow_source``); by default ``follow_source``."""
        self.higher_source = Source(**d["higher_source"]) if "higher_source" in d else self.follow_source
        """The clause allowing a follower's equal or higher cards (``allow_source``); by default ``follow_source``."""
        self.winner_source = Source(**d["winner_source"]) if "winner_source" in d else src
        self.last_source = Source(**d["last_trick_source"]) if "last_trick_source" in d else src
        self.respectively_source = Source(**d["respectively_source"]) if "respectively_source" in d else \
            self.follow_source
        self.first_leader_source = Source(**d["first_leader_source"]) if "first_leader_source" in d else src
        self.count_source = Source(**d["count_source"]) if "count_source" in d else self.follow_source
        """The clause saying each follower plays as many cards as were led (a play of another count breaks it)."""
        self.order_source = Source(**d["order_source"]) if "order_source" in d else None
        """The clause passing play to the next seat within a trick (None: the text is silent, and play passes
        clockwise as the component runs it)."""
        self.first_round_leader_source = Source(**d["first_round_leader_source"]) \
            if "first_round_leader_source" in d else src
        """The clause saying who leads first in a hand that no previous loser starts (the first round)."""
        self.losers_source = Source(**d["losers_source"]) if "losers_source" in d else src
        """The clause naming the hand's loser (a wrong ``losers`` result with one loser)."""
        self.several_losers_source = Source(**d["several_losers_source"]) \
            if "several_losers_source" in d else self.losers_source
        """The clause making every player who revealed the highest card a loser (a wrong ``losers`` result with
        several losers)."""
        self.value_of: tuple[int, ...] = ()
        """The value of each rank of the deck (low to high), for ``top_last``."""

    # --- building -----------------------------------------------------------------
    def action_sigs(self) -> list[KindSig]:
        return [KindSig("play", cards=(1, self.max_lead))]

    def zone_ids(self) -> list[str]:
        return ["hand", "trick", "won", "last_trick"]

    def bind(self, game: Game) -> None:
        super().bind(game)
        ranks = game.deck.ranks
        if self.values == "rank_number":
            bad = [r for r in ranks if whole_number(r) is None]
            if bad:
                raise SpecError(f"values: rank_number needs numeric rank names; {bad} are not numbers",
                                self.file, key=f"{self.key}.values")
            self.value_of = tuple(int(r) for r in ranks)
        elif isinstance(self.values, Mapping) and set(self.values) == set(ranks) and \
                all(type(v) is int for v in self.values.values()):
            self.value_of = tuple(int(self.values[r]) for r in ranks)
        else:
            raise SpecError("values must be rank_number or a whole number for every rank of the deck",
                            self.file, key=f"{self.key}.values")
        hand = max(dr.hand_size for dr in game.round_deals)
        if hand <= self.keep:
            raise SpecError(f"hands of {hand} cards leave no trick before the last (keep: {self.keep})",
                            self.file, key=f"{self.key}.keep")
        self.play_base = self.codec.base("play")
        self.rank_of = game.deck.rank_of
        self.num_ranks = len(ranks)
        self._memo: tuple[int, tuple[tuple[Card, ...], ...], tuple[Action, ...]] | None = None
        rank_of = self.rank_of
        self._blocks = all(rank_of[c] <= rank_of[c + 1] for c in range(len(rank_of) - 1))
        """Whether card ids ascend with rank (each rank's cards a run of ids): :meth:`_legal_fast` then
        lists the legal plays; otherwise the general :meth:`_legal` does."""
        self._block_of: tuple[int, ...] = tuple(
            sum(1 << d for d in range(len(rank_of)) if rank_of[d] == rank_of[c]) for c in range(len(rank_of)))
        """Each card's rank as a mask of card ids (a run of ids when ``_blocks``)."""
        self._held: dict[int, tuple[int, tuple[int, ...], tuple[Action, ...]]] = {}
        """The cards a hand holds of one rank (a mask) -> (the rank, the packed cards of each prefix of them in
        ascending id order -- 1, 2, ... cards, unshifted and without the kind --, the leads of 1..max_lead of
        them)."""
        self._from_rank: tuple[int, ...] = tuple(
            sum(1 << c for c in range(len(rank_of)) if rank_of[c] >= r) for r in range(self.num_ranks + 1))
        """The cards of each rank and every higher one, as a mask (and none past the highest rank)."""
        self._above: tuple[int, ...] = tuple(self._from_rank[rank_of[c] + 1] for c in range(len(rank_of)))
        """The cards of a higher rank than each card, as a mask."""
        self._play_info: dict[Action, tuple[tuple[Card, ...], int, tuple[int, ...]]] = {}
        """A play action already seen legal -> (its cards as the codec reads them, their mask, their sorted ranks)."""
        self._ranks_of: dict[tuple[Card, ...], tuple[int, ...]] = {}
        """The sorted ranks of a play's cards (as :meth:`_ranks`), for plays made."""
        self._pairs_lead = self.winner == "equal_or_higher" and self.ties == "last_wins" and \
            self.respectively == "sorted_pairs"
        """Whether a play takes the lead exactly when each of its cards is at least the winning play's card in
        the same place (both sorted): :meth:`takes_lead` inlined."""

    def new_state(self) -> ClimbState:
        return ClimbState()

    def _s(self, st: State) -> ClimbState:
        return st.cstate[self.index]  # type: ignore[return-value]

    # --- comparing plays --------------------------------------------------------------
    def _ranks(self, cards: tuple[Card, ...]) -> tuple[int, ...]:
        return tuple(sorted(self.rank_of[c] for c in cards))

    def at_least(self, mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
        """Whether rank tuples ``mine`` (sorted) are equal or higher than ``theirs`` (sorted), as
        ``respectively`` says."""
        if self.respectively == "sorted_pairs":
            return all(a >= b for a, b in zip(mine, theirs, strict=True))
        top = theirs[-1]
        return all(a >= top for a in mine)

    def takes_lead(self, mine: tuple[int, ...], best: tuple[int, ...]) -> bool:
        """Whether a play of ranks ``mine`` beats the winning play ``best`` (``winner``, ``ties``)."""
        if self.winner == "highest_card":
            return mine[-1] > best[-1] or (self.ties == "last_wins" and mine[-1] == best[-1])
        if self.winner == "highest_cards":  # from the highest card down, the first difference decides
            down, theirs = mine[::-1], best[::-1]
            return down > theirs or (self.ties == "last_wins" and down == theirs)
        if not self.at_least(mine, best):
            return False
        return self.ties == "last_wins" or not self.at_least(best, mine)

    def target(self, st: State) -> tuple[int, ...]:
        """The ranks a follower compares with: the winning play, the previous one, or (``every``) the
        card-by-card highest of every play so far (equal or higher than that is equal or higher than each,
        in either ``respectively`` sense: the element-wise maximum of sorted tuples is sorted)."""
        return self._target(self._s(st))

    def _target(self, cs: ClimbState) -> tuple[int, ...]:
        """:meth:`target` of a trick's state (the plays' ranks kept in ``_ranks_of``)."""
        plays = cs.plays
        if self.compare_with == "every":
            return tuple(max(col) for col in zip(*[self._rk(p) for p in plays], strict=True))
        return self._rk(plays[cs.best] if self.compare_with == "best" else plays[-1])

    def _by_rank(self, hand: int) -> list[list[Card]]:
        """The cards of a hand per rank of the deck, each list ascending by id."""
        out: list[list[Card]] = [[] for _ in range(self.num_ranks)]
        m = hand
        while m:
            low = m & -m
            c = low.bit_length() - 1
            out[self.rank_of[c]].append(c)
            m ^= low
        return out

    def lowest(self, hand: int, k: int) -> tuple[int, ...]:
        """The ranks of the ``k`` lowest cards of a hand, sorted."""
        return tuple(sorted(self.rank_of[c] for c in self._cards(hand))[:k])

    @staticmethod
    def _cards(m: int) -> list[Card]:
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def allowed(self, st: State, cards: tuple[Card, ...]) -> tuple[str, Source | None] | None:
        """Why playing ``cards`` now breaks a rule (and the clause), or None if it is legal. Cards the seat does
        not hold break no clause (no text needs to say that only cards held are played): None as the clause."""
        hand = st.hands[st.cur]
        if not cards or len(set(cards)) != len(cards) or any(not hand >> c & 1 for c in cards):
            return f"the cards must be in seat {st.cur}'s hand", None
        cs = self._s(st)
        ranks = self._ranks(cards)
        if not cs.plays:
            if len(cards) > self.max_lead or ranks[0] != ranks[-1]:
                return f"a lead is one card or up to {self.max_lead} cards of the same rank", self.lead_source
            if hand.bit_count() - len(cards) < self.keep:
                return f"the start player must keep at least {self.keep} card(s) in hand", self.lead_source
            return None
        k = len(cs.plays[0])
        if len(cards) != k:
            return f"each player plays as many cards as were led ({k})", self.count_source
        if self.at_least(ranks, self.target(st)):
            return None
        if ranks == self.lowest(hand, k):
            if self.lowest_when == "when_unable" and self._can_beat(st, hand, k):
                return ("a player who can play equal or higher cards must do so; the lowest cards only when unable",
                        self.follow_source)
            return None
        if k > 1 and any(self.at_least(ranks[i:i + 1], self.target(st)[i:i + 1]) for i in range(k)):
            return ("each card must be respectively equal or higher than the cards played, or the cards must be "
                    "the lowest in hand", self.respectively_source)
        return ("the cards must be equal or higher than the cards played, or the lowest cards in hand",
                self.follow_source)

    # --- play -----------------------------------------------------------------------
    def start(self, st: State) -> None:
        cs = self._s(st)
        lead = st.next_seat(st.dealer)
        if self.first_leader == "left_of_last_loser" and st.hand_no > 0:
            prev = st.previous_result()
            losers = prev.get("losers") if prev is not None else None
            if losers:
                lead = st.next_seat(losers[-1])
            elif prev is None:  # a record's first hand, later in its match, whose start does not say
                raise MalformedRecordError(f"hand {st.hand_no}'s first lead goes left of the previous hand's last "
                                           "loser, which the start must give (previous: {losers: [...]})",
                                           path="start.previous", source=self.first_leader_source)
        cs.start = lead
        st.cur = lead

    def _encode(self, cards: list[Card]) -> Action:
        return self.codec.with_cards(self.play_base, sorted(cards))

    def legal(self, st: State) -> list[Action]:
        """Every legal play, sorted. The list depends only on the hand and the plays of the trick so far, so the
        last one is kept (``_memo``) for :meth:`is_legal` and for a repeated call on the same position."""
        hand = st.hands[st.cur]
        cs: ClimbState = st.cstate[self.index]  # type: ignore[assignment]
        plays = cs.plays
        memo = self._memo
        if memo is not None and memo[0] == hand and memo[1] == plays:
            return list(memo[2])
        out = self._legal_fast(cs, hand) if self._blocks else self._legal(st, hand)
        self._memo = (hand, plays, tuple(out))
        return out

    def _rk(self, cards: tuple[Card, ...]) -> tuple[int, ...]:
        """:meth:`_ranks` of a play, kept in ``_ranks_of``."""
        r = self._ranks_of.get(cards)
        if r is None:
            if len(self._ranks_of) >= CACHE_LIMIT:
                self._ranks_of.clear()
            r = self._ranks_of[cards] = self._ranks(cards)
        return r

    def _held_of(self, blk: int) -> tuple[int, tuple[int, ...], tuple[Action, ...]]:
        """The ``_held`` entry of ``blk``, the cards a hand holds of one rank (made on first use)."""
        e = self._held.get(blk)
        if e is None:
            cards = self._cards(blk)
            slot = self.codec.slot
            packed: list[int] = []
            p = 0
            for i, c in enumerate(cards):
                p |= (c + 1) << (slot * i)
                packed.append(p)
            base = self.play_base
            e = self._held[blk] = (self.rank_of[cards[0]], tuple(packed),
                                   tuple(base | q for q in packed[:self.max_lead]))
        return e

    def _legal_fast(self, cs: ClimbState, hand: int) -> list[Action]:
        """:meth:`_legal` for a deck whose card ids ascend with rank (``_blocks``): the same list, walked off the
        hand's bits rank by rank (``_held``), with no sets. A play packs the lowest copies of each of its ranks,
        rank by rank, which is ascending id order, as :meth:`_encode` packs them."""
        block_of = self._block_of
        held = self._held
        plays = cs.plays
        base = self.play_base
        out: list[Action] = []
        if not plays:
            most = min(self.max_lead, hand.bit_count() - self.keep)
            if most <= 0:
                return out
            m = hand
            if most >= self.max_lead:
                while m:
                    blk = m & block_of[(m & -m).bit_length() - 1]
                    m ^= blk
                    out += (held.get(blk) or self._held_of(blk))[2]
            else:
                while m:
                    blk = m & block_of[(m & -m).bit_length() - 1]
                    m ^= blk
                    out += (held.get(blk) or self._held_of(blk))[2][:most]
            out.sort()
            return out
        k = len(plays[0])
        target = self._target(cs)
        lower = target if self.respectively == "sorted_pairs" else (target[-1],) * k
        slot = self.codec.slot
        if k == 1:  # one card of each rank from the lowest allowed up, ascending; then the lowest card in front
            above = self._above
            m = hand & self._from_rank[lower[0]]
            while m:
                c = (m & -m).bit_length() - 1
                out.append(base | (c + 1))
                m &= above[c]
            if not out or self.lowest_when == "any_time":
                low = base | ((hand & -hand).bit_length())
                if not out or out[0] != low:
                    out.insert(0, low)
            return out
        pres: list[tuple[int, tuple[int, ...], tuple[Action, ...]]] = []
        m = hand & self._from_rank[lower[0]]
        while m:
            blk = m & block_of[(m & -m).bit_length() - 1]
            m ^= blk
            pres.append(held.get(blk) or self._held_of(blk))
        if k == 2:
            hi = lower[1]
            for i, (r, pk, _) in enumerate(pres):
                if r >= hi and len(pk) > 1:
                    out.append(base | pk[1])
                one = base | pk[0]
                for r2, pk2, _ in pres[i + 1:]:
                    if r2 >= hi:
                        out.append(one | pk2[0] << slot)
        else:
            self._combos(pres, 0, 0, 0, lower, k, out)
        if not out or self.lowest_when == "any_time":
            p = pos = 0
            m = hand
            while m and pos < k:  # the k lowest cards: the lowest ranks first, each rank's lowest copies
                blk = m & block_of[(m & -m).bit_length() - 1]
                m ^= blk
                pk = (held.get(blk) or self._held_of(blk))[1]
                t = min(len(pk), k - pos)
                p |= pk[t - 1] << (slot * pos)
                pos += t
            low = base | p
            if low not in out:
                out.append(low)
        out.sort()
        return out

    def _combos(self, pres: list[tuple[int, tuple[int, ...], tuple[Action, ...]]], j: int, pos: int, packed: int,
                lower: tuple[int, ...], k: int, out: list[Action]) -> None:
        """Add to ``out`` every play that fills places ``pos``.. of ``k`` (``packed`` so far) with ranks from
        ``pres[j:]``, each place's rank at least ``lower``'s (which ascends)."""
        slot = self.codec.slot
        for jj in range(j, len(pres)):
            r, pk, _ = pres[jj]
            for t in range(1, min(len(pk), k - pos) + 1):
                if r < lower[pos + t - 1]:
                    break
                q = packed | pk[t - 1] << (slot * pos)
                if pos + t == k:
                    out.append(self.play_base | q)
                else:
                    self._combos(pres, jj + 1, pos + t, q, lower, k, out)

    def _legal(self, st: State, hand: int) -> list[Action]:
        per = self._by_rank(hand)
        cs = self._s(st)
        out: set[Action] = set()
        if not cs.plays:
            most = min(self.max_lead, hand.bit_count() - self.keep)
            for cards in per:
                for k in range(1, min(most, len(cards)) + 1):
                    out.add(self._encode(cards[:k]))
            return sorted(out)
        k = len(cs.plays[0])
        target = self.target(st)
        for combo in self._rising(per, k, target):
            out.add(self._encode([per[r][i] for r in set(combo) for i in range(combo.count(r))]))
        if not out or self.lowest_when == "any_time":
            low = self.lowest(hand, k)
            out.add(self._encode([per[r][i] for r in set(low) for i in range(low.count(r))]))
        return sorted(out)

    def _rising(self, per: list[list[Card]], k: int, target: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every sorted tuple of ``k`` ranks the hand (``per``: its cards by rank) holds that is equal or higher
        than ``target`` (:meth:`at_least`), in ascending order. Built rank by rank from each position's lowest
        allowed rank: a target rank per position (``sorted_pairs``) or the target's top rank for every card."""
        counts = [len(c) for c in per]
        lower = target if self.respectively == "sorted_pairs" else (target[-1],) * k
        top = self.num_ranks
        combo: list[int] = []

        def grow(i: int, start: int) -> Iterator[tuple[int, ...]]:
            if i == k:
                yield tuple(combo)
                return
            for r in range(max(start, lower[i]), top):
                if counts[r]:
                    counts[r] = counts[r] - 1
                    combo.append(r)
                    yield from grow(i + 1, r)
                    combo.pop()
                    counts[r] = counts[r] + 1

        return grow(0, 0)

    def allow_source(self, st: State, a: Action) -> Source | None:
        """A lead: ``lead_source``; a follower's play equal or higher than the cards compared with: ``higher_source``;
        a follower's lowest cards: ``lowest_source``."""
        if not self._s(st).plays:
            return self.lead_source
        cards = self.codec.cards(a)
        return self.higher_source if self._can_beat(st, Deck.mask(cards), len(cards)) else self.lowest_source

    def sure_forbidding(self, st: State, a: Action) -> CardMask:
        """For a follower's play of the lowest cards that is not equal or higher than the cards compared with: the
        cards of a rank below the play's highest (holding one, the play was not of the lowest cards), and with
        ``lowest: when_unable`` and one-card plays, the cards equal or higher (one could have been played). A
        lead, or an equal or higher play, no card held forbids (the lead's count is kept by the hand's size)."""
        if not self._s(st).plays or self.codec.kind(a) != "play":
            return 0
        cards = self.codec.cards(a)
        k = len(cards)
        own = Deck.mask(cards)
        if self._can_beat(st, own, k):
            return 0
        top = max(self.rank_of[c] for c in cards)
        target = self.target(st)
        beat = target[-1] if k == 1 and self.lowest_when == "when_unable" else self.num_ranks
        m = 0
        for c, r in enumerate(self.rank_of):
            if 0 <= r < top or r >= beat:
                m |= 1 << c
        return m & ~own

    def _can_beat(self, st: State, hand: int, k: int) -> bool:
        """Whether ``hand`` holds ``k`` cards equal or higher than the cards a follower compares with now."""
        return next(self._rising(self._by_rank(hand), k, self.target(st)), None) is not None

    def is_legal(self, st: State, a: Action) -> bool:
        memo = self._memo  # an action legal_actions() just listed for this very position: legal at once
        if memo is not None and (a in memo[2] if type(a) is int else a in frozenset(memo[2])) and \
                memo[0] == st.hands[st.cur] and memo[1] == self._s(st).plays:
            return True
        if self.codec.kind(a) != "play" or not self.codec.valid(a):
            return False
        return self.allowed(st, self.codec.cards(a)) is None

    def try_apply(self, st: State, a: Action) -> bool:
        seat = st.cur
        hands = st.hands
        hand = hands[seat]
        cs: ClimbState = st.cstate[self.index]  # type: ignore[assignment]
        plays = cs.plays
        memo = self._memo  # the fast form of is_legal's first test
        if (memo is None or type(a) is not int or a not in memo[2] or memo[0] != hand or memo[1] != plays) and \
                not self.is_legal(st, a):
            return False
        info = self._play_info.get(a)
        if info is None:
            got = self.codec.cards(a)
            mask = 0
            for c in got:
                mask |= 1 << c
            if len(self._play_info) >= CACHE_LIMIT:
                self._play_info.clear()
            info = self._play_info[a] = (got, mask, self._rk(got))
        cards, mask, ranks = info
        hands[seat] = hand & ~mask
        st.piles["trick"].extend(cards)
        if not plays:
            cs.best = 0
        else:
            won_so_far = plays[cs.best]
            best = self._ranks_of.get(won_so_far) or self._rk(won_so_far)
            if self._pairs_lead:
                for i in range(len(ranks)):  # by index: compiled, zip(strict=True) is a generic call
                    if ranks[i] < best[i]:
                        break
                else:
                    cs.best = len(plays)
            elif self.takes_lead(ranks, best):
                cs.best = len(plays)
        cs.plays = plays = (*plays, cards)
        cs.seats = (*cs.seats, seat)
        n = st.game.num_players
        if st.contract.out:
            playing = [s for s in range(n) if st.active[s] and not st.contract.out >> s & 1]
            if len(plays) < len(playing):
                st.cur = st.next_seat(seat)
                return True
        else:
            active = st.active
            if len(plays) < (active.count(True) if len(active) == n else active[:n].count(True)):
                st.cur = st.next_seat(seat)
                return True
            playing = [s for s in range(n) if active[s]]
        w = cs.seats[cs.best]
        won = st.seat_piles["won"]
        trick = st.piles["trick"]
        m = won[w]
        for c in trick:
            m |= 1 << c
        won[w] = m
        trick.clear()
        cs.winners = (*cs.winners, w)
        cs.plays, cs.seats, cs.best = (), (), -1
        keep = self.keep
        for s in playing:
            if hands[s].bit_count() > keep:
                st.cur = w
                return True
        self._reveal(st, w, playing)
        st.next_phase()
        return True

    def _reveal(self, st: State, leader: int, playing: list[int]) -> None:
        """The last trick: every player's remaining cards go to the last trick at once; the highest lose."""
        cs = self._s(st)
        order = [leader] + [s for s in st.seats_from(leader) if s in playing and s != leader]
        rank_of, hands, last = self.rank_of, st.hands, st.piles["last_trick"]
        shown: list[int] = []  # each seat's highest revealed rank, in ``order`` (-2: no card)
        top = -1
        for s in order:
            h = hands[s]
            if not h:
                shown.append(-2)
                continue
            if h & (h - 1):
                cards = self._cards(h)
                last.extend(cards)
                r = max([rank_of[c] for c in cards])
            else:  # one card (``keep: 1``)
                c = h.bit_length() - 1
                last.append(c)
                r = rank_of[c]
            hands[s] = 0
            shown.append(r)
            if r > top:
                top = r
        holders = [order[i] for i in range(len(order)) if shown[i] == top]
        first = leader if self.loser_order == "last_trick_order" else cs.start
        if len(holders) > 1 and first != leader:  # (``order`` runs clockwise from the leader: a ring is one cycle)
            ring = [first] + [s for s in st.seats_from(first) if s != first]
            holders = [s for s in ring if s in holders]
        cs.losers = tuple(holders)
        cs.top = self.value_of[top] if top >= 0 else -1
        cs.last_leader = leader

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source | None]:
        if self.codec.kind(a) != "play" or not self.codec.valid(a):
            return "cards must be played", self.source
        why = self.allowed(st, self.codec.cards(a))
        return why if why is not None else ("not allowed now", self.source)

    def bot_choice(self, st: State, legal: list[Action]) -> Action:
        """The rule bot's play: shed the highest cards it may (a high card kept to the end loses points)."""
        return max(legal, key=lambda a: (sum(self.rank_of[c] for c in self.codec.cards(a)), -a))

    # --- results, facts and views --------------------------------------------------
    def result_source(self, field: str) -> Source | None:
        """``trick_winners``: the trick-winner clause; the other fields: the component's clause."""
        return self.winner_source if field == "trick_winners" else self.losers_source if field == "losers" \
            else self.source

    def result_value_source(self, field: str, value: Any) -> Source | None:
        """``losers`` where the replay gives several: ``several_losers_source``; else :meth:`result_source`'s."""
        if field == "losers" and isinstance(value, list) and len(value) > 1:
            return self.several_losers_source
        return self.result_source(field)

    def previous_fields(self) -> tuple[str, ...]:
        return ("losers",) if self.first_leader == "left_of_last_loser" else ()

    def check_previous(self, st: State, prev: Mapping[str, Any] | None) -> None:
        """``start.previous.losers``, where the first lead goes left of the last of them: distinct seats, at least
        one. A later hand's start without it is refused as the hand's first lead is placed."""
        if prev is None or self.first_leader != "left_of_last_loser":
            return
        n = st.game.num_players
        losers = prev.get("losers")
        if not isinstance(losers, list) or not losers or len(set(losers)) != len(losers) or \
                any(type(s) is not int or not 0 <= s < n for s in losers):
            raise RecordError(f"the start's previous losers must be distinct seats 0..{n - 1}, at least one",
                              path="start.previous.losers")

    def turn_source(self, st: State) -> Source | None:
        """A play following the lead: ``order_source`` (None without it: play passes clockwise, as the component
        runs it); a later lead: the trick winner's clause (the winner becomes the next start player); the first
        lead: ``first_leader_source`` when the previous hand's loser placed it, else ``first_round_leader_source``."""
        cs = self._s(st)
        if cs.plays:
            return self.order_source
        if cs.winners:
            return self.winner_source
        prev = st.previous_result() if self.first_leader == "left_of_last_loser" else None
        if prev is not None and prev.get("losers"):
            return self.first_leader_source
        return self.first_round_leader_source

    def trick_winners(self, st: State) -> list[int]:
        """The winner of each trick completed so far this hand."""
        return list(self._s(st).winners)

    def losers(self, st: State) -> list[int]:
        """The hand's losers (after the reveal), in ``loser_order``."""
        return list(self._s(st).losers)

    def result_fields(self, st: State) -> dict[str, Any]:
        """Each trick's winner, the round's start player, and the losers in ``loser_order``."""
        cs = self._s(st)
        return {"trick_winners": list(cs.winners), "start_player": cs.start, "losers": list(cs.losers),
                "top_last": cs.top}

    def add_facts(self, st: State, seats: tuple[int, ...], into: dict[str, Value]) -> None:
        """``loser``: a seat of the entity holds the highest revealed card; ``top_last``: its value;
        ``several_losers``: more than one player holds it."""
        cs = self._s(st)
        into["loser"] = any(s in cs.losers for s in seats)
        into["top_last"] = cs.top
        into["several_losers"] = len(cs.losers) > 1

    def fact_names(self) -> list[str]:
        return ["loser", "top_last", "several_losers"]

    def public_view(self, st: State) -> dict[str, Any]:
        """The plays of the trick being played, who is winning it, and each trick's winner."""
        cs = self._s(st)
        names = st.game.deck.names
        return {"trick_plays": [{"seat": s, "cards": [names[c] for c in p]} for s, p in zip(cs.seats, cs.plays,
                                                                                              strict=True)],
                "trick_best": cs.seats[cs.best] if cs.plays else -1,
                "trick_winners": list(cs.winners), "losers": list(cs.losers)}

    def declarations(self) -> Declared:
        """Plays of 1..max_lead cards to the trick, the trick to its winner, each hand's last cards
        revealed into the last trick; at most (hand size - keep) tricks of one play per player."""
        assert self.game is not None
        g = self.game
        n = g.num_players
        hand = max(dr.hand_size for dr in g.round_deals)
        t = hand - self.keep
        reveal = tuple(Transfer(f"reveal seat {s}'s last cards", seat_hand(s), "last_trick", self.keep, ("play",),
                                follow_on=True) for s in range(n))
        return Declared((Transfer("play cards to the trick", HAND, TRICK, (1, self.max_lead), ("play",)),
                         Transfer("collect a trick", TRICK, WON, ALL, ("play",), follow_on=True), *reveal),
                        t * n, f"at most {t} tricks (each takes a card from every hand) of {n} plays",
                        (Fact("loser", BOOL), Fact("top_last", tuple(sorted(set(self.value_of)))),
                         Fact("several_losers", BOOL)))
