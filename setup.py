"""The build's one hook: an opt-in compiled engine (``CARDSPEC_COMPILE=1``), built with mypyc.

``pip install .`` installs pure Python: the reference interpreter, which runs anywhere. With
``CARDSPEC_COMPILE=1`` in the environment, the engine's play and replay path (:data:`COMPILED`) is
compiled to C extension modules with mypyc, from the same typed source: the same rules and the same
records (``tests/test_compiled.py`` plays every option set of every system through both builds and
compares the records' digests), at about 2.5 times the speed per action in Euchre. It needs a C
compiler and mypy at build time::

    pip install 'mypy>=1.10' 'setuptools>=77' wheel
    CARDSPEC_COMPILE=1 pip install --no-build-isolation .

An editable install (``pip install -e .``) is always pure Python, so that edits take effect.

``cardspec.compiled()`` says which build is running; ``cardspec --version`` prints it.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent

# The package's folders (pyproject.toml maps them under ``cardspec``), staged in the build folder so
# that mypyc names each module as it is imported (``engine/state.py`` is ``cardspec.engine.state``).
LAYOUT = {"cardspec": "cardspec", "cardspec/engine": "engine", "cardspec/verification": "verification",
          "cardspec/spec": "spec"}

# The play path: every module a match or a replay runs through. Left out: ``errors`` (exception classes
# stay plain Python classes, which pickle between worker processes and may subclass any builtin
# exception), spec loading and citations (run once per spec), the invariant checks that ``cardspec check``
# wraps around a match, and the package ``__init__`` files.
COMPILED = (
    "actions", "audit", "bots", "bulk", "cards", "chance", "contract", "game", "handvalue", "kernels",
    "match", "melds", "options", "ranking", "record", "schedule", "scoring", "seats", "state", "tables",
    "unseen", "zones",
    "components/auction", "components/base", "components/book_melding", "components/climbing_tricks",
    "components/deal", "components/declarations", "components/declared", "components/draw_discard",
    "components/drop_out", "components/melding", "components/pile_deal", "components/pile_trade",
    "components/tricks", "components/turn_up_trump", "components/up_card", "components/widow_exchange",
)


def _stage() -> list[str]:
    """Copy the package's Python files into ``build/mypyc-src`` in their import layout; the paths of
    the modules to compile."""
    stage = ROOT / "build" / "mypyc-src"
    shutil.rmtree(stage, ignore_errors=True)
    for dest, src in LAYOUT.items():
        shutil.copytree(ROOT / src, stage / dest, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.yaml", "*.json", "schema"))
    return [str(stage / "cardspec" / "engine" / f"{m}.py") for m in COMPILED]


def ext_modules() -> list[Extension]:
    """The compiled modules when ``CARDSPEC_COMPILE=1``, else none (a pure-Python build)."""
    flag = os.environ.get("CARDSPEC_COMPILE", "")
    if flag in ("", "0") or not {"build_ext", "bdist_wheel"} & set(sys.argv):
        return []  # a pure build, a step that only writes metadata, or an editable install (always pure)
    if flag != "1":
        raise SystemExit(f"CARDSPEC_COMPILE={flag!r}: set it to 1 to compile the engine, or leave it unset")
    from mypyc.build import mypycify

    paths = _stage()
    cwd = os.getcwd()
    os.chdir(ROOT / "build" / "mypyc-src")  # mypy finds the modules' names from here
    try:
        return list(mypycify(["--config-file", str(ROOT / "pyproject.toml"), *paths], opt_level="3",
                             target_dir=str(ROOT / "build" / "mypyc-c")))
    finally:
        os.chdir(cwd)


setup(ext_modules=ext_modules())
