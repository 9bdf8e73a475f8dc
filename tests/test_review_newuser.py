"""What a new user's review of bid-euchre, birdhead, buck-euchre-3p, dirty-clubs and bird-dog-21 found (helper
report, 2026-11-27), each rebuilt here from a seeded ``cardspec simulate`` record as the report built it.

1. birdhead with unseen cards: a play of the lowest card shows the seat held nothing lower, and a later play of
   a lower card from that hand is rejected, naming the show-out (it was accepted).
2. dirty-clubs ``dropped_leader: maker``: the maker leads only when the player to the dealer's left dropped out
   (it led every hand); a lead out of turn then cites the register entry that decides who leads.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from cardspec.cli import main
from cardspec.engine.audit import audit
from cardspec.engine.bulk import play_stepped
from cardspec.engine.game import Game

LOWEST = ("Note that the player must play the lowest card(s) in the hand if the player has only lower cards than "
          "the card(s) played in the trick.")
DC_LEAD = "The player to dealer's left leads to the first trick."


def _simulated(tmp_path: Path, system: str, seed: int, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out = tmp_path / f"{system}.jsonl"
    assert main(["simulate", system, "-n", "1", "--seed", str(seed), "--records", str(out), "--deals"]) == 0
    capsys.readouterr()
    rec: dict[str, Any] = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    return rec


# --- 1. birdhead: a lowest play shows the seat held nothing lower -------------------------------------------
def _birdhead_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Hand 0 of seed 1, its first 20 actions, as a one-hand record with no seed."""
    bh = _simulated(tmp_path, "birdhead", 1, capsys)
    return {"format": bh["format"], "system": "birdhead", "options": bh["options"], "seed": None, "scope": "hand",
            "deals": [copy.deepcopy(bh["deals"][0])], "actions": copy.deepcopy(bh["actions"][:20])}


