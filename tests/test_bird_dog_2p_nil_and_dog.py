"""bird-dog-2p: when nil may be called, the nil preference, when the Bird Dog's cards turn face up,
and the terminal prompt when a player acts for the Bird Dog (source 001).

Seats: players 0 and 1; the Bird Dog is the dummy seat 2. Expected values are worked out by hand
from the text and the deal below, never read off the engine.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from helpers import score_captures

from cardspec.engine.errors import SpecError
from cardspec.engine.game import Game
from cardspec.engine.loader import spec_dir
from cardspec.engine.state import State
from cardspec.play import acting_lines, play_terminal

SYSTEM = "bird-dog-2p"
DOG = 2

# dealer 0: clockwise from the dealer, player 1, the dog, then the dealer. Turn-ups KD, QD, AD.
DEAL: dict[str, Any] = {
    "dealer": 0,
    "hands": [["9C", "KC", "JC", "9D", "10D", "JD", "KH"],
              ["JH", "QH", "AH", "JS", "QS", "KS", "AS"], []],
    "piles": {"undealt": ["KD", "QD", "AD"],
              "dog_pile": ["AC", "10C", "QC", "9H", "10H", "9S", "10S"]},  # top first
}
DOG_TOP_THREE = {"AC", "10C", "QC"}


def game(**opts: Any) -> Game:
    return Game.from_system(SYSTEM, opts)


def dealt(**opts: Any) -> State:
    return game(**opts).new_initial_state(1, [DEAL])


def act(st: State, *names: str) -> State:
    for a in names:
        st.apply_name(a)
    return st


def kinds(st: State) -> set[str]:
    return {st.game.codec.kind(a) for a in st.legal_actions()}


def nil_called(st: State, seat: int) -> bool:
    return bool(st.contract.decl[seat])


def dog_cards(st: State, viewer: int) -> set[str] | None:
    shown = st.observation(viewer)["zones"]["hand"][DOG].get("cards_top_first")
    return set(shown) if shown is not None else None


# --- gap 1: nil "when the option to declare is theirs, or after another player has declared" --------------
def test_nobody_declared_so_nil_is_not_asked_again_before_the_first_card() -> None:
    """"or after another player has declared but prior to the first card being played": six passes over
    the three turned cards, nobody declared, so play begins at once, led from the dealer's left (1)."""
    st = act(dealt(), *["pass"] * 6)
    assert kinds(st) == {"play"} and st.current_player() == 1
    assert not any(st.contract.decl)


def test_nobody_declared_but_nil_was_called_on_a_declaring_turn() -> None:
    """"A player may call nil when the option to declare is theirs": in the third round player 1 calls
    nil in place of passing; the dealer passes; nobody is solo and player 1 has nil."""
    st = act(dealt(), *["pass"] * 4, "nil", "pass")
    assert kinds(st) == {"play"}
    assert nil_called(st, 1) and not nil_called(st, 0)


def test_someone_declared_so_the_other_player_is_asked() -> None:
    """After a declaration the other player may still call nil before the first card."""
    st = act(dealt(), "pass", "declare")  # the dealer (0) goes solo over KD
    assert st.current_player() == 1 and st.legal_action_names() == ["pass", "nil"]


def test_reading_open_asks_for_nil_when_nobody_declared() -> None:
    """nil-without-solo, reading open: each player is asked once more, from the dealer's left."""
    st = act(dealt(nil_without_solo="open"), *["pass"] * 6)
    assert st.current_player() == 1 and st.legal_action_names() == ["pass", "nil"]
    act(st, "pass")
    assert st.current_player() == 0 and st.legal_action_names() == ["pass", "nil"]
    act(st, "pass")
    assert kinds(st) == {"play"}


# --- gap 2: "the player continuing clockwise around the table has preference" -------------------------------
def test_preference_next_clockwise_asks_the_dealers_left_first_when_nobody_is_solo() -> None:
    """nil-preference, decision next_clockwise (with nil open when nobody is solo): player 1, left of the
    dealer, is asked first; when 1 calls nil the dealer is not asked ("Only one player may nil per hand")."""
    st = act(dealt(nil_without_solo="open"), *["pass"] * 6)
    assert st.current_player() == 1
    act(st, "nil")
    assert kinds(st) == {"play"} and nil_called(st, 1) and not nil_called(st, 0)


def test_preference_later_clockwise_asks_the_dealer_first() -> None:
    """nil-preference, reading later_clockwise: the order is reversed, so the dealer (0) has preference."""
    st = act(dealt(nil_without_solo="open", nil_preference="later_clockwise"), *["pass"] * 6)
    assert st.current_player() == 0
    act(st, "nil")
    assert kinds(st) == {"play"} and nil_called(st, 0) and not nil_called(st, 1)


