"""Small baselines built in process from hand-written bridge batches, through the real store writer.

Batches are the typed records of model/records.py (the bridge's format, docs/architecture.md):
`symbol`, `ref` and `relation` fill in what a test does not care about. No MSBuild, no worker: a
baseline takes milliseconds.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from roslynmap.model.records import (
    Batch,
    DiagnosticRecord,
    FactRecord,
    FileRecord,
    RefRecord,
    RelationRecord,
    SymbolRecord,
)
from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import RepoInfo, inspect_repo
from roslynmap.store.writer import BaselineWriter

PROJECT = {"index": 0, "name": "Shop", "path": "src/Shop/Shop.csproj", "target_framework": "net8.0",
           "target_frameworks": ["net8.0"], "documents": 0, "restored": True, "load_errors": []}


def symbol(symbol_id: str, name: str, kind: str, file: str, line: int, end_line: int, *, container: str | None = None,
           signature: str | None = None, doc: str | None = None, namespace: str = "Shop", col: int = 5,
           visibility: str = "public", is_static: bool = False, arity: int = 0) -> SymbolRecord:
    fqn = symbol_id[2:].split("(")[0]
    return SymbolRecord(symbol_id, "sym_" + hashlib.sha256(symbol_id.encode()).hexdigest()[:16], 0, name, kind, fqn,
                        signature or fqn, doc, namespace, container, file, line, col, end_line, 2, visibility,
                        int(is_static), arity)


def ref(target: str | None, target_name: str, target_kind: str | None, source: str | None, file: str, line: int,
        col: int, kind: str, receiver: str | None = None) -> RefRecord:
    return RefRecord(target, target_name, target_kind, source, 0, file, line, col, col + len(target_name), kind,
                     receiver)


def relation(type_id: str, related_id: str, related_name: str, kind: str) -> RelationRecord:
    return RelationRecord(type_id, related_id, related_name, kind, 0)


@dataclass
class Sample:
    """A C# source tree (written to disk and committed) and the batch the bridge would extract from it."""

    files: dict[str, str]
    symbols: list[SymbolRecord] = field(default_factory=list)
    refs: list[RefRecord] = field(default_factory=list)
    relations: list[RelationRecord] = field(default_factory=list)
    facts: list[FactRecord] = field(default_factory=list)
    diagnostics: list[DiagnosticRecord] = field(default_factory=list)
    # Documents a package adds to the compilation from outside the repository (Microsoft.NET.Test.Sdk's
    # Program.cs): indexed under their `../` path, never written.
    package_sources: list[str] = field(default_factory=list)

    def batch(self) -> Batch:
        return Batch(files=[FileRecord(path, 0, text.count("\n") + 1) for path, text in self.files.items()]
                     + [FileRecord(path, 0, 10) for path in self.package_sources],
                     symbols=self.symbols, refs=self.refs, relations=self.relations, facts=self.facts,
                     diagnostics=self.diagnostics)


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True,
                   capture_output=True, stdin=subprocess.DEVNULL)


def write_baseline(root: Path, sample: Sample) -> RepoInfo:
    """`sample`'s files committed in a new git repository at `root`, and its baseline for that commit
    written under ROSLYNMAP_HOME (as the worker would write it)."""
    root.mkdir(parents=True)
    for path, text in sample.files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "sample")
    repo = inspect_repo(str(root))
    writer = BaselineWriter(baseline_path(repo.repo_id, repo.commit))
    writer.add_projects([{**PROJECT, "documents": len(sample.files)}])
    writer.add_batch(sample.batch())
    writer.set_project_results([{"index": 0, "error_count": 0, "missing_reference_errors": 0, "first_errors": [],
                                 "semantic_level": "full"}])
    counts = {"symbols": len(sample.symbols), "references": len(sample.refs), "files": len(sample.files),
              "unresolved_references": sum(1 for r in sample.refs if r.target is None), "facts": len(sample.facts),
              "projects": 1}
    writer.finish({"commit": repo.commit, "repo_id": repo.repo_id, "solution": "Shop.slnx", "semantic_level": "full",
                   "counts": counts, "created_at": "2026-01-01T00:00:00Z", "workspace_diagnostics": [],
                   "diagnostics_warnings": True})
    writer.publish()
    return repo


ORDERS = """namespace Shop;

/// <summary>Stores orders.</summary>
public interface IOrderRepository
{
    void Save(Order order);
}

public class Order
{
    public int Id { get; set; }
}

public class SqlOrderRepository : IOrderRepository
{
    public void Save(Order order) { }
}

public class CachedOrderRepository : SqlOrderRepository
{
}

public class OrderService
{
    private readonly IOrderRepository _repo = new SqlOrderRepository();

    public void Place(Order order)
    {
        _repo.Save(order); _ = order.Id; order.Validate();
    }
}
"""

CALLERS = 40  # Callers.Call00..Call39, each `_repo.Save(order)` on its own line: a hub for budget tests
SAVE = "M:Shop.IOrderRepository.Save(Shop.Order)"
SQL_SAVE = "M:Shop.SqlOrderRepository.Save(Shop.Order)"


