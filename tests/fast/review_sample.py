"""A three-project solution for the review tools (tests_find, impact_analyze, symbols_unused,
projects_graph, diff_semantic), as hand-written bridge batches: App (Exe) -> Core (Library) <- Tests.

    Core/Pricing.cs   ICalc.Compute <- Calc.Compute (implements); Service.Place calls ICalc.Compute;
                      Service.Old (private, never called), Service.Name (public property, never read)
    App/Endpoints.cs  GET /api/quote/{id:int} -> Endpoints.Quote, which calls Service.Place
    Tests/Tests.cs    PlaceWorks [Fact] calls Service.Place; ApiWorks [Fact] GetAsync("/api/quote/5");
                      Unrelated [Test] (NUnit) calls nothing of Core
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from roslynmap.model.records import FactRecord, FileRecord, PackageRecord, RefRecord, SymbolRecord
from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import RepoInfo, inspect_repo
from roslynmap.store.writer import BaselineWriter

from tests.fast.batches import Sample, git, ref, symbol

PRICING, ENDPOINTS, TESTS = "src/Core/Pricing.cs", "src/App/Endpoints.cs", "tests/Tests/Tests.cs"
COMPUTE, CALC_COMPUTE = "M:Core.ICalc.Compute(System.Int32)", "M:Core.Calc.Compute(System.Int32)"
PLACE, QUOTE = "M:Core.Service.Place(System.Int32)", "M:App.Endpoints.Quote(System.Int32)"
PLACE_WORKS, API_WORKS, UNRELATED = ("M:Tests.PricingTests.PlaceWorks", "M:Tests.PricingTests.ApiWorks",
                                     "M:Tests.PricingTests.Unrelated")

PROJECTS = [
    {"index": 0, "name": "App", "path": "src/App/App.csproj", "output_kind": "Exe",
     "project_references": ["src/Core/Core.csproj"],
     "packages": [PackageRecord("Dapper", "2.1.66", "[2.1.66, )")]},
    {"index": 1, "name": "Core", "path": "src/Core/Core.csproj", "output_kind": "Library", "project_references": [],
     "packages": [PackageRecord("Dapper", "2.1.35", "[2.1.35, )")]},
    {"index": 2, "name": "Tests", "path": "tests/Tests/Tests.csproj", "output_kind": "Library",
     "project_references": ["src/App/App.csproj", "src/Core/Core.csproj"],
     "packages": [PackageRecord("xunit", "2.9.3", "[2.9.3, )")]},
]
PROJECT_OF = {PRICING: 1, ENDPOINTS: 0, TESTS: 2}


def sym(symbol_id: str, name: str, kind: str, file: str, line: int, end: int, **kw: Any) -> SymbolRecord:
    return symbol(symbol_id, name, kind, file, line, end, **kw)._replace(project=PROJECT_OF[file])


def use(target: str, name: str, kind: str | None, source: str, file: str, line: int, ref_kind: str) -> RefRecord:
    return ref(target, name, kind, source, file, line, 9, ref_kind)._replace(project=PROJECT_OF[file])


def fact(kind: str, symbol_id: str, file: str, line: int, key: str, detail: str,
         confidence: str = "high") -> FactRecord:
    return FactRecord(kind, symbol_id, PROJECT_OF[file], file, line, 5, confidence, key, detail)


def review_sample(place_signature: str = "int quantity") -> Sample:
    """The solution; `place_signature` changes Service.Place's parameters (the second commit of the diff test)."""
    place = PLACE if place_signature == "int quantity" else "M:Core.Service.Place(System.Int32,System.Boolean)"
    sample = Sample({PRICING: "namespace Core;\n" + "\n" * 30, ENDPOINTS: "namespace App;\n" + "\n" * 12,
                     TESTS: "namespace Tests;\n" + "\n" * 20})
    sample.symbols += [
        sym("T:Core.ICalc", "ICalc", "Interface", PRICING, 3, 6, namespace="Core"),
        sym(COMPUTE, "Compute", "Method", PRICING, 5, 5, container="T:Core.ICalc", namespace="Core"),
        sym("T:Core.Calc", "Calc", "Class", PRICING, 8, 11, namespace="Core"),
        sym(CALC_COMPUTE, "Compute", "Method", PRICING, 10, 10, container="T:Core.Calc", namespace="Core"),
        sym("T:Core.Service", "Service", "Class", PRICING, 13, 28, namespace="Core"),
        sym("M:Core.Service.#ctor", "Service", "Constructor", PRICING, 15, 15, container="T:Core.Service",
            namespace="Core"),
        sym(place, "Place", "Method", PRICING, 17, 20, container="T:Core.Service", namespace="Core",
            signature=f"public int Service.Place({place_signature})"),
        sym("M:Core.Service.Old", "Old", "Method", PRICING, 22, 22, container="T:Core.Service", namespace="Core",
            visibility="private"),
        sym("P:Core.Service.Name", "Name", "Property", PRICING, 24, 24, container="T:Core.Service",
            namespace="Core"),
        sym("T:App.Endpoints", "Endpoints", "Class", ENDPOINTS, 3, 10, namespace="App", is_static=True),
        sym(QUOTE, "Quote", "Method", ENDPOINTS, 5, 9, container="T:App.Endpoints", namespace="App", is_static=True),
        sym("T:Tests.PricingTests", "PricingTests", "Class", TESTS, 3, 20, namespace="Tests"),
        sym(PLACE_WORKS, "PlaceWorks", "Method", TESTS, 6, 9, container="T:Tests.PricingTests", namespace="Tests"),
        sym(API_WORKS, "ApiWorks", "Method", TESTS, 12, 15, container="T:Tests.PricingTests", namespace="Tests"),
        sym(UNRELATED, "Unrelated", "Method", TESTS, 18, 19, container="T:Tests.PricingTests", namespace="Tests"),
    ]
    sample.refs += [
        use("T:Core.ICalc", "ICalc", "Interface", "T:Core.Calc", PRICING, 8, "Implementation"),
        use(COMPUTE, "Compute", "Method", CALC_COMPUTE, PRICING, 10, "Implementation"),
        use(COMPUTE, "Compute", "Method", place, PRICING, 19, "Call")._replace(receiver="_calc"),
        use("T:Core.Service", "Service", "Class", QUOTE, ENDPOINTS, 7, "Instantiate"),
        use("M:Core.Service.#ctor", "Service", "Constructor", QUOTE, ENDPOINTS, 7, "Instantiate"),
        use(place, "Place", "Method", QUOTE, ENDPOINTS, 8, "Call"),
        use(place, "Place", "Method", PLACE_WORKS, TESTS, 8, "Call"),
        use("T:Core.Service", "Service", "Class", PLACE_WORKS, TESTS, 7, "Instantiate"),
    ]
    sample.facts += [
        fact("Route", QUOTE, ENDPOINTS, 5, "/api/quote/{id:int}",
             f'{{"method":"GET","handler":"{QUOTE}","source":"minimal"}}'),
        fact("Test", PLACE_WORKS, TESTS, 6, "xunit", '{"attribute":"Fact"}'),
        fact("Test", API_WORKS, TESTS, 12, "xunit", '{"attribute":"Fact"}'),
        fact("Test", UNRELATED, TESTS, 18, "nunit", '{"attribute":"Test"}', "medium"),
        fact("HttpCall", API_WORKS, TESTS, 14, "/api/quote/5", '{"method":"GET","call":"GetAsync"}'),
        fact("Config", QUOTE, ENDPOINTS, 6, "Pricing:Rate", '{"pattern":"indexer"}'),
    ]
    if place != PLACE:  # the second commit: a new endpoint, the config key gone
        sample.facts[0:1] = [sample.facts[0], fact("Route", QUOTE, ENDPOINTS, 4, "/api/quote",
                                                   f'{{"method":"POST","handler":"{QUOTE}","source":"minimal"}}')]
        sample.facts = [f for f in sample.facts if f.kind != "Config"]
        sample.symbols = [s for s in sample.symbols if s.symbol_id != "M:Core.Service.Old"]
        sample.symbols.append(sym("M:Core.Service.New", "New", "Method", PRICING, 22, 22, container="T:Core.Service",
                                  namespace="Core"))
    return sample


