"""The compiled build (``CARDSPEC_COMPILE=1``, see setup.py) plays the pure-Python reference's matches,
record for record, under every option set of every system.

The build under test is the one installed; the reference is the source checkout, imported in a
subprocess (``tests/record_digests.py``). Under a pure install both sides are pure Python and the test
still compares them. CI runs the suite once on each build, and sets ``CARDSPEC_EXPECT_COMPILED=1``
on the compiled one, so that a build that silently fell back to pure Python fails here.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

from conftest import ROOT
from record_digests import digests

import cardspec


def _reference() -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the checkout's cardspec/ comes first: pure Python
    out = subprocess.run([sys.executable, str(ROOT / "tests" / "record_digests.py")], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=900, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_the_build_is_the_one_expected() -> None:
    assert cardspec.compiled() == (os.environ.get("CARDSPEC_EXPECT_COMPILED") == "1")


def test_every_option_set_gives_the_pure_builds_records() -> None:
    ref = _reference()
    assert ref["compiled"] is False, "the reference must be the pure-Python checkout"
    mine = digests()
    theirs = ref["digests"]
    assert isinstance(theirs, dict) and len(theirs) == len(mine) > 250
    differ = sorted(k for k in mine if mine[k] != theirs.get(k))
    assert not differ, f"{len(differ)} records differ from the pure build's, first {differ[:5]}"


def test_a_bad_compile_flag_is_refused_before_anything_is_built() -> None:
    env = {**os.environ, "CARDSPEC_COMPILE": "yes"}
    out = subprocess.run([sys.executable, "setup.py", "build_ext"], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode != 0
    assert "CARDSPEC_COMPILE='yes': set it to 1 to compile the engine, or leave it unset" in out.stderr


def _compiled_modules() -> list[str]:
    """setup.py's ``COMPILED``: the play path's modules, read from the file (importing it would run setup)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise AssertionError("setup.py has no COMPILED")


def test_the_play_path_never_updates_a_list_item_in_place() -> None:
    """``xs[i] |= m`` compiles to generic object arithmetic (mypyc reads the item as an object); the play path
    writes ``xs[i] = xs[i] | m``, which compiles to native int operations (docs/scale.md)."""
    modules = _compiled_modules()
    assert "state" in modules and "components/tricks" in modules
    found = []
    for m in modules:
        path = ROOT / "engine" / f"{m}.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript):
                found.append(f"engine/{m}.py:{node.lineno}")
    assert not found, f"in-place update of an item: {found}"
