"""Every module's doctests pass: the examples in the docstrings are part of the documentation, so they
are held to the code like any test (a stale example is a wrong statement about the engine)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure_only  # doctest reads each module's Python functions

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"cardspec": "cardspec", "engine": "cardspec.engine", "verification": "cardspec.verification"}


def _modules() -> list[str]:
    names = []
    for folder, prefix in PACKAGES.items():
        for f in sorted((ROOT / folder).rglob("*.py")):
            parts = [p for p in f.relative_to(ROOT / folder).with_suffix("").parts if p != "__init__"]
            if parts[-1:] != ["__main__"]:  # running the command line is not an example
                names.append(".".join([prefix, *parts]))
    return names


MODULES = _modules()


def test_the_module_list_covers_the_engine() -> None:
    assert {"cardspec.engine.game", "cardspec.engine.bulk", "cardspec.engine.components.tricks",
            "cardspec.verification.z3kit", "cardspec.simulate"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests_of(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), report=True)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples fail"
