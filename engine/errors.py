"""Error classes.

Two kinds of bad input are kept apart, as python-chess does for moves:

* :class:`InvalidActionError`: the text does not name any action of the game
  (``play ZZ``, ``jump``).
* :class:`IllegalActionError`: a well-formed action that the rules forbid in
  this position; it carries the clause (document and quote) it breaks.

Spec and record problems carry where they were found (file, line, key).
"""

from __future__ import annotations

from dataclasses import dataclass


class CardspecError(Exception):
    """Base class of every error cardspec raises on bad input."""


@dataclass(frozen=True)
class Source:
    """A clause's citation: a document in ../shared/sources and a verbatim quote; and, for a clause that a
    register entry decides (a house rule, or a reading where the text is silent), that entry's id: the
    quote is then the text the clause departs from or fills in."""

    doc: str
    quote: str
    register: str | None = None

    def short(self) -> str:
        """One-line form, e.g. ``004_x.txt: "Thus 24 cards"``.

        >>> Source("a.txt", "Thus 24 cards").short()
        'a.txt: "Thus 24 cards"'
        >>> print(Source("a.txt", "Red 3: -500 points", "red-threes").short())
        a.txt: "Red 3: -500 points" (as register entry 'red-threes' decides)
        """
        return f'{self.doc}: "{self.quote}"{self.decided()}'

    def as_json(self) -> dict[str, str]:
        """The citation as JSON data: ``doc``, ``quote``, and ``register`` when a register entry decides it.

        >>> Source("a.txt", "Thus 24 cards").as_json()
        {'doc': 'a.txt', 'quote': 'Thus 24 cards'}
        """
        out = {"doc": self.doc, "quote": self.quote}
        if self.register:
            out["register"] = self.register
        return out

    def decided(self) -> str:
        """`` (as register entry 'x' decides)`` for a clause a register entry decides, else nothing."""
        return f" (as register entry '{self.register}' decides)" if self.register else ""


class CardNameError(KeyError):
    """A card name that names no card of the deck, or names several (a copy number is missing).

    Raised by :meth:`cardspec.engine.cards.Deck.parse`; a ``KeyError``, as a failed lookup is."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "bad card name"


class SpecError(CardspecError):
    """A spec file is malformed, hostile or inconsistent."""

    def __init__(self, message: str, file: str = "", line: int | None = None, key: str = "") -> None:
        self.file, self.line, self.key, self.detail = file, line, key, message
        where = file or "<spec>"
        if line is not None:
            where += f":{line}"
        if key:
            where += f": key '{key}'"
        super().__init__(f"{where}: {message}")


class OptionError(CardspecError):
    """An option name or value that the spec does not declare."""


class ActionError(CardspecError):
    """Base of the action errors."""


class InvalidActionError(ActionError):
    """Text that names no action of this game."""


class IllegalActionError(ActionError):
    """A real action that the rules forbid here; names the clause it breaks."""

    def __init__(self, action: str, reason: str, source: Source | None) -> None:
        self.action, self.reason, self.source = action, reason, source
        cite = f" [{source.short()}]" if source else ""
        super().__init__(f"illegal action '{action}': {reason}{cite}")


class NumberRangeError(InvalidActionError):
    """An action name whose number lies outside the range its kind takes (``bid 11`` where bids run 1 to 10)."""

    def __init__(self, message: str, kind: str, number: int) -> None:
        self.kind, self.number = kind, number
        super().__init__(message)


class OutOfRangeActionError(IllegalActionError, InvalidActionError):
    """An action name whose number lies outside its kind's range, where a clause (or a register entry) sets the
    range: it names no action of the game, and it breaks that clause (an audit cites it)."""


class ActionBoundError(ActionError):
    """A match that reached its action bound (``Game.action_bound``) without ending."""


class RecordError(CardspecError):
    """A game record that is malformed or disagrees with the rules."""

    def __init__(self, message: str, index: int | None = None, path: str = "",
                 source: Source | None = None) -> None:
        self.index, self.path, self.source = index, path, source
        self.message = message
        where = ""
        if index is not None:
            where = f"action {index}: "
        elif path:
            where = f"{path}: "
        cite = f" [{source.short()}]" if source else ""
        super().__init__(f"{where}{message}{cite}")


class MalformedRecordError(RecordError):
    """A record that cannot be read as a record of a known game (its schema, its system or options, its
    deal); as opposed to one that reads well and disagrees with the rules."""


class StartRuleError(RecordError):
    """A record that reads well but whose first position breaks a rule of the game (a first deal dealt by
    another seat than the spec's fixed first dealer): the audit rejects it, as it does a later breach, rather
    than calling it malformed."""