@pytest.mark.parametrize("preference", ["next_clockwise", "later_clockwise"])
def test_the_solo_is_asked_last_when_it_may_go_nil(preference: str) -> None:
    """With nil-timing all the solo may go nil too, but the preference rule ranks only "the players who
    did not declare the trump": player 1 declares, the dealer (0) is asked first, then the solo."""
    st = act(dealt(nil_who="all", nil_preference=preference), "declare")
    assert st.current_player() == 0 and st.legal_action_names() == ["pass", "nil"]
    act(st, "pass")
    assert st.current_player() == 1 and st.legal_action_names() == ["pass", "nil"]
    act(st, "nil")
    assert kinds(st) == {"play"} and nil_called(st, 1)


def test_a_nil_called_on_a_declaring_turn_stands() -> None:
    """"Only one player may nil per hand": player 1 calls nil on its first turn, the dealer declares solo;
    nobody is asked again and player 1 keeps the nil."""
    st = act(dealt(nil_who="all"), "nil", "declare")
    assert kinds(st) == {"play"} and nil_called(st, 1) and not nil_called(st, 0)


def _bird_dog_11_with(tmp_path: Path, preference: str | None) -> Game:
    """bird-dog-11 (three players) with one nil per hand for non-declarers, and a preference clause."""
    text = (spec_dir() / "bird-dog-11.yaml").read_text(encoding="utf-8")
    old = "    limit: {$option: nil_limit}\n"
    assert text.count(old) == 1
    if preference is not None:
        text = text.replace(old, old + f"    preference: {preference}\n")
    p = tmp_path / "bd.yaml"
    p.write_text(text, encoding="utf-8")
    return Game.from_system(str(p), {"nil_who": "not_declarer", "nil_limit": "one"})


@pytest.mark.parametrize(("preference", "first_offset"),
                         [(None, 1), ("dealer_left", 1), ("maker_left", 0), ("maker_right", 1)])
def test_preference_orders_the_non_declarers_of_three_players(tmp_path: Path, preference: str | None,
                                                             first_offset: int) -> None:
    """The general parameter with three players (the case of the preference rule): the player left of
    the dealer passes, the next one declares. Continuing clockwise from the declarer reaches the dealer
    first (maker_left); from the dealer's left (the default) or in reverse order, the dealer's left."""
    g = _bird_dog_11_with(tmp_path, preference)
    st = g.new_initial_state(4)
    d = st.dealer
    left, declarer = (d + 1) % 3, (d + 2) % 3
    assert st.current_player() == left
    act(st, "pass", "declare")
    assert st.contract.maker == declarer
    first = (d + first_offset) % 3
    assert st.current_player() == first and "nil" in st.legal_action_names()
    act(st, "nil")  # the first asked takes it; the other non-declarer is not asked
    assert kinds(st) == {"play"} and nil_called(st, first)


def test_a_bad_preference_or_window_is_a_spec_error(tmp_path: Path) -> None:
    text = (spec_dir() / "bird-dog-2p.yaml").read_text(encoding="utf-8")
    for old, new, key in [("map: {next_clockwise: maker_left,", "map: {next_clockwise: maker_first,", "preference"),
                          ("map: {closed: after_maker,", "map: {closed: after_solo,", "window"),
                          ("trump_made: {seat: dog,", "trump_made: {seat: cat,", "reveal")]:
        assert text.count(old) == 1
        p = tmp_path / f"{key}.yaml"
        p.write_text(text.replace(old, new), encoding="utf-8")
        with pytest.raises(SpecError, match=key):
            Game.from_system(str(p))


# --- gap 3: "The top three cards of the Bird Dog’s pile are flipped face-up for both players to see." -----
def test_the_dog_pile_is_face_down_while_players_declare() -> None:
    """"Establishing the solo player / Determining trump remains unchanged": nothing of the pile shows."""
    st = act(dealt(), "pass")
    for viewer in (0, 1):
        obs = st.observation(viewer)
        assert obs["zones"]["dog_pile"] == {"count": 7}
        assert dog_cards(st, viewer) == set()


def test_dog_cards_face_up_once_trump_is_established_before_nil_is_asked() -> None:
    """dog-face-up, decision trump_made: player 1 declares; while player 0 decides on nil both players
    see the pile's top three cards, AC 10C QC, and four stay face down."""
    st = act(dealt(), "declare")
    assert st.current_player() == 0 and st.legal_action_names() == ["pass", "nil"]
    for viewer in (0, 1):
        assert dog_cards(st, viewer) == DOG_TOP_THREE
        assert st.observation(viewer)["zones"]["dog_pile"] == {"count": 4}
    act(st, "pass", "play JH")  # play: the dog follows among the same three cards
    assert st.cur == DOG and sorted(st.legal_action_names()) == ["play 10C", "play AC", "play QC"]


