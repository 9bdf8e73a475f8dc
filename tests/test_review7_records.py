"""Review 7 of records (docs/records.md): the size limit covers every record the engine writes, a deal's pile names
are checked before its cards, and deals listed for hands no match plays are refused."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardspec.cli import main
from cardspec.engine import record
from cardspec.engine.bulk import play_bulk
from cardspec.engine.errors import MalformedRecordError
from cardspec.engine.game import Game
from cardspec.engine.record import dumps, record_of, replay

DOCS = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text(encoding="utf-8")
OLD_LIMIT = 1_000_000
"""The limit before this review: a record the-card-game writes went over it."""


def written(system: str, seed: int, options: dict[str, Any] | None = None, bot: str = "random",
            hand_limit: int | None = None) -> dict[str, Any]:
    """The record the engine writes with its deals (``simulate --deals``), read back as JSON."""
    st, _ = play_bulk(Game.from_system(system, options or {}), seed, bot, hand_limit=hand_limit, keep_deals=True)
    out: dict[str, Any] = json.loads(dumps(record_of(st)))
    return out


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def malformed(rec: dict[str, Any]) -> MalformedRecordError:
    with pytest.raises(MalformedRecordError) as info:
        replay(rec)
    return info.value


# --- defect 1: the size limit --------------------------------------------------------------------------------
def test_the_limit_is_documented_with_its_reason() -> None:
    assert f"{record.MAX_RECORD_BYTES:,} bytes" in DOCS
    section = DOCS[DOCS.index(f"{record.MAX_RECORD_BYTES:,} bytes") - 600:][:2400]
    assert "action bound" in section and "exit code 2" in section.replace("exit\ncode", "exit code"), section


def test_a_record_the_card_game_writes_over_the_old_limit_is_replayed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The review's repro: the-card-game's 22 rounds with 6 players, match 7, a 1.2 MB line after a small one;
    every record the engine writes is read back, with a wide margin to the limit."""
    big = written("the-card-game", 7, {"players": 6, "rounds": "up_and_down_repeat_13"})
    line = dumps(big).encode()
    assert len(line) > OLD_LIMIT and 32 * len(line) < record.MAX_RECORD_BYTES
    small = written("bird-dog-2p", 1)
    path = tmp_path / "rb2.jsonl"
    path.write_bytes(dumps(small).encode() + b"\n" + line + b"\n" + dumps(small).encode() + b"\n")
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 0 and err == "", (code, err)
    assert "rb2.jsonl:2: accepted: the-card-game" in out and "rb2.jsonl:3: accepted" in out, out


