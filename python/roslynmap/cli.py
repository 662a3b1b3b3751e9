"""`roslynmap index | serve | call`: the terminal and CI face of the same tools the agent calls."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from roslynmap import __version__
from roslynmap.model.errors import ErrorCode, RoslynMapError

if TYPE_CHECKING:
    from roslynmap.store.cache import CacheRoot

EXIT_OK, EXIT_FAILED, EXIT_DEGRADED = 0, 1, 2
# `index --push` that published nothing while the cache lacks the commit (push.status skipped_degraded or
# skipped_dirty): a CI job must not go green with an empty cache.
EXIT_NOT_PUSHED = 3
NOT_PUSHED = frozenset({"skipped_degraded", "skipped_dirty"})


class Progress:
    """A one-line bar on a terminal; plain periodic lines in CI logs (no carriage returns)."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last_plain = 0.0
        self.phase = ""
        self.drawn = False

    def __call__(self, event: dict[str, Any]) -> None:
        if event.get("event") != "progress":
            return
        phase, done, total = event["phase"], event.get("done", 0), max(event.get("total", 1), 1)
        if self.tty:
            filled = int(30 * done / total)
            sys.stderr.write(f"\r{phase:<8} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} ")
            sys.stderr.flush()
            self.drawn = True
        elif phase != self.phase or time.monotonic() - self.last_plain > 5 or done == total:
            sys.stderr.write(f"roslynmap: {phase} {done}/{total}\n")
            self.last_plain = time.monotonic()
        self.phase = phase

    def end(self) -> None:
        """Ends the bar's line (once), so later messages start on a line of their own."""
        if self.drawn:
            sys.stderr.write("\n")
            self.drawn = False


def for_cli(exc: RoslynMapError) -> RoslynMapError:
    """The CLI spells the solution choice `--solution PATH`, not the tool parameter `solution_path`."""
    paths = [c["solution_path"] for c in exc.candidates or [] if isinstance(c, dict) and "solution_path" in c]
    if exc.code == ErrorCode.AMBIGUOUS and paths:
        from roslynmap.model.hints import solution_hint

        suffix = " Or add a .slnx." if "add a .slnx" in exc.hint else ""
        exc.hint = solution_hint(paths, cli=True, more="(more exist)" in exc.hint) + suffix
    return exc


def _say(message: str) -> None:
    sys.stderr.write(f"roslynmap: {message}\n")
    sys.stderr.flush()


def _cache_dir_for(args: argparse.Namespace) -> CacheRoot | None:
    """--cache-dir (checked even when blank), else ROSLYNMAP_CACHE_DIR; writable and outside the repo to push."""
    from roslynmap.store.cache import check_cache_dir, configured_cache_dir
    from roslynmap.store.repo import inspect_repo

    raw = args.cache_dir if args.cache_dir is not None else configured_cache_dir()
    if raw is None:
        if args.push:
            raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, "--push needs a shared cache directory.",
                                 "Pass --cache-dir /path/to/shared/cache or set ROSLYNMAP_CACHE_DIR.")
        return None
    repo_root = inspect_repo(args.path).root if args.push else None
    return check_cache_dir(raw, writable=args.push, repo_root=repo_root)


