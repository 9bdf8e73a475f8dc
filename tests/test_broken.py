"""The checkers catch bugs: a corpus of broken specs, and engine mutations.

Each spec in ``tests/broken/`` states one deliberate defect (as a variant of a real
spec, with ``extends:``); ``expected.yaml`` names the finding it must produce.
The engine mutations patch one rule component and require a check to notice.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import ROOT

from cardspec.engine import ranking as ranking_mod
from cardspec.engine.errors import SpecError
from cardspec.engine.loader import spec_dir
from cardspec.engine.spec import load
from cardspec.verification.report import Verifier

BROKEN = ROOT / "tests" / "broken"
EXPECTED: dict[str, dict[str, str]] = yaml.safe_load((BROKEN / "expected.yaml").read_text(encoding="utf-8"))


@pytest.fixture
def specs_here(tmp_path: Path) -> Path:
    for f in spec_dir().glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def test_every_broken_spec_has_an_expectation() -> None:
    files = {p.name for p in BROKEN.glob("*.yaml")} - {"expected.yaml"}
    assert files == set(EXPECTED) and len(files) >= 8


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_spec_is_caught(name: str, specs_here: Path) -> None:
    want = EXPECTED[name]
    path = specs_here / name
    shutil.copy(BROKEN / name, path)
    if want["kind"] == "load":
        with pytest.raises(SpecError, match=want["match"]):
            load(str(path))
        return
    spec = load(str(path))
    findings = list(Verifier(spec).findings({}))
    hits = [f for f in findings if f.property == want["property"]]
    assert hits, f"no finding named {want['property']!r}"
    assert hits[0].status == "counterexample", (hits[0].status, hits[0].detail)
    assert hits[0].witness is not None or hits[0].detail


def test_the_real_specs_pass_the_same_checks() -> None:
    """The corpus's findings come from the defects: the bases themselves verify cleanly."""
    for sid in ("euchre", "bird-dog-11", "riding-the-bus"):
        bad = [f for f in Verifier(load(sid)).findings({}) if f.status in ("counterexample", "timeout")]
        assert not bad, [(f.property, f.witness) for f in bad]


# --- engine mutations --------------------------------------------------------------------------

def _printed_suit_follow(self: ranking_mod.Ranking, trump: int, trump_card: int) -> Any:
    """Mutant: the follow masks use printed suits (the left bower no longer follows trump)."""
    t = ORIGINAL_TABLES(self, trump, trump_card)
    d = self.deck
    masks = tuple(sum(1 << c for c in range(d.size) if d.suit_of[c] == s) for s in range(len(d.suits)))
    return ranking_mod.TrickTables(t.trump, t.top_cards, t.eff_suit, masks, t.power)


ORIGINAL_TABLES = ranking_mod.Ranking.tables


def _mutate_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardspec.engine import scoring

    orig = scoring.Scoring.pairs_of

    def pairs_of(self: Any, game: Any, won: int) -> int:  # three of a rank count twice
        counts: dict[int, int] = {}
        for c in game.deck.cards_of(won):
            r = game.deck.rank_of[c]
            if r in self.pair_ranks:
                counts[r] = counts.get(r, 0) + 1
        return sum((k + 1) // 2 for k in counts.values()) if counts else orig(self, game, won)

    monkeypatch.setattr(scoring.Scoring, "pairs_of", pairs_of)


MUTATIONS: dict[str, tuple[str, Callable[[pytest.MonkeyPatch], None], str]] = {
    "follow ignores the left bower": (
        "euchre", lambda mp: mp.setattr(ranking_mod.Ranking, "tables", _printed_suit_follow),
        "ranking: engine tables agree with the model"),
    "three Jacks make a pair twice": ("bird-dog-11", _mutate_pairs, "scoring: engine pair count agrees with the model"),
}


@pytest.mark.pure_only  # it patches engine methods
@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_engine_mutation_is_caught_by_verify(mutation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sid, apply, prop = MUTATIONS[mutation]
    apply(monkeypatch)
    findings = list(Verifier(load(sid)).findings({}))
    hit = [f for f in findings if f.property == prop]
    assert hit and hit[0].status == "counterexample", [(f.property, f.status) for f in findings
                                                       if f.status != "proved"]
