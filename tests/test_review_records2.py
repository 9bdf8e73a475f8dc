"""Review fixes to records: integers written as integers, a duplicate key's line, and the clause a wrong
``trump`` or ``maker`` cites.

The quotes expected are the clauses of ``spec/euchre.yaml``, ``spec/bid-euchre.yaml`` and
``spec/buck-euchre-3p.yaml`` (each is checked to be in its spec file): the round of calling in which trump
was made, the all-pass clause when the dealer was forced, the auction's bid clause, the clause by which the
highest bidder names trump.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from cardspec.cli import main
from cardspec.engine.audit import audit, audit_file
from cardspec.engine.errors import MalformedRecordError, RecordError
from cardspec.engine.game import Game
from cardspec.engine.record import dumps, record_of, replay
from cardspec.engine.state import State

ROOT = Path(__file__).resolve().parents[1]

# spec/euchre.yaml, phase 'calling'
EUCHRE_ROUND_1 = ("That suit would then be trump for the round, and the dealer would then get that card as part "
                  "of their hand, and they must choose one card in their hand to discard")
EUCHRE_ROUND_2 = "who may simply choose a suit except the suit that was just flipped over to be trump"
EUCHRE_ALL_PASS = "If everyone passes the second time, the dealer may not pass, but must choose a trump suit"
# spec/bid-euchre.yaml, phase 'bidding'
BID_CLAUSE = ("The person to the left of the dealer begins the bidding by saying how many tricks they believe "
              "their team will take, and what suit they\u2019d like trump to be.")
BID_ALL_PASS = "assuming no one has bid the dealer must bid"
# spec/buck-euchre-3p.yaml, phase 'bidding'
BUCK3_END = ("When two players in succession have passed, the third player (the highest bidder) names the trump "
             "suit or announces that there are no trumps.")
BUCK3_ALL_PASS = "the third player (the highest bidder)"


@pytest.mark.parametrize(("spec", "quote"), [
    ("euchre", EUCHRE_ROUND_1), ("euchre", EUCHRE_ROUND_2), ("euchre", EUCHRE_ALL_PASS),
    ("bid-euchre", BID_CLAUSE), ("bid-euchre", BID_ALL_PASS),
    ("buck-euchre-3p", BUCK3_END), ("buck-euchre-3p", BUCK3_ALL_PASS)])
def test_the_expected_quotes_are_the_specs(spec: str, quote: str) -> None:
    assert f'quote: "{quote}"' in (ROOT / "spec" / f"{spec}.yaml").read_text(encoding="utf-8")


# --- driving hands --------------------------------------------------------------------------------
Plan = tuple[str, Sequence[str]]
"""For one hand: the phase in which to act, and the actions to take there, each an action's name or its first
word (the first legal action of that word); every other action is the first legal one."""


def _name(st: State, word: str) -> str:
    return next(n for n in st.legal_action_names() if n == word or n.startswith(word + " "))


def drive(system: str, plans: Sequence[Plan], seed: int = 3, scope_hand: bool = False) -> tuple[State, list[int]]:
    """Play hands by plan; the state, and for each hand the seat that took the plan's last action."""
    g = Game.from_system(system)
    st = g.new_initial_state(seed, None, None, 1 if scope_hand else None)
    last: list[int] = []
    for phase, words in plans:
        last_seat = -1
        done = len(st.hand_results)
        while st.comp.id != phase:
            st.apply_name(st.legal_action_names()[0])
        for w in words:
            last_seat = st.cur
            st.apply_name(_name(st, w))
        last.append(last_seat)
        while len(st.hand_results) == done:
            st.apply_name(st.legal_action_names()[0])
    return st, last


def refused(rec: dict[str, Any], hand: int, key: str, value: Any) -> RecordError:
    """The error for ``rec`` with hand ``hand``'s ``key`` stated as ``value`` (it must be rejected)."""
    bad = copy.deepcopy(rec)
    bad["results"]["hands"][hand][key] = value
    with pytest.raises(RecordError) as exc:
        replay(bad)
    assert not isinstance(exc.value, MalformedRecordError)
    assert exc.value.path == f"results.hands.{hand}.{key}"
    return exc.value


