"""A pytest plugin for conformance tests of other engines (``docs/conformance.md``).

Registered as the ``pytest11`` entry point ``cardspec``; it adds the options ``--cardspec-adapter
MODULE:FACTORY``, ``--cardspec-system``, ``--cardspec-hands``, ``--cardspec-seed`` and
``--cardspec-option NAME=VALUE`` (repeatable), the ini keys ``cardspec_adapter`` and
``cardspec_system``, and the fixture ``cardspec_conform``::

    def test_my_engine(cardspec_conform):
        report = cardspec_conform("euchre", {"farmers_hand": "off"})
        assert report.ok, report.text()

The fixture runs :func:`cardspec.conform.conform` and returns its report. Arguments given in the
test win over the command line, except ``--cardspec-option``, which is laid over the test's
options. An adapter's calls in one hand may take ``--cardspec-hand-timeout`` seconds in all (``hand_timeout=``
in the test; default the harness's 60): a hand over it is a disagreement, so a hanging engine cannot hang the
test run. Without an adapter (no ``adapter=`` argument, option or ini key) the test is skipped, and
so is it when the adapter's factory raises ``Unsupported``; bad input (an adapter that cannot be
imported, an unknown option) fails the test with one line.
This module imports nothing of cardspec until the fixture runs, so it costs nothing in test runs
that do not use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pytest

from .flags import ascii_int, ascii_seconds

if TYPE_CHECKING:
    from .conform import Factory, Report

DEFAULT_HANDS = 20

ConformRunner = Callable[..., "Report"]
"""``cardspec_conform(system=None, options=None, *, adapter=None, hands=None, seed=None, vectors=True,
hand_timeout=None)``."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cardspec", "cardspec conformance of other engines")
    group.addoption("--cardspec-adapter", metavar="MODULE:FACTORY", default=None,
                    help="the adapter factory the cardspec_conform fixture runs (a module or a .py file)")
    group.addoption("--cardspec-system", metavar="SYSTEM", default=None,
                    help="the system cardspec_conform plays when the test names none")
    group.addoption("--cardspec-hands", metavar="N", type=ascii_int, default=None,
                    help=f"seeded hands per cardspec_conform call besides the vectors' (default {DEFAULT_HANDS})")
    group.addoption("--cardspec-seed", metavar="SEED", type=ascii_int, default=None,
                    help="the seed of cardspec_conform's deals and action choices (default 0)")
    group.addoption("--cardspec-hand-timeout", metavar="SECONDS", type=ascii_seconds, default=None,
                    help="seconds the adapter's calls in one hand may take in all (default 60)")
    group.addoption("--cardspec-option", metavar="NAME=VALUE", action="append", default=[],
                    help="an option laid over the test's options (repeatable)")
    parser.addini("cardspec_adapter", "the adapter factory (MODULE:FACTORY) for cardspec_conform", default="")
    parser.addini("cardspec_system", "the system cardspec_conform plays when the test names none", default="")


def pytest_report_header(config: pytest.Config) -> str | None:
    adapter = config.getoption("cardspec_adapter") or config.getini("cardspec_adapter")
    return f"cardspec conformance adapter: {adapter}" if adapter else None


@pytest.fixture
def cardspec_conform(request: pytest.FixtureRequest) -> ConformRunner:
    """Run the conformance harness: ``cardspec_conform(system, options)`` returns a ``Report``
    (``report.ok``, ``report.text()``, ``report.disagreements``)."""
    config = request.config

    def run(system: str | None = None, options: Mapping[str, Any] | None = None, *,
            adapter: Factory | str | None = None, hands: int | None = None, seed: int | None = None,
            vectors: bool = True, hand_timeout: float | None = None) -> Report:
        from .conform import Unsupported, conform, parse_option_pairs
        from .conform.harness import HAND_TIMEOUT
        from .engine.errors import CardspecError

        factory = adapter or config.getoption("cardspec_adapter") or config.getini("cardspec_adapter") or None
        if factory is None:
            pytest.skip("no conformance adapter: give --cardspec-adapter MODULE:FACTORY (or the ini key "
                        "cardspec_adapter)")
        name = system or config.getoption("cardspec_system") or config.getini("cardspec_system") or None
        if name is None:
            pytest.fail("cardspec_conform needs a system: cardspec_conform('euchre', ...) or --cardspec-system",
                        pytrace=False)
        n = hands if hands is not None else config.getoption("cardspec_hands")
        s = seed if seed is not None else config.getoption("cardspec_seed")
        given = config.getoption("cardspec_hand_timeout")
        limit = hand_timeout if hand_timeout is not None else HAND_TIMEOUT if given is None else given
        try:
            opts: dict[str, Any] = {**(options or {}), **parse_option_pairs(config.getoption("cardspec_option"))}
            return conform(factory, name, opts, hands=DEFAULT_HANDS if n is None else n,
                           seed=0 if s is None else s, vectors=vectors, hand_timeout=limit)
        except Unsupported as exc:
            pytest.skip(f"the adapter cannot play this: {exc}")
        except CardspecError as exc:
            pytest.fail(f"cardspec_conform: {exc}", pytrace=False)

    return run
