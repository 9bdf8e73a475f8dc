"""Options: house rules and the readings of ambiguities, declared in each spec.

A spec value may be ``{$option: name}`` or ``{$option: name, map: {value: x}}``;
:func:`resolve` replaces every such node by the chosen option value (or its
mapped value) before the components are built.

>>> decls = {"n": OptionDecl("n", "int", (), 1, 3, 2, "")}
>>> resolve({"a": {"$option": "n"}}, decls, {"n": 3}, "f.yaml")
{'a': 3}
>>> parse_value(decls["n"], "7")
Traceback (most recent call last):
...
cardspec.engine.errors.OptionError: option 'n' must be between 1 and 3, got 7
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError, SpecError


@dataclass(frozen=True)
class OptionDecl:
    """A declared option: type, allowed values or range, default, description."""

    name: str
    type: str
    values: tuple[Any, ...]
    min: int | None
    max: int | None
    default: Any
    description: str
    requires: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False, compare=False)
    """Per value of this option (by ``key_of``), the values other options must then have."""

    @staticmethod
    def from_spec(name: str, d: Mapping[str, Any], file: str) -> OptionDecl:
        """Build and check one declaration."""
        decl = OptionDecl(name, d["type"], tuple(d.get("values", ())), d.get("min"), d.get("max"),
                          d["default"], d["description"], dict(d.get("requires", {})))
        try:
            decl.check(decl.default)
        except OptionError as exc:
            raise SpecError(f"default: {exc}", file, key=f"options.{name}") from None
        if decl.type == "int" and (decl.min is None or decl.max is None):
            raise SpecError("an int option needs min and max", file, key=f"options.{name}")
        if decl.type == "enum" and len(decl.values) < 2:
            raise SpecError("an enum option needs at least two values", file, key=f"options.{name}")
        seen: dict[str, Any] = {}
        for v in decl.values:  # readings and maps name a value by its text: two values may not share it
            k = key_of(v)
            if k in seen:
                same = f"{v!r} is listed twice" if type(seen[k]) is type(v) and seen[k] == v else \
                    f"{seen[k]!r} and {v!r} are the same value '{k}' to readings, maps and --option"
                raise SpecError(same, file, key=f"options.{name}.values")
            seen[k] = v
        return decl

    def check(self, v: Any) -> Any:
        """Return ``v`` if allowed, else raise :class:`OptionError`."""
        if self.type == "bool":
            if type(v) is not bool:
                text = " (a string: write true or false without quotes)" if v in ("true", "false") else ""
                raise OptionError(f"option '{self.name}' must be true or false, got {v!r}{text}")
        elif self.type == "int":
            if type(v) is not int:
                raise OptionError(f"option '{self.name}' must be an integer, got {v!r}")
            if (self.min is not None and v < self.min) or (self.max is not None and v > self.max):
                raise OptionError(f"option '{self.name}' must be between {self.min} and {self.max}, got {v}")
        elif v not in self.values:
            raise OptionError(f"option '{self.name}' must be one of {list(self.values)}, got {v!r}")
        return v

    def value_of_key(self, key: str) -> Any:
        """The value whose canonical text (:func:`key_of`) is ``key``, or None; an int range is never listed.

        >>> OptionDecl("n", "int", (), 1, 2_000_000, 2, "").value_of_key("1999999")
        1999999
        """
        if self.type == "int":
            try:
                v = int(key)
            except ValueError:
                return None
            assert self.min is not None and self.max is not None
            return v if self.min <= v <= self.max and key_of(v) == key else None
        return next((v for v in self.all_values() if key_of(v) == key), None)

    def has_key(self, key: str) -> bool:
        """Whether ``key`` is the canonical text of one of this option's values."""
        return self.value_of_key(key) is not None

    def all_values(self) -> tuple[Any, ...]:
        """Every value (for an int option: its range; callers that only test membership use :meth:`has_key`)."""
        if self.type == "bool":
            return (False, True)
        if self.type == "int":
            assert self.min is not None and self.max is not None
            return tuple(range(self.min, self.max + 1))
        return self.values

    def sample_values(self) -> tuple[Any, ...]:
        """The values a test sweep covers: all of them, or for an int range its ends and default."""
        if self.type == "int":
            return tuple(sorted({self.min, self.default, self.max}))
        return self.all_values()


def key_of(v: Any) -> str:
    """The canonical text of an option value (as used in readings and maps).

    >>> key_of(True), key_of(3), key_of("on")
    ('true', '3', 'on')
    """
    if type(v) is bool:
        return "true" if v else "false"
    return str(v)


def parse_value(decl: OptionDecl, text: str) -> Any:
    """Parse a command-line value for an option."""
    t = text.strip()
    if decl.type == "bool":
        if t.lower() in ("true", "yes", "on", "1"):
            return True
        if t.lower() in ("false", "no", "off", "0"):
            return False
        raise OptionError(f"option '{decl.name}' must be true or false, got '{text}'")
    if decl.type == "int":
        if not (t.isascii() and t.lstrip("-").isdigit() and len(t) <= 9):  # int() would read ٣ as 3
            raise OptionError(f"option '{decl.name}' must be an integer, got '{text}'")
        return decl.check(int(t))
    for v in decl.values:
        if key_of(v) == t:
            return v
    raise OptionError(f"option '{decl.name}' must be one of {[key_of(v) for v in decl.values]}, got '{text}'")


def complete(decls: Mapping[str, OptionDecl], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults filled in, every given option checked."""
    out = {n: d.default for n, d in decls.items()}
    for k, v in (given or {}).items():
        if k not in decls:
            raise OptionError(f"unknown option '{k}'; this system has: {', '.join(sorted(decls)) or 'none'}")
        out[k] = decls[k].check(v)
    for n, d in decls.items():
        for other, want in d.requires.get(key_of(out[n]), {}).items():
            if other in out and key_of(out[other]) != key_of(want):
                raise OptionError(f"option '{n}={key_of(out[n])}' requires '{other}={key_of(want)}' "
                                  f"(got {key_of(out[other])})")
    return out


def resolve(node: Any, decls: Mapping[str, OptionDecl], chosen: Mapping[str, Any], file: str,
            path: str = "") -> Any:
    """Replace every ``{$option: ...}`` node by its value."""
    if isinstance(node, dict):
        if "$option" in node:
            name = node["$option"]
            if name not in decls:
                raise SpecError(f"refers to undeclared option '{name}'", file, key=path)
            v = chosen[name]
            if "map" in node:
                m = node["map"]
                k = key_of(v)
                if k not in m:
                    raise SpecError(f"option map has no entry for value '{k}'", file, key=path)
                return resolve(m[k], decls, chosen, file, f"{path}.map.{k}")  # a value may itself depend on an option
            return v
        return {k: resolve(v, decls, chosen, file, f"{path}.{k}" if path else k) for k, v in node.items()}
    if isinstance(node, list):
        return [resolve(v, decls, chosen, file, f"{path}.{i}") for i, v in enumerate(node)]
    return node
