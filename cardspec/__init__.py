"""cardspec: card game rule texts as formal, executable, verifiable specs.

The import package maps the repository's top-level folders: ``cardspec.engine``
is ``engine/``, ``cardspec.verification`` is ``verification/`` and
``cardspec.spec`` is ``spec/`` (see ``[tool.setuptools]`` in pyproject.toml).
"""

from pathlib import Path as _Path

__version__ = "0.1.0"

# Run from a source checkout without installing (e.g. ``python -m pytest`` at the
# repository root, where ./cardspec shadows the installed package): let the
# checkout's top-level folders resolve as this package's subpackages. An
# installed copy never has an engine/ folder beside it, so this stays inert there.
_root = _Path(__file__).resolve().parent.parent
if (_root / "pyproject.toml").is_file() and (_root / "engine" / "state.py").is_file():
    __path__.append(str(_root))


def compiled() -> bool:
    """Whether the engine running is the compiled build (``CARDSPEC_COMPILE=1``; see setup.py), not the
    pure-Python reference. Both give the same records; ``tests/test_compiled.py`` holds them to it."""
    from .engine import state

    return not str(state.__file__).endswith(".py")
