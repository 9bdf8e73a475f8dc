"""Specs on disk: the registry of bundled rule systems and loading by id or path.

>>> "euchre" in available()
True
>>> load("euchre").id
'euchre'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .errors import CardspecError, OptionError, Source, SpecError
from .loader import LoadedYaml, key_path, load_spec_file, relocate, spec_dir
from .options import OptionDecl, complete, key_of, resolve

MAX_OPTION_SETS = 2000
"""At most this many option sets are checked and verified for one spec (the bundled specs have up to 200)."""
MAX_VALUE_CHECKS = 1000
"""At most this many resolved rule sets are validated on load to find an option value out of the schema's bounds
(the bundled specs need up to 10; a spec of 64 options of 64 values each, 70 when no value is out of bounds)."""


@dataclass(frozen=True)
class Ambiguity:
    """A registered ambiguity: quote, question, readings (option values), decision, reasons."""

    id: str
    source: Source
    question: str
    option: str
    readings: dict[str, str]
    decision: str
    reasons: str
    with_options: dict[str, Any]
    only_with: bool = False
    """The other readings are played (checked, verified) only together with ``with_options``."""
    house_rule: bool = False
    """The other readings are house rules outside the text that other engines play (not the text's
    own ambiguity); kept apart in the register."""


@dataclass(frozen=True)
class Spec:
    """A validated spec file (options not yet applied)."""

    data: dict[str, Any]
    file: str
    loaded: LoadedYaml
    sha256: str = ""
    """The SHA-256 of the file's bytes as loaded (a record of a spec file names it by path and this hash)."""

    @property
    def bundled(self) -> bool:
        """Whether this is the bundled spec of its id (records then name it by id alone)."""
        p = available().get(self.id)
        return p is not None and str(p) == self.file

    @property
    def id(self) -> str:
        """The rule system id."""
        return str(self.data["id"])

    @property
    def title(self) -> str:
        """Human title."""
        return str(self.data["title"])

    @property
    def option_decls(self) -> dict[str, OptionDecl]:
        """Declared options by name."""
        return {n: OptionDecl.from_spec(n, d, self.file) for n, d in self.data["options"].items()}

    @property
    def ambiguities(self) -> list[Ambiguity]:
        """The ambiguity register."""
        return [Ambiguity(a["id"], Source(**a["source"]), a["question"], a["option"],
                          dict(a["readings"]), a["decision"], a["reasons"], dict(a.get("with_options", {})),
                          bool(a.get("only_with", False)), bool(a.get("house_rule", False)))
                for a in self.data["ambiguities"]]

    def option_sets(self) -> list[dict[str, Any]]:
        """The option sets that ``cardspec check``, the property suite and ``cardspec verify`` run.

        The defaults; each option moved alone to each of its other sample values; and each
        reading of an ambiguity together with the other options it is registered ``with_options``
        (with ``only_with``, that reading is not also moved alone: played alone it may never end).
        """
        decls = self.option_decls
        only = {(a.option, key_of(v)) for a in self.ambiguities if a.only_with for v in a.readings}
        sets: list[dict[str, Any]] = [{}]
        for name, d in decls.items():
            sets += [{name: v} for v in d.sample_values() if v != d.default and (name, key_of(v)) not in only
                     and not d.requires.get(key_of(v))]  # a value that requires others is played with them
        for a in self.ambiguities:
            d = decls[a.option]
            # with with_options, every value of the option (of an int option: every reading) goes with them
            values = ([d.value_of_key(k) for k in a.readings] if d.type == "int" else d.all_values()) \
                if a.with_options else ()
            for v in values:
                combo = {**a.with_options, a.option: v}
                if v != decls[a.option].default and combo not in sets:
                    sets.append(combo)
        for combo, _n in self.check_sets:
            if combo not in sets:
                sets.append(combo)
        if len(sets) > MAX_OPTION_SETS:
            raise SpecError(f"{len(sets)} option sets to check, more than {MAX_OPTION_SETS}: register fewer "
                            "readings, or move fewer options together", self.file, None, "options")
        return sets

    @property
    def check_sets(self) -> list[tuple[dict[str, Any], int]]:
        """The option sets the spec's ``check`` clause names, each with the matches ``cardspec check`` plays
        at least (say, every player count the text names)."""
        c = self.data.get("check")
        return [(dict(o), int(c["matches"])) for o in c["option_sets"]] if c else []

    def check_matches(self, opts: dict[str, Any], n: int) -> int:
        """How many matches ``cardspec check`` plays under ``opts`` when asked for ``n`` per option set."""
        return max([n, *(m for o, m in self.check_sets if o == opts)])

    def _check_option_maps(self, node: Any, path: tuple[str | int, ...]) -> None:
        """Every ``{$option: NAME, map: {...}}`` names a declared option, and its map has an entry for each
        of the option's values and none for anything else (checked at load, with the line)."""
        if isinstance(node, list):
            for i, v in enumerate(node):
                self._check_option_maps(v, (*path, i))
            return
        if not isinstance(node, dict):
            return
        if "$option" in node:
            key = ".".join(str(p) for p in path)
            line = self.loaded.line_of(path)
            decls = self.option_decls
            d = decls.get(node["$option"])
            if d is None:
                raise SpecError(f"refers to undeclared option '{node['$option']}'", self.file, line, key)
            m = node.get("map")
            if isinstance(m, dict):
                stray = sorted(k for k in m if not d.has_key(str(k)))
                if stray:
                    raise SpecError(f"option map keys {stray} are not values of option '{d.name}'",
                                    self.file, line, key)
                assert d.type != "int" or (d.min is not None and d.max is not None)
                if d.type == "int" and len(m) < (d.max or 0) - (d.min or 0) + 1:
                    raise SpecError(f"option map covers {len(m)} of the {(d.max or 0) - (d.min or 0) + 1} values "
                                    f"of int option '{d.name}'", self.file, line, key)
                if d.type != "int":
                    missing = [key_of(v) for v in d.all_values() if key_of(v) not in m]
                    if missing:
                        raise SpecError(f"option map has no entry for {missing} of option '{d.name}'",
                                        self.file, line, key)
                for k, v in m.items():
                    self._check_option_maps(v, (*path, "map", k))
            return
        for k, v in node.items():
            self._check_option_maps(v, (*path, k))

    def check_unique(self) -> None:
        """The ids that the engine, the rulebook's anchors and the register look things up by are each used once:
        register entries, phases and scoring tables. (Zone ids are checked as the zones are built.)"""
        scoring = self.data.get("scoring")
        lists: list[tuple[tuple[str, ...], Any]] = [
            (("ambiguities",), self.data.get("ambiguities")), (("phases",), self.data.get("phases")),
            (("scoring", "tables"), scoring.get("tables") if isinstance(scoring, dict) else None)]
        for where, items in lists:
            first: dict[str, int] = {}
            for i, item in enumerate(items if isinstance(items, list) else ()):
                v = item.get("id") if isinstance(item, dict) else None
                if not isinstance(v, str):
                    continue  # an id chosen by an option is checked as the clause is built
                if v not in first:
                    first[v] = i
                    continue
                j = first[v]
                file, line = self.loaded.locate((*where, j, "id"))
                at = f"{'.'.join(where)}.{j}, line {line}" + ("" if file == self.file else f" of {Path(file).name}")
                path: tuple[str | int, ...] = (*where, i, "id")
                raise SpecError(f"{v!r} is used twice (first by {at})", self.file, self.loaded.line_of(path),
                                ".".join(map(str, path)))

    def check_option_values(self) -> None:
        """Every value an option can put into the rules meets the schema's constraints for the key it lands on,
        checked before anything is built (a deck of 100000 jokers would be): the rules under the defaults, then
        each option moved alone (with what that value ``requires``) to each of its other values (for an int
        option its ``min``, ``max`` and every value an option map names) are resolved and validated against
        the schema, and their own bounds must be in order (``bounds.hand_points`` low to high).

        To keep loading cheap the moved options are tried together, a round at a time (each option's first
        other value, then each one's second, ...); only a round that fails is split, half by half, down to the
        one option whose value breaks the rules. A round can pass with a value that breaks the rules alone if
        another value of the round mends them (a low bound raised with its high bound): :meth:`check_resolved`,
        which ``check`` and ``verify`` run, checks every option set in full. This check is the early guard
        against values that cannot be built at all. An error names where the value is written: the option map's
        entry; an option's own value under the defaults, at the option's ``default``; and the key it lands
        on."""
        decls = self.option_decls
        defaults = {n: d.default for n, d in decls.items()}
        err = self._rules_error(decls, defaults)
        if err is not None:
            raise err
        used = self._option_uses(self.data, {})
        moves: dict[str, list[Any]] = {}
        for name, d in decls.items():
            if name not in used:
                continue  # an option no clause refers to changes no rule
            values: list[Any] = list(d.sample_values())
            if d.type == "int":
                values += [v for v in (d.value_of_key(k) for k in sorted(used[name])) if v is not None]
            seen = {key_of(d.default)}
            moves[name] = []
            for v in values:
                if key_of(v) not in seen:
                    seen.add(key_of(v))
                    moves[name].append(v)
        budget = [MAX_VALUE_CHECKS]
        for r in range(max(map(len, moves.values()), default=0)):
            self._search(decls, defaults, [(n, vs[r]) for n, vs in moves.items() if r < len(vs)], budget)

    def _search(self, decls: dict[str, OptionDecl], defaults: dict[str, Any], group: list[tuple[str, Any]],
                budget: list[int]) -> None:
        """Raise the error of the first option of ``group`` whose value alone breaks the rules, if the rules
        with all of them moved are broken (values that only break them together are left to the option sets
        that ``check`` plays, and to :class:`~.game.Game`, which validates the rules of any options chosen)."""
        if budget[0] <= 0:
            return
        budget[0] -= 1
        chosen = {**defaults, **dict(group)}
        if len(group) == 1:
            name, v = group[0]
            for other, want in decls[name].requires.get(key_of(v), {}).items():
                w = decls[other].value_of_key(key_of(want)) if other in decls else None
                if w is not None and other != name:  # one naming no value is check_register's to report
                    chosen[other] = w
        err = self._rules_error(decls, chosen)
        if err is None:
            return
        if len(group) == 1:
            raise err
        mid = len(group) // 2
        self._search(decls, defaults, group[:mid], budget)
        self._search(decls, defaults, group[mid:], budget)

    def _check_row_registers(self) -> None:
        """A clause that an option sets is decided by that option's register entry, not by its quote alone, so its
        citation must name the entry (``register:``) and an audit citing it says which decision it rests on: a
        key whose value an option sets beside its ``<key>_source`` (``first_leader: {$option: ...}`` with
        ``first_leader_source``), and a scoring row whose result or condition an option sets, with its
        ``source``. Options that no entry registers aside."""
        by_option: dict[str, list[str]] = {}
        for a in self.ambiguities:
            if a.option:
                by_option.setdefault(a.option, []).append(a.id)
        if by_option:
            self._check_set_citations(self.data, (), by_option)

    def _check_set_citations(self, node: Any, path: tuple[Any, ...], by_option: dict[str, list[str]]) -> None:
        """:meth:`_check_row_registers` under ``node`` (at ``path``)."""
        if isinstance(node, list):
            for i, v in enumerate(node):
                self._check_set_citations(v, (*path, i), by_option)
            return
        if not isinstance(node, dict) or "$option" in node:
            return
        row = len(path) >= 2 and path[-2] == "rows" and ("when" in node or "then" in node)
        for k, v in node.items():
            if not isinstance(k, str) or (not path and k in ("ambiguities", "options")):
                continue
            cited = node.get(f"{k}_source")
            if isinstance(cited, dict):
                self._check_cited(self._option_uses(v, {}), cited, (*path, f"{k}_source"), by_option)
            self._check_set_citations(v, (*path, k), by_option)
        if row and isinstance(node.get("source"), dict):
            uses = self._option_uses([node.get("when"), node.get("then")], {})
            self._check_cited(uses, node["source"], (*path, "source"), by_option)

    def _check_cited(self, uses: dict[str, set[str]], cited: dict[str, Any], path: tuple[Any, ...],
                     by_option: dict[str, list[str]]) -> None:
        entries = [e for o in uses for e in by_option.get(o, [])]
        if entries and cited.get("register") not in entries:
            raise SpecError(f"this clause is set by option(s) {', '.join(sorted(uses))}: its citation must name the "
                            f"register entry that decides it ({' or '.join(entries)}) with register:", self.file,
                            self.loaded.line_of(path), ".".join(map(str, path)))

    @staticmethod
    def _option_uses(node: Any, out: dict[str, set[str]]) -> dict[str, set[str]]:
        """The options that ``{$option: ...}`` nodes name, each with the keys of its maps."""
        if isinstance(node, list):
            for v in node:
                Spec._option_uses(v, out)
        elif isinstance(node, dict):
            if "$option" not in node:
                for v in node.values():
                    Spec._option_uses(v, out)
                return out
            keys = out.setdefault(str(node["$option"]), set())
            m = node.get("map")
            if isinstance(m, dict):
                keys.update(str(k) for k in m)
                for v in m.values():
                    Spec._option_uses(v, out)
        return out

    def _rules_error(self, decls: dict[str, OptionDecl], chosen: dict[str, Any]) -> SpecError | None:
        """What is wrong with the rules resolved under ``chosen`` (the schema refuses them, or their bounds are not
        in order), named at the value's own key and line; None if nothing is."""
        from .loader import quick_gate, spec_schema, validate

        try:
            rules = resolve(self.data, decls, chosen, self.file)
        except SpecError:
            if any(key_of(v) != key_of(decls[n].default) for n, v in chosen.items()):
                return None  # a map without an entry for a moved value: check_register names it
            raise
        if not quick_gate(spec_schema())(rules):
            try:
                validate(rules, spec_schema(), None, self.file)
            except SpecError as exc:
                return self._at_option(exc.detail, key_path(exc.key) if exc.key != "<top>" else (), decls, chosen)
        bounds = rules.get("bounds")
        hp = bounds.get("hand_points") if isinstance(bounds, dict) else None
        if isinstance(hp, list) and len(hp) == 2 and all(type(x) is int for x in hp) and hp[0] > hp[1]:
            return self._at_option(f"the low bound {hp[0]} is above the high bound {hp[1]} (write [low, high])",
                                   ("bounds", "hand_points"), decls, chosen)
        return None

    def _at_option(self, detail: str, path: tuple[str | int, ...], decls: dict[str, OptionDecl],
                   chosen: dict[str, Any]) -> SpecError:
        """An error found at ``path`` of the rules resolved under ``chosen``, named where the spec writes the
        value: through option maps, the entry of the chosen value; an option's own value, where the clause refers
        to the option, or under the defaults at the option's ``default``."""
        from .game import chosen_options

        site, bare = self._option_site(path, chosen)
        named = chosen_options(decls, chosen)
        text = f"with options {named}: {detail}" if named else detail
        fpath = site
        if bare is not None and bare in decls:
            d, v = decls[bare], chosen[bare]
            rule_key = ".".join(map(str, path)) or "<top>"
            at = next((i for i, x in enumerate(d.values) if type(x) is type(v) and x == v), None)
            decl: tuple[str | int, ...]
            if key_of(v) == key_of(d.default):
                what, decl = "default", ("options", bare, "default")
            elif d.type == "int" and v in (d.min, d.max):
                what = "max" if v == d.max else "min"
                decl = ("options", bare, what)
            else:
                what, decl = "value", ("options", bare) if at is None else ("options", bare, "values", at)
            # the option's declaration for its default, the clause that refers to the option for another value;
            # but with extends, the one of them that this file writes
            inherited = self.loaded.inherited
            if inherited(site) != inherited(decl) or what == "default":
                fpath = decl if inherited(site) or not inherited(decl) else site
            if fpath == decl:
                text += f" ({rule_key})"
            else:
                text += f" (the {what} {key_of(v)} of option '{bare}')"
        return SpecError(text, self.file, self.loaded.line_of(fpath), ".".join(map(str, fpath)) or "<top>")

    def check_resolved(self) -> None:
        """Each option set that is checked and verified resolves to rules the schema accepts: an option map
        may give a value of the wrong kind (``face_up: allx``). The error names the options and the mapped
        value's key and line, so ``cardspec rules`` refuses such a spec as ``check`` does. (The defaults were
        checked on load, by :meth:`check_option_values`; its grouped search can pass a value that breaks the rules
        alone when another value moved with it mends them, so each option set is checked here in full.)"""
        decls = self.option_decls
        try:
            sets = self.option_sets()
        except SpecError:  # too many to check: each option moved alone still is
            sets = [{}, *({n: v} for n, d in decls.items() for v in d.sample_values()
                          if key_of(v) != key_of(d.default))]
        for opts in sets:
            try:
                chosen = complete(decls, opts)
            except OptionError:
                continue  # a value that requires others alone: Game reports it, with the options
            if all(key_of(v) == key_of(decls[n].default) for n, v in chosen.items()):
                continue  # the defaults: checked on load
            err = self._rules_error(decls, chosen)
            if err is not None:
                raise err

    def _option_site(self, path: tuple[str | int, ...],
                     chosen: dict[str, Any]) -> tuple[tuple[str | int, ...], str | None]:
        """The key in the spec file of the node at ``path`` of the rules resolved under ``chosen``: through each
        option map, the entry of the chosen value; and the option whose own value the node is (None when the
        file writes it)."""
        node: Any = self.data
        out: list[str | int] = []
        bare: list[str] = []

        def through_maps() -> bool:
            nonlocal node
            while isinstance(node, dict) and "$option" in node:
                m = node.get("map")
                k = key_of(chosen.get(node["$option"]))
                if not isinstance(m, dict) or k not in m:
                    bare.append(str(node["$option"]))
                    return False  # the option's value itself: the rest of the path is not in the file
                out.extend(("map", k))
                node = m[k]
            return True

        for k in path:
            if not through_maps():
                break
            inside = k in node if isinstance(node, dict) else isinstance(node, list) and isinstance(k, int) \
                and 0 <= k < len(node)
            if not inside:
                break
            node = node[k]
            out.append(k)
        else:
            through_maps()
        return tuple(out), (bare[0] if bare else None)

    def check_register(self) -> None:
        """Each ambiguity names a declared option; its decision is that option's default; every
        option's ``requires`` names its own values and other options' values; ids are not used twice."""
        self.check_unique()
        decls = self.option_decls
        for name, d in decls.items():
            for val, needs in d.requires.items():
                if not d.has_key(val):
                    raise SpecError(f"option '{name}': requires names '{val}', which is not one of its values",
                                    self.file, self.loaded.line_of(("options", name)), f"options.{name}.requires")
                for other, want in needs.items():
                    if other not in decls or other == name or not decls[other].has_key(key_of(want)):
                        raise SpecError(f"option '{name}': requires {other}={key_of(want)}, which is no value of "
                                        "another declared option", self.file, self.loaded.line_of(("options", name)),
                                        f"options.{name}.requires")
        for i, a in enumerate(self.ambiguities):
            key = f"ambiguities.{i}"
            line = self.loaded.line_of(("ambiguities", i))
            if a.option not in decls:
                raise SpecError(f"ambiguity '{a.id}' names undeclared option '{a.option}'",
                                self.file, line, key)
            d = decls[a.option]
            stray = {r for r in a.readings if not d.has_key(r)}
            if stray:
                raise SpecError(f"ambiguity '{a.id}': readings {sorted(stray)} are not values of "
                                f"option '{a.option}'", self.file, line, key)
            if a.decision not in a.readings:
                raise SpecError(f"ambiguity '{a.id}': decision '{a.decision}' is not one of its readings",
                                self.file, line, key)
            for k, v in a.with_options.items():
                if k not in decls or k == a.option:
                    raise SpecError(f"ambiguity '{a.id}': with_options names '{k}', which is not another "
                                    "declared option", self.file, line, key)
                try:
                    decls[k].check(v)
                except OptionError as exc:
                    raise SpecError(f"ambiguity '{a.id}': with_options: {exc}", self.file, line, key) from None
            if a.decision != key_of(d.default):
                raise SpecError(f"ambiguity '{a.id}': decision '{a.decision}' differs from the default "
                                f"'{key_of(d.default)}' of option '{a.option}'", self.file, line, key)
        self._check_option_maps(self.data, ())
        ids = {a.id for a in self.ambiguities}
        for path, src in citations(self.data):
            if "register" in src and src["register"] not in ids:
                raise SpecError(f"the citation names register entry '{src['register']}', which is no entry of "
                                "this spec's ambiguities", self.file, self.loaded.line_of(path),
                                ".".join(map(str, (*path, "register"))))
        self._check_row_registers()
        for i, (combo, _n) in enumerate(self.check_sets):
            key = f"check.option_sets.{i}"
            line = self.loaded.line_of(("check", "option_sets", i))
            for k, v in combo.items():
                if k not in decls:
                    raise SpecError(f"check: option set {i + 1} names '{k}', which is not a declared option",
                                    self.file, line, key)
                try:
                    decls[k].check(v)
                except OptionError as exc:
                    raise SpecError(f"check: option set {i + 1}: {exc}", self.file, line, key) from None


