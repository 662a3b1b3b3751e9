"""The MCP text content: the whole envelope, rendered compactly (DESIGN §9).

Some clients give the model only the text content, others only structuredContent, so the text says
everything the envelope says, within the same token budget: lists of records become tables (the
keys once, then one line per record), and what every row shares is said once (docs/tools.md, "The text
content"), so the text is smaller than the JSON it renders. Nothing is previewed or left out: a value
is omitted only where the text already says it (a column constant in every row goes to the header, a
name its id spells, a meta entry data repeats). If the text should ever exceed the budget it is cut
with a note.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from roslynmap.mcp.envelope import CHARS_PER_TOKEN, clamp_budget
from roslynmap.model.envelope import Envelope

SEP = " | "
_COMMIT = re.compile(r"[0-9a-f]{40}")
_PARAMETERLESS_ID = re.compile(r"[TFPEN]:[^(]+")


def render(env: Envelope, budget: int | None = None) -> str:
    """`budget`: the call's token_budget (the text stays inside it like the envelope does)."""
    data = env.get("data") or {}
    if not env.get("ok"):
        lines = _error(env)
    else:
        lines = [env.get("answer", "")]
        complete = not env.get("truncated")
        shown = _source_text(data)
        for key, value in data.items():
            if not _said_elsewhere(key, value, data, lines[0], complete):
                lines.extend(_field(key, value, lines[0], shown))
        lines.extend(_after(env))
    # Workspace answers carry their workspace, revision and baseline in data too: said once.
    meta = {k: v for k, v in (env.get("meta") or {}).items()
            if not _said_in_data(k, v, data) and (k, v) not in _UNSAID}
    if meta:
        lines.append("meta: " + " ".join(f"{k}={_cell(v)}" for k, v in meta.items()))
    return _within("\n".join(lines), clamp_budget(budget)[1])


# The usual case goes unsaid in the text (structuredContent still carries it, DESIGN §7): a model is told
# when an answer may be incomplete, not that it is complete, on every call.
# A workspace's baseline being there likewise, and a new workspace's `created` and revision 0 (the answer says
# "Created workspace ...").
_UNSAID = (("semantic_level", "full"), ("baseline_available", True), ("created", True))
# Flags whose `false` is the unremarkable case (a refresh that was not cold, a DI registration that is not a
# TryAdd, an implementation found directly). Any other false (restored, in_solution, baseline_available) is news.
_UNSAID_FALSE = frozenset({"cold_start", "try", "inherited"})


def _said_elsewhere(key: str, value: Any, data: Mapping[str, Any], answer: str, complete: bool) -> bool:
    """A data field the text need not give: its list, the answer line or the id beside it says it, or it is
    the usual case."""
    return (_said_by_its_list(key, value, data) or (complete and _counted_by_its_list(key, value, data))
            or _said_in_answer(key, value, answer) or (key, value) in _UNSAID
            or (value is False and key in _UNSAID_FALSE) or _kind_said_by_id(key, value, data)
            or (key == "overlay_revision" and value == 0 and data.get("created") is True)
            or (complete and key == "extracted" and _made_of_changed_and_rebound(value, data)))


def _made_of_changed_and_rebound(extracted: Any, data: Mapping[str, Any]) -> bool:
    """A refresh's `extracted` files when they are exactly its changed files (not deleted) and those
    `rebound`: the two lists say it."""
    changed = data.get("changed_files")
    if not isinstance(extracted, list) or not isinstance(changed, list):
        return False
    edited = {str(c.get("path")) for c in changed if isinstance(c, Mapping) and c.get("state") != "deleted"}
    return set(map(str, extracted)) == edited | set(map(str, data.get("rebound") or []))


def _error(env: Envelope) -> list[str]:
    err = env.get("error") or {}
    lines = [f"ERROR {err.get('code')}: {err.get('message')}", f"hint: {err.get('hint')}"]
    if err.get("retryable"):
        lines.append("retryable: true")
    lines.extend(_field("candidates", err.get("candidates")))
    return lines


def _after(env: Envelope) -> list[str]:
    lines: list[str] = []
    overflow = env.get("overflow")
    if overflow:
        lines.append(f"truncated: {overflow.get('hint', '')}")
        if overflow.get("by_file"):
            lines.append("by_file: " + ", ".join(f"{f['file']} ({f['count']})" for f in overflow["by_file"]))
    elif env.get("truncated"):
        lines.append("truncated: true")
    for action in env.get("next_actions") or []:
        args = ", ".join(f"{k}={orjson.dumps(v).decode()}" for k, v in (action.get("args") or {}).items())
        lines.append(f"next: {action.get('tool')}({args})" + (f"  # {action['why']}" if action.get("why") else ""))
    for warning in env.get("warnings") or []:
        lines.append(f"warning: {warning}")
    if "must_follow" in env:
        lines.append(f"must_follow: {env['must_follow']}")
    if "warning" in env:
        lines.append(f"warning: {env['warning']}")
    if "hint" in env:
        lines.append(f"hint: {env['hint']}")
    return lines