def cmd_index(args: argparse.Namespace) -> int:
    from roslynmap.store.cache import publish
    from roslynmap.workspace.baselines import ensure_baseline
    from roslynmap.workspace.diagnostics import evidence_text, project_diagnostics

    progress = Progress()
    push: dict[str, Any] | None = None
    try:
        cache_dir = _cache_dir_for(args)  # before indexing: a bad cache fails in a second, not after minutes
        result = ensure_baseline(args.path, args.solution, force=args.force, restore=args.restore,
                                 on_event=progress, cache_dir=cache_dir, framework=args.framework, full=args.full)
        progress.end()
        if result.derived_note:
            _say(result.derived_note)
        for warning in result.warnings:
            _say(f"warning: {warning}")
        if result.from_cache:
            _say(f"pulled the baseline for {result.repo.commit[:12]} from {cache_dir} in {result.pull_seconds} s")
        if args.push:
            assert cache_dir is not None
            if result.from_cache:
                push = {"status": "already_cached", "pushed": False, "entry": None,
                        "message": "The baseline came from the shared cache; nothing to push."}
            else:
                pushed = publish(cache_dir, result.repo.repo_id, result.repo.commit, result.path,
                                 allow_degraded=args.allow_degraded)
                push = pushed.to_dict()
            _say(push["message"])
    except RoslynMapError as exc:
        progress.end()
        exc = for_cli(exc)
        out = {"ok": False, "error": exc.to_dict()}
        print(json.dumps(out, indent=2) if args.json else f"error {exc.code}: {exc.message}\nhint: {exc.hint}")
        return EXIT_FAILED
    meta = result.meta
    level = meta.get("semantic_level", "syntax_only")
    restored = meta.get("restore") if result.built else None  # this run's restore, if it ran one
    projects = project_diagnostics(result.projects, meta.get("restore"))
    # docs/ci.md: a restore that failed (for any project) fails the command, whatever else was indexed.
    restore_failed = bool(args.restore and restored and restored.get("status") != "restored")
    if args.json:
        print(json.dumps({"ok": True, "built": result.built, "source": result.source,
                          "from_cache": result.from_cache, "commit": result.repo.commit, "path": str(result.path),
                          "semantic_level": level, "level_evidence": meta.get("level_evidence"),
                          "counts": meta.get("counts"),
                          "index_seconds": meta.get("index_seconds"), "pull_seconds": result.pull_seconds,
                          "derived": result.derived,
                          "cache_dir": str(cache_dir) if cache_dir else None, "push": push,
                          "warnings": result.warnings, "projects": projects, "restore": restored,
                          "workspace_diagnostics": meta.get("workspace_diagnostics", [])}, indent=2))
    else:
        counts = meta.get("counts", {})
        verb = {"local": "exists", "cache": "pulled from the shared cache", "built": "built"}[result.source]
        print(f"baseline {verb}: {result.path}")
        print(f"  commit {result.repo.commit}  semantic level {level}  "
              f"{counts.get('symbols')} symbols, {counts.get('references')} references, "
              f"{counts.get('files')} files, {meta.get('index_seconds')} s")
        if restored is not None:
            _print_restore(restored)
        # What the load said about the whole solution (an unmet global.json pin first), the restore's message aside.
        said = {restored["message"]} if restored else set()
        for note in [d for d in meta.get("workspace_diagnostics", []) if d not in said][:WORKSPACE_NOTES]:
            print(f"  note: {note[:300]}")
        if meta.get("level_evidence"):
            print(f"  evidence: {evidence_text(meta['level_evidence'])}")
        for p in projects:
            flag = "ok " if p["semantic_level"] == "full" else "!! "
            share = "-" if p["bound_share"] is None else f"{p['bound_share'] * 100:.1f}%"
            print(f"  {flag}{p['name']:<30} {p['semantic_level']:<11} {p['target_framework'] or '-':<10} "
                  f"bound={share:<6} missing-ref={p['missing_reference_errors']:<4} errors={p['error_count']:<4} "
                  f"symbols={p['symbol_count']:<6} refs={p['reference_count']}")
            for skipped in p.get("skipped_frameworks", []):
                print(f"       skipped {skipped['framework']}: {skipped['reason']}")
            for err in p["first_errors"][:3]:
                print(f"       {err}")
            if "hint" in p:
                print(f"       hint: {p['hint']}")
    if restore_failed:
        _say(f"error: the baseline was built and kept, but the restore --restore asked for did not succeed: "
             f"{restored['message'] if restored else 'dotnet restore failed'} (exit {EXIT_FAILED} so that CI notices;"
             " without --restore, what restored is accepted: docs/ci.md)")
        return EXIT_FAILED
    if push is not None and push["status"] in NOT_PUSHED:
        return EXIT_NOT_PUSHED
    return EXIT_OK if level == "full" else EXIT_DEGRADED


WORKSPACE_NOTES = 3


def _print_restore(restored: dict[str, Any]) -> None:
    """The restore outcome in text mode: the summary, then each project's when it went project by project."""
    print(f"  restore {restored['status']}: {restored['message']}")
    for outcome in restored.get("projects", ()):
        print(f"    {outcome['status']:<9} {outcome['path']}")
        for line in outcome["errors"][:3]:
            print(f"              {line}")


def cmd_serve(args: argparse.Namespace) -> int:
    from roslynmap.mcp import api
    from roslynmap.model import settings
    from roslynmap.store.cache import check_cache_dir

    if args.cache_dir is not None:
        try:
            settings.override(settings.CACHE_DIR, str(check_cache_dir(args.cache_dir, writable=False)))
        except RoslynMapError as exc:
            _say(f"error {exc.code}: {exc.message}\nhint: {exc.hint}")
            return EXIT_FAILED
    if args.verbose_meta:
        settings.override(settings.META, "verbose")
    repos = args.repo or []
    allowed = api.confinement(repos, args.allow_root or [], os.getcwd())
    # Without --repo: the repository of the working directory, which MCP clients set to the project folder.
    api.serve(repos[0] if repos else api.working_repo(os.getcwd()), allowed, args.http)
    return EXIT_OK


