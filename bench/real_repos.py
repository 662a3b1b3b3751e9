"""Real-repository harness (not run in CI: it needs checkouts of public repositories and NuGet).

    python bench/real_repos.py /work/repos/eShopOnWeb:eShopOnWeb.sln \
        /work/repos/Newtonsoft.Json:Src/Newtonsoft.Json.slnx --restore --markdown out.md --json out.json

Each argument is a checkout, optionally `:<repo-relative solution>`. Per repository it prints the
projects, the frameworks chosen (as the bridge's Describe reports them), the restore outcome per
project (solution restore first; project by project when that fails), the semantic level with its
evidence (the engine's bound share and missing-reference errors, and the bound share measured here
from the baseline's references), symbols, references, index time against the compile floor, and
the answers to a few known probes. Fields the engine does not report yet print as "n/a".
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT))

NA = "n/a"
SOLUTION_SUFFIXES = (".sln", ".slnx", ".csproj", ".slnf")

# Known questions per repository (by checkout folder name): (label, tool, arguments).
PROBES: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    "Newtonsoft.Json": [
        ("refs SerializeObject(Object)", "refs_find",
         {"symbol_id": "M:Newtonsoft.Json.JsonConvert.SerializeObject(System.Object)", "limit": 1}),
        ("callers SerializeObject(Object)", "graph_callers",
         {"symbol_id": "M:Newtonsoft.Json.JsonConvert.SerializeObject(System.Object)", "limit_per_level": 200}),
    ],
    "eShopOnWeb": [
        ("callers Basket.AddItem d2", "graph_callers",
         {"symbol_id": "M:Microsoft.eShopWeb.ApplicationCore.Entities.BasketAggregate.Basket.AddItem"
                       "(System.Int32,System.Decimal,System.Int32)", "depth": 2, "limit_per_level": 200}),
        ("refs IRepository.GetByIdAsync (name)", "refs_find",
         {"name": "GetByIdAsync", "receiver_type": "IRepository", "limit": 1}),
    ],
    "eShop": [
        ("refs Order.AddOrderItem", "refs_find",
         {"symbol_id": "M:eShop.Ordering.Domain.AggregatesModel.OrderAggregate.Order.AddOrderItem"
                       "(System.Int32,System.String,System.Decimal,System.Decimal,System.String,System.Int32)",
          "limit": 1}),
        ("endpoints", "surfaces_list_endpoints", {"limit": 1}),
    ],
    "jellyfin": [
        ("refs ILibraryManager", "refs_find", {"symbol_id": "T:MediaBrowser.Controller.Library.ILibraryManager",
                                               "limit": 1}),
        ("endpoints", "surfaces_list_endpoints", {"limit": 1}),
        ("callers ILibraryManager.GetItemById(Guid)", "graph_callers",
         {"symbol_id": "M:MediaBrowser.Controller.Library.ILibraryManager.GetItemById(System.Guid)"}),
        ("types under BaseItem", "types_hierarchy", {"symbol_id": "T:MediaBrowser.Controller.Entities.BaseItem",
                                                     "transitive": True}),
    ],
}


@dataclass
class RepoRun:
    path: Path
    solution: str
    commit: str = ""
    projects: list[str] = field(default_factory=list)
    restore: dict[str, str] = field(default_factory=dict)  # project -> "ok" | "failed: ..." | "assets present"
    restore_mode: str = "not run"
    index: dict[str, Any] = field(default_factory=dict)
    index_wall_s: float | None = None
    floor_s: float | None = None
    fair_floor_s: float | None = None  # compiled with the index's options (nullable analysis off)
    describe: dict[str, Any] = field(default_factory=dict)
    measured: dict[str, Any] = field(default_factory=dict)
    probes: list[dict[str, Any]] = field(default_factory=list)
    surfaces: dict[str, Any] = field(default_factory=dict)  # endpoint/config/table/DI counts (issue 13)
    no_facts: dict[str, Any] = field(default_factory=dict)  # the same index without fact extraction
    error: str | None = None


def parse_spec(spec: str) -> tuple[Path, str | None]:
    head, sep, tail = spec.rpartition(":")
    if sep and tail.endswith(SOLUTION_SUFFIXES) and head:
        return Path(head).resolve(), tail
    return Path(spec).resolve(), None


def solution_projects(path: Path) -> list[Path]:
    """The .csproj files a .sln / .slnx / .slnf / .csproj names (C# only)."""
    if path.suffix == ".csproj":
        return [path]
    if path.suffix == ".slnx":
        found = [p.get("Path", "") for p in ET.parse(path).getroot().iter("Project")]
    elif path.suffix == ".slnf":
        data = json.loads(path.read_text(encoding="utf-8-sig"))
        base = path.parent / Path(data["solution"]["path"]).parent
        return [(base / p.replace("\\", "/")).resolve() for p in data["solution"]["projects"]
                if p.endswith(".csproj")]
    else:
        found = re.findall(r'^Project\("[^"]*"\)\s*=\s*"[^"]*",\s*"([^"]+)"', path.read_text(encoding="utf-8-sig"),
                           re.M)
    return [(path.parent / p.replace("\\", "/")).resolve() for p in found if p.endswith(".csproj")]


def restore(run: RepoRun, timeout: int) -> None:
    """roslynmap's own restore (roslyn/restore.py), as `roslynmap index --restore` runs it: the solution,
    else project by project, so one bad project costs only itself."""
    from roslynmap.roslyn.restore import restore as roslynmap_restore

    os.environ.setdefault("ROSLYNMAP_RESTORE_TIMEOUT_SECONDS", str(timeout))
    with contextlib.redirect_stdout(io.StringIO()):  # dotnet's output; the outcome is what we keep
        outcome = roslynmap_restore(str(run.path / run.solution), run.path, lambda _event: None)
    if outcome["mode"] == "solution":
        run.restore_mode = "solution" if outcome["status"] == "restored" else f"solution: {outcome['message']}"
        run.restore = dict.fromkeys(run.projects, "ok" if outcome["status"] == "restored" else "failed")
        return
    run.restore_mode = "per project (the solution restore failed)"
    for item in outcome["projects"]:
        first = item["errors"][0] if item["errors"] else item["status"]
        run.restore[item["path"]] = "ok" if item["status"] == "restored" else f"{item['status']}: {first}"


def assets_state(run: RepoRun) -> None:
    """Without --restore: which projects have a project.assets.json (obj/ or artifacts/obj/<name>/)."""
    run.restore_mode = "not run (assets found on disk)"
    for project in run.projects:
        proj = run.path / project
        candidates = [proj.parent / "obj" / "project.assets.json",
                      *[p / "obj" / proj.stem / "project.assets.json" for p in [run.path / "artifacts"]]]
        run.restore[project] = "assets present" if any(c.is_file() for c in candidates) else "no assets"


def index(run: RepoRun, env: dict[str, str], timeout: int) -> None:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "roslynmap.cli", "index", str(run.path), "--solution", run.solution,
                           "--json", "--force"], capture_output=True, text=True, env=env, timeout=timeout,
                          check=False)
    run.index_wall_s = round(time.perf_counter() - started, 1)
    try:
        run.index = json.loads(done.stdout)
    except json.JSONDecodeError:
        run.error = f"index exited {done.returncode}: {done.stderr.strip()[-300:]}"
        return
    if not run.index.get("ok"):
        run.error = json.dumps(run.index.get("error"))


