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
let a scoring table charge the rank as minus points. A hand's result lists the
``losers`` in ``loser_order``: ``last_trick_order`` (clockwise from the start
player of the last trick, the winner of the trick before) or ``round_order``
(clockwise from the round's start player).

``first_leader``: ``left_of_dealer`` (the first hand's start player is then as
random as the first dealer) or ``left_of_last_loser``: from the second hand on,
the player left of the last of the previous hand's ``losers`` (read from the
match's hand results), else left of the dealer.

Used by: birdhead ("Players play up to three cards in a trick").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import Action, KindSig
from ..cards import Card
from ..errors import Source, SpecError
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


@dataclass
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


class ClimbingTricks(CheckingDoer):
    """Multi-card climbing tricks with a last trick revealed at once."""

    kind = "climbing_tricks"

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
        self.winner_source = Source(**d["winner_source"]) if "winner_source" in d else src
        self.last_source = Source(**d["last_trick_source"]) if "last_trick_source" in d else src
        self.respectively_source = Source(**d["respectively_source"]) if "respectively_source" in d else \
            self.follow_source
        self.first_leader_source = Source(**d["first_leader_source"]) if "first_leader_source" in d else src
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
            bad = [r for r in ranks if not r.lstrip("-").isdigit()]
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
        self._memo: tuple[int, tuple[tuple[Card, ...], ...], tuple[Action, ...], frozenset[Action]] | None = None

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
        cs = self._s(st)
        if self.compare_with == "every":
            plays = [self._ranks(p) for p in cs.plays]
            return tuple(max(col) for col in zip(*plays, strict=True))
        play = cs.plays[cs.best] if self.compare_with == "best" else cs.plays[-1]
        return self._ranks(play)

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

    def allowed(self, st: State, cards: tuple[Card, ...]) -> tuple[str, Source] | None:
        """Why playing ``cards`` now breaks a rule (and the clause), or None if it is legal."""
        hand = st.hands[st.cur]
        if not cards or len(set(cards)) != len(cards) or any(not hand >> c & 1 for c in cards):
            return f"the cards must be in seat {st.cur}'s hand", self.source
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
            return f"each player plays as many cards as were led ({k})", self.follow_source
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
        if self.first_leader == "left_of_last_loser" and st.hand_results:
            losers = st.hand_results[-1].get("losers")
            if losers:
                lead = st.next_seat(losers[-1])
        cs.start = lead
        st.cur = lead

    def _encode(self, cards: list[Card]) -> Action:
        return self.codec.with_cards(self.play_base, sorted(cards))

    def legal(self, st: State) -> list[Action]:
        """Every legal play, sorted. The list depends only on the hand and the plays of the trick so far, so the
        last one is kept (``_memo``) for :meth:`is_legal` and for a repeated call on the same position."""
        hand = st.hands[st.cur]
        plays = self._s(st).plays
        memo = self._memo
        if memo is not None and memo[0] == hand and memo[1] == plays:
            return list(memo[2])
        out = self._legal(st, hand)
        self._memo = (hand, plays, tuple(out), frozenset(out))
        return out

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
                    counts[r] -= 1
                    combo.append(r)
                    yield from grow(i + 1, r)
                    combo.pop()
                    counts[r] += 1

        return grow(0, 0)

    def _can_beat(self, st: State, hand: int, k: int) -> bool:
        """Whether ``hand`` holds ``k`` cards equal or higher than the cards a follower compares with now."""
        return next(self._rising(self._by_rank(hand), k, self.target(st)), None) is not None

    def is_legal(self, st: State, a: Action) -> bool:
        memo = self._memo  # an action legal_actions() just listed for this very position: legal at once
        if memo is not None and a in memo[3] and memo[0] == st.hands[st.cur] and memo[1] == self._s(st).plays:
            return True
        if self.codec.kind(a) != "play" or not self.codec.valid(a):
            return False
        return self.allowed(st, self.codec.cards(a)) is None

    def try_apply(self, st: State, a: Action) -> bool:
        if not self.is_legal(st, a):
            return False
        cards = self.codec.cards(a)
        seat = st.cur
        cs = self._s(st)
        hand = st.hands[seat]
        for c in cards:
            hand &= ~(1 << c)
        st.hands[seat] = hand
        st.piles["trick"].extend(cards)
        ranks = self._ranks(cards)
        if not cs.plays or self.takes_lead(ranks, self._ranks(cs.plays[cs.best])):
            cs.best = len(cs.plays)
        cs.plays = (*cs.plays, tuple(cards))
        cs.seats = (*cs.seats, seat)
        playing = [s for s in range(st.game.num_players) if st.active[s] and not st.contract.out >> s & 1]
        if len(cs.plays) < len(playing):
            st.cur = st.next_seat(seat)
            return True
        w = cs.seats[cs.best]
        won = st.seat_piles["won"]
        for c in st.piles["trick"]:
            won[w] |= 1 << c
        st.piles["trick"].clear()
        cs.winners = (*cs.winners, w)
        cs.plays, cs.seats, cs.best = (), (), -1
        if all(st.hands[s].bit_count() <= self.keep for s in playing):
            self._reveal(st, w, playing)
            st.next_phase()
        else:
            st.cur = w
        return True

    def _reveal(self, st: State, leader: int, playing: list[int]) -> None:
        """The last trick: every player's remaining cards go to the last trick at once; the highest lose."""
        cs = self._s(st)
        order = [leader] + [s for s in st.seats_from(leader) if s in playing and s != leader]
        shown: dict[int, list[int]] = {}
        for s in order:
            cards = self._cards(st.hands[s])
            st.piles["last_trick"].extend(cards)
            st.hands[s] = 0
            shown[s] = [self.rank_of[c] for c in cards]
        top = max((r for ranks in shown.values() for r in ranks), default=-1)
        holders = {s for s, ranks in shown.items() if top in ranks}
        first = leader if self.loser_order == "last_trick_order" else cs.start
        ring = [first] + [s for s in st.seats_from(first) if s != first]
        cs.losers = tuple(s for s in ring if s in holders)
        cs.top = self.value_of[top] if top >= 0 else -1
        cs.last_leader = leader

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        if self.codec.kind(a) != "play" or not self.codec.valid(a):
            return "cards must be played", self.source
        why = self.allowed(st, self.codec.cards(a))
        return why if why is not None else ("not allowed now", self.source)

    def bot_choice(self, st: State, legal: list[Action]) -> Action:
        """The rule bot's play: shed the highest cards it may (a high card kept to the end loses points)."""
        return max(legal, key=lambda a: (sum(self.rank_of[c] for c in self.codec.cards(a)), -a))

    # --- results, facts and views --------------------------------------------------
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

    def hand_facts(self, st: State, seats: tuple[int, ...]) -> dict[str, Value]:
        """``loser``: a seat of the entity holds the highest revealed card; ``top_last``: its value."""
        cs = self._s(st)
        return {"loser": any(s in cs.losers for s in seats), "top_last": cs.top}

    def fact_names(self) -> list[str]:
        return ["loser", "top_last"]

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
                        (Fact("loser", BOOL), Fact("top_last", tuple(sorted(set(self.value_of))))))
