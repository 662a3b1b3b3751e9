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
from roslynmap.store.paths import baseline_path  # noqa: E402
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


def timed_request(repo: Path, op: str, extra: dict[str, Any]) -> tuple[float, dict[str, Any], float | None]:
    info = inspect_repo(repo)
    solution = find_solution(info.root)
    client = WorkerClient()
    try:
        started = time.perf_counter()
        result = client.request({"op": op, "repo_root": str(info.root), "solution": str(solution), **extra})
        elapsed = time.perf_counter() - started
        rss = peak_rss_mb(client.pid)
    finally:
        client.close()
    return elapsed, result, rss


def measure_index(repo: Path, runs: int) -> dict[str, Any]:
    info = inspect_repo(repo)
    floors, indexes = [], []
    result: dict[str, Any] = {}
    rss = None
    for _ in range(runs):
        floor_s, _, _ = timed_request(repo, "compile_floor", {})
        floors.append(floor_s)
        target = baseline_path(info.repo_id, info.commit)
        index_s, result, rss = timed_request(repo, "index", {"out_path": str(target), "meta": {
            "repo_id": info.repo_id, "commit": info.commit}})
        indexes.append(index_s)
    counts = result["meta"]["counts"]
    floor, index = min(floors), min(indexes)
    lines = sum(len(p.read_text(errors="replace").splitlines()) for p in info.root.rglob("*.cs")
                if "obj" not in p.parts and "bin" not in p.parts)
    return {
        "lines": lines, "projects": counts["projects"], "files": counts["files"],
        "symbols": counts["symbols"], "references": counts["references"],
        "floor_s": round(floor, 2), "index_s": round(index, 2), "ratio": round(index / floor, 2),
        "symbols_per_s": int(counts["symbols"] / index), "refs_per_s": int(counts["references"] / index),
        "worker_peak_rss_mb": rss, "semantic_level": result["meta"]["semantic_level"],
        "baseline_mb": round(baseline_path(info.repo_id, info.commit).stat().st_size / 1e6, 1),
    }


def pick_ids(repo: Path) -> dict[str, str]:
    """Realistic targets: the most-referenced method and type, and a name to search for."""
    info = inspect_repo(repo)
    conn = sqlite3.connect(baseline_path(info.repo_id, info.commit))
    method = conn.execute("SELECT target_id FROM refs WHERE kind='Call' AND target_id IN (SELECT symbol_id FROM"
                          " symbols) GROUP BY target_id ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
    type_id = conn.execute("SELECT target_id FROM refs WHERE target_id LIKE 'T:%' AND target_id IN (SELECT"
                           " symbol_id FROM symbols) GROUP BY target_id ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
    name = conn.execute("SELECT name FROM symbols WHERE kind='Class' ORDER BY id LIMIT 1").fetchone()[0]
    conn.close()
    return {"method": method, "type": type_id, "name": name}


def measure_queries(repo: Path, home: Path, iterations: int) -> dict[str, dict[str, float]]:
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
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(home)})
    out: dict[str, dict[str, float]] = {}
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


def render(results: dict[str, Any], machine_text: str, args: argparse.Namespace) -> str:
    lines = [
        "# Benchmarks", "",
        "Measured by `python build.py bench` (bench/run.py). Numbers are from the last run on the machine below;",
        "re-run it after changing indexing or query code.", "",
        f"- Machine: {machine_text}",
        f"- Date: {time.strftime('%Y-%m-%d')}",
        f"- Generated solution: `bench/generate.py --lines {args.lines} --seed {args.seed}`",
        f"- Index runs per input: {args.runs} (best of); MCP calls per tool: {args.iterations}", "",
        "## Indexing against the compile floor", "",
        "The compile floor is the same solution opened with MSBuildWorkspace and every document bound",
        "(`GetDiagnostics`) with no extraction, in a fresh worker, like the index run. Target: ratio ≤ 1.5.", "",
        "| input | C# lines | projects | files | symbols | references | floor s | index s | ratio |"
        " symbols/s | refs/s | worker peak RSS MB | baseline MB | level |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        ix = r["index"]
        lines.append(f"| {name} | {ix['lines']} | {ix['projects']} | {ix['files']} | {ix['symbols']} | "
                     f"{ix['references']} | {ix['floor_s']} | {ix['index_s']} | {ix['ratio']} | "
                     f"{ix['symbols_per_s']} | {ix['refs_per_s']} | {ix['worker_peak_rss_mb']} | "
                     f"{ix['baseline_mb']} | {ix['semantic_level']} |")
    lines += ["", "## Query latency over MCP stdio", "",
              "Round trip through a real `roslynmap serve` process and the MCP Python client.",
              "Targets: symbols_search and symbols_get_card p50 ≤ 5 ms; refs_find and graph_callers (depth 3)"
              " p50 ≤ 10 ms.", ""]
    names = list(results)
    lines.append("| tool | " + " | ".join(f"{n} p50 ms | {n} p95 ms" for n in names) + " |")
    lines.append("|---|" + "---|---|" * len(names))
    for tool in results[names[0]]["queries"]:
        cells = " | ".join(f"{results[n]['queries'][tool]['p50']} | {results[n]['queries'][tool]['p95']}"
                           for n in names)
        lines.append(f"| {tool} | {cells} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--out", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="roslynmap-bench-"))
    os.environ["ROSLYNMAP_HOME"] = str(work / "home")
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
    Path(args.out).write_text(render(results, machine(), args))
    print(f"[bench] wrote {args.out}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