def check_cites(rec: dict[str, Any], hand: int, quote: str, seats: int = 4) -> None:
    """A wrong trump and a wrong maker (the next of ``seats`` seats) of the hand both cite ``quote``."""
    replay(copy.deepcopy(rec))  # as written, the record is good
    r = rec["results"]["hands"][hand]
    other = next(s for s in "CDHS" if s != r["trump"])
    err = refused(rec, hand, "trump", other)
    assert f"states trump {other} but the replay gives {r['trump']}" in err.message
    assert err.source is not None and err.source.quote == quote
    wrong = (r["maker"] + 1) % seats
    err = refused(rec, hand, "maker", wrong)
    assert f"states maker {wrong} but the replay gives {r['maker']}" in err.message
    assert err.source is not None and err.source.quote == quote


# --- turn_up_trump: euchre -----------------------------------------------------------------------
def test_euchre_trump_ordered_up_cites_the_first_round() -> None:
    st, who = drive("euchre", [("calling", ["order_up"])], scope_hand=True)
    rec = record_of(st)
    assert rec["results"]["hands"][0]["maker"] == who[0] == (st.dealer + 1) % 4  # left of the dealer begins
    check_cites(rec, 0, EUCHRE_ROUND_1)


def test_euchre_trump_named_in_the_second_round_cites_the_second_round() -> None:
    st, who = drive("euchre", [("calling", ["pass"] * 4 + ["name"])], scope_hand=True)
    rec = record_of(st)
    assert rec["results"]["hands"][0]["maker"] == who[0] != st.dealer
    check_cites(rec, 0, EUCHRE_ROUND_2)


def test_euchre_forced_dealer_cites_the_all_pass_clause() -> None:
    g = Game.from_system("euchre")
    assert g.options["all_pass"] == "dealer_must_name"
    st = g.new_initial_state(3, None, None, 1)
    for _ in range(7):
        st.apply_name("pass")
    assert st.cur == st.dealer and "pass" not in st.legal_action_names()  # the dealer may not pass
    st.apply_name(_name(st, "name"))
    while not st.hand_results:
        st.apply_name(st.legal_action_names()[0])
    rec = record_of(st)
    assert rec["results"]["hands"][0]["maker"] == st.dealer
    check_cites(rec, 0, EUCHRE_ALL_PASS)


def test_each_hand_of_a_match_cites_its_own_round() -> None:
    """The second hand's clause is read from that hand's play, not from the state the match has reached."""
    st, who = drive("euchre", [("calling", ["order_up"]), ("calling", ["pass"] * 4 + ["name"])])
    rec = record_of(st)
    assert [h["maker"] for h in rec["results"]["hands"]] == who
    check_cites(rec, 0, EUCHRE_ROUND_1)
    check_cites(rec, 1, EUCHRE_ROUND_2)


# --- auction: bid-euchre and buck-euchre-3p ------------------------------------------------------
def test_bid_euchre_bid_cites_the_bid_clause() -> None:
    st, _ = drive("bid-euchre", [("bidding", ["bid 1 H", "pass", "pass", "pass"])], scope_hand=True)
    rec = record_of(st)
    r = rec["results"]["hands"][0]
    assert (r["maker"], r["trump"]) == ((st.dealer + 1) % 4, "H")
    check_cites(rec, 0, BID_CLAUSE)


def test_bid_euchre_forced_dealer_cites_the_all_pass_clause() -> None:
    st, _ = drive("bid-euchre", [("bidding", ["pass", "pass", "pass", "bid 1 S"])], scope_hand=True)
    rec = record_of(st)
    assert (rec["results"]["hands"][0]["maker"], rec["results"]["hands"][0]["trump"]) == (st.dealer, "S")
    check_cites(rec, 0, BID_ALL_PASS)


def test_bid_euchre_dealer_outbidding_is_not_forced() -> None:
    """The dealer holds the contract, but outbid a standing bid: the bid clause, not the all-pass one."""
    st, _ = drive("bid-euchre", [("bidding", ["bid 1 H", "pass", "pass", "bid 2 S"])], scope_hand=True)
    rec = record_of(st)
    assert (rec["results"]["hands"][0]["maker"], rec["results"]["hands"][0]["trump"]) == (st.dealer, "S")
    check_cites(rec, 0, BID_CLAUSE)


