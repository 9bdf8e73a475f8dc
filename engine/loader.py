"""Reading spec files: safe YAML, hard limits, line numbers, ``extends:`` and the schema.

Every spec is read with PyYAML's safe loader only (libyaml's when present, for
speed), after a streaming pre-pass that refuses aliases (so an alias bomb cannot
expand), nesting deeper than :data:`MAX_DEPTH`, more than :data:`MAX_NODES`
nodes, more than one document and explicit tags other than plain data. Files
over :data:`MAX_BYTES` are refused before they are read, and at most that many
bytes are ever read. The result is validated against
``spec/schema/spec.schema.json`` (which rejects unknown keys) and then compiled
with its default options, so counts that do not add up or an ``$option`` naming
no option are caught on load; a failure names the file, the line and the key.
"""

from __future__ import annotations

import itertools
import json
import os
import reprlib
import stat
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .errors import CardspecError, SpecError

MAX_BYTES = 1_000_000
MAX_DEPTH = 48
MAX_NODES = 50_000
MAX_SCHEMA_ERRORS = 1_000
INTERN_UP_TO = 64
"""Strings of a spec up to this length are interned as they are read (names; not the quotes)."""

# Explicit tags are refused except those of plain JSON-like data.
_PLAIN_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null",
                                                           "seq", "map"))
# libyaml parses about twenty times faster than the pure-Python parser; both are safe.
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class LoadedYaml:
    """Plain data plus the line of every node (by key path)."""

    data: Any
    lines: dict[Path_, int]
    file: str
    parent: LoadedYaml | None = field(default=None, compare=False)
    """With ``extends:``, the file this one extends (``data`` is then this file's own data, before the merge)."""

    def files(self) -> list[str]:
        """This file and every file it extends, nearest first."""
        return [self.file, *(self.parent.files() if self.parent is not None else ())]

    def line_of(self, path: Path_) -> int | None:
        """The line of the deepest known node on ``path`` (a number in it may be a mapping's key, as an int
        option's map writes its values: ``map.3``)."""
        p = tuple(path)
        if p not in self.lines and any(type(k) is int for k in p):
            written: Path_ = ()
            for k in p:
                written = (*written, str(k) if type(k) is int and (*written, k) not in self.lines
                           and (*written, str(k)) in self.lines else k)
            p = written
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.lines.get((), None)

    def inherited(self, path: Path_) -> bool:
        """Whether the node at ``path`` of the merged spec comes from the file this one extends (this file does
        not set it: :func:`merge` merges mappings key by key and takes anything else whole).

        >>> child = LoadedYaml({"a": {"b": 1}, "l": [1]}, {}, "c.yaml", LoadedYaml({}, {}, "p.yaml"))
        >>> child.inherited(("a", "b")), child.inherited(("a", "c")), child.inherited(("l", 3))
        (False, True, False)
        """
        if self.parent is None:
            return False
        node = self.data
        for k in path:
            if not isinstance(node, dict):
                return False
            if k not in node and type(k) is int and str(k) in node:
                k = str(k)  # a number as a mapping's key (an int option's map)
            if k not in node:
                return True
            node = node[k]
        return False

    def locate(self, path: Path_) -> tuple[str, int | None]:
        """The file and line that set the node at ``path`` (of an ``extends:`` chain, the file that wrote it)."""
        if self.parent is not None and self.inherited(path):
            return self.parent.locate(path)
        return self.file, self.line_of(path)


def key_path(key: str) -> Path_:
    """A dotted key as a path (list indexes as ints).

    >>> key_path("phases.1.enabled")
    ('phases', 1, 'enabled')
    """
    return tuple(int(p) if p.isdigit() else p for p in key.split("."))


def relocate(exc: SpecError, loaded: LoadedYaml) -> SpecError:
    """``exc`` with the file and line of its key in the file that wrote it: a key that a spec inherits with
    ``extends:`` is named in the parent file, at its line there. Any other error is returned as it is."""
    if not exc.key or loaded.parent is None or exc.file != loaded.file:
        return exc
    path = key_path(exc.key)
    if not loaded.inherited(path):
        return exc
    file, line = loaded.locate(path)
    return SpecError(f"{exc.detail} (inherited from {Path(file).name}, which {Path(loaded.file).name} extends)",
                     file, line, exc.key)


def _line(mark: Any) -> int | None:
    return mark.line + 1 if mark is not None else None