def floor(run: RepoRun) -> None:
    """The compile floors in fresh workers (as bench/run.py measures them), with the bridge's Describe: as
    loaded, and the fair one with the index's compilation options (nullable analysis off)."""
    from roslynmap.roslyn.client import WorkerClient

    for options in ("loaded", "indexed"):
        client = WorkerClient()
        try:
            started = time.perf_counter()
            result = client.request({"op": "compile_floor", "repo_root": str(run.path),
                                     "solution": str(run.path / run.solution), "options": options})
            seconds = round(time.perf_counter() - started, 1)
            if options == "loaded":
                run.floor_s = seconds
            else:
                run.fair_floor_s = seconds
            run.describe = result.get("describe", {})
        finally:
            client.close()


def measure(run: RepoRun) -> None:
    """Bound share per project and overall, counted here from the baseline's references."""
    path = run.index.get("path")
    if not path or not Path(path).is_file():
        return
    conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    rows = conn.execute("SELECT p.name, count(r.id), sum(r.target_key IS NOT NULL) FROM projects p"
                        " LEFT JOIN refs r ON r.project_id = p.id GROUP BY p.id").fetchall()
    run.measured = {"per_project": {name: (round(bound / total, 4) if total else None) for name, total, bound in rows},
                    "refs": sum(r[1] for r in rows), "bound": sum(r[2] or 0 for r in rows)}
    run.measured["bound_share"] = round(run.measured["bound"] / run.measured["refs"], 4) if run.measured["refs"] \
        else None
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    run.measured["meta_keys"] = sorted(meta)
    conn.close()