def test_a_padded_line_over_the_old_limit_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A line of 1.5 MB is parsed and judged on what it says (here a key the schema does not know), not refused
    for its length."""
    rec = written("bird-dog-2p", 1)
    rec["padding"] = "x" * (3 * OLD_LIMIT // 2)
    path = tmp_path / "padded.jsonl"
    path.write_text(dumps(rec) + "\n", encoding="utf-8")
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 2 and "longer than" not in err and "larger than" not in err, err
    assert "padded.jsonl:1: malformed: padding" in out, out


def test_a_line_over_the_limit_still_gets_the_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """The real limit: a line one byte over it (written in pieces, about 64 MiB on disk) stops the file with exit 2,
    after the verdicts of the records before it."""
    good = dumps(written("bird-dog-2p", 1)).encode() + b"\n"
    path = tmp_path / "huge.jsonl"
    head = b'{"format":"cardspec-record/1","padding":"'
    piece = b"x" * (1 << 20)
    left = record.MAX_RECORD_BYTES + 1 - len(head)
    with path.open("wb") as fh:
        fh.write(good)
        fh.write(head)
        while left > 0:
            fh.write(piece[:left])
            left -= len(piece)
        fh.write(b'"}\n')
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 2 and f"huge.jsonl:2: line longer than {record.MAX_RECORD_BYTES} bytes" in err, err
    assert "huge.jsonl:1: accepted" in out, out


def test_a_line_over_a_lowered_limit_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The limit is read where lines are cut and where a whole document is read: a line, and a pretty-printed
    document, over it get the clear error (exit 2), not a parse."""
    monkeypatch.setattr(record, "MAX_RECORD_BYTES", 2_000_000)
    rec = written("bird-dog-2p", 1)
    rec["padding"] = "x" * 2_500_000
    path = tmp_path / "over.jsonl"
    path.write_text(dumps(rec) + "\n", encoding="utf-8")
    code, _, err = run(["replay", str(path)], capsys)
    assert code == 2 and "over.jsonl:1: line longer than 2000000 bytes" in err, err
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(rec, indent=1), encoding="utf-8")
    code, _, err = run(["replay", str(pretty)], capsys)
    assert code == 2 and "pretty.json: record larger than 2000000 bytes" in err, err


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("item", [b"[]", b"{}", b"0"])
def test_a_dense_line_over_the_old_limit_is_refused_unparsed(first: bool, item: bytes, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Past the old limit a line of tiny containers or values (denser than the documented one array or object
    per 12 bytes, one value per 4) is malformed without being parsed; the file goes on."""
    good = dumps(written("bird-dog-2p", 1)).encode() + b"\n"
    n = 3 * OLD_LIMIT // 2 // (len(item) + 1)
    dense = b"[" + b",".join([item] * n) + b"]\n"
    path = tmp_path / "dense.jsonl"
    path.write_bytes(dense + good if first else good + dense + good)
    code, out, _ = run(["replay", str(path)], capsys)
    at = 1 if first else 2
    assert code == 2 and f"dense.jsonl:{at}: malformed: not a record: " in out, out
    assert "arrays and objects" in out and out.count(": accepted: bird-dog-2p") == (1 if first else 2), out


def test_a_real_record_is_far_from_the_density_bounds() -> None:
    """The engine's records: no denser than half the bounds docs/records.md states."""
    text = " ".join(DOCS.split())
    assert "one array or object (`[`, `{`) per 12 bytes" in text and "one value (an array, an object, or one " \
        "after a comma) per 4 bytes" in text
    for system, bot in (("riding-the-bus", "random"), ("euchre", "random"), ("buck-euchre-3p", "rule")):
        line = dumps(written(system, 1, bot=bot)).encode()
        containers = line.count(b"[") + line.count(b"{")
        values = containers + line.count(b",")
        assert containers * 24 < len(line) and values * 6 < len(line), (system, containers, values, len(line))


# --- defect 2: pile names before cards --------------------------------------------------------------------------
@pytest.mark.parametrize("system, piles", [("bird-dog-2p", ["dog_pile", "undealt"]), ("hand-and-foot", ["stock"])])
@pytest.mark.parametrize("deal", [0, 2])
def test_an_unknown_pile_is_named(system: str, piles: list[str], deal: int) -> None:
    """``"bogus": ["AS"]`` in a deal: the message names the unknown pile and the piles the deal has, not the
    card in it (a duplicate in bird-dog-2p, ambiguous among hand-and-foot's copies)."""
    rec = written(system, 1)
    assert sorted(rec["deals"][deal]["piles"]) == piles
    rec["deals"][deal]["piles"]["bogus"] = ["AS"]
    err = malformed(rec)
    assert err.path == f"deals.{deal}.piles.bogus", (err.path, err.message)
    assert "'bogus'" in err.message and f"piles must give exactly {piles}" in err.message, err.message
    assert "AS" not in err.message


@pytest.mark.parametrize("system", ["bird-dog-2p", "hand-and-foot"])
def test_a_missing_pile_is_named(system: str) -> None:
    rec = written(system, 1)
    piles = rec["deals"][1]["piles"]
    gone = sorted(piles)[-1]
    del piles[gone]
    err = malformed(rec)
    assert err.path == "deals.1.piles" and "piles must give exactly" in err.message and repr(gone) in err.message, \
        (err.path, err.message)


def test_a_renamed_pile_holding_its_cards_is_named_not_its_cards() -> None:
    """The dog pile's cards under a misspelt name: an unknown pile, not a card dealt twice."""
    rec = written("bird-dog-2p", 1)
    piles = rec["deals"][0]["piles"]
    piles["dogpile"] = piles.pop("dog_pile")
    err = malformed(rec)
    assert err.path == "deals.0.piles.dogpile" and "unknown pile 'dogpile'" in err.message, (err.path, err.message)


# --- defect 3: deals for hands no match plays -------------------------------------------------------------------
@pytest.mark.parametrize("system, bot", [("bird-dog-2p", "random"), ("buck-euchre-3p", "rule")])
def test_deals_beyond_the_match_end_are_malformed(system: str, bot: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    rec = written(system, 1, bot=bot)
    hands = len(rec["results"]["hands"])
    assert len(rec["deals"]) == hands
    rec["deals"] = rec["deals"] * 200
    err = malformed(rec)
    assert err.path == f"deals.{hands}", (err.path, err.message)
    assert f"after {hands} hands" in err.message and f"{200 * hands} deals" in err.message, err.message
    path = tmp_path / "rep.jsonl"
    path.write_text(dumps(rec) + "\n", encoding="utf-8")
    code, out, _ = run(["replay", str(path)], capsys)
    assert code == 2 and f"rep.jsonl:1: malformed: deals.{hands}:" in out, out


def test_one_deal_too_many_without_a_seed_or_results() -> None:
    """Deals alone decide the hands (no seed), and nothing is stated: still one deal no hand used."""
    rec = written("bird-dog-2p", 1)
    hands = len(rec["results"]["hands"])
    rec["seed"] = None
    del rec["results"]
    replay(copy.deepcopy(rec))  # the deals cover every hand: read
    rec["deals"].append(rec["deals"][0])
    err = malformed(rec)
    assert err.path == f"deals.{hands}", (err.path, err.message)


def test_a_one_hand_record_with_a_second_deal_is_malformed() -> None:
    rec = written("euchre", 3, hand_limit=1)
    assert rec["scope"] == "hand" and len(rec["deals"]) == 1
    replay(copy.deepcopy(rec))
    rec["deals"].append(rec["deals"][0])
    err = malformed(rec)
    assert err.path == "deals.1" and "one hand is over after 1 hand:" in err.message, (err.path, err.message)


def test_a_truncated_record_may_list_the_deals_still_to_come() -> None:
    """Before the match is over the later deals are the hands to come: unfinished, not malformed."""
    rec = written("bird-dog-2p", 1)
    del rec["results"]
    rec["actions"] = rec["actions"][:30]
    st = replay(rec).state
    assert not st.is_terminal() and st.hand_no < len(rec["deals"]) - 1


@pytest.mark.parametrize("system, bot", [
    ("bird-dog-2p", "random"), ("buck-euchre-3p", "rule"), ("euchre", "random"), ("hand-and-foot", "random"),
    ("riding-the-bus", "random"), ("dirty-clubs", "random"), ("birdhead", "random")])
def test_records_simulate_writes_with_deals_are_accepted(system: str, bot: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate --deals`` never lists a deal no hand used: each record, and the filled record a replay
    gives back (``replay --json``, its deals taken from the record), is accepted."""
    path = tmp_path / "sim.jsonl"
    code, _, err = run(["simulate", system, "-n", "3", "--seed", "1", "--bot", bot, "--deals", "--records",
                        str(path)], capsys)
    assert code == 0, err
    code, out, err = run(["replay", "--json", str(path)], capsys)
    assert code == 0 and err == "", (code, out[:300], err)
    verdicts = json.loads(out)["verdicts"]
    assert len(verdicts) == 3
    again = tmp_path / "again.jsonl"
    again.write_text("".join(dumps(v["record"]) + "\n" for v in verdicts), encoding="utf-8")
    code, out, err = run(["replay", str(again)], capsys)
    assert code == 0 and len(re.findall(r": accepted: ", out)) == 3, (out, err)


@pytest.mark.parametrize("system", ["bird-dog-2p", "euchre", "hand-and-foot", "the-card-game"])
@pytest.mark.parametrize("limit", [1, 2])
def test_records_cut_after_some_hands_are_read(system: str, limit: int) -> None:
    """A match stopped after ``limit`` hands (``hand_limit``, its deals kept) lists the deals of those hands only:
    a one-hand record is accepted, a longer cut one unfinished; neither is malformed."""
    rec = written(system, 2, hand_limit=limit)
    assert len(rec["deals"]) == len(rec["results"]["hands"]) <= limit
    st = replay(rec).state
    assert st.is_terminal() == (limit == 1 or st.winners is not None)


def test_the_rule_is_documented() -> None:
    text = " ".join(DOCS.split())
    assert "dealt for no hand" in text and "`malformed`, path `deals.K`" in text, text[:0]
