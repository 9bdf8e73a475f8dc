"""The adapter interface another engine implements, its errors, and loading a factory by name.

An adapter plays one hand at a time in another engine, in cardspec's vocabulary: the deal in
the record form (``docs/records.md``), actions by their cardspec names (``order_up``, ``name H``,
``discard 9C``, ``alone``, ``play JD``), seats as cardspec numbers them, and the results of a hand
as cardspec's records give them. ``docs/conformance.md`` describes it for adapter authors.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..engine.errors import CardspecError


class Unsupported(CardspecError):
    """Raised by an adapter's factory for a system or an option value the other engine cannot play
    (``cardspec conform`` then exits with code 2, naming it); raised by ``new_hand`` for a deal it
    cannot set up, the hand is skipped and counted as such in the report."""


class ConformError(CardspecError):
    """Bad input to the harness: an adapter that cannot be imported, a factory that is not callable,
    a bad option, a number of hands out of range."""


@runtime_checkable
class Adapter(Protocol):
    """One hand at a time of another engine, in cardspec's names.

    The harness calls ``new_hand`` once per hand, then, until ``hand_over()``, asks
    ``current_seat()`` and ``legal_actions()`` and calls ``apply()`` with one of the actions both
    engines allow; at the end it reads ``results()``. Anything an adapter raises during a hand
    (other than :class:`Unsupported` from ``new_hand``) is reported as a disagreement, with its text;
    so is an answer of the wrong type (a seat or trick winner that is not an ``int`` seat, scores that
    are not a list of ``int``, a ``bool`` counting as neither, legal actions that are not a list of
    strings): a disagreement of kind ``error`` naming the call and what it returned, never one of
    the points compared. ``SystemExit`` raised by adapter code is such an exception too; what the adapter
    prints to stdout goes to stderr; its calls in one hand share a time limit (``--hand-timeout``).

    Optional, and so not part of this protocol: ``new_hand_in_match(deal, start)``, a hand started where a
    match stands (``start`` as a record's: ``hand``, ``dealer``, ``totals``, ``extra_hand``); the harness
    calls it instead of ``new_hand`` for the vector hands that depend on the match state, and leaves those
    hands out for an adapter without it (``docs/conformance.md``).
    """

    def new_hand(self, deal: dict[str, Any]) -> None:
        """Set up a hand from an explicit deal in cardspec's record form: ``{"dealer": d, "hands":
        [[card names] per seat], "piles": {name: [cards, top first]}}`` (euchre's ``kitty`` holds the
        turned card first). The dealer is the deal's; the hand starts at once (no redeal)."""
        ...

    def legal_actions(self) -> list[str]:
        """Every action the engine allows the seat to act, by cardspec name, in any order."""
        ...

    def current_seat(self) -> int:
        """The seat to act (cardspec's numbering: seats 0..n-1 clockwise, partners in ``players``)."""
        ...

    def apply(self, action: str) -> None:
        """Carry out an action, given by cardspec name (always one ``legal_actions()`` listed)."""
        ...

    def hand_over(self) -> bool:
        """Whether the hand is over (played out, or thrown in)."""
        ...

    def results(self) -> Mapping[str, Any]:
        """The hand's results: ``trick_winners`` (in a game with trick play: the seat winning each trick,
        in order; empty when the hand was thrown in) and ``scores`` (the points each scoring entity gained this hand, in
        cardspec's order: team 0 is seats 0 and 2 in euchre; the side that scores gets its points,
        the other 0). Optional: ``thrown_in`` (bool), compared when given. Other keys are ignored."""
        ...


Factory = Callable[[str, dict[str, Any]], Adapter]
"""``factory(system, options) -> Adapter``: ``options`` holds every option of the system with its
value (defaults filled in). Raises :class:`Unsupported` for what the engine cannot play."""


def load_factory(spec: str) -> Factory:
    """The factory named by ``MODULE:NAME`` (a module on the import path, or a ``.py`` file).

    Raises :class:`ConformError` with one line saying what is wrong.
    """
    if not isinstance(spec, str) or spec.count(":") < 1 or not spec.rpartition(":")[2].strip():
        raise ConformError(f"--adapter wants MODULE:FACTORY (e.g. examples.openspiel_adapter:factory), got {spec!r}")
    where, _, name = spec.rpartition(":")
    if not where:
        raise ConformError(f"--adapter wants MODULE:FACTORY, got {spec!r}: no module before the ':'")
    module = _import(where)
    obj: Any = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ConformError(f"adapter module '{where}' has no attribute '{name}'")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ConformError(f"adapter factory '{spec}' is not callable (it is a {type(obj).__name__})")
    factory: Factory = obj
    return factory


def _import(where: str) -> Any:
    """A module by dotted name, or a Python file by path. The current directory is tried last for a
    dotted name (a console script does not put it on the path); a file's own folder is first on the path
    while the file is loaded, as ``python file.py`` has it, so that it can import the modules next to it."""
    try:
        if where.endswith(".py") or "/" in where or "\\" in where:
            path = Path(where)
            if not path.is_file():
                raise ConformError(f"adapter file '{where}' not found")
            name = f"_cardspec_adapter_{path.stem}"
            loaded = sys.modules.get(name)
            if loaded is not None and getattr(loaded, "__file__", None) == str(path.resolve()):
                return loaded
            spec = importlib.util.spec_from_file_location(name, path.resolve())
            if spec is None or spec.loader is None:
                raise ConformError(f"adapter file '{where}' cannot be loaded as Python")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            folder = str(path.resolve().parent)  # as `python file.py` does: modules next to the file import
            added = folder not in sys.path
            if added:
                sys.path.insert(0, folder)
            try:
                spec.loader.exec_module(module)
            except BaseException:
                del sys.modules[name]
                raise
            finally:
                if added and folder in sys.path:
                    sys.path.remove(folder)
            return module
        try:
            return importlib.import_module(where)
        except ModuleNotFoundError as exc:
            cwd = str(Path.cwd())
            if exc.name is None or not where.startswith(exc.name) or cwd in sys.path:
                raise
            sys.path.append(cwd)
            try:
                return importlib.import_module(where)
            finally:
                sys.path.remove(cwd)
    except ConformError:
        raise
    except ModuleNotFoundError as exc:
        raise ConformError(f"cannot import adapter module '{where}': {exc}") from None
    except (Exception, SystemExit) as exc:  # an adapter module whose import fails (or calls sys.exit): one line
        raise ConformError(f"cannot import adapter module '{where}': {type(exc).__name__}: {exc}") from None