def test_buck_euchre_3p_highest_bidder_names_trump_cites_the_end_clause() -> None:
    st, who = drive("buck-euchre-3p", [("bidding", ["bid 2", "pass", "pass", "name"])], scope_hand=True)
    rec = record_of(st)
    assert rec["results"]["hands"][0]["maker"] == who[0] != st.dealer
    check_cites(rec, 0, BUCK3_END, seats=3)


def test_buck_euchre_3p_forced_bid_that_stands_cites_the_all_pass_clause() -> None:
    plan = ("bidding", ["pass", "pass", "bid 1", "pass", "pass", "name"])  # the dealer bids third, forced
    st, _ = drive("buck-euchre-3p", [plan], scope_hand=True)
    rec = record_of(st)
    assert rec["results"]["hands"][0]["maker"] == st.dealer
    check_cites(rec, 0, BUCK3_ALL_PASS, seats=3)


def test_buck_euchre_3p_forced_bid_outbid_cites_the_end_clause() -> None:
    plan = ("bidding", ["pass", "pass", "bid 1", "bid 2", "pass", "pass", "name"])
    st, who = drive("buck-euchre-3p", [plan], scope_hand=True)
    rec = record_of(st)
    assert rec["results"]["hands"][0]["maker"] == who[0] == (st.dealer + 1) % 3
    check_cites(rec, 0, BUCK3_END, seats=3)


# --- integers are written as integers -----------------------------------------------------------
@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    st, _ = drive("euchre", [("calling", ["order_up"])], scope_hand=True)
    return record_of(st)


Edit = Callable[[dict[str, Any]], Any]


def _start(key: str, value: Any) -> Edit:
    """A start at hand 0 with the record's dealer and no points, but ``key`` given as ``value``."""
    def edit(r: dict[str, Any]) -> None:
        r["start"] = {"hand": 0, "dealer": r["results"]["hands"][0]["dealer"], "totals": [0, 0], key: value}
    return edit


def _hand(key: str, make: Callable[[Any], Any]) -> Edit:
    return lambda r: r["results"]["hands"][0].update({key: make(r["results"]["hands"][0][key])})


FLOATS: list[tuple[Edit, str, str]] = [
    (lambda r: r["actions"][3].update(seat=float(r["actions"][3]["seat"])), "actions.3.seat", "seat"),
    (_hand("scores", lambda v: [float(v[0]), v[1]]), "results.hands.0.scores.0", "score"),
    (_hand("totals", lambda v: [v[0], float(v[1])]), "results.hands.0.totals.1", "total"),
    (_hand("dealer", float), "results.hands.0.dealer", "dealer"),
    (_hand("hand", float), "results.hands.0.hand", "hand number"),
    (_hand("maker", float), "results.hands.0.maker", "maker"),
    (_hand("trick_winners", lambda v: [*v[:2], float(v[2]), *v[3:]]), "results.hands.0.trick_winners.2",
     "trick winner"),
    (lambda r: r.update(seed=float(r["seed"])), "seed", "seed"),
    (lambda r: r["options"].update(target=10.0), "options.target", "option value"),
    (_start("hand", 0.0), "start.hand", "start hand"),
    (_start("totals", [0.0, 0]), "start.totals.0", "start total"),
    (_start("dealer", 3.0), "start.dealer", "start dealer"),
    (_start("dealer", 3), "", "control: a start with integers"),
    (lambda r: None, "", "control: the record as written"),
]


@pytest.mark.parametrize(("edit", "path", "what"), FLOATS, ids=[f[2] for f in FLOATS])
def test_a_float_where_an_integer_belongs_is_malformed(good: dict[str, Any], edit: Edit, path: str,
                                                       what: str) -> None:
    rec = copy.deepcopy(good)
    edit(rec)
    v = audit("t: ", rec)
    if not path:
        assert v.verdict == "accepted", v.line()
        return
    assert v.verdict == "malformed", v.line()
    assert v.error is not None and v.error.path == path
    assert "is not of type 'integer'" in v.error.message and "fraction" in v.error.message


