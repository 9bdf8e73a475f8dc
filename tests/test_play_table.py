"""`cardspec play` shows a table people can follow: seats and teams, trump and the turned card, the trick,
trick winners, why each hand scored what it did, Riding the Bus's discard top and hand value, the going-alone
choice as ``alone`` / ``partner``, one menu entry for the same cards in any order; and never a hidden card.

Each test replays the match :func:`play_terminal` plays (the same seed and bot) to know what the screen must
say, and types engine names (or menu numbers where the menu itself is under test)."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

import pytest

from cardspec.engine.bots import BOTS
from cardspec.engine.game import Game
from cardspec.engine.spec import Spec, load
from cardspec.engine.state import State
from cardspec.play import play_terminal

Choose = Callable[[State, list[str]], str]


def first(st: State, names: list[str]) -> str:
    return names[0]


def scripted(game: Game, seed: int, choose: Choose, hands: int = 1, seat: int = 0) -> tuple[State, list[str]]:
    """The match play_terminal plays with the rule bot, the person typing ``choose``'s names, until ``hands``
    hands are over; the state then and the lines typed."""
    st = game.new_initial_state(seed)
    bot = BOTS["rule"](random.Random(f"play/{seed}"))
    typed: list[str] = []
    while not st.is_terminal() and len(st.hand_results) < hands:
        legal = st.legal_actions()
        if st.current_player() != seat:
            st.apply(bot(st, legal))
            continue
        name = choose(st, [game.action_name(a) for a in legal])
        typed.append(name)
        st.apply(game.parse_action(name))
    return st, typed


def screen(game: Game, seed: int, lines: Sequence[str], monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str], seat: int = 0, as_json: bool = False) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines) + "q\n"))
    assert play_terminal(game, seed, seat, "rule", as_json) == 0
    out = capsys.readouterr().out
    assert "not accepted" not in out
    return out


def flat(text: str) -> str:
    """Whitespace collapsed (a table cell's text wraps over lines)."""
    return " ".join(text.split())


def row(out: str, s: int) -> str:
    """The seat table's row of seat ``s`` at the first prompt."""
    return next(x for x in out.splitlines() if re.match(rf"{s}\s+(YOU|bot|dummy)\b", x))


# --- the table ---------------------------------------------------------------------------------------------
def test_euchre_table_shows_seats_teams_dealer_trump_and_the_turned_card(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("euchre")
    st = game.new_initial_state(1)
    up, dealer = st.observation(0)["up_card"], st.dealer
    out = screen(game, 1, ["order_up"], monkeypatch, capsys)
    first_prompt = out.split("you: order_up")[0]
    assert f"dealer: seat {dealer}" in first_prompt and f"turned card: {up}" in first_prompt
    assert "trump: not made yet" in first_prompt and "None" not in out
    assert re.match(r"0\s+YOU\s+team 0\b", row(first_prompt, 0))
    for s in (1, 2, 3):
        assert re.match(rf"{s}\s+bot\s+team {s % 2}\b", row(first_prompt, s))
    assert "dealer" in row(first_prompt, dealer) and "dealer" not in row(first_prompt, (dealer + 1) % 4)
    assert "team 0 (you and seat 2)" in out and "team 1 (seat 1 and seat 3)" in out
    after = out.split("you: order_up")[1]
    suit = {"C": "♣ clubs", "D": "♦ diamonds", "H": "♥ hearts", "S": "♠ spades"}[up[-1]]
    assert f"trump: {suit} ({up[-1]}) — turned card: {up} — maker: you" in after


def _announced(text: str) -> list[str]:
    return [x for x in text.splitlines() if x.startswith("» ")]


@pytest.mark.parametrize("system", ["euchre", "birdhead", "bid-euchre"])
def test_every_trick_winner_is_announced_in_order(system: str, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system(system)
    st, typed = scripted(game, 2, first)
    winners = st.hand_results[0]["trick_winners"]
    out = screen(game, 2, typed, monkeypatch, capsys)
    hand0 = out.split("-- hand 0 over")[0]
    told = _announced(hand0)
    assert [x.split(":")[0] for x in told] == [f"» {'you win' if w == 0 else f'seat {w} wins'} the trick"
                                              for w in winners]
    assert len(winners) >= 5
    lines = hand0.splitlines()
    for x in told:  # the trick's plays, the last being the play just before
        before = lines[lines.index(x) - 1]
        last = before.replace(": play ", " ", 1)
        assert x.split(": ", 1)[1].split(", ")[-1] == last
        if system != "birdhead":
            assert 3 <= len(x.split(": ", 1)[1].split(", ")) <= 4


def test_a_climbing_trick_shows_its_plays_and_who_is_best(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("birdhead")
    _, typed = scripted(game, 3, first)
    st2 = game.new_initial_state(3)
    bot = BOTS["rule"](random.Random("play/3"))
    while st2.current_player() != 0 or not st2.observation(0)["trick_plays"]:
        legal = st2.legal_actions()
        st2.apply(bot(st2, legal) if st2.current_player() != 0 else legal[0])
    obs = st2.observation(0)
    want = "trick: " + ", ".join(f"seat {p['seat']} {' '.join(p['cards'])}" for p in obs["trick_plays"]) + \
        f" — best so far: seat {obs['trick_best']}"
    assert want in screen(game, 3, typed, monkeypatch, capsys)


def test_the_end_of_a_hand_says_why_each_side_scored(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("euchre")
    st, typed = scripted(game, 2, first)
    r = st.hand_results[0]
    out = screen(game, 2, typed, monkeypatch, capsys)
    end = flat(out.split("-- hand 0 over")[1])
    names = ["team 0 (you and seat 2)", "team 1 (seat 1 and seat 3)"]
    assert end.startswith(": " + ", ".join(f"{names[e]} {s:+d} (total {r['totals'][e]})"
                                          for e, s in enumerate(r["scores"])))
    table = game.scoring.tables[0]
    for e, facts in enumerate(r["facts"]):
        chosen = table.select(facts)
        n = table.rows.index(chosen) + 1
        assert f"{table.id} row {n} (" in end and f"tricks: {facts['tricks']}" in end
        assert chosen.source is not None and flat(chosen.source.quote) in end
        assert f"{names[e]} {r['scores'][e]:+d} {r['totals'][e]}" in end


def test_a_rummy_hand_end_shows_its_melds_and_deadwood(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("the-card-game")
    st, typed = scripted(game, 3, first)
    r = st.hand_results[0]
    out = screen(game, 3, typed, monkeypatch, capsys)
    before, after = out.split("-- hand 0 over")[0], flat(out.split("-- hand 0 over")[1])
    assert r["melds"] and all(f"   meld: {' '.join(m)}" in before for m in r["melds"])
    for facts in r["facts"]:
        assert f"deadwood: {facts['deadwood']})" in after
    assert "cards_left row" in after and "round 1 of 11: hand size 3, wild rank 3" in out


def test_hand_and_foot_shows_each_players_sets_and_who_has_laid_out(monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("hand-and-foot")
    want: set[str] = set()

    def note(st: State, names: list[str]) -> str:
        obs = st.observation(0)
        for side in {m["side"] for m in obs["sets"]}:
            owner = "your" if side == 0 else f"seat {side}"
            want.add(f"{owner} sets: " + "; ".join(f"#{m['number']} {' '.join(m['cards'])}"
                                                   + (f" ({m['book']} book)" if m["book"] else "")
                                                   for m in obs["sets"] if m["side"] == side))
        laid = ", ".join("you" if s == 0 else f"seat {s}" for s in obs["laid_out"]) or "nobody"
        want.add(f"lay-out minimum {obs['lay_out_minimum']}; laid out: {laid};")
        return names[0]

    _, typed = scripted(game, 5, note)
    out = screen(game, 5, typed, monkeypatch, capsys)
    assert any(" sets: #" in w for w in want) and any("laid out: seat" in w for w in want)
    assert {w for w in want if w not in out} == set()


# --- Riding the Bus -------------------------------------------------------------------------------------------
def test_riding_the_bus_shows_the_discard_top_and_the_hand_value(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("riding-the-bus")
    hv = game.hand_value
    assert hv is not None
    seen: list[str] = []

    def note(st: State, names: list[str]) -> str:
        obs = st.observation(0)
        top = obs["zones"]["discard"]["cards_top_first"]
        cards, dealt = list(game.deck.cards_of(st.hands[0])), st.dealt[0][0]
        over = len(cards) > dealt  # drawn, not yet discarded: the best value one discard leaves
        value = max(hv.points(hv.value(game.deck.mask(c))) for c in combinations(cards, dealt)) if over \
            else hv.points(hv.value(st.hands[0]))
        label = "best after a discard" if over else "your hand's value"
        seen.append(f"{label}: {int(value) if value == int(value) else value}")
        if top:
            seen.append(f"discard: top {top[0]} ({len(top)} card{'s' * (len(top) != 1)}")
        return names[0]

    _, typed = scripted(game, 2, note)
    out = screen(game, 2, typed, monkeypatch, capsys)
    assert any(x.startswith("discard: top") for x in seen)
    prompts = out.split("\nhand ")[1:]
    assert len(prompts) == len(typed) + 1
    i = 0
    for p in prompts[:-1]:
        while i < len(seen) and seen[i] in p:
            i += 1
    assert i == len(seen)


def _to_the_take(game: Game, seed: int) -> tuple[list[str], list[str], str]:
    """Lines typing the first legal action until the person may take the discards; the takes then, and what
    each takes as the screen says it (the discard pile's top three, top first)."""
    st = game.new_initial_state(seed)
    bot = BOTS["rule"](random.Random(f"play/{seed}"))
    typed = []
    while True:
        legal = st.legal_actions()
        if st.current_player() != 0:
            st.apply(bot(st, legal))
            continue
        names = [game.action_name(a) for a in legal]
        takes = [n for n in names if n.startswith("take ")]
        if takes:
            top = [game.deck.names[c] for c in reversed(st.piles["discard"])][:3]
            return typed, takes, f" — takes {' '.join(top)} from the discard"
        typed.append(names[0])
        st.apply(legal[0])


def test_the_same_cards_in_any_order_are_one_menu_entry_then_the_order(monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("riding-the-bus")
    typed, takes, took = _to_the_take(game, 2)
    assert len(takes) == 6
    out = screen(game, 2, [*typed, "2", "1"], monkeypatch, capsys)
    menu = [x for x in out.split("\nhand ")[len(typed) + 1].splitlines() if re.match(r"  \d+\) ", x)]
    assert [x for x in menu if ") take" in x] == \
        [f"  2) {takes[0]}  (these cards in any order: 6 orders, asked next){took}"]
    assert len(menu) == 4  # draw stock, draw discard, take, knock
    orders = [x.strip() for x in out.splitlines() if re.match(r"    \d\) take ", x)]
    assert orders == [f"{i}) {t}" for i, t in enumerate(takes)]
    assert f"you: {takes[1]}{took}\n" in out
    # the cards typed in order, and Enter for the first order, work as well
    cards = takes[3].split()[1:]
    assert f"you: {takes[3]}{took}\n" in screen(game, 2, [*typed, "2", " ".join(cards)], monkeypatch, capsys)
    assert f"you: {takes[0]}{took}\n" in screen(game, 2, [*typed, "2", ""], monkeypatch, capsys)
    assert f"you: {takes[5]}{took}\n" in screen(game, 2, [*typed, takes[5]], monkeypatch, capsys)  # the engine name


def test_an_order_not_listed_is_not_accepted(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("riding-the-bus")
    typed, _, _ = _to_the_take(game, 2)
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in [*typed, "2", "9", "q"])))
    play_terminal(game, 2, 0, "rule", False)
    out = capsys.readouterr().out
    assert "not accepted: not one of the orders listed" in out and "you: take" not in out


# --- going alone -----------------------------------------------------------------------------------------------
def _maker(st: State, names: list[str]) -> str:
    return "order_up" if "order_up" in names else next((n for n in names if n.startswith("name")), names[0])


@pytest.mark.parametrize("answer", ["alone", "partner", "1", "0"])
def test_going_alone_reads_alone_or_partner_and_both_words_work(answer: str, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system("euchre")
    st = game.new_initial_state(1)
    bot = BOTS["rule"](random.Random("play/1"))
    typed = []
    while True:
        legal = st.legal_actions()
        if st.current_player() != 0:
            st.apply(bot(st, legal))
            continue
        names = [game.action_name(a) for a in legal]
        if "alone" in names:
            break
        typed.append(_maker(st, names))
        st.apply(game.parse_action(typed[-1]))
    assert names == ["pass", "alone"]  # the engine's names are unchanged
    out = screen(game, 1, [*typed, answer], monkeypatch, capsys)
    assert "  0) partner — play with your partner (pass)\n  1) alone — your partner sits out this hand\n" in out
    alone = answer in ("alone", "1")
    assert ("you: alone\n" in out) is alone and ("you: partner (pass)\n" in out) is not alone
    rest = out.split("you: alone" if alone else "you: partner (pass)")[1]
    assert ("sits out" in row(rest, 2)) is alone
    if alone:
        assert all(not x.startswith("seat 2: play") for x in rest.split("-- hand 0 over")[0].splitlines())


def test_json_play_is_unchanged_by_the_menu(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """--json: each prompt is the observation (engine names: ``pass``, ``alone``), numbers index the legal list."""
    game = Game.from_system("euchre")
    out = screen(game, 1, ["1", "1"], monkeypatch, capsys, as_json=True)
    obs = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
    assert obs[0]["legal"] == ["pass", "order_up"] and obs[1]["legal"] == ["pass", "alone"]
    assert "partner" not in out and "»" not in out and "you:" not in out
    game = Game.from_system("riding-the-bus")
    st, typed = scripted(game, 2, first)
    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * len(typed) + "q\n"))
    play_terminal(game, 2, 0, "rule", True)
    lines = capsys.readouterr().out.splitlines()
    parsed = [json.loads(x) for x in lines]  # stdout: JSON lines only
    assert sum("legal" in x for x in parsed) == len(typed) + 1
    r = st.hand_results[0]
    over = [x for x in parsed if x.get("event") == "hand_over"]
    assert [(x["hand"], x["scores"], x["totals"]) for x in over] == [(0, r["scores"], r["totals"])]


# --- nothing hidden, nothing raw ----------------------------------------------------------------------------
@pytest.mark.parametrize(("system", "options", "seed"), [("euchre", {"farmers_hand": "both_rounds"}, 5),
                                                         ("buck-euchre", None, 8), ("dirty-clubs", None, 1)])
def test_no_hidden_card_is_ever_shown(system: str, options: dict[str, Any] | None, seed: int,
                                      monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A bot's face-down discard or exchange names cards the person never sees: none of them is on screen in
    that hand (and there are some, so the check can fail)."""
    game = Game.from_system(system, options)
    names = set(game.deck.names)
    hands = 4
    st = game.new_initial_state(seed)
    bot = BOTS["rule"](random.Random(f"play/{seed}"))
    seen: dict[int, set[str]] = {}
    hidden: dict[int, set[str]] = {}
    typed = []
    while not st.is_terminal() and len(st.hand_results) < hands:
        seen.setdefault(st.hand_no, set()).update(w for w in re.findall(r"[0-9A-Za-z#]+",
                                                                          json.dumps(st.observation(0))) if w in names)
        legal = st.legal_actions()
        if st.current_player() == 0:
            a = legal[0]
            typed.append(game.action_name(a))
        else:
            a = bot(st, legal)
            if st.action_seen_by(0, st.cur, a, st.phase) != game.action_name(a):
                hidden.setdefault(st.hand_no, set()).update(t for t in game.action_name(a).split() if t in names)
        st.apply(a)
    secret = {h: cards - seen.get(h, set()) for h, cards in hidden.items()}
    assert any(secret.values()), "a bot hid cards the person never saw"
    out = screen(game, seed, typed, monkeypatch, capsys)
    segments = re.split(r"^-- hand \d+ over.*$", out, flags=re.M)
    assert len(segments) == hands + 1
    for h, text in enumerate(segments[:hands]):
        words = set(re.findall(r"[0-9A-Za-z#]+", text))
        assert not words & secret.get(h, set()), f"hand {h} shows hidden cards {words & secret[h]}"
    assert "?" in out  # the hidden actions are shown, face down


@pytest.mark.parametrize("system", ["euchre", "riding-the-bus", "hand-and-foot", "birdhead", "bird-dog-2p",
                                    "buck-euchre-3p", "dirty-clubs", "the-card-game"])
def test_no_raw_internals_on_screen(system: str, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.from_system(system)
    _, typed = scripted(game, 5, first)
    out = screen(game, 5, typed, monkeypatch, capsys)
    assert "-- hand 0 over" in out
    for raw in (r"\bNone\b", r"\bTrue\b", r"\bFalse\b", r"\{'", r"\[\d", r"\[\]", r"\w_\w+:"):
        assert not re.search(raw, out), f"{system}: {raw} on screen: {re.search(raw, out)}"


def test_spec_text_cannot_style_or_steer_the_terminal(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A scoring row's quote with an escape sequence and rich markup is shown as text, escaped."""
    base = load("riding-the-bus")
    data = json.loads(json.dumps(base.data))
    for r in data["scoring"]["tables"][0]["rows"]:
        r["source"]["quote"] = "[bold red]loud[/bold red] \x1b[2J\x1b[31mred"
    data["scoring"]["counter"] = data["match"]["end"]["counter"] = "[i]strikes[/i]"
    game = Game(Spec(data, base.file, base.loaded))
    _, typed = scripted(game, 2, first)
    out = screen(game, 2, typed, monkeypatch, capsys)
    assert "\x1b" not in out
    assert "[bold red]loud[/bold red] \\x1b[2J\\x1b[31mred" in flat(out)
    assert re.search(r"seat\s+player\s+cards\s+\[i\]strikes\[/i\]\s+notes", out)  # the header, as written


def test_riding_the_bus_shows_every_hand_laid_out_at_the_end_of_a_round() -> None:
    """"then you all lay out your cards, and the person with the lowest score receives a strike": at the end of
    a round the result shows every hand (``hands_shown``) and play prints each with its value; the lowest
    value is the seat that took the strike."""
    import random

    from cardspec.engine.game import Game
    from cardspec.play_table import hand_over

    g = Game.from_system("riding-the-bus")
    st = g.new_initial_state(1)
    rng = random.Random(1)
    while not st.hand_results:
        st.apply(rng.choice(st.legal_actions()))
    r = st.hand_results[0]
    shown = r["hands_shown"]
    assert len(shown) == 4 and all(len(h) == 3 for h in shown)
    assert len({c for h in shown for c in h}) == 12  # twelve different cards: each seat's own three
    assert g.hand_value is not None
    values = [g.hand_value.points(g.hand_value.value(g.deck.mask(g.deck.parse(c) for c in h))) for h in shown]
    low = min(values)
    assert [1 if v == low else 0 for v in values] == [min(x, 1) for x in r["scores"]]
    _, _, lines, _ = hand_over(g, r, 0)
    for s, h in enumerate(shown):
        assert any(" ".join(h) in line for line in lines), (s, h)


def test_a_take_of_more_cards_than_the_zone_shows_names_the_shown_one_and_says_others_went() -> None:
    """With a discard pile that shows only its top card, a take of three names that card and says that cards
    not shown went too, rather than claiming the top card was all it took."""
    from cardspec.play_table import taken_text
    before = {"hand_sizes": [3, 3], "zones": {"discard": {"count": 5, "cards_top_first": ["7C"]}}}
    after = {"hand_sizes": [3, 6], "zones": {"discard": {"count": 2, "cards_top_first": ["2H"]}}}
    assert taken_text(before, after, 1) == "takes 7C and cards not shown from the discard"
    whole = {"hand_sizes": [3, 4], "zones": {"discard": {"count": 0, "cards_top_first": []}}}
    one = {"hand_sizes": [3, 3], "zones": {"discard": {"count": 1, "cards_top_first": ["7C"]}}}
    assert taken_text(one, whole, 1) == "takes 7C from the discard"  # all it held was shown: nothing else to say
