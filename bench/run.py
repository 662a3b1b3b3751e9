"""`python build.py bench`: index time against the compile floor, throughput, worker RSS, MCP latency.

Writes docs/benchmarks.md. Inputs: the testdata Shop solution and a generated solution
(bench/generate.py, deterministic from a seed). Each measurement uses a fresh worker process so
index and floor pay the same CLR start and solution load.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from roslynmap.roslyn.client import WorkerClient  # noqa: E402
from roslynmap.roslyn.discovery import find_solution  # noqa: E402
from roslynmap.store import cache  # noqa: E402
from roslynmap.store.paths import baseline_path  # noqa: E402
from roslynmap.store.reader import open_baseline, project_rows, read_meta  # noqa: E402
from roslynmap.store.repo import inspect_repo  # noqa: E402

from tests.mcp_client import McpServerProcess  # noqa: E402
from tests.repos import make_repo  # noqa: E402


def peak_rss_mb(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def timed_request(repo: Path, op: str, extra: dict[str, Any],
                  solution_path: str | None = None) -> tuple[float, dict[str, Any], float | None]:
    info = inspect_repo(repo)
    solution = find_solution(info.root, solution_path)
    client = WorkerClient()
    try:
        started = time.perf_counter()
        result = client.request({"op": op, "repo_root": str(info.root), "solution": str(solution), **extra})
        elapsed = time.perf_counter() - started
        rss = peak_rss_mb(client.pid)
    finally:
        client.close()
    return elapsed, result, rss


def measure_index(repo: Path, runs: int, solution: str | None = None) -> dict[str, Any]:
    info = inspect_repo(repo)
    floors, fair_floors, indexes = [], [], []
    result: dict[str, Any] = {}
    rss = None
    for _ in range(runs):
        floor_s, _, _ = timed_request(repo, "compile_floor", {}, solution)
        floors.append(floor_s)
        # The fair floor: compiled with the index's options (nullable analysis off).
        fair_s, _, _ = timed_request(repo, "compile_floor", {"options": "indexed"}, solution)
        fair_floors.append(fair_s)
        target = baseline_path(info.repo_id, info.commit)
        index_s, result, rss = timed_request(repo, "index", {"out_path": str(target), "meta": {
            "repo_id": info.repo_id, "commit": info.commit}}, solution)
        indexes.append(index_s)
    counts = result["meta"]["counts"]
    floor, fair, index = min(floors), min(fair_floors), min(indexes)
    lines = sum(len(p.read_text(errors="replace").splitlines()) for p in info.root.rglob("*.cs")
                if "obj" not in p.parts and "bin" not in p.parts)
    return {
        "lines": lines, "projects": counts["projects"], "files": counts["files"],
        "symbols": counts["symbols"], "references": counts["references"],
        "floor_s": round(floor, 2), "fair_floor_s": round(fair, 2), "index_s": round(index, 2),
        "ratio": round(index / floor, 2), "fair_ratio": round(index / fair, 2),
        "symbols_per_s": int(counts["symbols"] / index), "refs_per_s": int(counts["references"] / index),
        "worker_peak_rss_mb": rss, "semantic_level": result["meta"]["semantic_level"],
        "baseline_mb": round(baseline_path(info.repo_id, info.commit).stat().st_size / 1e6, 1),
    }


def pick_ids(repo: Path) -> dict[str, str]:
    """Realistic targets: the most-referenced method and type, and a name to search for."""
    info = inspect_repo(repo)
    conn = sqlite3.connect(baseline_path(info.repo_id, info.commit))
    declared = "(SELECT key FROM ids WHERE symbol_id IN (SELECT symbol_id FROM symbols))"
    method = conn.execute("SELECT i.symbol_id FROM refs r JOIN ids i ON i.key = r.target_key WHERE r.kind = 'Call'"
                          f" AND r.target_key IN {declared} GROUP BY i.symbol_id ORDER BY count(*) DESC LIMIT 1"
                          ).fetchone()[0]
    type_id = conn.execute("SELECT i.symbol_id FROM refs r JOIN ids i ON i.key = r.target_key WHERE i.symbol_id LIKE"
                           f" 'T:%' AND r.target_key IN {declared} GROUP BY i.symbol_id ORDER BY count(*) DESC LIMIT 1"
                           ).fetchone()[0]
    name = conn.execute("SELECT name FROM symbols WHERE kind='Class' ORDER BY id LIMIT 1").fetchone()[0]
    route = conn.execute("SELECT json_extract(detail, '$.method') || ' ' || key FROM facts WHERE kind = 'Route'"
                         " ORDER BY id LIMIT 1").fetchone()
    key_of = "(SELECT key FROM ids WHERE symbol_id = ?)"
    callers = conn.execute(f"SELECT count(DISTINCT from_key) FROM refs WHERE target_key = {key_of} AND kind = 'Call'",
                           (method,)).fetchone()[0]
    references = conn.execute(f"SELECT count(*) FROM refs WHERE target_key = {key_of}", (type_id,)).fetchone()[0]
    conn.close()
    return {"method": method, "type": type_id, "name": name, **({"route": route[0]} if route else {}),
            "targets": f"graph_* on `{method}` ({callers} distinct callers), refs_find and types_hierarchy on "
                       f"`{type_id}` ({references} references)" + (f", graph_trace_feature from `{route[0]}`"
                                                                    if route else "")}


def measure_queries(repo: Path, home: Path, iterations: int) -> dict[str, Any]:
    ids = pick_ids(repo)
    first_file = sqlite3.connect(baseline_path(inspect_repo(repo).repo_id, inspect_repo(repo).commit)).execute(
        "SELECT path FROM files ORDER BY id LIMIT 1").fetchone()[0]
    calls = {
        "symbols_search": {"query": ids["name"][:6]},
        "symbols_get_card": {"symbol_id": ids["method"]},
        "code_get_span": {"file_path": first_file, "start_line": 1, "end_line": 40},
        "symbols_get_definition_span": {"symbol_id": ids["method"]},
        "refs_find": {"symbol_id": ids["type"]},
        "graph_callers (depth 3)": {"symbol_id": ids["method"], "depth": 3},
        "graph_callees (depth 3)": {"symbol_id": ids["method"], "depth": 3},
        "types_hierarchy": {"symbol_id": ids["type"], "transitive": True},
        "repo_status": {},
    }
    if "route" in ids:  # a solution with web code: the architectural facts too
        calls["surfaces_list_endpoints"] = {}
        calls["surfaces_list_config_keys"] = {}
        calls["graph_trace_feature (route)"] = {"entry_point": ids["route"]}
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)})
    out: dict[str, Any] = {"targets": ids["targets"]}
    try:
        for label, args in calls.items():
            tool = label.split(" ")[0]
            server.call(tool, args)  # warm: first call opens the baseline
            samples = []
            for _ in range(iterations):
                started = time.perf_counter()
                env = server.call(tool, args)
                samples.append((time.perf_counter() - started) * 1000)
                assert env["ok"], env
            samples.sort()
            out[label] = {"p50": round(statistics.median(samples), 2),
                          "p95": round(samples[int(len(samples) * 0.95) - 1], 2)}
    finally:
        server.close()
    return out


def synthetic_baseline(source_db: Path, out: Path, target_mb: int) -> dict[str, int]:
    """A baseline of about `target_mb` MB: the schema and meta of a real one, its symbols and references
    replicated (with distinct ids) until the file is big enough, indexes and FTS built like the writer does."""
    src = sqlite3.connect(source_db)
    rows = src.execute("SELECT type, name, sql FROM sqlite_master ORDER BY rowid").fetchall()
    objects = [(kind, sql) for kind, name, sql in rows if sql and not name.startswith(("sqlite_", "symbols_fts_"))]
    src.close()
    out.unlink(missing_ok=True)
    db = sqlite3.connect(out, isolation_level=None)
    db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
    for kind, sql in objects:
        if kind == "table":
            db.execute(sql)
    db.execute("ATTACH DATABASE ? AS src", (f"file:{source_db}?mode=ro",))
    db.execute("BEGIN")
    for table in ("meta", "projects", "files", "relations", "diagnostics"):
        db.execute(f"INSERT INTO {table} SELECT * FROM src.{table}")
    symbol_cols = ("stable_id, project_id, name, kind, fqn, signature, doc, namespace, container_id, file_id, line, "
                   "col, end_line, end_col, visibility, is_static, arity")
    ref_cols = "target_name, target_kind, project_id, file_id, line, col, end_col, kind, receiver"
    copies = 0
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    # Tables only so far; the indexes built afterwards add about 80% (measured on Shop-shaped rows).
    while db.execute("PRAGMA page_count").fetchone()[0] * page_size * 1.8 < target_mb * 1e6:
        copies += 1
        last = db.execute("SELECT coalesce(max(id), 0) FROM symbols").fetchone()[0]
        db.execute(f"INSERT INTO symbols(symbol_id, {symbol_cols}) SELECT symbol_id || '~{copies}', {symbol_cols}"
                   " FROM src.symbols")
        db.execute("INSERT INTO symbols_fts(rowid, name_terms, signature, doc) SELECT id, name, "
                   "coalesce(signature, ''), coalesce(doc, '') FROM symbols WHERE id > ?", (last,))
        # Each copy's symbol ids get their own keys: the source's, shifted by a multiple of its largest key.
        shift = copies * db.execute("SELECT max(key) FROM src.ids").fetchone()[0]
        db.execute(f"INSERT INTO ids(key, symbol_id) SELECT key + {shift}, symbol_id || '~{copies}' FROM src.ids")
        db.execute(f"INSERT INTO refs(target_key, from_key, {ref_cols}) SELECT target_key + {shift}, "
                   f"from_key + {shift}, {ref_cols} FROM src.refs")
    db.execute("COMMIT")
    db.execute("DETACH DATABASE src")
    for kind, sql in objects:
        if kind == "index":
            db.execute(sql)
    db.execute("ANALYZE")
    db.execute("PRAGMA journal_mode=WAL")
    counts = {"symbols": db.execute("SELECT count(*) FROM symbols").fetchone()[0],
              "refs": db.execute("SELECT count(*) FROM refs").fetchone()[0]}
    db.close()
    return counts


def measure_cache_pull(source_db: Path, work: Path, target_mb: int = 50, runs: int = 5) -> dict[str, Any]:
    """Pull + verify + open of a ~50 MB baseline from a shared cache folder into a fresh local store.

    Pull = copy while hashing, size/sha256/schema checks, fsync, rename (store/cache.py); open = the
    reader's schema check, meta, projects and one indexed symbol lookup, i.e. what index_ensure_baseline
    does before answering. Target: pull + open <= 1 s.
    """
    folder = work / "cache-bench"
    folder.mkdir(parents=True, exist_ok=True)
    big = folder / "baseline.db"
    counts = synthetic_baseline(source_db, big, target_mb)
    meta = cache.database_meta(big)
    store = folder / "cache"
    published = cache.publish(store, meta["repo_id"], meta["commit"], big)
    assert published.pushed, published.message
    symbol_id = sqlite3.connect(big).execute("SELECT symbol_id FROM symbols ORDER BY id DESC LIMIT 1").fetchone()[0]
    pulls, opens = [], []
    for run in range(runs):
        dest = folder / f"local-{run}" / f"{meta['commit']}.db"
        started = time.perf_counter()
        pulled = cache.pull(store, meta["repo_id"], meta["commit"], dest)
        pulled_at = time.perf_counter()
        assert pulled.status == "pulled", pulled.message
        conn = open_baseline(dest)
        read_meta(conn)
        project_rows(conn)
        assert conn.execute("SELECT id FROM symbols WHERE symbol_id = ?", (symbol_id,)).fetchone() is not None
        opens.append(time.perf_counter() - pulled_at)
        pulls.append(pulled_at - started)
        conn.close()
    totals = sorted(p + o for p, o in zip(pulls, opens, strict=True))
    return {
        "size_mb": round(big.stat().st_size / 1e6, 1), "symbols": counts["symbols"], "refs": counts["refs"],
        "runs": runs, "pull_s": round(statistics.median(pulls), 3),
        "open_ms": round(statistics.median(opens) * 1000, 1),
        "total_s": round(statistics.median(totals), 3), "total_max_s": round(totals[-1], 3),
    }


def measure_overlay_refresh(repo: Path, home: Path, iterations: int = 30,
                            file: str = "src/Shop.Services/OrderService.cs",
                            anchor: str = "var paid = order.MarkPaid();") -> dict[str, Any]:
    """index_refresh_overlay after a one-line edit of a method body, over MCP with a fresh server (so the
    first refresh loads the solution in a new worker: `cold_s`, `load_s`), then `iterations` more edits
    of the same body with the worker warm: p50/p95 of the round trip and of the server-side refresh.
    `repo` must be indexed already (measure_index); its working tree is restored afterwards."""
    path = repo / file
    original = path.read_text(encoding="utf-8")
    assert anchor in original, (file, anchor)
    # Verbose meta: the server-side time of each call (meta.timing_ms).
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home), "ROSLYNMAP_META": "verbose"})
    try:
        created = server.call("workspace_create", {"workspace_id": "bench-overlay"})
        assert created["ok"], created

        def refresh(n: int) -> tuple[float, dict[str, Any]]:
            path.write_text(original.replace(anchor, f"{anchor} var bench = {n};", 1), encoding="utf-8")
            started = time.perf_counter()
            env = server.call("index_refresh_overlay", {"workspace_id": "bench-overlay"})
            elapsed = (time.perf_counter() - started) * 1000
            assert env["ok"] and env["data"]["extracted"] == [file], env
            return elapsed, {**env["data"], "server_ms": env["meta"]["timing_ms"]["total"]}

        cold_ms, cold = refresh(0)
        samples, server_side = [], []
        for n in range(1, iterations + 1):
            elapsed, data = refresh(n)
            samples.append(elapsed)
            server_side.append(data["server_ms"])
        server.call("workspace_delete", {"workspace_id": "bench-overlay"})
    finally:
        path.write_text(original, encoding="utf-8")
        server.close()
    samples.sort()
    server_side.sort()
    return {
        "file": file, "iterations": iterations, "cold_s": round(cold_ms / 1000, 2),
        "load_s": cold.get("load_seconds", 0.0), "cold_start": cold["cold_start"],
        "p50_ms": round(statistics.median(samples), 1), "p95_ms": round(samples[int(len(samples) * 0.95) - 1], 1),
        "server_p50_ms": round(statistics.median(server_side), 1),
        "server_p95_ms": round(server_side[int(len(server_side) * 0.95) - 1], 1),
    }


def overlay_section(name: str, o: dict[str, Any]) -> list[str]:
    return ["", "## Workspace overlay refresh", "",
            f"index_refresh_overlay after a one-line edit of a method body in `{o['file']}`, over MCP: the first",
            "refresh after the server started (loads the solution in the worker), then "
            f"{o['iterations']} more edits with the worker warm. Target: warm p50 ≤ 100 ms.", "",
            "| input | first refresh s | of which load s | warm p50 ms | warm p95 ms | server-side p50 ms |"
            " server-side p95 ms |",
            "|---|---|---|---|---|---|---|",
            f"| {name} | {o['cold_s']} | {o['load_s']} | {o['p50_ms']} | {o['p95_ms']} | {o['server_p50_ms']} | "
            f"{o['server_p95_ms']} |"]


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
    except OSError:
        mem_kb = 0
    sdk = subprocess.run(["dotnet", "--version"], capture_output=True, text=True, check=False).stdout.strip()
    return (f"{cpu}, {os.cpu_count()} cores, {mem_kb // 1024 // 1024} GB RAM, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}, .NET SDK {sdk}")


NOTES = """
## Notes