def _yaml_problem(exc: yaml.YAMLError) -> tuple[str, int | None]:
    """One line describing a PyYAML error, and its line."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or (str(exc).splitlines() or ["error"])[0]
    context = getattr(exc, "context", None)
    cmark = getattr(exc, "context_mark", None)
    if context and cmark is not None and mark is not None and cmark.line != mark.line:
        problem += f" ({context} at line {cmark.line + 1})"
    return " ".join(str(problem).split()), _line(mark)


def _prescan(text: str, file: str) -> None:
    depth = 0
    nodes = 0
    docs = 0
    try:
        for ev in yaml.parse(text, Loader=_Loader):
            if isinstance(ev, yaml.DocumentStartEvent):
                docs += 1
                if docs > 1:
                    raise SpecError("more than one YAML document ('---'); a spec is one document",
                                    file, _line(ev.start_mark))
            tag = getattr(ev, "tag", None)
            if tag is not None and tag not in _PLAIN_TAGS:
                raise SpecError(f"YAML tag '{tag[:80]}' is not allowed in specs", file,
                                _line(ev.start_mark))
            if isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None):
                line = ev.start_mark.line + 1 if ev.start_mark else None
                raise SpecError("YAML anchors and aliases are not allowed in specs", file, line)
            if isinstance(ev, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    line = ev.start_mark.line + 1 if ev.start_mark else None
                    raise SpecError(f"nesting deeper than {MAX_DEPTH} levels", file, line)
            elif isinstance(ev, yaml.CollectionEndEvent):
                depth -= 1
            if isinstance(ev, yaml.NodeEvent):
                nodes += 1
                if nodes > MAX_NODES:
                    raise SpecError(f"more than {MAX_NODES} YAML nodes", file)
    except yaml.YAMLError as exc:
        problem, line = _yaml_problem(exc)
        if "maximum nesting depth" in problem:  # libyaml (PyYAML 6.0.4 on) stops far deeper than MAX_DEPTH
            raise SpecError(f"nesting deeper than {MAX_DEPTH} levels", file, line) from None
        raise SpecError(f"malformed YAML: {problem}", file, line) from None


def _dotted(path: Path_) -> str:
    return ".".join(str(p) for p in path)


def _convert(node: yaml.Node, path: Path_, lines: dict[Path_, int], file: str,
             loader: yaml.SafeLoader) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for knode, vnode in node.value:
            key = _convert(knode, (*path, "<key>"), {}, file, loader)
            if not isinstance(key, str):
                raise SpecError(f"mapping key {str(key)[:80]!r} is not a string", file,
                                knode.start_mark.line + 1, _dotted(path))
            if key in out:
                raise SpecError("duplicate key", file, knode.start_mark.line + 1,
                                _dotted((*path, key)))
            out[key] = _convert(vnode, (*path, key), lines, file, loader)
            lines[(*path, key)] = knode.start_mark.line + 1  # the line of the key itself
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(v, (*path, i), lines, file, loader) for i, v in enumerate(node.value)]
    try:
        value = loader.construct_object(node, deep=True)
    except yaml.YAMLError as exc:
        problem, _ = _yaml_problem(exc)
        raise SpecError(f"bad value: {problem}", file, node.start_mark.line + 1,
                        _dotted(path)) from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer of 5000 digits
        raise SpecError(f"bad value: {str(exc)[:120]}", file, node.start_mark.line + 1,
                        _dotted(path)) from None
    # names (zones, tallies, facts, choices) become dict keys that play looks up by the same names written in
    # the engine's source, which Python interns: interned here too, a look-up finds its key by identity
    return sys.intern(value) if type(value) is str and len(value) <= INTERN_UP_TO else value


def load_yaml_text(text: str, file: str) -> LoadedYaml:
    """Parse YAML text safely into plain data with a line map.

    >>> y = load_yaml_text("a:\\n  b: 1\\n", "x.yaml")
    >>> y.data, y.line_of(("a", "b"))
    ({'a': {'b': 1}}, 2)
    >>> load_yaml_text("a: &x [1]\\nb: *x\\n", "x.yaml")
    Traceback (most recent call last):
    ...
    cardspec.engine.errors.SpecError: x.yaml:1: YAML anchors and aliases are not allowed in specs
    """
    if len(text) > MAX_BYTES:
        raise SpecError(f"file larger than {MAX_BYTES} bytes", file)
    _prescan(text, file)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:  # pragma: no cover - the prescan sees the same errors
        problem, line = _yaml_problem(exc)
        raise SpecError(f"malformed YAML: {problem}", file, line) from None
    if node is None:
        raise SpecError("empty file", file)
    lines: dict[Path_, int] = {}
    loader = yaml.SafeLoader("")
    try:
        return LoadedYaml(_convert(node, (), lines, file, loader), lines, file)
    finally:
        loader.dispose()


def not_readable(path: Path) -> str | None:
    """Why ``path`` is no file to read records or logs from, or None: it is a regular file, or standard input
    named as ``/dev/stdin``. A device never ends (``/dev/urandom``) and a FIFO may block for ever, so neither is
    opened; a missing file says so. Standard input redirected from a device other than a terminal
    (``< /dev/urandom``) is refused alike; a terminal, a pipe or a file behind it is read."""
    if str(path) == "/dev/stdin":
        try:
            st = os.fstat(0)
        except OSError:
            return None
        if stat.S_ISCHR(st.st_mode) and not os.isatty(0):
            return "standard input is a device, not a file or a pipe (a device such as /dev/urandom never ends)"
        return None
    try:
        st = path.stat()
    except OSError as exc:
        return exc.strerror or str(exc)
    return None if stat.S_ISREG(st.st_mode) else "not a regular file (a folder, a device or a pipe)"


def is_one_of(out: str | Path, inputs: Sequence[str | Path]) -> str | Path | None:
    """The input that ``out`` is the same file as (an output written over an input would destroy it: a spec
    replaced by records, a log by its own conversion), or None. A file not yet there is none of them."""
    for i in inputs:
        try:
            if os.path.samefile(out, i):
                return i
        except OSError:
            continue
    return None


def read_text_limited(path: Path, what: str = "file") -> str:
    """Read a UTF-8 file after checking its size; errors name the file.

    Only regular files are read, and never more than :data:`MAX_BYTES` + 1 bytes,
    so a device such as ``/dev/zero`` or a file that grows cannot exhaust memory.
    """
    try:
        st = path.stat()
    except OSError as exc:
        raise SpecError(f"cannot read {what}: {exc.strerror}", str(path)) from None
    if not stat.S_ISREG(st.st_mode):
        raise SpecError(f"cannot read {what}: not a regular file", str(path))
    if st.st_size > MAX_BYTES:
        raise SpecError(f"{what} is {st.st_size} bytes; the limit is {MAX_BYTES}", str(path))
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise SpecError(f"cannot read {what}: {exc.strerror}", str(path)) from None
    if len(raw) > MAX_BYTES:
        raise SpecError(f"{what} is over {MAX_BYTES} bytes", str(path))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise SpecError(f"not UTF-8 text (byte {exc.start})", str(path), line) from None


def spec_dir() -> Path:
    """The folder of the bundled specs (``cardspec.spec``)."""
    return Path(str(resources.files("cardspec.spec")))


@cache
def spec_schema() -> dict[str, Any]:
    """The JSON Schema of spec files."""
    text = (spec_dir() / "schema" / "spec.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def record_schema() -> dict[str, Any]:
    """The JSON Schema of game records."""
    text = (spec_dir() / "schema" / "record.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 2
_SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlist = _SHORT.maxdict = 3


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1.

    >>> counted(1, "hand"), counted(0, "hand"), counted(23, "action")
    ('1 hand', '0 hands', '23 actions')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def short_repr(value: Any, limit: int = 80) -> str:
    """``repr`` cut to about ``limit`` characters, for values quoted in error messages.

    >>> short_repr(list(range(100)))
    '[0, 1, 2, ...]'
    """
    text = _SHORT.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _message(err: jsonschema.ValidationError) -> str:
    """The error's message with a long value shortened, so what is wrong is not cut off."""
    msg = err.message
    if len(msg) > 100:
        full = repr(err.instance)
        if len(full) > 80 and full in msg:
            msg = msg.replace(full, short_repr(err.instance), 1)
    return msg


