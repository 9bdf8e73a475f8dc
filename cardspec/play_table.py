"""The table that ``cardspec play`` shows, rendered with ``rich`` from one seat's observation only.

Everything here reads the person's observation (:meth:`State.observation`), a finished hand's public result,
or the game's spec (seats, teams, scoring tables): never the state's hidden parts. Text from specs passes
:func:`clean` (control characters escaped, as :func:`cardspec.cli._clean`) and is put in ``rich`` as
:class:`~rich.text.Text` or escaped markup, so a spec can neither move the cursor nor style the screen.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .cli import _clean
from .engine.game import Game

SUITS = {"C": "♣ clubs", "D": "♦ diamonds", "H": "♥ hearts", "S": "♠ spades", "NT": "no trump"}
SEAT_LISTS = {"dropped_out": "dropped out", "widow_taken_by": "took the widow", "up_card_taken_by": "took the up card",
              "losers": "lost", "laid_out": "laid out", "in_foot": "in the foot"}
"""Observation keys that list seats, and what each says of a seat listed."""


def clean(text: object) -> str:
    """``text`` safe for the terminal: control and format characters shown escaped."""
    return _clean(str(text))


def markup(text: object) -> str:
    """``text`` safe inside rich markup: cleaned, and its square brackets escaped."""
    return escape(clean(text))


def console() -> Console:
    """A console on the current standard output (looked up at each call, so a test's capture sees it). Behind
    ``cardspec``'s neutralising stdout a real terminal gets colour (all text put in is :func:`clean`);
    anything else gets plain text."""
    out = sys.stdout
    raw = getattr(out, "out", None)
    if raw is not None and getattr(raw, "isatty", lambda: False)():
        return Console(file=raw, highlight=False, emoji=False)
    return Console(file=out, color_system=None, highlight=False, emoji=False, width=100)


def who(game: Game, s: int, seat: int) -> str:
    """``you``, ``seat 2`` or ``seat 2 (dog)``."""
    if s == seat:
        return "you"
    name = next((x.name for x in game.seating.dummies if x.seat == s), None)
    return f"seat {s} ({name})" if name else f"seat {s}"


def entity_name(game: Game, e: int, seat: int) -> str:
    """``team 0 (you and seat 2)`` for a team, ``seat 1`` / ``you`` for a player scoring alone."""
    team = game.teams[e]
    if len(team) == 1:
        return who(game, team[0], seat)
    return f"team {e} ({' and '.join(who(game, s, seat) for s in team)})"


def suit_text(trump: Any) -> str:
    """``♠ spades (S)`` for a trump suit, ``not made yet`` before trump is made."""
    if trump is None:
        return "not made yet"
    return f"{SUITS[trump]} ({trump})" if trump in SUITS and trump != "NT" else SUITS.get(trump, clean(trump))


def headline(game: Game, obs: Mapping[str, Any], seat: int) -> str:
    """The first line of each prompt: the hand, the dealer, trump and the turned card where the game has them."""
    parts = [f"hand {obs['hand']}", f"dealer: {who(game, obs['dealer'], seat)}"]
    if "trump" in obs:
        parts.append(f"trump: {suit_text(obs['trump'])}")
    turned = list(obs.get("turned_up") or [])
    if obs.get("up_card") is not None:
        parts.append(f"turned card: {obs['up_card']}")
        turned = [c for c in turned if c != obs["up_card"]]
    if turned:
        parts.append(f"turned card: {turned[0]} (turned down)" if len(turned) == 1 and "up_card" in obs else
                     f"turned up: {' '.join(turned)}")
    if obs.get("maker") is not None:
        parts.append(f"maker: {who(game, obs['maker'], seat)}")
    return " — ".join(parts)


def totals_line(game: Game, totals: Sequence[int], seat: int) -> str:
    """``points: team 0 (seats 0 and 2) 4, team 1 (...) 6 — play to 10`` (or strikes, out at 3)."""
    m = game.match
    limit = f" (out at {m.limit})" if m.kind == "elimination" else f" (to {m.target})" if m.target else ""
    return f"{game.scoring.counter}{limit}: " + ", ".join(
        f"{entity_name(game, e, seat)} {v}" for e, v in enumerate(totals))


def _seats(v: Any) -> list[Any]:
    """A seat list of the observation as a list (one seat, as some phases give it, or None: none)."""
    return list(v) if isinstance(v, list | tuple) else [] if v is None else [v]


def seat_table(game: Game, obs: Mapping[str, Any], seat: int,
               extra: Mapping[int, Sequence[str]] | None = None) -> Table:
    """One row per seat: who sits there, the team, the cards held (count, or the cards where seen),
    the tricks won, the entity's total, and what the observation says of the seat (dealer, maker, ...),
    with ``extra`` notes per seat (a partner sitting out, from the actions the seat saw)."""
    counter = game.scoring.counter
    totals = obs["counters"].get(counter, [])
    teams = any(len(t) > 1 for t in game.teams)
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for col in ["seat", "player"] + (["team"] if teams else []) + ["cards"] + \
               (["tricks"] if "tricks_won" in obs else []) + [counter, "notes"]:
        t.add_column(markup(col))  # a header is markup: the counter is spec text
    hands = obs["zones"].get("hand", [])
    for s in range(game.num_seats):
        v = hands[s] if s < len(hands) else {}
        cards = v.get("cards_top_first")
        held = str(v.get("count", 0)) if s == seat or not cards else " ".join(cards)
        e = game.entity_of[s] if s < game.num_players else -1
        notes = [n for n, on in (("dealer", obs["dealer"] == s), ("maker", obs.get("maker") == s),
                                 ("to act", obs["to_act"] == s)) if on]
        notes += [label for k, label in SEAT_LISTS.items() if s in _seats(obs.get(k))]
        notes += (extra or {}).get(s, ())
        if s < game.num_players and s < len(obs["active"]) and not obs["active"][s]:
            notes.append("out")
        name = who(game, s, seat)
        row = [str(s), "YOU" if s == seat else ("dummy" if s >= game.num_players else "bot")]
        if name not in ("you", f"seat {s}"):
            row[1] = name.split("(", 1)[1].rstrip(")")
        row += ([f"team {e}" if e >= 0 else "-"] if teams else []) + [held]
        row += [str(obs["tricks_won"][s]) if s < len(obs["tricks_won"]) else "-"] if "tricks_won" in obs else []
        row += [str(totals[e]) if 0 <= e < len(totals) else "-", ", ".join(notes)]
        t.add_row(*(Text(clean(c), style="bold" if s == seat else "") for c in row))
    return t


def table_lines(game: Game, obs: Mapping[str, Any]) -> list[str]:
    """The prompt's lines about the round and the table, derived from the spec alone: this round's
    schedule parameters (hand size, wild rank, ...), and what the seat sees of each pile on the table
    (the top of a stacked pile such as the discard pile, every card of a laid-out one, or the count)."""
    out = []
    sched = game.schedule
    if sched is not None:
        i = sched.index(obs["hand"])
        params = ", ".join(f"{k.replace('_', ' ')} {('yes' if v else 'no') if isinstance(v, bool) else v}"
                           for k, v in sched.rows[i].items())
        out.append(f"round {i + 1} of {len(sched)}: {params}")
    for zid in game.table_zones:
        seen = obs["zones"].get(zid)
        if zid == "trick" or not isinstance(seen, Mapping) or "count" not in seen:
            continue  # the trick has its own line; a hidden pile shows nothing
        n = seen["count"]
        cards = seen.get("cards_top_first")
        if "sets" in obs and game.zone_of[zid].order == "sequence":
            cards = None  # a melding phase shows its sets one by one (set_lines)
        if cards is None or not n:
            out.append(f"{zid.replace('_', ' ')}: {n} card{'s' * (n != 1)}")
        elif game.zone_of[zid].order == "stack":
            under = f"; under it {' '.join(cards[1:6])}{' ...' * (len(cards) > 6)}" if len(cards) > 1 else ""
            out.append(f"{zid.replace('_', ' ')}: top {cards[0]} ({n} card{'s' * (n != 1)}{under})")
        else:
            out.append(f"{zid.replace('_', ' ')}: {' '.join(cards)}")
    return out


def seat_zone_lines(game: Game, obs: Mapping[str, Any], seat: int) -> list[str]:
    """One line per seat-owned zone besides the hand that holds cards (a foot, a face-down pile):
    the cards of each seat's instance where the seat sees them, else the count."""
    out = []
    for zid in game.seat_zones:
        views = obs["zones"].get(zid)
        if not isinstance(views, list) or not any(v.get("count") for v in views):
            continue
        parts = []
        for s, v in enumerate(views):
            who = "you" if s == seat else f"seat {s}"
            cards = v.get("cards_top_first")
            parts.append(f"{who} {' '.join(cards)}" if cards else f"{who} {v.get('count', 0)}")
        out.append(f"{zid.replace('_', ' ')}: " + ", ".join(parts))
    return out


def set_lines(game: Game, obs: Mapping[str, Any], seat: int) -> list[str]:
    """The sets on the table, side by side (from a melding phase's public view), and who has laid out."""
    sets = obs.get("sets")
    if not isinstance(sets, list):
        return []
    out = []
    sides = sorted({m["side"] for m in sets})
    for side in sides:
        mine = [f"#{m['number']} {' '.join(m['cards'])}" + (f" ({m['book']} book)" if m["book"] else "")
                for m in sets if m["side"] == side]
        owner = entity_name(game, side, seat) if 0 <= side < len(game.teams) else f"side {side}"
        out.append(f"{'your' if owner == 'you' else owner} sets: " + "; ".join(mine))
    if "lay_out_minimum" in obs:
        def seats(key: str) -> str:
            return ", ".join(who(game, s, seat) for s in obs.get(key) or ()) or "nobody"
        def whose(s: int) -> str:
            return "your" if s == seat else f"{who(game, s, seat)}'s"
        progress = "".join(f"; {whose(s)} lay-out so far: {pts} of {obs['lay_out_minimum']}"
                           for s, pts in lay_out_progress(obs).items())
        out.append(f"lay-out minimum {obs['lay_out_minimum']}; laid out: {seats('laid_out')}; "
                   f"in the foot: {seats('in_foot')}{progress}")
    if obs.get("answer"):
        out.append(f"the partner answered: {obs['answer']}")
    return out


def lay_out_progress(obs: Mapping[str, Any]) -> dict[int, int]:
    """The points of the lay-out in progress (short of the minimum, on the table), by seat, as the melding
    phase's public view counts them (``laying_out``)."""
    now = obs.get("laying_out")
    return {now["seat"]: now["points"]} if isinstance(now, Mapping) else {}


def trick_line(game: Game, obs: Mapping[str, Any], seat: int) -> str | None:
    """The trick in progress, in the order played (and who is winning a climbing trick), or None."""
    if obs.get("trick"):
        return "trick: " + ", ".join(f"{who(game, p['seat'], seat)} {p['card']}" for p in obs["trick"])
    if obs.get("trick_plays"):
        best = obs.get("trick_best", -1)
        return "trick: " + ", ".join(f"{who(game, p['seat'], seat)} {' '.join(p['cards'])}"
                                     for p in obs["trick_plays"]) + \
            (f" — best so far: {who(game, best, seat)}" if best is not None and best >= 0 else "")
    return None


def shown_value(game: Game, cards: Sequence[str]) -> int | float | None:
    """The value of cards in a game with a hand value (Riding the Bus), or None."""
    hv = game.hand_value
    if hv is None or not cards:
        return None
    v = hv.points(hv.value(game.deck.mask(game.deck.parse(c) for c in cards)))
    return int(v) if v == int(v) else v


def hand_value_line(game: Game, cards: Sequence[str], dealt: int | None = None) -> str | None:
    """``your hand's value: 21`` in a game with a hand value (Riding the Bus), from the seat's own cards. Holding
    one card more than ``dealt`` (the deal's hand size; drawn, not yet discarded): ``best after a discard: 28``,
    the best value of the hands one discard leaves; holding more still: no value (no hand the rules score)."""
    hv = game.hand_value
    if hv is None or not cards:
        return None
    extra = len(cards) - dealt if dealt is not None else 0
    if extra > 1:
        return None
    masks = [game.deck.mask(game.deck.parse(c) for c in cards)]
    if extra == 1:
        masks = [game.deck.mask(game.deck.parse(c) for j, c in enumerate(cards) if j != i) for i in range(len(cards))]
    v = hv.points(max(hv.value(m) for m in masks))
    label = "best after a discard" if extra == 1 else "your hand's value"
    return f"{label}: {int(v) if v == int(v) else v}"


def _fact(name: str, v: Any) -> str:
    shown = "yes" if v is True else "no" if v is False else v
    return f"{name.replace('_', ' ')}: {shown}"


def why_rows(game: Game, facts: Mapping[str, Any]) -> list[str]:
    """For one entity's facts, the row of each scoring table that applied: the table, the row number, the facts
    it read, its output, and the row's quote."""
    out = []
    for u in game.scoring.explain(dict(facts)):
        shown = ", ".join(_fact(f, v) for f, v in u.facts.items())
        quote = f" — “{u.source.quote}”{u.source.decided()}" if u.source is not None else ""
        out.append(f"{u.table} row {u.row} ({shown}) gives {u.points}{quote}")
    return out


def hand_over(game: Game, r: Mapping[str, Any], seat: int, laid_by: Sequence[int] = ()
              ) -> tuple[list[str], str, list[str], Table | None]:
    """A finished hand: the melds its result shows (before the ``-- hand N over`` line: they belong to the
    hand), each with the side it belongs to where ``laid_by`` (the seat that laid each meld, in the result's
    order, as the seat saw them laid) says, that line, lines of what else its result shows publicly (trump,
    tricks, how it ended), and a table of every entity's score, total and why."""
    def owner(i: int) -> str:
        if i >= len(laid_by) or not 0 <= laid_by[i] < len(game.entity_of):
            return ""
        return f" — owner: {entity_name(game, game.entity_of[laid_by[i]], seat)}"
    before = [f"   meld: {' '.join(m)}{owner(i)}" for i, m in enumerate(r.get("melds") or ())]
    if before:
        before.insert(0, f"hand {r['hand']} ends with these melds on the table:")
    scores, totals = r["scores"], r["totals"]
    head = f"-- hand {r['hand']} over: " + ", ".join(
        f"{entity_name(game, e, seat)} {s:+d} (total {totals[e]})" for e, s in enumerate(scores))
    lines = []
    if r.get("trump") is not None or "maker" in r:
        lines.append(f"   trump {suit_text(r.get('trump'))}" +
                     (f", made by {who(game, r['maker'], seat)}" if r.get("maker") is not None else ""))
    if r.get("trick_winners"):
        won = [r["trick_winners"].count(s) for s in range(game.num_seats)]
        lines.append("   tricks won: " + ", ".join(f"{who(game, s, seat)} {n}" for s, n in enumerate(won) if n))
    for k in ("ended_by", "went_out"):
        if r.get(k) is not None:
            v = r[k]
            lines.append(f"   {k.replace('_', ' ')}: {who(game, v, seat) if k == 'went_out' else clean(v)}")
    for s, cards in enumerate(r.get("hands_shown") or ()):
        if cards:  # laid face up as the round ended (riding-the-bus: "then you all lay out your cards")
            value = shown_value(game, cards)
            verb = "lay" if s == seat else "lays"
            lines.append(f"   {who(game, s, seat)} {verb} out {' '.join(clean(c) for c in cards)}"
                         + (f" (worth {value})" if value is not None else ""))
    if r.get("thrown_in"):
        lines.append("   the hand was thrown in: no score")
    facts = r.get("facts")
    if not facts:
        return before, head, lines, None
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for col in ("who", "this hand", "total", "why (scoring table row)"):
        t.add_column(markup(col))
    for e, f in enumerate(facts):
        t.add_row(Text(clean(entity_name(game, e, seat))), Text(f"{scores[e]:+d}"), Text(str(totals[e])),
                  Text(clean("\n".join(why_rows(game, f)))))
    return before, head, lines, t


def score_lines(game: Game, result: Mapping[str, Any]) -> list[str]:
    """Why each entity scored what it did in a finished hand (``--json`` mode's ``why``): its scoring facts and
    the row of each table that applied (the row's quote)."""
    facts = result.get("facts")
    if result.get("thrown_in"):
        return ["   the hand was thrown in: no score"]
    out = []
    for e, f in enumerate(facts or ()):
        team = game.teams[e]
        name = f"team {e} (seats {', '.join(map(str, team))})" if len(team) > 1 else f"seat {team[0]}"
        parts = []
        for u in game.scoring.explain(f):
            shown = ", ".join(f"{n} {v}" for n, v in u.facts.items())
            quote = f" — “{u.source.quote}”{u.source.decided()}" if u.source is not None else ""
            parts.append(f"{u.points} from {u.table} ({shown}){quote}")
        out.append(f"   {name}: {result['scores'][e]}: " + "; ".join(parts))
    return out


def table_cards(obs: Mapping[str, Any]) -> set[str]:
    """The cards a seat sees face up in the table zones of its observation."""
    return {c for z in obs.get("zones", {}).values() if isinstance(z, Mapping) for c in z.get("cards_top_first", ())}


def laid_text(old: Sequence[Sequence[str]], new: Sequence[Sequence[str]], name: str,
              shown: set[str] | None) -> str | None:
    """The melds an action laid on the table (those of ``new``, the melds on the table after it, past ``old``,
    those before it), when the action's name does not list their cards (``go out 6C``): ``lays 3C 3C 2D; KD KD
    KH``. Only melds whose every card is in ``shown`` (the cards the seat sees face up after the action; None:
    all, as in a finished hand's public result). None when it laid none the name does not tell.

    >>> laid_text([["3C", "3C", "2D"]], [["3C", "3C", "2D"], ["KD", "KH", "KS"], ["5C", "6C", "7C"]],
    ...           "go out 9S", None)
    'lays KD KH KS; 5C 6C 7C'
    >>> laid_text([], [["KD", "KH", "KS"]], "meld KD KH KS", None) is None  # the name says it
    True
    >>> laid_text([], [["KD", "KH", "KS"]], "go out 9S", {"KD", "KH"}) is None  # not all seen
    True
    """
    toks = set(name.split())
    fresh = [m for m in new[len(old):] if not set(m) <= toks and (shown is None or set(m) <= shown)]
    return "lays " + "; ".join(" ".join(m) for m in fresh) if fresh else None


def lay_out_text(before: Mapping[str, Any], after: Mapping[str, Any], actor: int) -> str | None:
    """How an action that changed the sets on the table stands toward the actor's lay-out minimum, read from
    two observations of one seat (before and after it): ``lay-out 30 of 50`` while short, ``lays out: 55 of 50``
    when it reaches the minimum (every set of a seat not laid out before is of this lay-out). None otherwise."""
    if "lay_out_minimum" not in after or before.get("sets") == after.get("sets"):
        return None
    least = after["lay_out_minimum"]
    short = lay_out_progress(after).get(actor)
    if short is not None:
        return f"lay-out {short} of {least}"
    if actor in _seats(after.get("laid_out")) and actor not in _seats(before.get("laid_out")):
        return f"lays out: {sum(m['points'] for m in after.get('sets') or () if m['by'] == actor)} of {least}"
    return None


def taken_text(before: Mapping[str, Any], after: Mapping[str, Any], actor: int) -> str | None:
    """What an action took from face-up table zones into the actor's hand, read from two observations of
    one seat (before and after the action): the shown cards that left the table zones, when the actor's
    hand grew by at least as many as left, less any the action put face up on the table (a take of three
    that puts the hand down). A card played to a trick that is then collected is no take: the hand does not
    grow. A zone that lost more cards than it showed says so. None when nothing shown was taken.

    >>> b = {"hand_sizes": [3, 3], "zones": {"discard": {"count": 2, "cards_top_first": ["7C", "2H"]}}}
    >>> a = {"hand_sizes": [3, 4], "zones": {"discard": {"count": 1, "cards_top_first": ["2H"]}}}
    >>> taken_text(b, a, 1)
    'takes 7C from the discard'
    >>> taken_text(a, b, 1) is None  # the hand shrank: a discard, not a take
    True
    >>> trick = {"hand_sizes": [2, 3], "zones": {"trick": {"count": 1, "cards_top_first": ["KC"]}}}
    >>> taken_text(trick, {"hand_sizes": [2, 3], "zones": {"trick": {"count": 0, "cards_top_first": []}}}, 1) is None
    True
    """
    sizes_before, sizes_after = before.get("hand_sizes", []), after.get("hand_sizes", [])
    if not 0 <= actor < min(len(sizes_before), len(sizes_after)):
        return None
    grew = sizes_after[actor] - sizes_before[actor]
    parts = []
    left = put = 0
    zones_after = after.get("zones", {})
    for name, z in before.get("zones", {}).items():
        if not isinstance(z, Mapping) or "cards_top_first" not in z:
            continue  # a seat-owned zone (a list per seat) or one that shows no cards
        shown = z["cards_top_first"]
        later = zones_after.get(name, {})
        still = later.get("cards_top_first", []) if isinstance(later, Mapping) else []
        put += (Counter(still) - Counter(shown)).total()
        gone: Counter[str] = Counter(shown) - Counter(still)
        if not gone:
            continue
        cards = []
        for c in shown:  # in the zone's order, top first
            if gone[c] > 0:
                cards.append(c)
                gone[c] -= 1
        left += len(cards)
        fewer = z.get("count", len(shown)) - (later.get("count", len(still)) if isinstance(later, Mapping) else 0)
        unseen = " and cards not shown" if fewer + (Counter(still) - Counter(shown)).total() > len(cards) else ""
        parts.append(f"{' '.join(cards)}{unseen} from the {name}")
    if not parts or grew < 0 or grew + put < left:
        return None
    return "takes " + "; ".join(parts)