- The machine is a 2-core VM shared with other work: repeated runs of the same query differ by
  a few milliseconds. Query targets are picked by the benchmark: the most called method and the
  most referenced type (listed under the latency table). Of a round trip, answers that fill the
  default 3,000-token budget spend 4-5 ms in the MCP SDK's stdio transport and JSON-RPC handling
  (server and client), small answers about 1.5 ms; the rest is the query.
- Schema 3 stores references under integer symbol keys. On the generator's previous revision (no
  web code; a method with 1,462 distinct callers) it took the baseline from 45.8 to 30.1 MB and
  `graph_callers` depth 3 from 11.0 to 7.9 ms p50 over MCP (3 ms of it in process).
- The index run disables nullable analysis (it only yields warnings). Two floors are measured: the
  solution as loaded (nullable analysis included: "floor s", "ratio") and the fair floor, compiled
  with the index's options (`compile_floor` with `options: "indexed"`, nullable analysis off: "fair
  floor s", "fair ratio"). Extraction runs on the bridge's worker threads, like the floor.
- One checkout instead of the samples: `python bench/run.py --repo PATH --solution REL/PATH.sln` (index
  against the floor and MCP latency, printed; `--out FILE` to write it).
- The generated solution's Api projects are ASP.NET Core code (shared framework, no NuGet): per
  feature a MapGroup with three minimal-API routes, a DI registration, a configuration key and a log
  template, plus thrown exceptions across the layers. EF Core, Dapper and Polly patterns need
  packages and are exercised on testdata/Web by the tests, where the difference is not measurable.