def cut(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word boundary, marked with an ellipsis.

    >>> cut("is not valid under any of the given schemas", 30)
    'is not valid under any of...'
    """
    if len(text) <= limit:
        return text
    head = text[: limit - 3]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip(" ,;(") + "..."


def _optref_branch(parent: jsonschema.ValidationError, child: jsonschema.ValidationError) -> bool:
    """Whether ``child`` (an error of ``parent``'s context) is from an ``{$option: ...}`` branch of ``parent``'s
    ``anyOf``/``oneOf``, while the value is no ``$option`` node: that branch is then no candidate."""
    if isinstance(parent.instance, dict) and "$option" in parent.instance:
        return False
    branches = parent.schema.get(str(parent.validator)) if isinstance(parent.schema, dict) else None
    rel = list(child.relative_schema_path)
    if not isinstance(branches, list) or not rel or not isinstance(rel[0], int) or rel[0] >= len(branches):
        return False
    branch = branches[rel[0]]
    return isinstance(branch, dict) and str(branch.get("$ref", "")).endswith("/optref")


def deepest(err: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """The error that says what is wrong: of an ``anyOf``/``oneOf`` error, the error of the branch that went
    deepest into the value (an ``{$option: ...}`` branch counts only for an ``$option`` node), and so on down;
    the alternatives' own error when no branch stands out."""
    while err.context:
        ctx = [c for c in err.context if not _optref_branch(err, c)] or list(err.context)
        depth = max(len(c.absolute_path) for c in ctx)
        cands = [c for c in ctx if len(c.absolute_path) == depth]
        branches = {c.relative_schema_path[0] if c.relative_schema_path else None for c in cands}
        if len(branches) > 1 and depth == len(err.absolute_path):
            break  # several alternatives fail at this very value: say that none fits
        err = min(cands, key=error_order)
    return err


def _describe(err: jsonschema.ValidationError) -> str:
    if err.validator == "additionalProperties":
        props = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
        allowed = sorted(props)
        return f"{cut(_message(err), 300)}; allowed keys: {', '.join(allowed)}"
    if err.validator == "uniqueItems" and isinstance(err.instance, list):
        seen: list[Any] = []
        for v in err.instance:
            if v in seen:
                return f"{short_repr(v)} is listed twice"
            seen.append(v)
    if err.validator == "enum" and isinstance(err.validator_value, list):
        return f"{short_repr(err.instance)} is not one of {', '.join(map(str, err.validator_value))}"
    if err.validator in ("oneOf", "anyOf") and err.context:
        best = min(err.context, key=lambda e: len(list(e.relative_path)))
        return f"{cut(_message(err), 120)} (closest: {cut(_message(best), 160)})"
    return cut(_message(err), 300)


def unexpected_key(err: jsonschema.ValidationError) -> str | None:
    """The first key that an ``additionalProperties: false`` error is about, if any."""
    if err.validator != "additionalProperties" or not isinstance(err.instance, dict):
        return None
    props = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
    extra = [k for k in err.instance if k not in props]
    return str(extra[0]) if extra else None


def error_order(e: jsonschema.ValidationError) -> tuple[int, list[str], str, str]:
    """The order in which schema errors are reported, first named first: the shallowest, then by path, rule and
    message. A total order: jsonschema yields some errors in the order of a set (the keys a mapping may not
    have), and the error named must not change from run to run."""
    path = [str(p) for p in e.path]
    return len(path), path, str(e.validator), e.message


_gates: dict[int, tuple[dict[str, Any], Callable[[Any], bool]]] = {}


def quick_gate(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """Whether a value surely matches ``schema``: the schema compiled once by jsonschema-rs (a yes/no test in
    Rust; a Hand and Foot rule set in about 1 ms against jsonschema's 14) where it is installed. False leaves
    the decision and its message to jsonschema: so does a value that is not JSON data (a dict key that is not
    a string), which jsonschema-rs refuses to read, and so does every value where jsonschema-rs has no wheel.
    The schemas' patterns spell out their character classes, so the two libraries' regex dialects agree on
    what they accept (where they differ, Python's ``$`` also matching before a final newline, jsonschema-rs
    is the stricter and jsonschema decides)."""
    kept = _gates.get(id(schema))
    if kept is not None and kept[0] is schema:
        return kept[1]
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - installed wherever a wheel exists

        def check(value: Any) -> bool:
            return False
    else:
        rs: Callable[[Any], bool] = jsonschema_rs.Draft202012Validator(schema).is_valid

        def check(value: Any) -> bool:
            try:
                return rs(value)
            except (ValueError, TypeError, OverflowError):
                return False

    _gates[id(schema)] = (schema, check)  # the schema is kept, so its id is never reused for another
    return check


def validate(data: Any, schema: dict[str, Any], loaded: LoadedYaml | None, file: str) -> None:
    """Validate against a schema (:func:`quick_gate` first); raise :class:`SpecError` naming the first
    problem."""
    if quick_gate(schema)(data):
        return
    validator = jsonschema.Draft202012Validator(schema)
    # A hostile file can hold thousands of errors; the first MAX_SCHEMA_ERRORS are enough.
    found = itertools.islice(validator.iter_errors(data), MAX_SCHEMA_ERRORS)
    errors = sorted(found, key=error_order)
    if not errors:
        return
    err = deepest(errors[0])
    path = tuple(err.absolute_path)
    extra = unexpected_key(err)
    if extra is not None:
        path = (*path, extra)
    line = loaded.line_of(path) if loaded else None
    key = ".".join(str(p) for p in path) or "<top>"
    raise SpecError(_describe(err), file, line, key)


def merge(base: Any, over: Any) -> Any:
    """``extends:`` merge: mappings merge key by key, anything else is replaced; so is a whole citation (a
    mapping with ``doc`` and ``quote``), which names one clause: the parent's ``register`` does not cling to it.

    >>> merge({"a": {"b": 1, "c": 2}, "l": [1]}, {"a": {"c": 3}, "l": [2]})
    {'a': {'b': 1, 'c': 3}, 'l': [2]}
    >>> merge({"s": {"doc": "a", "quote": "q", "register": "r"}}, {"s": {"doc": "a", "quote": "p"}})
    {'s': {'doc': 'a', 'quote': 'p'}}
    """
    if isinstance(base, dict) and isinstance(over, dict) and not ("doc" in over and "quote" in over):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base[k], v) if k in base else v
        return out
    return over


MAX_EXTENDS_DEPTH = 8
"""The most files an ``extends`` chain may pass through beyond the first."""
MAX_EXTENDS_NAME = 120
"""The longest spec id ``extends`` may name (a file name has at most 255 bytes)."""


def load_spec_file(path: Path, _seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], LoadedYaml]:
    """Load, resolve ``extends:`` and validate one spec file."""
    loaded = load_yaml_text(read_text_limited(path, "spec"), str(path))
    data = loaded.data
    if not isinstance(data, dict):
        raise SpecError("a spec must be a mapping at the top level", str(path), 1)
    parent = data.get("extends")
    if parent is not None:
        if not isinstance(parent, str) or "/" in parent or "\\" in parent or parent.startswith(".") or \
                len(parent) > MAX_EXTENDS_NAME:
            raise SpecError(f"extends must name a spec id in the same folder (at most {MAX_EXTENDS_NAME} characters)",
                            str(path), loaded.line_of(("extends",)), "extends")
        if parent in _seen:
            raise SpecError(f"extends cycle through '{parent}'", str(path),
                            loaded.line_of(("extends",)), "extends")
        if len(_seen) >= MAX_EXTENDS_DEPTH:
            raise SpecError(f"extends chain deeper than {MAX_EXTENDS_DEPTH} files (from {_seen[0]}.yaml)", str(path),
                            loaded.line_of(("extends",)), "extends")
        ppath = path.parent / f"{parent}.yaml"
        if not ppath.exists():
            raise SpecError(f"extends names '{parent}', but {ppath.name} does not exist in {path.parent} (extends "
                            "reads the spec's own folder, not the bundled specs)",
                            str(path), loaded.line_of(("extends",)), "extends")
        why = not_readable(ppath)
        if why is not None:
            raise SpecError(f"extends names '{parent}', but {ppath} cannot be read: {why}", str(path),
                            loaded.line_of(("extends",)), "extends")
        base, ploaded = load_spec_file(ppath, (*_seen, str(data.get("id", path.stem))))
        child = {k: v for k, v in data.items() if k != "extends"}
        data = merge(base, child)
        data.pop("extends", None)
        data["extended_from"] = parent
        loaded = replace(loaded, parent=ploaded)
    try:
        validate(data, spec_schema(), loaded, str(path))
        _compile(data, loaded, str(path))
    except SpecError as exc:
        raise relocate(exc, loaded) from None
    return data, loaded


def _compile(data: dict[str, Any], loaded: LoadedYaml, file: str) -> None:
    """Build the game with default options, so an inconsistent spec fails on load.

    Errors of the game builder name a key (``deal``, ``phases.1.enabled``); the
    line of that key is added here. Anything else the builder trips over on a
    schema-valid but hostile spec is reported as a spec error, never a traceback.
    """
    from .game import Game
    from .spec import Spec

    try:
        spec = Spec(data, file, loaded)
        spec.check_unique()  # before the build, which looks phases up by id
        spec.check_option_values()  # before the build: a value an option puts in may be out of the schema's bounds
        Game(spec)
    except SpecError as exc:
        if exc.line is not None or not exc.key:
            raise
        path = key_path(exc.key)
        raise SpecError(exc.detail, exc.file or file, loaded.line_of(path), exc.key) from None
    except CardspecError as exc:
        raise SpecError(str(exc), file) from None
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise SpecError(f"the spec does not compile: {type(exc).__name__}: {str(exc)[:160]}",
                        file) from None