def test_birdhead_play_below_a_shown_lowest_card_is_rejected_with_unseen_cards(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = _birdhead_hand(tmp_path, capsys)
    assert rec["actions"][5] == {"seat": 0, "action": "play 3#3"}  # seat 0 answers 10#4 with its lowest card
    hand = rec["deals"][0]["hands"][0]
    assert min(int(c.split("#")[0]) for c in hand) == 3  # (it held nothing lower: a 3 was its lowest)
    rec["actions"][10]["action"] = "play 2#3 4#2"  # a 2 from seat 0's hand, which it showed it did not hold
    known = copy.deepcopy(rec)
    h, aside = known["deals"][0]["hands"][0], known["deals"][0]["piles"]["aside"]
    h[h.index("8#5")], aside[aside.index("2#3")] = "2#3", "8#5"  # the one deal that would give seat 0 that 2
    v = audit("t: ", known)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == 5  # 3#3 was then not its lowest
    rec["deals"][0]["hands"][0] = ["?"] * len(hand)
    rec["deals"][0]["piles"]["aside"] = ["?"] * len(aside)
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None, v.line()
    assert v.error.index == 10
    assert "seat 0 showed at action 5 ('play 3#3') that it held no 2#3" in str(v.error)
    assert v.error.source is not None and v.error.source.quote == LOWEST


def test_birdhead_unseen_hand_that_plays_legally_is_still_accepted(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The same hand, every card of seat 0 and the aside unseen, as played: the show-outs rule out nothing the
    deal holds there."""
    rec = _birdhead_hand(tmp_path, capsys)
    rec["deals"][0]["hands"][0] = ["?"] * len(rec["deals"][0]["hands"][0])
    rec["deals"][0]["piles"]["aside"] = ["?"] * len(rec["deals"][0]["piles"]["aside"])
    v = audit("t: ", rec)
    assert v.verdict in ("accepted", "unfinished"), v.line()


# --- 2. dirty-clubs: who leads under dropped_leader ------------------------------------------------------------
def _first_lead(seed: int) -> tuple[int, int, bool, int, int]:
    """Hand 0 of seeded dirty-clubs match ``seed`` (random bots, default options), up to its first play: the
    dealer, the maker, whether the player to the dealer's left dropped out, and the seat to lead under each
    reading of ``dropped_leader`` (left_of_dealer, maker), the same actions applied."""
    g = Game.from_system("dirty-clubs")
    st, _ = play_stepped(g, seed, "random", hand_limit=1)
    leads: list[int] = []
    for reading in ("left_of_dealer", "maker"):
        s = Game.from_system("dirty-clubs", {"dropped_leader": reading}).new_initial_state(seed)
        dropped: set[int] = set()
        for _, a, _ in st.history:
            if s.legal_action_names() and s.legal_action_names()[0].startswith("play "):
                break
            if g.action_name(a) == "drop":
                dropped.add(s.cur)
            s.apply(a)
        leads.append(s.cur)
    left = (st.dealer + 1) % 4
    return st.dealer, st.contract.maker, left in dropped, leads[0], leads[1]


def test_dirty_clubs_maker_leads_only_when_the_dealers_left_dropped() -> None:
    """The text: "The player to dealer's left leads to the first trick." Under ``dropped_leader: maker`` the maker
    leads only when that player dropped out (the register entry's question); otherwise the reading changes
    nothing (the maker led every hand before)."""
    seen = set()
    for seed in range(60):
        dealer, maker, left_dropped, plain, by_maker = _first_lead(seed)
        if maker < 0:
            continue
        seen.add(left_dropped)
        if left_dropped:
            assert by_maker == maker and plain != (dealer + 1) % 4
        else:
            assert plain == by_maker == (dealer + 1) % 4
    assert seen == {True, False}


def test_dirty_clubs_lead_out_of_turn_after_the_dealers_left_dropped_cites_the_register(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dc = _simulated(tmp_path, "dirty-clubs", 1, capsys)
    assert [a["action"] for a in dc["actions"][6:9]] == ["drop", "drop", "stay"]  # the dealer's left (seat 0) drops
    bad = copy.deepcopy(dc)
    bad["actions"][9] = {"seat": 3, "action": "play QS"}
    v = audit("t: ", bad)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == 9, v.line()
    assert v.error.source is not None
    assert (v.error.source.quote, v.error.source.register) == (DC_LEAD, "dropped-leader")
    # under the maker reading, seat 3 (the maker) leads instead, and the record's own lead is refused
    other = copy.deepcopy(dc)
    other["options"]["dropped_leader"] = "maker"
    other.pop("results", None)
    v = audit("t: ", other)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == 9, v.line()


# --- 3. clauses: birdhead's scoring rows, a wrong dealer in a record's deals ----------------------------------
def test_birdhead_scoring_rows_cite_the_sentences_that_give_them() -> None:
    from cardspec.engine.spec import load

    rows = load("birdhead").data["scoring"]["tables"][0]["rows"]
    assert rows[0]["when"]["loser"] is True and rows[0]["source"]["quote"] == (
        "The player who played the highest card becomes the loser of the round, and receive the played card as "
        "minus points.")
    assert rows[1]["when"] == {"loser": False} and rows[1]["source"]["quote"] == \
        "The rank of the received card becomes minus points."  # only a card received gives minus points


def test_a_wrong_dealer_in_a_later_deal_cites_the_rotation_clause(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    rec = _simulated(tmp_path, "dirty-clubs", 1, capsys)
    assert len(rec["deals"]) > 1
    rec["deals"][1]["dealer"] = (rec["deals"][1]["dealer"] + 2) % 4
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None, v.line()
    assert v.error.path == "deals.1.dealer"
    assert v.error.source is not None and v.error.source.quote == \
        "thereafter the turn to deal passes to the left after each hand"


def test_buck_euchre_3p_second_widow_taken_cites_the_one_exchange_clause(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 11: seat 2 takes the widow at once; seat 1, next, names take_widow as well."""
    rec = _simulated(tmp_path, "buck-euchre-3p", 11, capsys)
    assert rec["actions"][0] == {"seat": 2, "action": "take_widow"}
    rec["actions"][1] = {"seat": 1, "action": "take_widow"}
    v = audit("t: ", rec)
    assert v.verdict == "rejected" and v.error is not None and v.error.index == 1, v.line()
    assert "only one player may take the widow each hand, and seat 2 has" in str(v.error)
    assert v.error.source is not None and v.error.source.quote == "if no one else has already done so"


# --- 4. messages for mistyped input; an option that only works beside another -------------------------------
@pytest.mark.parametrize(("system", "options", "text", "message"), [
    ("bid-euchre", {}, "bid 5 X", "'bid 5 X': 'bid' names a suit (C, D, H, S), not 'X'"),
    ("bid-euchre", {}, "bid 2 NT", "'bid 2 NT': 'bid' names a suit (C, D, H, S), no-trump bids are not played "
                                   "under these options"),
    ("dirty-clubs", {}, "name X", "'name X': 'name' names a suit (C, D, H, S or NT), not 'X'"),
    ("dirty-clubs", {}, "bid 3 C", "'bid 3 C': 'bid' names no card and no suit, but 'C' follows"),
])
def test_mistyped_actions_say_what_is_wrong(system: str, options: dict[str, Any], text: str, message: str) -> None:
    from cardspec.engine.errors import InvalidActionError

    with pytest.raises(InvalidActionError) as exc:
        Game.from_system(system, options).parse_action(text)
    assert str(exc.value).endswith(message)
    assert Game.from_system("bid-euchre", {"no_trump_bids": True}).parse_action("bid 2 NT") >= 0


def test_a_card_without_its_copy_in_a_deal_says_which_copies_there_are(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    rec = _simulated(tmp_path, "bid-euchre", 1, capsys)
    first = rec["deals"][0]["hands"][0][0]
    face = first.split("#")[0]
    rec["deals"][0]["hands"][0][0] = face
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None
    assert str(v.error) == f"deals.0.hands.0.0: '{face}' is ambiguous: the deck holds 2 copies; write {face}#1 or " \
                           f"{face}#2"


def test_an_option_written_as_the_string_false_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = _simulated(tmp_path, "bid-euchre", 1, capsys)
    rec["options"]["going_alone"] = "false"
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None
    assert str(v.error).endswith("must be true or false, got 'false' (a string: write true or false without quotes)")


@pytest.mark.parametrize("system", ["bird-dog-11", "bird-dog-21", "bird-dog-2p"])
def test_bird_dog_as_bower_needs_euchre_bowers(system: str) -> None:
    """Without bowers the option changes nothing, so asking for it alone is refused, as other options that only
    work beside another are."""
    from cardspec.engine.errors import OptionError

    with pytest.raises(OptionError, match="'bird_dog_as_bower=counts_as_trump' requires 'trump_order=euchre_bowers'"):
        Game.from_system(system, {"bird_dog_as_bower": "counts_as_trump"})
    Game.from_system(system, {"bird_dog_as_bower": "counts_as_trump", "trump_order": "euchre_bowers"})


@pytest.mark.parametrize("bot", ["random", "rule"])
def test_a_match_past_its_action_bound_says_where_to_look(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          bot: str) -> None:
    """A spec whose hands score nothing never ends: the error says that verify tells whether matches end, and with
    random bots that random play may be what keeps it going."""
    from test_no_silent_acceptance import _no_points, spec_file

    def edit(d: dict[str, Any]) -> None:
        _no_points(d)
        d["bounds"]["actions_per_hand"] = 1

    p = spec_file(tmp_path, edit)
    assert main(["simulate", str(p), "-n", "1", "--bot", bot]) == 2
    err = capsys.readouterr().err
    assert "the match reached its action bound" in err and err.count("\n") == 1
    assert "`cardspec verify` says whether every match ends under these options (termination: match)" in err
    assert ("try --bot rule" in err) == (bot == "random")