# The member kinds a documentation id's prefix names on its own (`T:` is a class, struct, interface...).
_KIND_OF_PREFIX = {"M:": "Method", "P:": "Property", "E:": "Event", "F:": "Field"}
# The keyword a declaration's signature shows its kind by (`public sealed class X`, `private const int N`).
_KIND_KEYWORD = {"Class": "class", "Struct": "struct", "Record": "record", "RecordStruct": "record struct",
                 "Interface": "interface", "Enum": "enum", "Delegate": "delegate", "Constant": "const",
                 "Event": "event", "Operator": "operator", "Conversion": "operator"}


def _kind_said_by_id(key: str, value: Any, data: Mapping[str, Any]) -> bool:
    """`kind: Method` beside `symbol_id: M:...`: the prefix says it."""
    return key == "kind" and _kind_said(data, value)


def _kind_said(record: Mapping[str, Any], kind: Any) -> bool:
    """Whether the record's id or signature says its kind: `M:` a method, `.#ctor(` a constructor,
    `class` in `public sealed class X` a class."""
    symbol_id, signature = record.get("symbol_id"), record.get("signature")
    if isinstance(symbol_id, str):
        if _KIND_OF_PREFIX.get(symbol_id[:2]) == kind:
            return True
        if kind == "Constructor" and re.search(r"\.#c?ctor\b", symbol_id):
            return True
    keyword = _KIND_KEYWORD.get(str(kind))
    return keyword is not None and isinstance(signature, str) and re.search(
        rf"(?<![\w.]){keyword}(?![\w])", signature.split("(")[0].split("{")[0]) is not None


def _said_in_data(key: str, value: Any, data: Mapping[str, Any]) -> bool:
    if key not in data:
        return False
    said = data[key]
    return said == value or (isinstance(said, str) and isinstance(value, str) and said.startswith(value))


def _said_in_answer(key: str, value: Any, answer: str) -> bool:
    """`workspace_id: task` after "Workspace 'task' at revision 1": a name the answer quotes, or a number it
    gives after the key's last word (`depth: 4` after "within depth 4"), is said once."""
    if isinstance(value, Mapping) and _located(value) and set(value) <= set(_LOCATION):
        return f"{value['file']}:{value['line']}" in answer  # a place the answer gives (its column aside)
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        return False
    if isinstance(value, int):
        return re.search(rf"\b{re.escape(key.split('_')[-1])} {value}\b", answer) is not None
    if _COMMIT.fullmatch(value):  # a commit the answer names by its 12-hex prefix
        value = value[:12]
    elif key == "symbol_id" and _PARAMETERLESS_ID.fullmatch(value):
        # The subject named in the answer: `T:IOrderRepository` after "Interface IOrderRepository: ...", a name
        # every tool takes back as an id. A method's parameters are not in the answer: its id stays.
        return re.search(rf"(?<![\w:]){re.escape(value[2:])}(?![\w(]|\.\w)", answer) is not None
    return re.search(rf"(?<![\w.:]){re.escape(value)}(?![\w(]|\.\w)", answer) is not None


def _said_by_its_list(key: str, value: Any, data: Mapping[str, Any]) -> bool:
    """`callers_total: 3` beside a `callers` list of 3: the table header already counts them."""
    listed = data.get(key.removesuffix("_total")) if key.endswith("_total") else None
    return isinstance(listed, list) and value == len(listed)


def _counted_by_its_list(key: str, value: Any, data: Mapping[str, Any]) -> bool:
    """`by_kind: {string=1}` beside a complete list whose rows' `kind` counts the same: the rows say it.
    Only for a list shown whole (the envelope is not truncated); over a cut list the counts are news."""
    if not key.startswith("by_"):
        return False
    column = key.removeprefix("by_")
    counts = _as_counts(value, column)
    if counts is None:
        return False
    for listed in data.values():
        if isinstance(listed, list) and listed and all(isinstance(r, Mapping) and column in r for r in listed):
            tally: dict[str, int] = {}
            for row in listed:
                tally[str(row[column])] = tally.get(str(row[column]), 0) + 1
            if tally == counts:
                return True
    return False


