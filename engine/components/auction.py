"""The ``auction`` component: bidding for a contract of a number of tricks (and perhaps trump).

Players bid in turn, starting left of the dealer (``first: left_of_dealer``).
A bid is a number of tricks from ``min`` to ``max`` and, with
``suit_in_bid``, a trump suit (``no_trump`` adds ``NT``); it reads ``bid 6 H``.
Each bid must outbid the standing one: ``outbid: higher_number`` asks for a
strictly higher number (the suit may repeat or change), ``higher_number_or_new_suit``
also accepts the same number with another suit. Anyone may pass instead.

``end`` says when the auction stops: ``{rounds: R}`` after ``R`` turns of
every player (one round ends with the dealer), or ``{passes: N}`` once ``N``
passes in a row follow a bid. ``all_pass`` says what happens when nobody bids:
``dealer_must_bid`` (the dealer may not pass on the last turn if nobody has
bid; ``forced_bid: minimum`` limits that bid to ``min``), ``redeal`` (the
hand is thrown in) or ``no_trump`` (the hand is played without trump and
without a maker). With ``end: {passes: N}`` the bidding goes round as often
as needed: a pass never bars a later bid, and the auction ends once ``N``
passes in a row follow a bid (or, if nobody bids, once every player has
passed in a row; with ``dealer_must_bid`` the dealer, whose turn comes after
the others' passes, must bid). ``max`` may exceed the tricks of a hand (a bid
that can only be set, such as buck-euchre-3p's sacrifice). The highest bidder holds the contract and is the maker:
with ``suit_in_bid`` the bid's suit is trump at once; otherwise the bidder
then names trump (``name H``, or ``name NT`` with ``no_trump``).

The contract is this component's state (:class:`AuctionState`); scoring sees
``contract`` (``none`` for an entity without it, else ``made`` or ``set``:
its tricks reached the bid or not), ``bid`` (the contract's number for the
entity holding it, else 0), and ``maker`` / ``trump_made``. Hand results
carry ``contract: {seat, bid, suit}``. Bids are public: no action is hidden.

Used by: bid-euchre (one round ending with the dealer, number and suit, the
dealer must bid), buck-euchre-3p (until two passes in a row, number only,
bids above the hand's tricks allowed, then the winner names trump or no
trump; when nobody bids the dealer must bid, or by option the hand is thrown
in or played without trump). ``skip_if_trump_fixed: true`` skips the auction
when an earlier phase fixed trump (dirty-clubs: a turned club); ``made_at: 3``
makes the contract at that many tricks whatever the bid (a dirty-clubs
reading; default ``bid``); dirty-clubs (one round, number only, then the
winner names trump, clubs included, or no trump).

``moon: true`` adds a bid to take every trick alone, "shooting the moon"
(``bid moon H``; ``bid moon NT`` with ``no_trump``; ``bid moon`` when bids name
no suit, the bidder then naming trump): it outbids every number bid and
nothing outbids it (the standing number counts as ``max``). A moon that wins
the auction is played alone: the bidder's partners sit out (their hands are
laid down unplayed; no card is passed). Scoring then sees ``moon``: ``made``
(the bidder's entity took every trick: the other entities took none),
``set``, or ``none`` (no moon, or not this entity's); ``contract`` is made or
set as the moon is, and ``bid`` is ``max``. The fact is declared whenever
the spec gives ``moon`` (true or false, so a table may read it under every
option). Used by: bid-euchre (a house rule: shoot_the_moon).

``low: true`` (needs a ``ranking`` with a ``low`` order) adds low no-trump
contracts: ``bid low 6`` (or, when bids name no suit, ``name low``), a hand
without trumps or bowers in which every suit ranks by the ranking's ``low``
order (:data:`cardspec.engine.ranking.LOW_NO_TRUMP`). A low bid of a number
outbids as a no-trump bid of that number would (with
``higher_number_or_new_suit``, low counts as a suit of its own). A moon bid
that names its suit names a suit or no trump, never low (there is no ``bid
moon low``); a moon whose bidder names trump afterwards may name low. Used by: bid-euchre (a house rule:
low_no_trump, with no_trump_bids).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import NO_SUIT, NO_TRUMP, Action, KindSig
from ..errors import Source, SpecError
from ..ranking import LOW_NO_TRUMP
from ..tables import Value
from .base import CheckingDoer, PhaseState
from .declared import BOOL, Declared, Fact

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State

OUTBID = ("higher_number", "higher_number_or_new_suit")
ALL_PASS = ("dealer_must_bid", "redeal", "no_trump")
FORCED_BID = ("any", "minimum")
CONTRACT = ("none", "made", "set")
"""The domain of the ``contract`` fact."""
MOON = ("none", "made", "set")
"""The domain of the ``moon`` fact."""


@dataclass(init=False)
class AuctionState(PhaseState):
    """The standing bid and the turn count of one hand's auction (immutable fields only)."""

    high: int = 0
    """The standing bid's number (0: nobody has bid)."""
    suit: int = NO_SUIT
    """The standing bid's suit (a suit index, ``NO_TRUMP``, ``LOW_NO_TRUMP`` for a low bid, or ``NO_SUIT`` when
    bids name none)."""
    moon: bool = False
    """The standing bid is a moon (every trick, alone)."""
    bidder: int = -1
    """The seat holding the standing bid (-1: nobody)."""
    turns: int = 0
    """Turns taken so far (bids and passes)."""
    passes: int = 0
    """Passes in a row since the last bid (or since the start)."""
    naming: bool = False
    """The auction is over and the bidder is to name trump."""

    def __init__(
            self, high: int = 0, suit: int = NO_SUIT, moon: bool = False, bidder: int = -1, turns: int = 0,
            passes: int = 0, naming: bool = False
    ) -> None:
        self.high = high
        self.suit = suit
        self.moon = moon
        self.bidder = bidder
        self.turns = turns
        self.passes = passes
        self.naming = naming

    def copy(self) -> AuctionState:
        """An independent copy (every field given: no generic copy on the hot path)."""
        return AuctionState(self.high, self.suit, self.moon, self.bidder, self.turns, self.passes, self.naming)


