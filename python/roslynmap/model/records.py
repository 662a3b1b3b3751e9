"""The bridge's record batches, typed (docs/architecture.md, "Bridge batch format").

The bridge writes each record as a positional JSON array (compact, Records.cs); `decode_batch` is the
one place that turns a batch into these records. They are NamedTuples: a record is still the tuple
SQLite's `executemany` takes, so tables whose rows equal their records (relations, externals) are
written without a copy, and decoding costs the same as a slotted dataclass (measured in
docs/architecture.md). Field order is the bridge's array order: change both together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple, TypeVar

import orjson


class FileRecord(NamedTuple):
    path: str
    project: int
    line_count: int


class SymbolRecord(NamedTuple):
    symbol_id: str
    stable_id: str
    project: int
    name: str
    kind: str
    fqn: str
    signature: str | None
    doc: str | None
    namespace: str | None
    container: str | None
    file: str | None
    line: int | None
    col: int | None
    end_line: int | None
    end_col: int | None
    visibility: str | None
    is_static: bool | int
    arity: int


class LocationRecord(NamedTuple):
    """Another partial part of a symbol."""

    symbol_id: str
    project: int
    file: str
    line: int
    col: int
    end_line: int


class RefRecord(NamedTuple):
    target: str | None  # None: unresolved (target_name and receiver are all there is)
    target_name: str
    target_kind: str | None
    source: str | None  # the innermost enclosing indexed symbol, None outside any
    project: int
    file: str
    line: int
    col: int
    end_col: int
    kind: str
    receiver: str | None
    candidates: list[str] | None = None  # unresolved only: the candidates Roslyn rejected


class RelationRecord(NamedTuple):
    type_id: str
    related_id: str | None
    related_name: str
    kind: str  # base | interface
    project: int


class DiagnosticRecord(NamedTuple):
    project: int
    file: str | None
    line: int
    col: int
    severity: str
    code: str
    message: str


class ExternalRecord(NamedTuple):
    symbol_id: str
    name: str
    kind: str
    fqn: str
    container: str | None
    assembly: str
    signature: str
    namespace: str


class FactRecord(NamedTuple):
    kind: str
    symbol_id: str | None
    project: int | None  # None: a fact of a file no project compiles (appsettings, Razor)
    file: str | None
    line: int | None
    col: int | None
    confidence: str
    key: str
    detail: str  # a JSON object


class PackageRecord(NamedTuple):
    """A project's direct PackageReference (roslyn/packages.py): no bridge batch kind, read beside the
    load from restore's assets file or the project file, stored in project_deps."""

    name: str
    version: str | None  # the version restore resolved; None when nothing was resolved
    requested: str | None  # the version or range asked for
    implicit: bool = False  # added by the SDK (autoReferenced)


@dataclass(slots=True)
class Batch:
    """One NextBatch (or ExtractDocuments) answer: the records of a run of documents."""

    files: list[FileRecord] = field(default_factory=list)
    symbols: list[SymbolRecord] = field(default_factory=list)
    locations: list[LocationRecord] = field(default_factory=list)
    refs: list[RefRecord] = field(default_factory=list)
    relations: list[RelationRecord] = field(default_factory=list)
    diagnostics: list[DiagnosticRecord] = field(default_factory=list)
    externals: list[ExternalRecord] = field(default_factory=list)
    facts: list[FactRecord] = field(default_factory=list)


R = TypeVar("R", bound=tuple[Any, ...])


def _records(make: Callable[[Iterable[Any]], R], rows: Iterable[Iterable[Any]] | None) -> list[R]:
    return list(map(make, rows or ()))


def _refs(rows: Iterable[list[Any]] | None, strings: list[str | None]) -> list[RefRecord]:
    """References whose strings are indexes into the batch's `strings` (index 0: None): the hot path of
    decoding, so the record is made with tuple.__new__ (RefRecord's own __new__ is a Python call)."""
    s, new = strings, tuple.__new__
    return [new(RefRecord, (s[target], s[name], s[kind], s[source], project, s[file], line, col, end_col, s[ref_kind],
                            s[receiver], candidates))
            for target, name, kind, source, project, file, line, col, end_col, ref_kind, receiver, candidates
            in rows or ()]


def batch_of(obj: Mapping[str, Any]) -> Batch:
    """The typed batch of an already parsed bridge answer (a missing kind is empty)."""
    return Batch(
        files=_records(FileRecord._make, obj.get("files")),
        symbols=_records(SymbolRecord._make, obj.get("symbols")),
        locations=_records(LocationRecord._make, obj.get("locations")),
        refs=_refs(obj.get("refs"), obj.get("strings") or [None]),
        relations=_records(RelationRecord._make, obj.get("relations")),
        diagnostics=_records(DiagnosticRecord._make, obj.get("diagnostics")),
        externals=_records(ExternalRecord._make, obj.get("externals")),
        facts=_records(FactRecord._make, obj.get("facts")),
    )


def merge_batches(batches: Iterable[Batch]) -> Batch:
    """One batch holding every record of `batches`, in order."""
    merged = Batch()
    for batch in batches:
        for kind in fields(Batch):
            getattr(merged, kind.name).extend(getattr(batch, kind.name))
    return merged


def decode_batch(raw: str | bytes | memoryview) -> Batch:
    """A bridge batch (JSON text, or its UTF-8 bytes) as typed records."""
    return batch_of(orjson.loads(raw))