def cmd_call(args: argparse.Namespace) -> int:
    from roslynmap.mcp import api
    from roslynmap.model import settings

    if args.verbose_meta:
        settings.override(settings.META, "verbose")
    try:
        tool_args = json.loads(args.json_args) if args.json_args else {}
    except json.JSONDecodeError as exc:
        print(json.dumps({"ok": False, "error": {"code": "INVALID_ARGUMENT", "message": f"bad JSON: {exc}",
                                                 "hint": "Quote the JSON: '{\"query\": \"Order\"}'"}}))
        return EXIT_FAILED
    # The CLI user owns the command line: its --repo and a repo_path in its JSON are allowed.
    named = [args.repo] + ([tool_args["repo_path"]] if isinstance(tool_args, dict) and
                           isinstance(tool_args.get("repo_path"), str) else [])
    allowed = api.confinement(named, args.allow_root or [])
    env = api.call(args.tool, tool_args, args.repo, allowed)
    if args.text:
        budget = tool_args.get("token_budget") if isinstance(tool_args, dict) else None
        print(api.render(env, budget if isinstance(budget, int) else None))
    else:
        print(json.dumps(env, indent=2, ensure_ascii=False))
    return EXIT_OK if env["ok"] else EXIT_FAILED


def cmd_stats(args: argparse.Namespace) -> int:
    """Totals of tool calls and measured token savings for one repository."""
    from roslynmap.store import stats
    from roslynmap.store.repo import inspect_repo

    try:
        repo = inspect_repo(args.repo)
    except RoslynMapError as exc:
        print(f"error {exc.code}: {exc.message}")
        return EXIT_FAILED
    stats.flush()
    totals = stats.read(repo.repo_id)
    if args.json:
        print(json.dumps({"repo_id": repo.repo_id, "tools": totals}, indent=2))
        return EXIT_OK
    if not totals:
        print(f"No tool calls recorded yet for {repo.root}.")
        return EXIT_OK
    print(f"{'tool':<30} {'calls':>8} {'tokens emitted':>15} {'tokens saved (upper bound)':>27}")
    for tool, numbers in sorted(totals.items()):
        print(f"{tool:<30} {numbers['calls']:>8} {numbers['tokens_emitted']:>15} {numbers['tokens_saved']:>27}")
    calls = sum(n["calls"] for n in totals.values())
    emitted = sum(n["tokens_emitted"] for n in totals.values())
    saved = sum(n["tokens_saved"] for n in totals.values())
    print(f"{'total':<30} {calls:>8} {emitted:>15} {saved:>27}")
    print("tokens saved = tokens of the whole files each answer pointed into, minus tokens emitted (upper bound).")
    return EXIT_OK


def _print_entries(entries: list[Any], with_action: bool) -> None:
    print(f"{'repository':<40} {'commit':<12} {'state':<10} {'level':<11} {'MB':>7} {'age d':>7}"
          + ("  action" if with_action else ""))
    for e in entries:
        line = (f"{e.repo_id[-40:]:<40} {e.commit[:12]:<12} {e.state:<10} {e.semantic_level or '-':<11} "
                f"{e.size_bytes / 1e6:>7.1f} {e.age_days:>7.1f}")
        print(line + (f"  {e.action} ({e.reason})" if with_action else ""))