def write(repo: RepoInfo, sample: Sample) -> None:
    """The baseline of `repo.commit` for `sample` (three projects)."""
    writer = BaselineWriter(baseline_path(repo.repo_id, repo.commit))
    writer.add_projects([{"target_framework": "net10.0", "target_frameworks": ["net10.0"], "documents": 1,
                          "restored": True, "load_errors": [], **p} for p in PROJECTS])
    batch = sample.batch()
    batch.files = [FileRecord(path, PROJECT_OF[path], lines) for path, _, lines in batch.files]
    writer.add_batch(batch)
    writer.set_project_results([{"index": p["index"], "semantic_level": "full"} for p in PROJECTS])
    writer.finish({"commit": repo.commit, "repo_id": repo.repo_id, "solution": "Review.slnx",
                   "semantic_level": "full", "counts": {}, "created_at": "2026-01-01T00:00:00Z",
                   "workspace_diagnostics": []})
    writer.publish()


def write_repo(root: Path) -> tuple[RepoInfo, RepoInfo]:
    """Two commits, each with its baseline: the solution, then Place(int, bool), Old -> New, an endpoint added
    and a config key removed. Returns (first, second); HEAD is the second."""
    root.mkdir(parents=True)
    first, second = review_sample(), review_sample("int quantity, bool rush")
    commits: list[RepoInfo] = []
    for sample in (first, second):
        for path, text in sample.files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text + ("" if sample is first else "// rush\n"), encoding="utf-8")
        if not commits:
            git(root, "init", "-q", "-b", "main")
        git(root, "add", ".")
        git(root, "commit", "-q", "-m", f"commit {len(commits) + 1}")
        repo = inspect_repo(str(root))
        write(repo, sample)
        commits.append(repo)
    return commits[0], commits[1]
