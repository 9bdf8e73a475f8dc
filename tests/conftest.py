"""Shared fixtures: the repository root and the source texts beside it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
SOURCES = Path(os.environ.get("CARDSPEC_SOURCES", ROOT.parent / "shared" / "sources"))

settings.register_profile("ci", max_examples=8, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("soak", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("compiled_pass", max_examples=3, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
"""For CI's second pass over the compiled build (``--hypothesis-profile compiled_pass`` in ``.ci/run``): the
pure build is the reference and runs the ``ci`` profile; the compiled build's records are held to it
(``tests/test_compiled.py``) and CI's ``cardspec check`` plays every option set's checked matches on it."""
settings.load_profile("soak" if os.environ.get("CARDSPEC_SOAK") else "ci")


@pytest.fixture(scope="session")
def sources() -> Path:
    """The folder of source rule texts; tests that need it skip (saying why) where it is absent."""
    if not SOURCES.is_dir():
        pytest.skip(f"source texts not found at {SOURCES} (set CARDSPEC_SOURCES); CI always has them")
    return SOURCES