BOOLS: list[tuple[Edit, str]] = [
    (lambda r: r["actions"][0].update(seat=True), "actions.0.seat"),
    (_hand("scores", lambda v: [True, v[1]]), "results.hands.0.scores.0"),
    (_hand("hand", lambda v: False), "results.hands.0.hand"),
    (_start("dealer", True), "start.dealer"),
]


@pytest.mark.parametrize(("edit", "path"), BOOLS, ids=[b[1] for b in BOOLS])
def test_a_bool_is_not_an_integer(good: dict[str, Any], edit: Edit, path: str) -> None:
    rec = copy.deepcopy(good)
    edit(rec)
    v = audit("t: ", rec)
    assert v.verdict == "malformed" and v.error is not None and v.error.path == path, v.line()
    assert "is not of type 'integer'" in v.error.message


def test_a_float_seat_in_a_file_names_the_line_and_path(tmp_path: Path, good: dict[str, Any],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    text = dumps(good)
    seat = good["actions"][1]["seat"]
    first = next(i for i, step in enumerate(good["actions"]) if step["seat"] == seat)
    bad = text.replace(f'"seat":{seat}}}', f'"seat":{seat}.0}}', 1)  # keys sorted: each action ends with its seat
    assert bad != text
    path = tmp_path / "r.jsonl"
    path.write_text(text + "\n" + bad + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert f"{path}:1: accepted" in out
    assert f"{path}:2: malformed: actions.{first}.seat: {seat}.0 is not of type 'integer'" in out, out
    assert err.startswith("cardspec: error:") and "Traceback" not in err


# --- a duplicate key names the line --------------------------------------------------------------
def test_a_duplicate_key_on_the_first_line_names_the_line(tmp_path: Path, good: dict[str, Any],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    text = dumps(good).replace('"seed":3', '"seed":3,"seed":4', 1)
    assert text.count('"seed"') == 2
    for name, body in (("dupkey.json", text), ("dupkey.jsonl", text + "\n" + dumps(good) + "\n")):
        path = tmp_path / name
        path.write_text(body, encoding="utf-8")
        assert main(["replay", str(path)]) == 2
        out, err = capsys.readouterr()
        assert f"{path}:1: malformed: malformed JSON: duplicate key 'seed'" in out, out
        assert f"cardspec: error: {path}:1: malformed JSON: duplicate key 'seed'" in err, err
        assert "Traceback" not in err
        verdicts = [(v.where, v.verdict) for v in audit_file(path)]
        want = [(f"{path}:1: ", "malformed")] + ([(f"{path}:2: ", "accepted")] if name.endswith("l") else [])
        assert verdicts == want


def test_a_pretty_printed_document_with_a_duplicate_key_is_still_one_document(tmp_path: Path) -> None:
    path = tmp_path / "pretty.json"
    path.write_text('{"format": "cardspec-record/1",\n "seed": 1,\n "seed": 2}\n', encoding="utf-8")
    verdicts = list(audit_file(path))
    assert len(verdicts) == 1 and verdicts[0].verdict == "malformed"
    assert verdicts[0].error is not None and "duplicate key 'seed'" in str(verdicts[0].error)


# --- up_card's auto_trump: dirty-clubs ----------------------------------------------------------------------
def test_dirty_clubs_trump_fixed_by_a_turned_club_cites_auto_trump() -> None:
    """"If the turned up card is a club, then clubs are automatically trump.": a hand whose turned card is a
    club states a wrong trump; the audit cites that clause (the auction's bid did not settle the suit)."""
    from cardspec.engine.bulk import play_stepped

    g = Game.from_system("dirty-clubs")
    pile = next(ph.pile for ph in g.phases if ph.kind == "up_card")  # type: ignore[attr-defined]
    for seed in range(100):
        up = g.new_initial_state(seed).piles[pile][-1]  # the card the up_card phase turns
        if g.deck.names[up].endswith("C"):
            break
    else:
        raise AssertionError("no turned club in 100 seeds")
    st, _ = play_stepped(g, seed, "random", hand_limit=1)
    rec = record_of(st)
    assert rec["results"]["hands"][0]["trump"] == "C"
    replay(copy.deepcopy(rec))
    err = refused(rec, 0, "trump", "D")
    assert err.source is not None
    assert err.source.quote == "If the turned up card is a club, then clubs are automatically trump."