def short(symbol_id: str) -> str:
    """How answers name a symbol of this sample (query/shortids.py): every type name is unique in it, so
    the namespace is left out everywhere (`M:Shop.Callers.Call00(Shop.Order)` -> `M:Callers.Call00(Order)`), and
    from the keyword types (`System.Int32` -> `Int32`)."""
    return re.sub(r"System\.(Int32|Boolean|String|Decimal|Object)\b", r"\1", symbol_id.replace("Shop.", ""))


def caller_line(index: int) -> int:
    return 7 + 2 * index


def shop() -> Sample:
    """Orders.cs (an interface, two implementations deep, a service) and Callers.cs (40 callers of Save)."""
    callers = "namespace Shop;\n\npublic class Callers\n{\n    private readonly IOrderRepository _repo = " \
              "new SqlOrderRepository();\n\n" + "".join(
                  f"    public void Call{i:02}(Order order) => _repo.Save(order);\n\n" for i in range(CALLERS)) + "}\n"
    orders, calls = "src/Shop/Orders.cs", "src/Shop/Callers.cs"
    sample = Sample({orders: ORDERS, calls: callers})
    sample.symbols += [
        symbol("T:Shop.IOrderRepository", "IOrderRepository", "Interface", orders, 4, 7, doc="Stores orders.",
               signature="public interface IOrderRepository"),
        symbol(SAVE, "Save", "Method", orders, 6, 6, container="T:Shop.IOrderRepository",
               signature="void IOrderRepository.Save(Order order)"),
        symbol("T:Shop.Order", "Order", "Class", orders, 9, 12, signature="public class Order"),
        symbol("P:Shop.Order.Id", "Id", "Property", orders, 11, 11, container="T:Shop.Order",
               signature="public int Order.Id { get; set; }"),
        symbol("T:Shop.SqlOrderRepository", "SqlOrderRepository", "Class", orders, 14, 17,
               signature="public class SqlOrderRepository : IOrderRepository"),
        symbol(SQL_SAVE, "Save", "Method", orders, 16, 16, container="T:Shop.SqlOrderRepository",
               signature="public void SqlOrderRepository.Save(Order order)"),
        symbol("T:Shop.CachedOrderRepository", "CachedOrderRepository", "Class", orders, 19, 21,
               signature="public class CachedOrderRepository : SqlOrderRepository"),
        symbol("T:Shop.OrderService", "OrderService", "Class", orders, 23, 31, signature="public class OrderService"),
        symbol("F:Shop.OrderService._repo", "_repo", "Field", orders, 25, 25, container="T:Shop.OrderService",
               visibility="private", signature="private readonly IOrderRepository OrderService._repo"),
        symbol("M:Shop.OrderService.Place(Shop.Order)", "Place", "Method", orders, 27, 30,
               container="T:Shop.OrderService", signature="public void OrderService.Place(Order order)"),
        symbol("T:Shop.Callers", "Callers", "Class", calls, 3, 7 + 2 * CALLERS, signature="public class Callers"),
        symbol("F:Shop.Callers._repo", "_repo", "Field", calls, 5, 5, container="T:Shop.Callers",
               visibility="private", signature="private readonly IOrderRepository Callers._repo"),
    ]
    sample.relations += [
        relation("T:Shop.SqlOrderRepository", "T:Shop.IOrderRepository", "IOrderRepository", "interface"),
        relation("T:Shop.CachedOrderRepository", "T:Shop.SqlOrderRepository", "SqlOrderRepository", "base"),
    ]
    sample.refs += [
        ref("T:Shop.IOrderRepository", "IOrderRepository", "Interface", "T:Shop.SqlOrderRepository", orders, 14, 35,
            "Implementation"),
        ref(SAVE, "Save", "Method", SQL_SAVE, orders, 16, 17, "Implementation"),
        ref("T:Shop.SqlOrderRepository", "SqlOrderRepository", "Class", "T:Shop.CachedOrderRepository", orders, 19,
            38, "TypeRef"),
        ref(SAVE, "Save", "Method", "M:Shop.OrderService.Place(Shop.Order)", orders, 29, 15, "Call", "_repo"),
        # a property read and a call the compiler could not bind: graph_callees lists neither by default
        ref("P:Shop.Order.Id", "Id", "Property", "M:Shop.OrderService.Place(Shop.Order)", orders, 29, 38, "Read",
            "order"),
        ref(None, "Validate", None, "M:Shop.OrderService.Place(Shop.Order)", orders, 29, 48, "Call", "order"),
    ]
    for i in range(CALLERS):
        method = f"M:Shop.Callers.Call{i:02}(Shop.Order)"
        sample.symbols.append(symbol(method, f"Call{i:02}", "Method", calls, caller_line(i), caller_line(i),
                                     container="T:Shop.Callers",
                                     signature=f"public void Callers.Call{i:02}(Order order)"))
        sample.refs.append(ref(SAVE, "Save", "Method", method, calls, caller_line(i), 49, "Call", "_repo"))
    return sample