"""


def measure_facts_overhead(repo: Path, runs: int) -> dict[str, Any]:
    """Index time with fact extraction and without it (ROSLYNMAP_NO_FACTS=1, read by the bridge)."""
    info = inspect_repo(repo)
    target = baseline_path(info.repo_id, info.commit)
    timings: dict[str, list[float]] = {"with": [], "without": []}
    facts = 0
    for _ in range(runs):
        for label in ("without", "with"):
            if label == "without":
                os.environ["ROSLYNMAP_NO_FACTS"] = "1"
            try:
                seconds, result, _ = timed_request(repo, "index", {"out_path": str(target), "meta": {
                    "repo_id": info.repo_id, "commit": info.commit}})
            finally:
                os.environ.pop("ROSLYNMAP_NO_FACTS", None)
            timings[label].append(seconds)
            if label == "with":
                facts = result["meta"]["counts"]["facts"]
    best_with, best_without = min(timings["with"]), min(timings["without"])
    return {"with_s": round(best_with, 2), "without_s": round(best_without, 2), "facts": facts, "runs": runs,
            "overhead_pct": round((best_with / best_without - 1) * 100, 1)}


def facts_section(name: str, f: dict[str, Any]) -> list[str]:
    return ["", "## Fact extraction overhead", "",
            "The same index run with fact extraction and without it (`ROSLYNMAP_NO_FACTS=1`), fresh worker each,",
            f"best of {f['runs']}. Target: ≤ 10%. Differences of a few percent are within run-to-run noise here.", "",
            "| input | facts | index with facts s | index without facts s | overhead |",
            "|---|---|---|---|---|",
            f"| {name} | {f['facts']} | {f['with_s']} | {f['without_s']} | {f['overhead_pct']}% |"]


def cache_section(c: dict[str, Any]) -> list[str]:
    return ["", "## Shared cache", "",
            "A baseline of about 50 MB (the schema and meta of the Shop baseline, its symbols and references",
            "replicated) published to a cache folder on local disk, then pulled into a fresh local store:",
            "copy while hashing, size/sha256/schema checks, fsync, rename; then opened as index_ensure_baseline",
            "does (schema check, meta, projects, one indexed lookup). Target: pull + open ≤ 1 s. A network share",
            "adds its transfer time (50 MB at 1 Gbit/s is about 0.4 s).", "",
            "| baseline MB | symbols | references | runs | pull s (median) | open ms (median) |"
            " pull + open s (median) | pull + open s (max) |",
            "|---|---|---|---|---|---|---|---|",
            f"| {c['size_mb']} | {c['symbols']} | {c['refs']} | {c['runs']} | {c['pull_s']} | {c['open_ms']} | "
            f"{c['total_s']} | {c['total_max_s']} |"]


def render(results: dict[str, Any], machine_text: str, args: argparse.Namespace,
           sections: list[list[str]] | None = None) -> str:
    lines = [
        "# Benchmarks", "",
        "Measured by `python build.py bench` (bench/run.py). Numbers are from the last run on the machine below;",
        "re-run it after changing indexing or query code.", "",
        f"- Machine: {machine_text}",
        f"- Date: {time.strftime('%Y-%m-%d')}",
        f"- Input: `{args.repo}` ({args.solution or 'discovered solution'})" if getattr(args, "repo", None) else
        f"- Generated solution: `bench/generate.py --lines {args.lines} --seed {args.seed}`",
        f"- Index runs per input: {args.runs} (best of); MCP calls per tool: {args.iterations}", "",
        "## Indexing against the compile floor", "",
        "The compile floor is the same solution opened with MSBuildWorkspace and every document bound",
        "(`GetDiagnostics`) with no extraction, in a fresh worker, like the index run; the fair floor compiles"
        " with the index's options (nullable analysis off). Target: fair ratio ≤ 1.2.", "",
        "| input | C# lines | projects | files | symbols | references | floor s | fair floor s | index s | ratio |"
        " fair ratio | symbols/s | refs/s | worker peak RSS MB | baseline MB | level |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        ix = r["index"]
        lines.append(f"| {name} | {ix['lines']} | {ix['projects']} | {ix['files']} | {ix['symbols']} | "
                     f"{ix['references']} | {ix['floor_s']} | {ix.get('fair_floor_s', 'n/a')} | {ix['index_s']} | "
                     f"{ix['ratio']} | {ix.get('fair_ratio', 'n/a')} | "
                     f"{ix['symbols_per_s']} | {ix['refs_per_s']} | {ix['worker_peak_rss_mb']} | "
                     f"{ix['baseline_mb']} | {ix['semantic_level']} |")
    lines += ["", "## Query latency over MCP stdio", "",
              "Round trip through a real `roslynmap serve` process and the MCP Python client.",
              "Targets: symbols_search and symbols_get_card p50 ≤ 5 ms; refs_find and graph_callers (depth 3)"
              " p50 ≤ 10 ms.", ""]
    names = list(results)
    lines.append("| tool | " + " | ".join(f"{n} p50 ms | {n} p95 ms" for n in names) + " |")
    lines.append("|---|" + "---|---|" * len(names))
    tools = list(dict.fromkeys(tool for n in names for tool in results[n]["queries"] if tool != "targets"))
    for tool in tools:  # "-": the input has nothing to ask that tool about (no web code in Shop)
        cells = " | ".join(f"{q[tool]['p50']} | {q[tool]['p95']}" if tool in q else "- | -"
                           for q in (results[n]["queries"] for n in names))
        lines.append(f"| {tool} | {cells} |")
    lines.append("")
    lines += [f"- {n}: {results[n]['queries']['targets']}." for n in names]
    for section in sections or []:
        lines += section
    lines += NOTES.rstrip("\n").split("\n")
    return "\n".join(lines) + "\n"


def real_repos_section(path: Path) -> str:
    """The "Real repositories" section bench/real_repos.py wrote (kept: this run does not measure it)."""
    text = path.read_text() if path.is_file() else ""
    start = text.find("\n## Real repositories")
    return text[start:] if start >= 0 else ""


def measure_one(repo: Path, args: argparse.Namespace, work: Path) -> None:
    """--repo: one checkout as it is (restore it first), with the solution asked for."""
    print(f"[bench] {repo.name}: indexing {args.solution or '(discovered solution)'}", flush=True)
    index = measure_index(repo, args.runs, args.solution)
    print(f"[bench] {repo.name}: {index}", flush=True)
    queries = measure_queries(repo, work / "home", args.iterations)
    text = render({repo.name: {"index": index, "queries": queries}}, machine(), args)
    if args.out:
        Path(args.out).write_text(text)
    print(text)
    shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--out", help="default docs/benchmarks.md; with --repo, print only")
    parser.add_argument("--repo", help="measure this checkout (index vs floor, MCP latency) instead of the samples")
    parser.add_argument("--solution", help="with --repo: its repo-relative .slnx/.sln/.csproj")
    args = parser.parse_args()
    if args.solution and not args.repo:
        parser.error("--solution needs --repo")
    work = Path(tempfile.mkdtemp(prefix="roslynmap-bench-"))
    os.environ["ROSLYNMAP_HOME"] = str(work / "home")
    if args.repo:
        measure_one(Path(args.repo).resolve(), args, work)
        return
    inputs = {"testdata/Shop": make_repo(ROOT / "testdata" / "Shop", work / "Shop")}
    generated = work / "generated-src"
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate.py"), str(generated), "--lines",
                    str(args.lines), "--seed", str(args.seed)], check=True)
    inputs[f"generated {args.lines // 1000}k"] = make_repo(generated, work / "Generated")
    results: dict[str, Any] = {}
    for name, repo in inputs.items():
        print(f"[bench] {name}: indexing", flush=True)
        index = measure_index(repo, args.runs)
        print(f"[bench] {name}: {index}", flush=True)
        queries = measure_queries(repo, work / "home", args.iterations)
        print(f"[bench] {name}: {queries}", flush=True)
        results[name] = {"index": index, "queries": queries}
    shop = inspect_repo(inputs["testdata/Shop"])
    print("[bench] shared cache: pull + open of a ~50 MB baseline", flush=True)
    cache_pull = measure_cache_pull(baseline_path(shop.repo_id, shop.commit), work)
    print(f"[bench] shared cache: {cache_pull}", flush=True)
    generated_name = f"generated {args.lines // 1000}k"
    print("[bench] fact extraction overhead", flush=True)
    facts = measure_facts_overhead(inputs[generated_name], max(args.runs, 2))
    print(f"[bench] facts: {facts}", flush=True)
    print("[bench] workspace overlay refresh", flush=True)
    overlay = measure_overlay_refresh(inputs["testdata/Shop"], work / "home", iterations=50)
    print(f"[bench] overlay: {overlay}", flush=True)
    sections = [facts_section(generated_name, facts), overlay_section("testdata/Shop", overlay),
                cache_section(cache_pull)]
    out = args.out or str(ROOT / "docs" / "benchmarks.md")
    Path(out).write_text(render(results, machine(), args, sections) + real_repos_section(Path(out)))
    print(f"[bench] wrote {out}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