def probe(run: RepoRun, env: dict[str, str], extra: list[tuple[str, str, dict[str, Any]]]) -> None:
    for label, tool, args in PROBES.get(run.path.name, []) + extra:
        done = subprocess.run([sys.executable, "-m", "roslynmap.cli", "call", tool, json.dumps(args), "--repo",
                               str(run.path)], capture_output=True, text=True, env=env, timeout=600, check=False)
        try:
            envelope = json.loads(done.stdout)
        except json.JSONDecodeError:
            run.probes.append({"label": label, "answer": f"no JSON (exit {done.returncode})"})
            continue
        if envelope.get("ok"):
            answer = envelope.get("answer", "")
        else:
            error = envelope.get("error", {})
            answer = f"{error.get('code')}: {error.get('message')}"
        run.probes.append({"label": label, "tool": tool, "args": args, "answer": answer,
                           "total": (envelope.get("overflow") or {}).get("total")})


# Counts of the architectural surfaces: (label, tool, arguments, field of `data` holding per-group counts).
SURFACES: list[tuple[str, str, dict[str, Any], str | None, str | None]] = [
    ("endpoints", "surfaces_list_endpoints", {}, "by_method", "method"),
    ("config keys", "surfaces_list_config_keys", {}, "by_status", "status"),
    ("tables", "surfaces_list_db_tables", {}, None, None),
    ("DI registrations", "surfaces_list", {"kind": "di"}, "by_lifetime", "lifetime")]


def surfaces(run: RepoRun, env: dict[str, str]) -> None:
    """The endpoint, configuration-key, table and DI-registration counts, as the tools answer them."""
    for label, tool, extra, counts_field, group in SURFACES:
        args = json.dumps({"limit": 1, **extra})
        done = subprocess.run([sys.executable, "-m", "roslynmap.cli", "call", tool, args, "--repo", str(run.path)],
                              capture_output=True, text=True, env=env, timeout=600, check=False)
        try:
            envelope = json.loads(done.stdout)
        except json.JSONDecodeError:
            run.surfaces[label] = {"error": f"no JSON (exit {done.returncode})"}
            continue
        total = re.match(r"\s*(\d+)", envelope.get("answer", ""))
        entry: dict[str, Any] = {"total": int(total.group(1)) if total else NA}
        if counts_field and group:
            groups = (envelope.get("data") or {}).get(counts_field, [])
            entry["by"] = {str(c.get(group)): c.get("count") for c in groups}
        run.surfaces[label] = entry


def _index_seconds(run: RepoRun, env: dict[str, str], timeout: int) -> tuple[float, float | None] | None:
    """(the engine's index seconds, of which extraction: the index less the solution load, read from the
    baseline's meta). MSBuild's load is most of the run-to-run noise and owes nothing to facts."""
    done = subprocess.run([sys.executable, "-m", "roslynmap.cli", "index", str(run.path), "--solution", run.solution,
                           "--json", "--force"], capture_output=True, text=True, env=env, timeout=timeout, check=False)
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        return None
    seconds = result.get("index_seconds")
    if not isinstance(seconds, (int, float)):
        return None
    extract = None
    if result.get("path") and Path(result["path"]).is_file():
        conn = sqlite3.connect(f"file:{result['path']}?immutable=1", uri=True)
        row = conn.execute("SELECT value FROM meta WHERE key = 'load_ms'").fetchone()
        conn.close()
        if row and str(row[0]).replace(".", "", 1).isdigit():
            extract = round(float(seconds) - float(row[0]) / 1000, 1)
    return float(seconds), extract


