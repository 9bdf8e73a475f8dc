"""``cardspec conform``: the command line of the harness (``cardspec/cli.py`` wires it in).

Exit codes: 0 when every hand agrees, 1 when one disagrees, 2 for bad input (raised as a
:class:`~cardspec.engine.errors.CardspecError`, which ``cardspec.cli.main`` prints as one line).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from ..flags import ascii_int, ascii_seconds
from .adapter import ConformError
from .harness import HAND_TIMEOUT, MAX_HANDS, conform


def configure(sp: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add ``conform``'s arguments to a (sub)parser and set its ``func`` to :func:`cmd_conform`.

    ``SYSTEM --adapter MODULE:FACTORY [--option NAME=VALUE ...] [-n 100] [--seed 0] [--no-vectors]
    [--hand-timeout 60] [--json]`` (``--json`` only if the parser does not have it already).
    """
    sp.add_argument("system", help="a bundled system id or a spec file")
    sp.add_argument("--adapter", required=True, metavar="MODULE:FACTORY",
                    help="the other engine's adapter factory: a module on the path (examples.openspiel_adapter:"
                         "factory) or a .py file (examples/openspiel_adapter.py:factory)")
    sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="an option of the system (repeat for more); the others take their defaults")
    sp.add_argument("-n", "--hands", dest="n", type=ascii_int, default=100,
                    help="seeded deals to play besides the vectors' (default 100)")
    sp.add_argument("--seed", type=ascii_int, default=0, help="first seed of the deals and of the action choices")
    sp.add_argument("--no-vectors", action="store_true", help="skip the deals of the project's vectors")
    sp.add_argument("--hand-timeout", dest="hand_timeout", default=str(HAND_TIMEOUT), metavar="SECONDS",
                    help=f"the most time the adapter's calls may take in one hand (default {HAND_TIMEOUT:g}); a "
                         "hand past it gets an error disagreement")
    if "--json" not in sp._option_string_actions:
        sp.add_argument("--json", action="store_true", help="machine-readable output")
    sp.set_defaults(func=cmd_conform)
    return sp


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``NAME=VALUE`` strings as a mapping (values are parsed against the spec by :func:`conform`)."""
    out: dict[str, str] = {}
    for p in pairs:
        k, eq, v = p.partition("=")
        if not eq or not k.strip():
            raise ConformError(f"--option wants NAME=VALUE, got '{p}'")
        if k.strip() in out:
            raise ConformError(f"--option {k.strip()} is given twice: give each option once")
        out[k.strip()] = v
    return out


def parse_hand_timeout(text: Any) -> float:
    """``--hand-timeout``'s value: a positive number of seconds in the ASCII digits (``flags.ascii_seconds``)."""
    try:
        return ascii_seconds(str(text))
    except argparse.ArgumentTypeError:
        raise ConformError(f"--hand-timeout wants a positive number of seconds, got '{text}'") from None


def cmd_conform(args: argparse.Namespace) -> int:
    """Run the harness; print the report (or its JSON); 0 all agree, 1 a disagreement."""
    if not 0 <= args.n <= MAX_HANDS:
        raise ConformError(f"-n must be between 0 and {MAX_HANDS}")
    report = conform(args.adapter, args.system, parse_option_pairs(args.option), hands=args.n, seed=args.seed,
                     vectors=not getattr(args, "no_vectors", False),
                     hand_timeout=parse_hand_timeout(getattr(args, "hand_timeout", HAND_TIMEOUT)))
    data: dict[str, Any] = report.as_json()
    if getattr(args, "json", False):
        print(json.dumps(data, indent=1, sort_keys=True))
    else:
        print(report.text())
    return 0 if report.ok else 1