def citations(node: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """Every citation in a spec's data (a mapping of ``doc`` and ``quote``, and maybe ``register``), with its
    key path.

    >>> [p for p, _ in citations({"a": [{"doc": "x.txt", "quote": "abc", "register": "r"}], "b": 1})]
    [('a', 0)]
    """
    if isinstance(node, dict):
        if {"doc", "quote"} <= set(node) <= {"doc", "quote", "register"}:
            yield path, node
            return
        for k, v in node.items():
            yield from citations(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from citations(v, (*path, i))


REGISTRY_PREFIX = "_"
"""A file in the spec folder whose name starts with this is a registry, not a spec (``_named-only.yaml``)."""
NAMED_ONLY_FILE = "_named-only.yaml"
"""The registry of systems a source text names without rules (schema: ``schema/named-only.schema.json``)."""


def available() -> dict[str, Path]:
    """Bundled spec ids and their files (registries, named ``_*.yaml``, are not specs)."""
    return dict(_available())


@cache
def _available() -> tuple[tuple[str, Path], ...]:
    return tuple((p.stem, p) for p in sorted(spec_dir().glob("*.yaml")) if not p.name.startswith(REGISTRY_PREFIX))


@dataclass(frozen=True)
class NamedOnly:
    """A rule system that a source text names but gives no rules for: registered by name only."""

    id: str
    title: str
    source: Source
    reason: str


class NamedOnlyError(CardspecError):
    """A command that needs rules was asked for a system registered by name only."""

    def __init__(self, entry: NamedOnly) -> None:
        self.entry = entry
        super().__init__(f"'{entry.id}' ({entry.title}) is registered by name only, with no rules to play, "
                         f"simulate, check, verify or show: {entry.reason} [{entry.source.short()}]")


def read_named_only(path: Path, specs: dict[str, Path] | None = None) -> dict[str, NamedOnly]:
    """Read and validate a named-only registry (absent: empty). An id given twice, or one that also
    has a spec file among ``specs`` (default: the bundled ones), is a spec error naming file and key."""
    from .loader import load_yaml_text, read_text_limited, validate

    if not path.exists():
        return {}
    file = str(path)
    loaded = load_yaml_text(read_text_limited(path, "registry"), file)
    schema = json.loads((spec_dir() / "schema" / "named-only.schema.json").read_text(encoding="utf-8"))
    validate(loaded.data, schema, loaded, file)
    specs = available() if specs is None else specs
    out: dict[str, NamedOnly] = {}
    for i, d in enumerate(loaded.data["systems"]):
        where = ("systems", i, "id")
        if d["id"] in out:
            raise SpecError(f"'{d['id']}' is registered twice", file, loaded.line_of(where), f"systems.{i}.id")
        if d["id"] in specs:
            raise SpecError(f"'{d['id']}' has a spec file ({specs[d['id']].name}), so it is not named only", file,
                            loaded.line_of(where), f"systems.{i}.id")
        out[d["id"]] = NamedOnly(d["id"], d["title"], Source(**d["source"]), d["reason"])
    return out


@cache
def named_only() -> dict[str, NamedOnly]:
    """The bundled systems registered by name only (``spec/_named-only.yaml``), by id."""
    return read_named_only(spec_dir() / NAMED_ONLY_FILE)


@cache
def _load_path(path: str) -> Spec:
    data, loaded = load_spec_file(Path(path))
    try:  # a spec's own bytes; with ``extends:``, every file of the chain's (a parent's edit changes the rules too)
        h = hashlib.sha256(Path(path).read_bytes())
        for parent in loaded.files()[1:]:
            h.update(b"\0extends\0" + Path(parent).read_bytes())
        digest = h.hexdigest()
    except OSError as exc:  # pragma: no cover - it was just read
        raise SpecError(f"cannot read: {exc.strerror}", path) from None
    spec = Spec(data, path, loaded, digest)
    try:
        spec.check_register()
        spec.check_resolved()
    except SpecError as exc:
        raise relocate(exc, loaded) from None
    return spec


def load(system: str) -> Spec:
    """Load a bundled spec by id, or any spec file by path."""
    specs = available()
    if system in specs:
        return _load_path(str(specs[system]))
    if system in named_only():
        raise NamedOnlyError(named_only()[system])
    p = Path(system)
    if p.suffix in (".yaml", ".yml") or "/" in system:
        if not p.exists():
            raise SpecError("no such spec file", system)
        return _load_path(str(p.resolve()))
    raise SpecError(f"unknown rule system '{system}'; known: {', '.join(specs)}", system)