def facts_overhead(run: RepoRun, env: dict[str, str], timeout: int, runs: int) -> None:
    """Index with facts and with ROSLYNMAP_NO_FACTS=1, alternating, `runs` times each (fresh worker,
    forced); the best of each: what fact extraction costs, with the machine's noise damped. The last
    index written is a full one (with facts) again, so later probes see facts."""
    with_facts: list[tuple[float, float | None]] = []
    without: list[tuple[float, float | None]] = []
    for _ in range(runs):
        if (measured := _index_seconds(run, {**env, "ROSLYNMAP_NO_FACTS": "1"}, timeout)) is not None:
            without.append(measured)
        if (measured := _index_seconds(run, env, timeout)) is not None:
            with_facts.append(measured)
    # CPU time would resist a loaded machine better, but the worker outlives the CLI (idle timeout), so
    # the CLI's child usage does not hold it.
    run.no_facts = {"with_facts_s": [w for w, _ in with_facts], "without_facts_s": [w for w, _ in without],
                    "with_facts_extract_s": [e for _, e in with_facts],
                    "without_facts_extract_s": [e for _, e in without],
                    "index_seconds": min((w for w, _ in without), default=None),
                    "with_index_seconds": min((w for w, _ in with_facts), default=None),
                    "extract_without": min((e for _, e in without if e is not None), default=None),
                    "extract_with": min((e for _, e in with_facts if e is not None), default=None)}


def get(mapping: dict[str, Any], *keys: str) -> Any:
    """The first of `keys` present in `mapping`, else "n/a" (fields other work adds later)."""
    for key in keys:
        if key in mapping and mapping[key] is not None:
            return mapping[key]
    return NA


def project_rows(run: RepoRun) -> list[dict[str, Any]]:
    described = {p.get("name"): p for p in run.describe.get("projects", [])}
    indexed = {p.get("name"): p for p in run.index.get("projects", [])}
    names = list(dict.fromkeys([Path(p).stem for p in run.projects] + list(indexed)))
    out = []
    for name in names:
        d, ix = described.get(name, {}), indexed.get(name, {})
        project_path = next((p for p in run.projects if Path(p).stem == name), None)
        out.append({
            "project": name,
            "frameworks": get(d, "target_frameworks", "frameworks") if d else get(ix, "target_frameworks"),
            "chosen": get(ix, "chosen_framework", "target_framework") if ix else get(d, "chosen_framework",
                                                                                   "target_framework"),
            "skipped": get(ix, "skipped_frameworks") if ix else get(d, "skipped_frameworks"),
            "restore": run.restore.get(project_path or "", NA),
            "level": get(ix, "semantic_level"),
            "bound_share": get(ix, "bound_share"),
            "measured_bound_share": run.measured.get("per_project", {}).get(name, NA),
            "errors": get(ix, "error_count"),
            "missing_ref_errors": get(ix, "missing_reference_errors"),
            "symbols": get(ix, "symbol_count"),
            "refs": get(ix, "reference_count"),
            "load_errors": len(ix.get("load_errors") or []),
        })
    return out


def pct(value: Any) -> str:
    return f"{value * 100:.1f}%" if isinstance(value, float) else str(value)