def _as_counts(value: Any, column: str) -> dict[str, int] | None:
    """`{"error": 1}` or `[{"code": "CS0029", "count": 1}]` as `{value: count}`; None for other shapes."""
    if isinstance(value, Mapping) and all(isinstance(c, int) for c in value.values()):
        return {str(k): int(c) for k, c in value.items()}
    if isinstance(value, list) and all(isinstance(v, Mapping) and column in v and "count" in v for v in value):
        return {str(v[column]): int(v["count"]) for v in value}
    return None


def _source_text(data: Mapping[str, Any]) -> str:
    """The source lines the answer shows (a card with `include=source`), one per line."""
    rows = data.get("source")
    if not isinstance(rows, list):
        return ""
    return "\n".join(str(r.get("text", "")) for r in rows if isinstance(r, Mapping))


# A record's fields its shown source spells verbatim: a card's signature and one-line doc comment.
_SAID_BY_SOURCE = ("signature", "doc")


def _said_in_source(key: str, value: Any, source: str) -> bool:
    return key in _SAID_BY_SOURCE and isinstance(value, str) and bool(value) and any(
        value in line for line in source.splitlines())


def _field(key: str, value: Any, answer: str = "", source: str = "") -> list[str]:
    """`answer`: what the answer line says, so a record's fields it names (a card's kind and project) go
    unsaid; `source`: the source lines the answer shows, which say a card's signature and doc."""
    if value is None or value == [] or value == {} or value == "":
        return []
    if key.startswith("by_") and isinstance(value, list) and all(
            isinstance(v, Mapping) and len(v) == 2 and "count" in v for v in value):
        # A count per value (by_method, by_status...): one line, `GET=2, POST=1`.
        return [f"{key}: " + ", ".join(f"{_cell(next(x for k, x in v.items() if k != 'count'))}={v['count']}"
                                       for v in value)]
    if isinstance(value, list) and all(isinstance(v, Mapping) for v in value):
        return _table(key, value)
    if isinstance(value, Mapping):  # an empty part says nothing (a trace root's `facts: []`)
        value = {k: v for k, v in value.items() if v is not None and v != [] and v != {} and v != ""}
        if not value:
            return []
    if isinstance(value, Mapping) and any(isinstance(v, (list, Mapping)) for v in value.values()):
        lines = [f"{key}:"]
        for sub, inner in value.items():
            if not _said_in_answer(sub, inner, answer) and not _said_in_source(sub, inner, source):
                lines.extend("  " + line for line in _field(sub, inner, answer, source))
        return lines if len(lines) > 1 else []  # every part empty or said: nothing to say (`stops: {}` of a trace)
    return [f"{key}: {_cell(value)}"]


def _table(key: str, rows: list[Any]) -> list[str]:
    """`key (n): a | b | c` then one line per row; a key a row lacks is an empty cell.

    Said once rather than per row: a column with one value in every row goes into the header
    (`descendants (2; kind=Class, depth=1)`), a column empty in every row (or an unremarkable flag false in every
    row, `try`) is left out, `name` is left out
    when each row's `symbol_id` spells it (as `service` when `service_id` does), and `file`, `line`, `col`,
    `end_line` read as `file:line:col` or `file:line-end_line`, the form an agent copies."""
    rows = _with_lone_records_spread(rows)
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    if "kind" in columns and all(_kind_said(row, row.get("kind")) for row in rows):
        del columns["kind"]  # every row's id or signature says its kind
    for named, identified in _NAME_COLUMNS + tuple((c, f"{c}_id") for c in list(columns)):
        if named in columns and identified in columns and all(
                _spells(str(row.get(identified) or ""), str(row.get(named) or "")) for row in rows):
            del columns[named]  # before the shared values: a name every row shares is still spelled by its id
    for named, identified in _NAME_LIST_COLUMNS:
        if named in columns and identified in columns and all(
                _names_spelled(row.get(identified), row.get(named)) for row in rows):
            del columns[named]  # a table's DbSets: each is the member name of one of its symbols
    cells = {c: [_table_cell(row.get(c)) for row in rows] for c in columns}
    shared: list[str] = []
    for column in list(columns):
        values = cells[column]
        if all(v == "" for v in values) or (column in _UNSAID_FALSE and all(row.get(column) is False for row in rows)):
            del columns[column]
        elif len(rows) > 1 and column not in _LOCATION and len(set(values)) == 1:
            shared.append(f"{column}={values[0]}")
            del columns[column]
    spans = "file" not in columns and "line" in columns and "end_line" in columns
    if spans:  # lines of one file: `24-28`
        cells["line"] = [_location({**row, "file": "", "col": None})[1:] if row.get("line") is not None else ""
                         for row in rows]
        del columns["end_line"]
    located = "file" in columns and "line" in columns
    location_header = _location_header(columns)
    if located:
        cells["file"] = [_location(row) for row in rows]
        for part in ("line", "col", "end_line"):
            columns.pop(part, None)
        if _places_said_in_row(cells, columns, len(rows)):  # a table's place: its first source's
            del columns["file"]
            located = False
    header = [location_header if c == "file" and located else
              "line-end_line" if c == "line" and spans else c for c in columns]
    title = f"{key} ({len(rows)}" + ("; " + ", ".join(shared) if shared else "")
    flat = [f"{title}): " + SEP.join(header)]
    flat.extend("  " + _row(cells[c][i] for c in columns) for i in range(len(rows)))
    if not located:
        return flat
    grouped = _by_file(title, header, columns, cells, rows)
    return grouped if len("\n".join(grouped)) < len("\n".join(flat)) else flat


