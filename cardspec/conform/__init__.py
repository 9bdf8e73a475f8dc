"""Conformance of other engines: run another engine's adapter against cardspec, deal by deal.

An *adapter* (:class:`Adapter`) plays one hand at a time of another engine in cardspec's names;
:func:`conform` steps cardspec and the adapter through the same deals (the project's vectors and
seeded deals), compares the seat to act and the legal actions at every decision and the trick
winners and scores at the end, and returns a :class:`Report` naming each hand's first disagreement
with the cardspec clause that decides it. ``cardspec conform`` (:func:`cmd_conform`) and the pytest
fixture ``cardspec_conform`` (:mod:`cardspec.pytest_plugin`) run it; ``docs/conformance.md``
documents the interface, and ``examples/openspiel_adapter.py`` is an adapter for OpenSpiel's euchre.
"""

from __future__ import annotations

from .adapter import Adapter, ConformError, Factory, Unsupported, load_factory
from .cli import cmd_conform, configure, parse_option_pairs
from .harness import HandCase, conform, game_for, seeded_cases, vector_cases
from .report import ActionNote, Disagreement, Report

__all__ = [
    "ActionNote", "Adapter", "ConformError", "Disagreement", "Factory", "HandCase", "Report", "Unsupported",
    "cmd_conform", "configure", "conform", "game_for", "load_factory", "parse_option_pairs", "seeded_cases",
    "vector_cases",
]