def render(runs: list[RepoRun], machine_text: str) -> str:
    lines = ["## Real repositories", "",
             "Measured by `bench/real_repos.py` (not in CI: it needs checkouts and NuGet). NuGet came from a",
             "partial mirror, so some packages are missing: that is part of what is measured.", "",
             f"- Machine: {machine_text}", f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", "",
             "| repository | commit | solution | projects | restored | level | bound share (engine / measured) |"
             " missing-ref errors | symbols | references | unresolved | index s (engine) | index s (wall) | floor s |"
             " ratio | fair floor s | fair ratio |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for run in runs:
        counts = run.index.get("counts", {}) or {}
        restored = sum(1 for v in run.restore.values() if v in ("ok", "assets present"))
        missing = sum(p.get("missing_reference_errors") or 0 for p in run.index.get("projects", []))
        index_s = run.index.get("index_seconds")
        # wall against wall: both pay a fresh worker's start and the solution load
        ratio = round(run.index_wall_s / run.floor_s, 2) if run.index_wall_s and run.floor_s else NA
        fair = round(run.index_wall_s / run.fair_floor_s, 2) if run.index_wall_s and run.fair_floor_s else NA
        evidence = run.index.get("level_evidence") or {}
        lines.append(
            f"| {run.path.name} | {run.commit[:12]} | {run.solution} | {len(run.projects)} | "
            f"{restored}/{len(run.restore)} | {get(run.index, 'semantic_level')} | "
            f"{pct(get(evidence, 'bound_share'))} / {pct(run.measured.get('bound_share', NA))} | {missing} | "
            f"{counts.get('symbols', NA)} | {counts.get('references', NA)} | {counts.get('unresolved_references', NA)} "
            f"| {index_s if index_s is not None else NA} | {run.index_wall_s or NA} | "
            f"{run.floor_s if run.floor_s is not None else NA} | "
            f"{ratio} | {run.fair_floor_s if run.fair_floor_s is not None else NA} | {fair} |")
    if any(r.surfaces for r in runs):
        lines += ["", "### Surfaces and fact-extraction overhead", "",
                  "Counts as the surfaces_* tools answer them; overhead: the engine's index seconds with facts against"
                  " the same index with `ROSLYNMAP_NO_FACTS=1`, alternating, best of each (`--overhead-runs`, fresh"
                  " worker each; a few percent is noise on this shared machine). Target: ≤ 10%.", "",
                  "| repository | endpoints | config keys | tables | DI registrations | facts | index s with facts |"
                  " without | overhead | extraction s with facts | without | extraction overhead |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for run in runs:
            cells = []
            for label, *_ in SURFACES:
                entry = run.surfaces.get(label, {})
                by = ", ".join(f"{v} {k}" for k, v in (entry.get("by") or {}).items())
                cells.append(f"{entry.get('total', NA)}" + (f" ({by})" if by else ""))
            with_facts = run.no_facts.get("with_index_seconds") or run.index.get("index_seconds")
            without = run.no_facts.get("index_seconds")
            overhead = f"{(with_facts - without) / without * 100:.1f}%" if isinstance(with_facts, (int, float)) and \
                isinstance(without, (int, float)) and without else NA
            facts = (run.index.get("counts") or {}).get("facts", NA)
            ex_with, ex_without = run.no_facts.get("extract_with"), run.no_facts.get("extract_without")
            ex = f"{(ex_with - ex_without) / ex_without * 100:.1f}%" if ex_with and ex_without else NA
            lines.append(f"| {run.path.name} | " + " | ".join(cells) + f" | {facts} | {with_facts or NA} | "
                         f"{without or NA} | {overhead} | {ex_with or NA} | {ex_without or NA} | {ex} |")
    for run in runs:
        lines += ["", f"### {run.path.name}", ""]
        if run.error:
            lines += [f"Index failed: {run.error}", ""]
        lines += [f"Restore: {run.restore_mode}.", "",
                  "| project | frameworks | chosen | skipped | restore | level | bound share (engine / measured) |"
                  " errors | missing-ref errors | load errors | symbols | refs |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for p in project_rows(run):
            frameworks = ";".join(p["frameworks"]) if isinstance(p["frameworks"], list) else p["frameworks"]
            skipped = "; ".join(s if isinstance(s, str) else f"{s['framework']} ({s['reason']})"
                                for s in p["skipped"]) if isinstance(p["skipped"], list) else p["skipped"]
            lines.append(f"| {p['project']} | {frameworks} | {p['chosen']} | {skipped} | {p['restore']} | "
                         f"{p['level']} | {pct(p['bound_share'])} / {pct(p['measured_bound_share'])} | {p['errors']} | "
                         f"{p['missing_ref_errors']} | {p['load_errors']} | {p['symbols']} | {p['refs']} |")
        if run.probes:
            lines += ["", "| probe | answer |", "|---|---|"]
            lines += [f"| {p['label']} | {p['answer'].replace('|', '/')} |" for p in run.probes]
    return "\n".join(lines) + "\n"


def main() -> None:
    from roslynmap.roslyn.discovery import find_solution
    from run import machine  # bench/run.py, beside this file

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repos", nargs="+", help="checkout[:repo-relative solution]")
    parser.add_argument("--restore", action="store_true", help="dotnet restore first (per project on failure)")
    parser.add_argument("--no-floor", action="store_true", help="skip the compile floor (saves one solution load)")
    parser.add_argument("--facts-overhead", action="store_true",
                        help="index again with ROSLYNMAP_NO_FACTS=1 (the fact-extraction overhead); after the probes")
    parser.add_argument("--overhead-runs", type=int, default=2, help="index pairs for --facts-overhead (best of each)")
    parser.add_argument("--home", help="ROSLYNMAP_HOME (default: a fresh temporary folder)")
    parser.add_argument("--probe", action="append", default=[], metavar="'LABEL|TOOL|JSON'",
                        help="an extra probe for every repository")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per restore or index")
    parser.add_argument("--json", help="write the raw results here")
    parser.add_argument("--markdown", help="write the 'Real repositories' section here")
    parser.add_argument("--from-json", action="store_true", help="the arguments are --json files of earlier runs: "
                        "render them again, run nothing")
    args = parser.parse_args()
    if args.from_json:
        loaded = [RepoRun(**{**r, "path": Path(r["path"])})
                  for f in args.repos for r in json.loads(Path(f).read_text())]
        text = render(loaded, machine())
        print(text)
        if args.markdown:
            Path(args.markdown).write_text(text)
        return
    home = args.home or tempfile.mkdtemp(prefix="roslynmap-real-")
    env = {**os.environ, "ROSLYNMAP_HOME": home, "PYTHONPATH": str(ROOT / "python")}
    extra = [(label, tool, json.loads(raw)) for label, tool, raw in (p.split("|", 2) for p in args.probe)]
    runs = []
    for spec in args.repos:
        path, solution = parse_spec(spec)
        run = RepoRun(path, solution or find_solution(path).relative_to(path).as_posix())
        run.commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=path, capture_output=True, text=True,
                                    check=False).stdout.strip()
        run.projects = [p.relative_to(path).as_posix() for p in solution_projects(path / run.solution)]
        print(f"[real] {path.name}: {len(run.projects)} projects in {run.solution} @ {run.commit[:12]}", flush=True)
        if args.restore:
            restore(run, args.timeout)
        else:
            assets_state(run)
        print(f"[real] {path.name}: restore {run.restore_mode}: {run.restore}", flush=True)
        index(run, env, args.timeout)
        print(f"[real] {path.name}: index {run.index.get('semantic_level')} {run.index.get('counts')} "
              f"{run.index.get('index_seconds')} s {run.error or ''}", flush=True)
        if not args.no_floor:
            try:
                floor(run)
            except Exception as exc:  # a failed floor is reported, the run goes on
                print(f"[real] {path.name}: floor failed: {exc}", flush=True)
            print(f"[real] {path.name}: floor {run.floor_s} s", flush=True)
        measure(run)
        probe(run, env, extra)
        surfaces(run, env)
        print(f"[real] {path.name}: surfaces {run.surfaces}", flush=True)
        if args.facts_overhead and not run.error:
            facts_overhead(run, env, args.timeout, args.overhead_runs)
            print(f"[real] {path.name}: facts overhead runs {run.no_facts}", flush=True)
        for p in run.probes:
            print(f"[real] {path.name}: {p['label']}: {p['answer']}", flush=True)
        runs.append(run)
        if args.json:  # after every repository: a long run keeps what it has
            Path(args.json).write_text(json.dumps([{**r.__dict__, "path": str(r.path)} for r in runs], indent=1,
                                                  default=str))
    text = render(runs, machine())
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