def _places_said_in_row(cells: Mapping[str, list[str]], columns: Mapping[str, None], count: int) -> bool:
    """Whether every row's `file:line` is also written in another of its cells (`Sql src/A.cs:20,25`)."""
    others = [c for c in columns if c != "file"]
    return count > 0 and all(
        cells["file"][i] and any(re.search(rf"(?<![\w/.]){re.escape(cells['file'][i])}(?![\d:-])", cells[c][i])
                                 for c in others)
        for i in range(count))


def _with_lone_records_spread(rows: list[Any]) -> list[Any]:
    """A column whose every cell is a list of at most one small record (a node's one edge) reads as that
    record's columns, `edges.kind | edges.line`, rather than `[{kind=Call, line=32}]` in each row. Records
    of many optional fields (a trace node's facts) stay in their cell: spread, most rows would be empty cells."""
    lone = [c for c in dict.fromkeys(k for row in rows for k in row)
            if any(row.get(c) for row in rows) and all(_lone_record(row.get(c)) for row in rows)
            and len({k for row in rows for record in (row.get(c) or []) for k in record
                     if k not in _LOCATION}) <= _SPREAD_FIELDS]
    if not lone:
        return rows
    spread = []
    for row in rows:
        out: dict[str, Any] = {}
        for key, value in row.items():
            if key in lone:
                record = value[0] if value else {}
                for inner_key, inner in record.items():
                    if not _usual_count(record, inner_key, inner) and not (inner_key in _LOCATION and _located(record)):
                        out[f"{key}.{inner_key}"] = inner
                if _located(record):
                    out[f"{key}.at"] = _location(record)

            else:
                out[key] = value
        spread.append(out)
    for key in lone:  # a record at the row's own place: the row's file:line says it
        if all(row.get(f"{key}.at") in (None, _location(row)) for row in spread):
            for row in spread:
                row.pop(f"{key}.at", None)
    return spread


_SPREAD_FIELDS = 4  # an edge: kind, line, via, count


def _usual_count(record: Mapping[str, Any], key: str, value: Any) -> bool:
    """An edge's `count=1` is the usual case: only a repeated call says its count."""
    return key == "count" and value == 1 and "kind" in record


def _located(record: Mapping[str, Any]) -> bool:
    return record.get("file") is not None and record.get("line") is not None


def _lone_record(value: Any) -> bool:
    return value is None or (isinstance(value, list) and len(value) <= 1 and all(
        isinstance(v, Mapping) and not any(isinstance(x, (list, Mapping)) for x in v.values()) for v in value))


def _by_file(title: str, header: list[str], columns: Mapping[str, None], cells: Mapping[str, list[str]],
             rows: list[Any]) -> list[str]:
    """The rows under a line per file, each run of rows of one file under its own (row order kept):
    a file many rows share is said once. Chosen only when it is the shorter text."""
    lines = [f"{title}; by file): " + SEP.join(h.removeprefix("file:") for h in header)]
    current: object = object()
    for i, row in enumerate(rows):
        if row.get("file") != current:
            current = row.get("file")
            lines.append(f"  {current}" if current is not None else "  (no file)")
        where = cells["file"][i]
        where = where[len(str(current)) + 1:] if current is not None else where
        lines.append("    " + _row(where if c == "file" else cells[c][i] for c in columns))
    return lines


def _row(values: Iterable[str]) -> str:
    """A row's cells; empty cells at its end are left out (a key a row lacks reads as empty)."""
    cells = list(values)
    while cells and cells[-1] == "":
        cells.pop()
    return SEP.join(cells)