def cmd_cache(args: argparse.Namespace) -> int:
    """`cache list` / `cache prune`: look after the shared folder CI publishes to."""
    from roslynmap.store import cache_admin
    from roslynmap.store.cache import check_cache_dir, configured_cache_dir

    try:
        raw = args.cache_dir if args.cache_dir is not None else configured_cache_dir()
        if raw is None:
            raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, "No shared cache directory.",
                                 "Pass --cache-dir /path/to/shared/cache or set ROSLYNMAP_CACHE_DIR.")
        root = check_cache_dir(raw, writable=False)
        if not isinstance(root, Path):
            raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"`cache {args.cache_command}` works on a folder cache; "
                                 f"{root} is on object storage.",
                                 "Expire old entries with a bucket lifecycle rule (see docs/ci.md), and list "
                                 "them with your store's own tools (aws s3 ls, mc ls).")
        if args.cache_command == "list":
            entries = cache_admin.list_entries(root, args.repo_id)
        else:
            entries = cache_admin.prune(root, older_than_days=args.older_than, keep=args.keep,
                                        repo_id=args.repo_id, dry_run=args.dry_run)
    except RoslynMapError as exc:
        print(f"error {exc.code}: {exc.message}\nhint: {exc.hint}", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        print(json.dumps({"cache_dir": str(root), "entries": [e.to_dict() for e in entries]}, indent=2))
        return EXIT_OK
    if not entries:
        print(f"The cache at {root} holds no entries.")
        return EXIT_OK
    _print_entries(entries, with_action=args.cache_command == "prune")
    if args.cache_command == "prune":
        gone = [e for e in entries if e.action in ("removed", "would_remove")]
        freed = sum(e.size_bytes for e in gone) / 1e6
        verb = "would remove" if args.dry_run else "removed"
        print(f"{verb} {len(gone)} of {len(entries)} entries ({freed:.1f} MB).")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="roslynmap", description=__doc__)
    parser.add_argument("--version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    index = sub.add_parser("index", help="compile a repository into a baseline for HEAD")
    index.add_argument("path", nargs="?", default=".")
    index.add_argument("--solution", help="repo-relative .slnx/.sln/.csproj (auto-discovered otherwise)")
    index.add_argument("--restore", action="store_true",
                       help="run `dotnet restore` first (project by project when the solution's fails)")
    index.add_argument("--force", action="store_true", help="rebuild even if the baseline exists (a full index)")
    index.add_argument("--full", action="store_true",
                       help="index every document, never derive from an ancestor commit's baseline")
    index.add_argument("--framework", metavar="TFM",
                       help="index multi-targeted projects for this target framework (e.g. net8.0); overrides "
                            "roslynmap.json; default: the newest one whose reference assemblies are present")
    index.add_argument("--json", action="store_true", help="print a JSON summary on stdout")
    index.add_argument("--cache-dir", help="shared baseline cache (default: $ROSLYNMAP_CACHE_DIR): the baseline "
                                           "is pulled from it when there, unless --force")
    index.add_argument("--push", action="store_true", help="publish the baseline to the shared cache (CI)")
    index.add_argument("--allow-degraded", action="store_true",
                       help="with --push: publish a partial/syntax_only baseline too")
    index.set_defaults(func=cmd_index)
    serve = sub.add_parser("serve", help="run the MCP server on stdio")
    serve.add_argument("--repo", action="append", help="a repository the server answers for (repeatable); the "
                       "first is the default for tools called without repo_path")
    serve.add_argument("--allow-root", action="append", metavar="DIR", help="also answer for any repository "
                       "under DIR (repeatable; see also ROSLYNMAP_ALLOWED_ROOTS, docs/security.md)")
    serve.add_argument("--http", type=int, metavar="PORT", help="streamable HTTP on 127.0.0.1:PORT (path /mcp) "
                       "instead of stdio")
    serve.add_argument("--cache-dir", help="shared baseline cache index_ensure_baseline pulls from "
                                           "(default: $ROSLYNMAP_CACHE_DIR)")
    serve.add_argument("--verbose-meta", action="store_true", help="timing and token accounting in every meta "
                                                                  "(default: $ROSLYNMAP_META, lean)")
    serve.set_defaults(func=cmd_serve)
    call = sub.add_parser("call", help="call one tool and print its envelope")
    call.add_argument("tool")
    call.add_argument("json_args", nargs="?", default="{}")
    call.add_argument("--repo", default=".")
    call.add_argument("--allow-root", action="append", metavar="DIR", help="also allow repositories under DIR")
    call.add_argument("--text", action="store_true", help="print the text content an MCP client gets instead of JSON")
    call.add_argument("--verbose-meta", action="store_true", help="timing and token accounting in meta")
    call.set_defaults(func=cmd_call)
    stats_cmd = sub.add_parser("stats", help="tool calls and measured token savings for a repository")
    stats_cmd.add_argument("--repo", default=".")
    stats_cmd.add_argument("--json", action="store_true")
    stats_cmd.set_defaults(func=cmd_stats)
    cache_cmd = sub.add_parser("cache", help="list or prune the shared baseline cache")
    cache_sub = cache_cmd.add_subparsers(dest="cache_command", required=True)
    cache_list = cache_sub.add_parser("list", help="every entry: repository, commit, level, size, age")
    prune = cache_sub.add_parser("prune", help="remove old entries (keeps the newest --keep per repository)")
    for sub_cmd in (cache_list, prune):
        sub_cmd.add_argument("--cache-dir", help="the shared cache (default: $ROSLYNMAP_CACHE_DIR)")
        sub_cmd.add_argument("--repo-id", help="only this repository (as repo_status reports it)")
        sub_cmd.add_argument("--json", action="store_true")
        sub_cmd.set_defaults(func=cmd_cache)
    prune.add_argument("--older-than", type=float, default=30.0, metavar="DAYS",
                       help="remove complete entries published more than DAYS ago (default 30)")
    prune.add_argument("--keep", type=int, default=10, metavar="N",
                       help="always keep the newest N complete entries per repository (default 10)")
    prune.add_argument("--dry-run", action="store_true", help="report what would go; remove nothing")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    try:
        code = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # `roslynmap ... | head`: the reader left; stop quietly. Point stdout at devnull so the
        # interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_OK
    sys.exit(code)


if __name__ == "__main__":
    main()