def test_dog_cards_face_up_only_as_play_begins_under_first_trick() -> None:
    """dog-face-up, reading first_trick: while nil is asked the pile is still face down."""
    st = act(dealt(dog_face_up="first_trick"), "declare")
    assert st.current_player() == 0
    assert dog_cards(st, 0) == set() and st.observation(0)["zones"]["dog_pile"] == {"count": 7}
    act(st, "pass")
    assert kinds(st) == {"play"}
    assert dog_cards(st, 0) == DOG_TOP_THREE == dog_cards(st, 1)


@pytest.mark.parametrize("when", ["trump_made", "first_trick"])
def test_nobody_declared_the_dog_shows_three_when_play_begins(when: str) -> None:
    st = act(dealt(dog_face_up=when), *["pass"] * 6)
    assert kinds(st) == {"play"} and dog_cards(st, 0) == DOG_TOP_THREE


# --- gap 5: the terminal prompt on the Bird Dog's turn ---------------------------------------------------
def test_prompt_names_the_controlled_seat_and_shows_its_cards() -> None:
    """"the Bird Dog’s teammate decides which of the three visible cards the Bird Dog will play": player 1
    is solo, player 0 controls the dog; on the dog's turn player 0 is told it acts for seat 2 (dog) and
    sees the dog's three cards."""
    st = act(dealt(), "declare", "pass", "play JH")
    assert st.cur == DOG and st.current_player() == 0
    obs = st.observation(0)
    lines = acting_lines(st.game, obs, 0)
    assert lines[0] == "you act for seat 2 (dog), which you control this hand"
    assert lines[1].startswith("seat 2 (dog) cards: ")
    assert set(lines[1].removeprefix("seat 2 (dog) cards: ").split()) == DOG_TOP_THREE
    assert acting_lines(st.game, act(st, "play AC").observation(0), 0) == []  # player 0's own turn


def test_terminal_play_shows_the_dog_turn(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """End to end: a person at seat 0 who declares solo whenever it may (else takes the first legal action)
    is, in some hands, asked to play for the Bird Dog (when the bot declared); the prompt says so and lists
    the dog's face-up cards, from which every card offered comes. In the hands the person is solo, the
    bot at seat 1 plays the dog, and its moves say so."""
    monkeypatch.setattr("sys.stdin", io.StringIO("declare\n0\n" * 400))
    assert play_terminal(game(), 3, 0, "rule", False) == 0
    out = capsys.readouterr().out
    blocks = out.split("\nhand ")
    dog_turns = [b for b in blocks if "you act for seat 2 (dog), which you control this hand" in b]
    assert dog_turns
    for b in dog_turns:
        shown = next(x for x in b.splitlines() if x.startswith("seat 2 (dog) cards: "))
        cards = set(shown.removeprefix("seat 2 (dog) cards: ").split())
        offered = {x.split(") play ")[1] for x in b.splitlines() if ") play " in x}
        assert 1 <= len(cards) <= 3 and offered and offered <= cards
    assert "seat 2 (dog) for seat 1: play" in out  # the bot's dog moves are labelled too


# --- no-teams-tie: who gets the bonus point when players tie for the most pairs without teams ---------------
def _scored_without_teams(won: dict[int, tuple[str, ...]], tie_bonus: str = "none") -> list[int]:
    """Score a hand nobody declared (no teams) with these captures, one trick per seat with cards."""
    return score_captures(Game.from_system("bird-dog-2p", {"no_teams_tie_bonus": tie_bonus}), -1, won,
                          controller=(0, 1, 0))


TIE = {0: ("JC", "JD", "QC", "QD"), 1: ("KC", "KD", "JS", "JH"), DOG: ("9C",)}
"""Players 0 and 1 have two pairs each: a tie for the most."""
WIN = {0: ("JC", "JD", "QC", "QD", "KS", "KH"), 1: ("KC", "KD", "JS", "JH")}
"""Player 0 has three pairs against two: the most, alone."""


def test_no_teams_tie_reading_none_gives_no_bonus() -> None:
    """The decision: "The player who acquires the most pairs wins the hand and is awarded the bonus point" -
    a tie has no such single player, so 2 pairs score 2 each and nobody gets the bonus."""
    assert _scored_without_teams(TIE, "none") == [2, 2]


def test_no_teams_tie_reading_shared_gives_each_tied_player_the_bonus() -> None:
    """The other reading: each player tied for the most pairs gets the bonus point: 2 + 1 each."""
    assert _scored_without_teams(TIE, "shared") == [3, 3]


@pytest.mark.parametrize("tie_bonus", ["none", "shared"])
def test_no_teams_most_pairs_alone_earns_the_bonus_under_both_readings(tie_bonus: str) -> None:
    """Without a tie the readings agree: three pairs against two, player 0 earns 3 + 1, player 1 earns 2."""
    assert _scored_without_teams(WIN, tie_bonus) == [4, 2]