_LOCATION = ("file", "line", "col", "end_line")
# A column left out when the id beside it spells it in every row (`service` beside `service_id`).
_NAME_COLUMNS = (("name", "symbol_id"),)


# A list of names left out when each is the member name of an id in the row's list beside it (a table's
# `dbsets: [Baskets]` beside `symbols: [P:CatalogContext.Baskets]`).
_NAME_LIST_COLUMNS = (("dbsets", "symbols"),)


def _spells(symbol_id: str, name: str) -> bool:
    return bool(name) and name in symbol_id


def _names_spelled(ids: Any, names: Any) -> bool:
    if not names:
        return True
    if not isinstance(ids, list) or not isinstance(names, list):
        return False
    return all(any(re.search(rf"\.{re.escape(str(n))}(?![\w`])", str(i)) for i in ids) for n in names)


def _location(row: Mapping[str, Any]) -> str:
    """`file:line:col-end_line`; with an empty `file`, `:line-end_line`."""
    if row.get("file") is None:
        return ""
    text = f"{row['file']}:{row.get('line', '')}" if row.get("line") is not None else str(row["file"])
    if row.get("col") is not None:
        text += f":{row['col']}"
    if row.get("end_line") is not None and row.get("end_line") != row.get("line"):
        text += f"-{row['end_line']}"
    return text


def _location_header(columns: Mapping[str, None]) -> str:
    return "file:line" + (":col" if "col" in columns else "") + ("-end_line" if "end_line" in columns else "")


def _table_cell(value: Any) -> str:
    """A row's cell: a list without its brackets (the column separator ends it), `T:Order, T:Address`."""
    if isinstance(value, (list, tuple)):
        return ", ".join(_cells_of_list(value))
    return _cell(value)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        # A commit as git abbreviates it (every tool taking a commit takes a prefix; structuredContent has all 40).
        return value[:12] if _COMMIT.fullmatch(value) else value.replace("\n", "\\n")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, Mapping):
        located = _located(value)
        named = {k: v for k, v in value.items()
                 if v is not None and not (k in _LOCATION and located) and not _usual_count(value, k, v)
                 and not (k == "kind" and _kind_said(value, v))
                 and not (k == "name" and _spells(str(value.get("symbol_id") or ""), str(v)))}
        if located and len(named) <= 1:  # a place, with at most one word about it: `Sql src/A.cs:34`
            return " ".join([*(_cell(v) for v in named.values()), _location(value)])
        if located and next(iter(named)) in _WORD_KEYS and all(_plain(v) for v in named.values()):
            # A place with its word and a few flags: `DbSet inherited=package src/A.cs:7`.
            first, *rest = named.items()
            return " ".join([_cell(first[1]), *(f"{k}={_cell(v)}" for k, v in rest), _location(value)])
        parts = [f"{k}={_cell(v)}" for k, v in named.items()]
        return "{" + ", ".join(parts + ([_location(value)] if located else [])) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_cells_of_list(value)) + "]" if value else ""
    return orjson.dumps(value).decode()


# The field that names what a located record is (`source: DbSet`): said first, without its key.
_WORD_KEYS = frozenset({"source", "kind"})


def _plain(value: Any) -> bool:
    """A scalar that reads as one word in a cell (no spaces, separators or braces)."""
    return isinstance(value, (bool, int, float)) or (
        isinstance(value, str) and bool(value) and re.fullmatch(r"[\w.:`@/-]+", value) is not None)


def _cells_of_list(values: Iterable[Any]) -> list[str]:
    """Each value's cell, but a run of places with the same word in one file as one: `Sql src/A.cs:20,25,29`."""
    cells: list[str] = []
    previous: str | None = None  # the previous place's cell without its line, when it was a plain place
    for value in values:
        cell = _cell(value)
        plain = isinstance(value, Mapping) and _located(value) and value.get("col") is None \
            and value.get("end_line") in (None, value.get("line"))
        head = cell[: -len(str(value["line"])) - 1] if plain else None
        if head is not None and head == previous:
            cells[-1] += f",{value['line']}"
        else:
            cells.append(cell)
        previous = head
    return cells


def _within(text: str, budget: int) -> str:
    limit = budget * CHARS_PER_TOKEN
    if len(text.encode()) <= limit:
        return text
    note = "\n… (text cut to fit token_budget; structuredContent has the whole answer)"
    cut = text.encode()[: limit - len(note.encode())].decode(errors="ignore")
    return cut[: cut.rfind("\n")] + note if "\n" in cut else cut + note