class Auction(CheckingDoer):
    """Bidding for the contract."""

    kind: ClassVar[str] = "auction"
    settles_contract = True

    def __init__(self, d: Mapping[str, Any], key: str, file: str) -> None:
        super().__init__(d, key, file)
        self.keeps_list = True  # its check is the list of legal actions
        self.min_bid: int = d["min"]
        self.max_bid: int = d["max"]
        self.suit_in_bid: bool = d["suit_in_bid"]
        self.no_trump: bool = d.get("no_trump", False)
        self.outbid: str = d["outbid"]
        self.all_pass: str = d["all_pass"]
        self.forced_bid: str = d.get("forced_bid", "any")
        self.first: str = d["first"]
        self.skip_if_trump_fixed: bool = d.get("skip_if_trump_fixed", False)
        """Not played when an earlier phase already fixed trump (dirty-clubs: a turned club is trump at once)."""
        self.skip_source = Source(**d["skip_source"]) if "skip_source" in d else self.source
        """The clause saying there is no bidding once trump is fixed (``skip_if_trump_fixed``)."""
        self.moon_declared: bool = "moon" in d
        """The spec gives ``moon`` (true or false): scoring may read the ``moon`` fact."""
        self.moon: bool = d.get("moon", False)
        """A bid to take every trick alone, outbidding every number bid (module doc)."""
        self.moon_source = Source(**d["moon_source"]) if "moon_source" in d else self.source
        self.low: bool = d.get("low", False)
        """Low no-trump contracts, ranked by the ranking's ``low`` order (module doc)."""
        self.low_source = Source(**d["low_source"]) if "low_source" in d else self.source
        self.made_at: int | str = d.get("made_at", "bid")
        """The tricks that make the contract: ``bid`` (the bid's number) or a fixed number (dirty-clubs' reading
        that the bidder, as in Buck Euchre, is committed to three tricks whatever the bid)."""
        if self.made_at != "bid" and (type(self.made_at) is not int or self.made_at < 1):
            raise SpecError(f"made_at must be 'bid' or a number of tricks, got {self.made_at!r}", file,
                            key=f"{key}.made_at")
        end = d["end"]
        self.rounds: int = end.get("rounds", 0)
        self.passes: int = end.get("passes", 0)
        self.end_source = Source(**d["end_source"]) if "end_source" in d else self.source
        self.max_source = Source(**d["max_source"]) if "max_source" in d else self.source
        self.min_source = Source(**d["min_source"]) if "min_source" in d else None
        """The clause stating the lowest bid (None: a bid below ``min`` names no action and cites no clause)."""
        self.outbid_source = Source(**d["outbid_source"]) if "outbid_source" in d else self.source
        self.no_suit_source = Source(**d["no_suit_source"]) if "no_suit_source" in d else None
        """Bids naming no suit (``suit_in_bid: false``): the clause saying a bid mentions none, cited for a bid
        written with a suit (buck-euchre-3p: "no suit is mentioned as part of the bid"); None: no clause."""
        self.rebid_source = Source(**d["rebid_source"]) if "rebid_source" in d else None
        """``end: {passes: N}``: the clause letting a player who passed bid again when the turn comes round
        (buck-euchre-3p: "this does not prevent you from bidding in future"); None: the auction's clause."""
        self.all_pass_source = Source(**d["all_pass_source"])
        self.forced_source = Source(**d["forced_bid_source"]) if "forced_bid_source" in d else \
            self.all_pass_source
        for k, v, allowed in (("outbid", self.outbid, OUTBID), ("all_pass", self.all_pass, ALL_PASS),
                              ("forced_bid", self.forced_bid, FORCED_BID), ("first", self.first, ("left_of_dealer",))):
            if v not in allowed:
                raise SpecError(f"{k} must be one of {list(allowed)}, got {v!r}", file, key=f"{key}.{k}")
        for k, b in (("suit_in_bid", self.suit_in_bid), ("no_trump", self.no_trump), ("moon", self.moon),
                     ("low", self.low)):
            if type(b) is not bool:
                raise SpecError(f"{k} must be true or false, got {b!r}", file, key=f"{key}.{k}")
        if type(self.min_bid) is not int or type(self.max_bid) is not int or not 1 <= self.min_bid <= self.max_bid:
            raise SpecError(f"bids need integers 1 <= min <= max, got min {self.min_bid!r}, max {self.max_bid!r}",
                            file, key=f"{key}.max")
        if (self.rounds > 0) == (self.passes > 0):
            raise SpecError("end needs exactly one of 'rounds' or 'passes'", file, key=f"{key}.end")
        if self.outbid == "higher_number_or_new_suit" and not self.suit_in_bid:
            raise SpecError("outbid by a new suit needs bids that name a suit", file, key=f"{key}.outbid")

    # --- building ---------------------------------------------------------------
    def action_sigs(self) -> list[KindSig]:
        out = [KindSig("pass"), KindSig("bid", number=(self.min_bid, self.max_bid), suit=self.suit_in_bid,
                                        no_trump=self.suit_in_bid and self.no_trump)]
        if not self.suit_in_bid:
            out.append(KindSig("name", suit=True, no_trump=self.no_trump))
        if self.moon:
            out.append(KindSig("bid_moon", suit=self.suit_in_bid, no_trump=self.suit_in_bid and self.no_trump))
        if self.low:
            out.append(KindSig("bid_low", number=(self.min_bid, self.max_bid)) if self.suit_in_bid else
                       KindSig("name_low"))
        return out

    def bind(self, game: Game) -> None:
        super().bind(game)
        if "tricks" not in game.tallies:
            raise SpecError("an auction's bid counts tricks, but no phase keeps a 'tricks' tally (a tricks phase)",
                            self.file, key=self.key)
        if self.low and (game.ranking is None or game.ranking.low is None):
            raise SpecError("low bids need a ranking with a 'low' order", self.file, key=f"{self.key}.low")
        codec = self.codec
        self.pass_action = codec.encode("pass")
        self.suits: tuple[int, ...] = tuple(range(len(game.deck.suits))) + ((NO_TRUMP,) if self.no_trump else ())
        if self.suit_in_bid:
            self.bids = {(n, s): codec.encode("bid", number=n, suit=s)
                         for n in range(self.min_bid, self.max_bid + 1) for s in self.suits}
            self.name_actions: dict[int, Action] = {}
        else:
            self.bids = {(n, NO_SUIT): codec.encode("bid", number=n) for n in range(self.min_bid, self.max_bid + 1)}
            self.name_actions = {s: codec.encode("name", suit=s) for s in self.suits}
        if self.low:
            if self.suit_in_bid:
                self.bids.update({(n, LOW_NO_TRUMP): codec.encode("bid_low", number=n)
                                  for n in range(self.min_bid, self.max_bid + 1)})
            else:
                self.name_actions[LOW_NO_TRUMP] = codec.encode("name_low")
        self.moons: dict[int, Action] = {}
        """The moon bids by suit (``NO_SUIT`` when bids name none)."""
        if self.moon:
            self.moons = {s: codec.encode("bid_moon", suit=s) for s in self.suits} if self.suit_in_bid else \
                {NO_SUIT: codec.encode("bid_moon")}

    def new_state(self) -> AuctionState:
        return AuctionState()

    def _s(self, st: State) -> AuctionState:
        return st.cstate[self.index]  # type: ignore[return-value]

    # --- the rules ------------------------------------------------------------------
    def _players(self, st: State) -> int:
        return len(st.seats_from(st.dealer))

    def _last_turn(self, st: State, cs: AuctionState) -> bool:
        """Whether the player to act has the auction's last turn if nobody bids."""
        n = self._players(st)
        return cs.turns == self.rounds * n - 1 if self.rounds else cs.passes == n - 1

    def forced(self, st: State) -> bool:
        """Whether the player to act may not pass: nobody has bid and this is the dealer's last turn."""
        cs = self._s(st)
        return (self.all_pass == "dealer_must_bid" and cs.bidder < 0 and not cs.naming
                and st.cur == st.dealer and self._last_turn(st, cs))

    def _outbids(self, cs: AuctionState, n: int, s: int) -> bool:
        if cs.moon:
            return False  # nothing outbids a moon
        if n > cs.high:
            return True
        return self.outbid == "higher_number_or_new_suit" and cs.bidder >= 0 and n == cs.high and s != cs.suit

    def legal(self, st: State) -> list[Action]:
        cs = self._s(st)
        if cs.naming:
            return sorted(self.name_actions.values())
        forced = self.forced(st)
        out = [] if forced else [self.pass_action]
        lo = self.min_bid if forced and self.forced_bid == "minimum" else 0
        hi = self.min_bid if forced and self.forced_bid == "minimum" else self.max_bid
        out += [a for (n, s), a in self.bids.items() if (lo <= n <= hi) and self._outbids(cs, n, s)]
        if self.moons and not cs.moon and not (forced and self.forced_bid == "minimum"):
            out += self.moons.values()
        out.sort()
        return out

    def is_legal(self, st: State, a: Action) -> bool:
        return a in self.legal(st)

    def try_apply(self, st: State, a: Action) -> bool:
        if not self.is_legal(st, a):
            return False
        self._do(st, a)
        return True

    def apply_listed(self, st: State, a: Action) -> None:
        self._do(st, a)

    def _do(self, st: State, a: Action) -> None:
        cs = self._s(st)
        kind = self.codec.kind(a)
        if kind in ("name", "name_low"):
            s = LOW_NO_TRUMP if kind == "name_low" else self.codec.suit(a)
            st.contract.fix_trump(st.game, s if s >= 0 or s == LOW_NO_TRUMP else -1, -1, cs.bidder)
            cs.suit, cs.naming = s, False
            st.next_phase()
            return
        cs.turns += 1
        if kind in ("bid", "bid_low"):
            number = self.codec.number(a)
            assert number is not None
            suit = LOW_NO_TRUMP if kind == "bid_low" else self.codec.suit(a)
            cs.high, cs.suit, cs.bidder, cs.passes = number, suit, st.cur, 0
        elif kind == "bid_moon":
            cs.high, cs.suit, cs.bidder, cs.passes, cs.moon = self.max_bid, self.codec.suit(a), st.cur, 0, True
        else:
            cs.passes += 1
        n = self._players(st)
        over = cs.turns >= self.rounds * n if self.rounds else (
            cs.passes >= self.passes if cs.bidder >= 0 else cs.passes >= n)
        if not over:
            st.cur = st.next_seat(st.cur)
            return
        if cs.bidder < 0:  # everyone passed (all_pass: redeal or no_trump; the forced dealer never passes)
            if self.all_pass == "no_trump":
                st.contract.fix_trump(st.game, -1, -1, -1)
                st.next_phase()
                return
            st.redeal()
            return
        if cs.moon:  # a moon is played alone
            st.contract.out |= st.game.partners_mask[cs.bidder]
        if self.suit_in_bid:
            st.contract.fix_trump(st.game, cs.suit if cs.suit >= 0 or cs.suit == LOW_NO_TRUMP else -1, -1,
                                  cs.bidder)
            st.next_phase()
            return
        cs.naming = True
        st.cur = cs.bidder

    def start(self, st: State) -> None:
        if self.skip_if_trump_fixed and st.contract.tt is not None:
            st.next_phase()  # trump was fixed by an earlier phase (a turned card): no bidding
            return
        st.cur = st.next_seat(st.dealer)

    def number_bound(self, kind: str, number: int) -> tuple[str, Source] | None:
        """A bid past the highest (``max_source``, with its register entry where a reading sets the limit) or
        below the lowest (``min_source``, when the spec gives one)."""
        if kind not in ("bid", "bid_low"):
            return None
        if number > self.max_bid:
            return f"a bid is a number of tricks from {self.min_bid} to {self.max_bid}", self.max_source
        if number < self.min_bid and self.min_source is not None:
            return f"a bid is a number of tricks from {self.min_bid} to {self.max_bid}", self.min_source
        return None

    def allow_source(self, st: State, a: Action) -> Source | None:
        """The dealer's forced bid: ``forced_bid_source`` (which bids the dealer may make); a bid by a seat that
        passed earlier in this auction: ``rebid_source`` (when the spec gives one); else the auction's."""
        if self.forced(st):
            return self.forced_source
        if self.rebid_source is not None and self.codec.kind(a) != "pass" and self.passed_before(st, st.cur):
            return self.rebid_source
        return self.source

    def passed_before(self, st: State, seat: int) -> bool:
        """Whether ``seat`` passed earlier in this hand's auction (read from the hand's history)."""
        codec, me = self.codec, self.index
        return any(s == seat and ph == me and codec.kind(a) == "pass" for s, a, ph in st.history[st.hand_start:])

    def word_source(self, kind: str, word: str) -> Source | None:
        """For an action name of ``kind`` followed by ``word``, a word the kind does not take: the clause saying
        so, where the spec gives one (a suit after a bid when bids name none: ``no_suit_source``)."""
        if kind in ("bid", "bid_low", "bid_moon") and not self.suit_in_bid and self.game is not None and \
                (word.upper() in self.game.deck.suits or word.upper() == "NT"):
            return self.no_suit_source
        return None

    def closed_reason(self, st: State, a: Action) -> tuple[str, Source] | None:
        """Trump fixed before the auction (``skip_if_trump_fixed``), which took no turn: ``skip_source``."""
        cs = self._s(st)
        if self.skip_if_trump_fixed and st.phase > self.index and cs.turns == 0 and not cs.naming and \
                st.contract.tt is not None and cs.bidder < 0:
            return "trump was fixed before the auction, so there is no bidding this hand", self.skip_source
        return None

    def why_illegal(self, st: State, a: Action) -> tuple[str, Source]:
        cs = self._s(st)
        kind = self.codec.kind(a)
        if cs.naming:
            return f"the auction is over: seat {cs.bidder} holds the contract and names trump", self.end_source
        if kind == "pass" and self.forced(st):
            return "nobody has bid, so the dealer must bid and may not pass", self.all_pass_source
        if kind == "bid_moon":
            if cs.moon:
                return "nothing outbids a moon", self.moon_source
            return f"the dealer, forced to bid, bids {self.min_bid}", self.forced_source
        if kind not in ("bid", "bid_low"):
            return "in the auction a player bids or passes", self.source
        n = self.codec.number(a)
        assert n is not None
        if not self.min_bid <= n <= self.max_bid:
            return f"a bid is a number of tricks from {self.min_bid} to {self.max_bid}", self.max_source
        if self.forced(st) and self.forced_bid == "minimum" and n != self.min_bid:
            return f"the dealer, forced to bid, bids {self.min_bid}", self.forced_source
        standing = "moon" if cs.moon else self._show(cs.high, cs.suit)
        if cs.moon:
            return f"nothing outbids the standing bid {standing}", self.moon_source
        if self.outbid == "higher_number":
            return f"a bid must name more tricks than the standing bid {standing}", self.outbid_source
        return (f"a bid must name more tricks than the standing bid {standing}, or as many with "
                "another suit", self.outbid_source)

    def _show(self, n: int, s: int) -> str:
        deck_suits = self.game.deck.suits if self.game is not None else ()
        suit = "NT" if s == NO_TRUMP else "low" if s == LOW_NO_TRUMP else deck_suits[s] if s >= 0 else ""
        return f"{n} {suit}".strip()

    # --- results and scoring ------------------------------------------------------
    def contract(self, st: State) -> tuple[int, int, int] | None:
        """The contract (seat, number, suit) once someone has bid, else None."""
        cs = self._s(st)
        return (cs.bidder, cs.high, cs.suit) if cs.bidder >= 0 else None

    def turn_source(self, st: State) -> Source | None:
        """Who acts now: the highest bidder naming trump once the bidding is over, ``end_source``; a bid or pass,
        the auction's clause (who bids first and the turn going round)."""
        return self.end_source if self._s(st).naming else self.source

    def contract_source(self, st: State) -> Source | None:
        """The clause by which the maker and trump were settled this hand, read while the hand is played (an
        audit cites it for a wrong ``maker`` or ``trump``); None when the auction was not played (an earlier
        phase fixed trump). Nobody bid, or the dealer's bid was forced and stands: the all-pass clause. Else the
        standing bid: with ``suit_in_bid`` its clause (the bid names the trump suit), else the clause by which the
        auction ends and its highest bidder names trump (``end_source``)."""
        cs = self._s(st)
        if cs.turns == 0 and cs.bidder < 0:
            return None
        if cs.bidder < 0 or self._forced_bid_stands(st, cs):
            return self.all_pass_source
        return self.source if self.suit_in_bid else self.end_source

    def _forced_bid_stands(self, st: State, cs: AuctionState) -> bool:
        """Whether the contract is the dealer's forced bid: the only bid of the hand's auction, made on the
        dealer's last turn after everyone passed (read from the hand's history)."""
        if self.all_pass != "dealer_must_bid" or cs.bidder != st.dealer:
            return False
        codec = self.codec
        turns = [a for _, a, ph in st.history[st.hand_start:] if ph == self.index]
        bids = [k for k, a in enumerate(turns) if codec.kind(a) not in ("pass", "name", "name_low")]
        return bids == [self.rounds * self._players(st) - 1 if self.rounds else self._players(st) - 1]

    def add_facts(self, st: State, seats: tuple[int, ...], into: dict[str, Value]) -> None:
        cs = self._s(st)
        st.contract.add_facts(seats, into)
        if self.moon_declared:
            into["moon"] = "none"
        if cs.bidder < 0 or cs.bidder not in seats:
            into["contract"] = "none"
            into["bid"] = 0
            return
        tricks = st.tally["tricks"]
        if cs.moon:  # made when the other entities took no trick
            made = not any(tricks[s] for s in range(len(tricks)) if s not in seats)
            into["moon"] = into["contract"] = "made" if made else "set"
            into["bid"] = cs.high
            return
        took = sum(tricks[s] for s in seats)
        need = self.made_at if isinstance(self.made_at, int) else cs.high
        into["contract"] = "made" if took >= need else "set"
        into["bid"] = cs.high

    def fact_names(self) -> list[str]:
        return ["maker", "trump_made", "contract", "bid"] + (["moon"] if self.moon_declared else [])

    def result_fields(self, st: State) -> dict[str, Any]:
        cs = self._s(st)
        if cs.bidder < 0:
            return {"contract": None}
        # a low no-trump hand shows as NT (the record format's suits); its bid, in the history, says low
        suit = "NT" if cs.suit in (NO_TRUMP, LOW_NO_TRUMP) else st.game.deck.suits[cs.suit] if cs.suit >= 0 else None
        return {"contract": {"seat": cs.bidder, "bid": cs.high, "suit": suit}}

    def declarations(self) -> Declared:
        """No cards move; each player bids or passes in turn; the contract facts."""
        assert self.game is not None
        n = self.game.num_players
        naming = 0 if self.suit_in_bid else 1
        limit: int | None
        if self.rounds:
            limit, why = self.rounds * n + naming, f"{self.rounds} round(s) of {n} turns" + (
                ", then the bidder names trump" if naming else "")
        elif self.outbid == "higher_number":
            bids = self.max_bid - self.min_bid + 1 + (1 if self.moon else 0)  # a moon rises above every number
            limit = bids * self.passes + n + naming
            why = f"at most {bids} rising bids, each followed by fewer than {self.passes + 1} passes"
        else:
            limit, why = None, "bids of one number in new suits may go on for ever"
        moon = (Fact("moon", MOON),) if self.moon_declared else ()
        return Declared((), limit, why, (Fact("maker", BOOL), Fact("trump_made", BOOL), Fact("contract", CONTRACT),
                                         Fact("bid", tuple(range(self.max_bid + 1))), *moon))
