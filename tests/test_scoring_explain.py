"""``Scoring.explain`` and ``Scoring.cite``: which decision-table row gave an entity its points, and the
clause an audit cites for a wrong score (used by ``replay``, ``conform`` and ``play`` alike)."""

from __future__ import annotations

from cardspec.engine.game import Game


def bird_dog_facts(**over: object) -> dict[str, object]:
    facts: dict[str, object] = {"pairs": 0, "most_pairs": False, "maker": False, "trump_made": True,
                                "nil": "none", "nil_against": "none", "tricks": 0}
    facts.update(over)
    return facts


def test_explain_gives_every_tables_row_points_and_facts() -> None:
    """Bird Dog, a player with two pairs, the most, who did not declare: "Each pair earned throughout the hand
    is worth one point" (2) and "they earn a bonus point" (1); no Nil (0)."""
    g = Game.from_system("bird-dog-11")
    uses = g.scoring.explain(bird_dog_facts(pairs=2, most_pairs=True))
    assert [(u.table, u.points) for u in uses] == [("pair_points", 2), ("bonus_point", 1), ("nil_bet", 0)]
    assert uses[1].source is not None and "bonus point" in uses[1].source.quote
    assert uses[1].facts == {"maker": False, "most_pairs": True, "nil_against": "none", "trump_made": True}
    assert [u.row for u in uses] == [1, 3, 1]  # pairs scored; the third bonus row; no Nil


def test_cite_names_the_row_that_gives_points() -> None:
    """A made Nil and nothing else: the cited clause is the Nil row ("earns three points"), not the first
    table's pair row, which gave nothing."""
    g = Game.from_system("bird-dog-11")
    src, shown = g.scoring.cite(bird_dog_facts(nil="made"))
    assert src is not None and "the player going nil earns three points" in src.quote
    assert shown["nil"] == "made" and shown["pairs"] == 0


def test_cite_with_no_points_names_the_first_row_with_a_clause() -> None:
    """Euchre, a defending team that took two tricks scores nothing ("The goal for each round is to win at
    least 3 of the 5 tricks"): that row is cited, with the facts it read."""
    g = Game.from_system("euchre")
    facts: dict[str, object] = {n: False for t in g.scoring.tables for n in t.facts_needed()}
    facts["tricks"] = 2
    src, shown = g.scoring.cite(facts)  # type: ignore[arg-type]
    assert all(u.points == 0 for u in g.scoring.explain(facts))  # type: ignore[arg-type]
    assert src is not None and src.quote == "The goal for each round is to win at least 3 of the 5 tricks."
    assert shown["tricks"] == 2 and shown["maker"] is False
