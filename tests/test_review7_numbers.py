"""Review 7: a number of any length in an action name is out of its kind's range like any other, so an audit
cites the clause that sets the range (docs/records.md), and the name is shown cut, never whole."""

from __future__ import annotations

import pytest

from cardspec.engine.errors import InvalidActionError, OutOfRangeActionError
from cardspec.engine.game import Game


@pytest.mark.parametrize(("number", "register"), [("99999999999999999999999", "highest-bid"),
                                                  ("1234567", "highest-bid"), ("-99999999", "lowest-bid"),
                                                  ("13", "highest-bid")])
def test_a_long_bid_cites_the_clause_of_the_range(number: str, register: str) -> None:
    g = Game.from_system("bid-euchre")
    with pytest.raises(OutOfRangeActionError) as e:
        g.parse_action(f"bid {number} H")
    assert e.value.source is not None and e.value.source.register == register
    assert "from 1 to 12" in e.value.reason


def test_a_number_of_thousands_of_digits_is_shown_cut() -> None:
    g = Game.from_system("bid-euchre")
    with pytest.raises(OutOfRangeActionError) as e:
        g.parse_action("bid " + "9" * 5000 + " H")
    assert len(e.value.action) <= 60 and e.value.action.endswith("...") and len(str(e.value)) < 400


@pytest.mark.parametrize("word", ["\u00b23", "--5", "\u0663"])
def test_digits_other_than_ascii_are_no_number(word: str) -> None:
    g = Game.from_system("bid-euchre")
    with pytest.raises(InvalidActionError, match="takes a number in the digits 0 to 9") as e:
        g.parse_action(f"bid {word} H")
    assert not isinstance(e.value, OutOfRangeActionError)


def test_an_action_name_past_the_schema_length_says_so() -> None:
    """A record's action name longer than the schema allows is malformed, and the message keeps its reason (it was
    cut at 400 characters, reason and all, when the name was long)."""
    import json

    from cardspec.engine.errors import RecordError
    from cardspec.engine.record import check_record, record_of

    st = Game.from_system("bid-euchre").new_initial_state(2)
    st.apply(st.legal_actions()[0])
    rec = json.loads(json.dumps(record_of(st)))
    rec["actions"][0]["action"] = "bid " + "9" * 3000 + " S"
    with pytest.raises(RecordError) as e:
        check_record(rec)
    assert e.value.path == "actions.0.action" and "is longer than 64 characters" in e.value.message
    assert len(e.value.message) < 200
