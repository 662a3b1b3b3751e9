"""The indexer worker: `python -m roslynmap.roslyn.worker --in FD --out FD`.

Hosts CoreCLR, opens solutions with MSBuildWorkspace through the bridge, and writes baselines.
It speaks only over the two inherited pipe descriptors: its stdout and stderr (where MSBuild,
analyzers and .NET's Console write) are the log file the parent gave it. It exits when the parent
closes the pipe or after an idle timeout.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import gc
import os
import re
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

from roslynmap import __version__
from roslynmap.model import settings
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.hints import non_csharp_language, non_csharp_reason
from roslynmap.model.kinds import level_evidence, merge_semantic_levels
from roslynmap.model.records import Batch, decode_batch, merge_batches
from roslynmap.roslyn.appsettings import definition_facts, linked_definition_facts
from roslynmap.roslyn.discovery import other_candidates
from roslynmap.roslyn.hosting import load_bridge
from roslynmap.roslyn.packable import published_package_facts
from roslynmap.roslyn.packages import package_references
from roslynmap.roslyn.projrefs import project_reference_facts
from roslynmap.roslyn.protocol import deadline_seconds, read_frame, write_frame
from roslynmap.roslyn.restore import restore
from roslynmap.roslyn.sdkpin import UnmetSdkPin, mirror_without_pin, unmet_pin_of_solution
from roslynmap.roslyn.unity import is_unity_marker, unity_spec
from roslynmap.roslyn.unity_assets import asset_facts
from roslynmap.store import derive as derive_store
from roslynmap.store import overlay as overlay_store
from roslynmap.store.writer import BaselineWriter

Emit = Callable[[dict[str, Any]], None]
BATCH_DOCUMENTS = 64
# .NET failures after which the process is not trusted (threads may still be blocked): answer, then exit.
RESTART_MESSAGES = ("loading the solution timed out", "extraction stalled")


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while batches are decoded and written: a batch is hundreds of
    thousands of tuples living until they are inserted, which the collector would scan again and again
    (a third of decoding's CPU on Newtonsoft.Json), and records never form cycles."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Worker:
    def __init__(self) -> None:
        self._session_type: Any = None
        self._sessions: dict[str, Any] = {}
        self._overlays: dict[str, OverlaySession] = {}
        self._pins: dict[str, UnmetSdkPin | None] = {}

    def _bridge(self) -> Any:
        if self._session_type is None:
            self._session_type = load_bridge()
        return self._session_type

    def load_phase(self) -> str:
        """The bridge's last MSBuildWorkspace load step ('' before the bridge is loaded)."""
        if self._session_type is None:
            return ""
        result: list[str] = []
        reader = threading.Thread(target=lambda: result.append(str(self._session_type.LoadPhase)), daemon=True)
        reader.start()
        reader.join(5)  # a wedged runtime must not stop the diagnosis
        return result[0] if result else "(the runtime did not answer)"

    def _open(self, repo_root: str, solution: str, fresh: bool, frameworks: dict[str, Any] | None = None) -> Any:
        """A loaded solution; reused across requests unless `fresh` (extraction consumes a session).
        `frameworks` ({"framework": tfm}) overrides the repository's roslynmap.json for multi-targeted projects."""
        key = f"{repo_root}|{solution}"
        session = self._sessions.pop(key, None)
        if session is not None and fresh:
            session.Dispose()
            session = None
        if session is None:
            request = orjson.dumps(frameworks).decode() if frameworks else None
            session = self._bridge_open(repo_root, solution, request)
        self._sessions[key] = session
        return session

    def _sdk_pin(self, repo_root: str, solution: str) -> UnmetSdkPin | None:
        """The repository's global.json pin when this machine cannot meet it, at the solution's folder or below it
        (asked once per solution)."""
        key = f"{repo_root}|{solution}"
        if key not in self._pins:
            self._pins[key] = unmet_pin_of_solution((Path(repo_root) / solution).resolve().parent)
        return self._pins[key]

    def _bridge_open(self, repo_root: str, solution: str, frameworks: str | None) -> Any:
        """The bridge's session; under an unmet SDK pin, opened in a mirror of the repository without it. A Unity
        project is built from its layout, with no MSBuild (so no SDK pin either)."""
        if is_unity_marker(solution):
            root = Path(repo_root)
            spec = unity_spec(root, solution, other_candidates(root.resolve(), root.resolve() / solution))
            return self._bridge().OpenUnity(repo_root, solution, spec)
        pin = self._sdk_pin(repo_root, solution)
        mirror = mirror_without_pin(Path(repo_root), pin) if pin is not None else None
        if pin is None or mirror is None:
            return self._bridge().Open(repo_root, solution, frameworks)
        root = Path(repo_root).resolve()
        in_mirror = (root / solution).resolve().relative_to(root).as_posix()  # the same path, under the mirror
        # The build host inherits our folder and its `dotnet` would meet the pin there too.
        with contextlib.chdir(pin.neutral_folder):
            return self._bridge().Open(str(mirror), in_mirror, frameworks, str(root))

    def handle(self, request: dict[str, Any], emit: Emit) -> dict[str, Any]:
        op = request.get("op")
        if op == "index":
            return self.index(request, emit)
        if op == "derive":
            return self.derive(request, emit)
        if op == "compile_floor":
            session = self._open(request["repo_root"], request["solution"], fresh=True)
            # options "indexed": nullable analysis off, as extraction compiles (the fair floor); else as loaded.
            floor = session.CompileFloor(request.get("options") == "indexed")
            return {"describe": orjson.loads(session.Describe()), "floor": orjson.loads(floor)}
        if op == "find_references":
            session = self._open(request["repo_root"], request["solution"], fresh=False)
            return dict(orjson.loads(session.FindReferences(request["symbol_id"], request["project"])))
        if op == "overlay_refresh":
            return self.overlay_refresh(request)
        if op == "overlay_warm":  # workspace/warm.py: load now what the first overlay refresh needs
            ov, cold = self._overlay_session(request["repo_root"], request["solution"])
            return {"cold": cold, "load_seconds": ov.load_seconds if cold else 0.0}
        if op == "ping":
            return {"pong": True}
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"unknown worker op {op!r}")

    def _load_for_index(self, request: dict[str, Any], emit: Emit) -> tuple[Any, dict[str, Any], dict[str, Any] | None,
                                                                          list[dict[str, Any]]]:
        """(session, described, restore result, unloaded projects): a fresh load, restored as asked."""
        solution = request["solution"]
        restored: dict[str, Any] | None = None
        # A Unity project has nothing dotnet restore could restore (Unity resolves its own packages).
        mode = None if is_unity_marker(solution) else request.get("restore")
        pin = None if is_unity_marker(solution) else self._sdk_pin(request["repo_root"], solution)
        away = pin.neutral_folder if pin else None
        if mode is True:
            restored = restore(solution, Path(request["repo_root"]), emit, away)
        emit({"event": "progress", "phase": "load", "done": 0, "total": 1})
        session = self._open(request["repo_root"], solution, fresh=True, frameworks=request.get("frameworks"))
        described = orjson.loads(session.Describe())
        if mode == "auto" and any(not p.get("restored", True) for p in described["projects"]):
            # As an IDE does on open: restore what lacks its assets, then load again.
            restored = restore(solution, Path(request["repo_root"]), emit, away)
            restored["automatic"] = True
            emit({"event": "progress", "phase": "load", "done": 0, "total": 1})
            session = self._open(request["repo_root"], solution, fresh=True, frameworks=request.get("frameworks"))
            described = orjson.loads(session.Describe())
        if not described["projects"]:
            reasons = "; ".join(described.get("workspace_diagnostics", [])[:3]) or "no C# project in it"
            raise RoslynMapError(
                ErrorCode.COMPILATION_FAILED,
                f"The solution {described.get('solution') or solution} loaded no projects: {reasons}",
                "Check that the projects it lists exist and are C# projects, or pass solution_path to a .csproj.",
            )
        if restored is not None and restored["status"] != "restored":
            described.setdefault("workspace_diagnostics", []).insert(0, restored["message"])
        if pin is not None:
            described.setdefault("workspace_diagnostics", []).insert(0, pin.warning(Path(request["repo_root"])))
        # A Unity project loads no project files (its notes name the ones it was chosen over).
        unloaded = [] if is_unity_marker(solution) else unloaded_projects(described, Path(request["repo_root"]))
        described["projects"] += unloaded
        for p in described["projects"]:
            p["packages"] = package_references(Path(request["repo_root"]), p["path"], p.get("assets_file"),
                                               p.get("target_framework"))
        return session, described, restored, unloaded

    def index(self, request: dict[str, Any], emit: Emit) -> dict[str, Any]:
        started = time.perf_counter()
        session, described, restored, unloaded = self._load_for_index(request, emit)
        return self._index_full(request, emit, started, session, described, restored, unloaded)

    def _index_full(self, request: dict[str, Any], emit: Emit, started: float, session: Any,
                    described: dict[str, Any], restored: dict[str, Any] | None,
                    unloaded: list[dict[str, Any]]) -> dict[str, Any]:
        total_docs = sum(p.get("documents", 0) for p in described["projects"])
        writer = BaselineWriter(Path(request["out_path"]))
        try:
            writer.add_projects(described["projects"])
            done = 0
            counts = {"symbols": 0, "references": 0, "files": 0, "unresolved_references": 0, "facts": 0}
            emit({"event": "progress", "phase": "extract", "done": 0, "total": total_docs})
            with _collector_paused():
                while (raw := session.NextBatch(BATCH_DOCUMENTS)) is not None:
                    batch = decode_batch(memoryview(raw))  # a byte[]: read in place
                    writer.add_batch(batch)
                    done += len(batch.files)
                    counts["symbols"] += len(batch.symbols)
                    counts["references"] += len(batch.refs)
                    counts["unresolved_references"] += sum(1 for r in batch.refs if r.target is None)
                    counts["files"] += len(batch.files)
                    counts["facts"] += len(batch.facts)
                    emit({"event": "progress", "phase": "extract", "done": done, "total": total_docs})
            definitions = definition_facts(Path(request["repo_root"]), [p["path"] for p in described["projects"]])
            definitions += linked_definition_facts(Path(request["repo_root"]), described["projects"])
            definitions += project_reference_facts(Path(request["repo_root"]), described["projects"])
            definitions += published_package_facts(Path(request["repo_root"]), described["projects"])
            definitions += asset_facts(Path(request["repo_root"]), described["projects"])
            writer.add_batch(Batch(facts=definitions))
            counts["facts"] += len(definitions)
            results = orjson.loads(session.Summary())["projects"] + _unloaded_results(unloaded)
            writer.set_project_results(results)
            counts["projects"] = len(described["projects"])
            meta = _index_meta(request, described, restored, results, counts, started)
            writer.finish(meta)
            writer.publish()
        except BaseException:
            writer.abandon()
            raise
        return {"meta": meta}

    def derive(self, request: dict[str, Any], emit: Emit) -> dict[str, Any]:
        """An index of the working tree derived from an ancestor's baseline (store/derive.py): the documents
        that changed since `ancestor_commit` (request["changed"], repo-relative) and every document whose rows
        may depend on them are extracted; the others' rows are copied from request["ancestor"]. Falls back
        to a full index when the projects differ. The result's "derived" says which it was."""
        started = time.perf_counter()
        session, described, restored, unloaded = self._load_for_index(request, emit)
        conn = derive_store.open_ancestor(Path(request["ancestor"]))
        try:
            reason = derive_store.project_mismatch(conn, described.get("solution"), described["projects"])
            if reason is None:
                return self._derive(request, emit, started, session, described, restored, unloaded, conn)
        finally:
            conn.close()
        result = self._index_full(request, emit, started, session, described, restored, unloaded)
        return {**result, "derived": {"from": None, "reason": reason}}

    def _derive(self, request: dict[str, Any], emit: Emit, started: float, session: Any, described: dict[str, Any],
                restored: dict[str, Any] | None, unloaded: list[dict[str, Any]],
                conn: sqlite3.Connection) -> dict[str, Any]:
        root = Path(request["repo_root"])
        ancestor_commit = str(request["ancestor_commit"])
        plan = orjson.loads(str(session.DocumentPlan()))
        docs = [(str(path), int(index)) for path, index in plan["documents"]]
        references = {int(k): [int(x) for x in v] for k, v in plan["references"].items()}
        order = {doc: n for n, doc in enumerate(docs)}
        projects_of: dict[str, set[int]] = {}
        for path, index in docs:
            projects_of.setdefault(path, set()).add(index)
        old_docs = derive_store.documents(conn)
        changed = set(request.get("changed", ()))
        removed = set(old_docs) - set(projects_of)
        # Changed or new documents, and any that moved project or is compiled by several (kept simple).
        touched = {p for p, owners in projects_of.items()
                   if p in changed or p not in old_docs or owners != {old_docs[p]}}
        emit({"event": "progress", "phase": "extract", "done": 0, "total": len(docs)})
        batches: list[Batch] = []
        extracted: set[str] = set()
        pending = touched | (derive_store.sharing_files(conn, touched | removed) & set(projects_of))
        while pending:  # partial declarations: every file holding a part of a symbol extracted
            batch = _extract_paths(session, sorted(pending))
            batches.append(batch)
            extracted |= pending
            pending = (derive_store.sharing_files(conn, (), derive_store.batch_symbol_ids(batch))
                       & set(projects_of)) - extracted
        merged = merge_batches(batches)
        widened: set[int] = set()
        for path in sorted(touched | removed):
            old = derive_store.ancestor_shape(conn, path, _text_at(root, ancestor_commit, path)) \
                if path in old_docs else frozenset()
            new = derive_store.batch_shape(merged, path, _text_now(root, path)) if path in projects_of else frozenset()
            if derive_store.normalized(old) != derive_store.normalized(new):
                widened |= projects_of.get(path, set()) | ({old_docs[path]} if path in old_docs else set())
        downstream = derive_store.downstream(widened, references) if widened else set()
        rest = sorted({p for p, index in docs if index in downstream} - extracted)
        for start in range(0, len(rest), BATCH_DOCUMENTS):
            chunk = rest[start:start + BATCH_DOCUMENTS]
            batches.append(_extract_paths(session, chunk))
            extracted |= set(chunk)
            emit({"event": "progress", "phase": "extract", "done": len(extracted), "total": len(docs)})
        copied = sorted(set(projects_of) - extracted)
        writer = BaselineWriter(Path(request["out_path"]))
        try:
            writer.add_projects(described["projects"])
            for batch in batches:
                writer.add_batch(batch)
            for start in range(0, len(copied), 512):
                writer.add_batch(derive_store.replay_batch(conn, copied[start:start + 512]))
            # GeneratedUse facts belong to a whole project: recomputed where a document or a used declaration's file
            # was extracted again.
            regenerated = derive_store.regenerated_projects(
                conn, {index for path in extracted for index in projects_of.get(path, ())}, extracted)
            if regenerated:
                writer.add_batch(decode_batch(memoryview(
                    session.ExtractGeneratedUses(orjson.dumps(sorted(regenerated)).decode()))))
            writer.add_batch(derive_store.replay_project_facts(
                conn, {int(p["index"]) for p in described["projects"]} - regenerated))
            writer.add_batch(Batch(facts=definition_facts(root, [p["path"] for p in described["projects"]])
                                   + linked_definition_facts(root, described["projects"])
                                   + project_reference_facts(root, described["projects"])
                                   + published_package_facts(root, described["projects"])
                                   + asset_facts(root, described["projects"])))
            # A document several projects compile (a linked file) has one files row; a full index leaves it
            # with the project extracted last in document order.
            last = {path: index for path, index in docs}
            writer.db.executemany("UPDATE files SET project_id = ? WHERE path = ?",
                                  [(last[p], p) for p, owners in projects_of.items() if len(owners) > 1])
            summary = orjson.loads(session.Summary())["projects"] + _unloaded_results(unloaded)
            results = derive_store.project_results(writer.db, order, summary,
                                                   described.get("missing_reference_codes", []))
            writer.set_project_results(results)
            counts = derive_store.counts(writer.db, len(docs), len(described["projects"]))
            derived = {"from": ancestor_commit, "extracted": len(extracted & set(projects_of)),
                       "documents": len(projects_of), "changed": len(touched | removed),
                       "widened_projects": sorted(p["name"] for p in described["projects"] if p["index"] in downstream)}
            meta = _index_meta(request, described, restored, results, counts, started)
            meta["derived_from"] = derived
            writer.finish(meta)
            writer.publish()
        except BaseException:
            writer.abandon()
            raise
        emit({"event": "progress", "phase": "extract", "done": len(docs), "total": len(docs)})
        return {"meta": meta, "derived": derived}

    def _overlay_session(self, repo_root: str, solution: str) -> tuple[OverlaySession, bool]:
        """The warm session overlays are extracted from: separate from index runs (which consume theirs),
        loaded once per (repo, solution) and kept until the worker's idle timeout."""
        key = f"{repo_root}|{solution}"
        found = self._overlays.get(key)
        if found is not None:
            if found.stamp == _project_files_stamp(repo_root, solution, found.described):
                return found, False
            # A project or solution file changed: its documents, references or options may have too.
            del self._overlays[key]
            found.session.Dispose()
        started = time.perf_counter()
        head, dirty = _git_state(Path(repo_root))
        session = self._bridge_open(repo_root, solution, None)
        try:
            described = orjson.loads(session.Describe())
            session.WarmOverlay()
            # JIT the extraction path now, so the first refresh pays for loading only once.
            session.ExtractDocuments(orjson.dumps(_first_documents(described, repo_root)).decode())
        except BaseException:
            session.Dispose()
            raise
        found = OverlaySession(session, described, round(time.perf_counter() - started, 3), head, dirty)
        found.stamp = _project_files_stamp(repo_root, solution, described)
        self._overlays[key] = found
        return found, True

    def overlay_refresh(self, request: dict[str, Any]) -> dict[str, Any]:
        """Re-extracts the changed documents of one workspace, and the documents whose references depend
        on symbols whose declaration changed, into a new overlay database at request["out"].

        request: repo_root, solution, base_commit, baseline (path), previous (overlay path or null), out,
        state {"texts": {path: text}, "deleted": [path]} (the workspace's whole overlay: changed and added
        files' texts, deleted files), extract (paths whose text changed since the previous overlay),
        deleted_now, dropped (paths leaving the overlay: back to the baseline), states {path: changed|added|
        deleted}, meta.
        """
        started = time.perf_counter()
        timing: dict[str, float] = {}

        def lap(name: str, since: float) -> float:
            now = time.perf_counter()
            timing[name] = round((now - since) * 1000, 2)
            return now

        ov, cold = self._overlay_session(request["repo_root"], request["solution"])
        mark = lap("load", started)
        baseline = Path(request["baseline"])
        previous = Path(request["previous"]) if request.get("previous") else None
        if previous is not None and not previous.exists():
            previous = None
        update = self._sync_documents(ov, request, baseline)
        mark = lap("update", mark)

        conn: sqlite3.Connection = (overlay_store.open_merged(baseline, previous) if previous is not None
                                    else overlay_store.open_readonly(baseline))
        try:
            project_map = _project_map(conn, ov.described["projects"])
            extract = sorted(set(request.get("extract", ())))
            batch = self._extract(ov, extract)
            mark = lap("extract", mark)
            batches, handled, rebound = self._with_dependents(ov, conn, request, project_map, extract, batch)
            mark = lap("dependents", mark)
            previous_paths = [row[0] for row in conn.execute("SELECT path FROM ov.overlay_files")] \
                if previous is not None else []
        finally:
            conn.close()

        meta, extracted, missing = _write_overlay(request, ov, baseline, previous, set(previous_paths) - handled,
                                                  batches, project_map)
        lap("write", mark)
        timing["total"] = round((time.perf_counter() - started) * 1000, 2)
        return {"meta": meta, "cold": cold, "load_seconds": ov.load_seconds if cold else 0.0,
                "extracted": sorted(extracted), "rebound": rebound, "not_in_solution": missing,
                "ignored": update.get("ignored", []), "timing_ms": timing,
                "counts": {"symbols": sum(len(b.symbols) for b in batches), "refs": sum(len(b.refs) for b in batches),
                           "facts": sum(len(b.facts) for b in batches)}}

    @staticmethod
    def _sync_documents(ov: OverlaySession, request: dict[str, Any], baseline: Path) -> dict[str, Any]:
        """Brings the warm solution to the workspace's state: the baseline's text for files the disk held
        differently at load time (fixups), then the workspace's own texts and deletions. Skipped when the
        solution already holds exactly that state."""
        state = request["state"]
        texts: dict[str, str] = state.get("texts", {})
        fixups = ov.fixups_for(request["repo_root"], request["base_commit"], baseline)
        full = {
            "changed": {p: t for p, t in fixups["changed"].items() if p not in texts},
            "added": {**fixups["added"], **texts},
            "deleted": sorted((set(fixups["deleted"]) | set(state.get("deleted", ()))) - set(texts)),
        }
        payload = orjson.dumps(full, option=orjson.OPT_SORT_KEYS)
        update: dict[str, Any] = {"ignored": [], "added": []}
        if payload != ov.state:
            update = orjson.loads(str(ov.session.UpdateDocuments(payload.decode())))
            ov.state = payload
        return update

    def _with_dependents(self, ov: OverlaySession, conn: sqlite3.Connection, request: dict[str, Any],
                         project_map: dict[int, int], extract: list[str],
                         batch: Batch) -> tuple[list[Batch], set[str], list[str]]:
        """(batches, handled paths, rebound paths): the extracted batch plus, for up to three rounds, the
        files whose references depend on a declaration that changed or appeared (re-extracted so their
        references bind to the new declarations)."""
        states: dict[str, str] = dict(request.get("states", {}))
        handled = set(extract) | set(request.get("deleted_now", ())) | set(request.get("dropped", ()))
        batches = [batch]
        old = overlay_store.declared_in(conn, handled)
        new = overlay_store.declared_in_batch(batch, project_map)
        new.update(overlay_store.declared_in(conn, request.get("dropped", ()), schema="main."))
        rebound: list[str] = []
        deleted = {p for p, s in states.items() if s == "deleted"}
        for _round in range(3):
            changed = overlay_store.changed_symbols(old, new)
            added_ids = {key[0] for key in new.keys() - old.keys()}
            names = {_simple_name(symbol_id) for symbol_id in added_ids}
            members = overlay_store.added_members(batch, added_ids)
            found = overlay_store.dependent_files(conn, changed, names) | \
                overlay_store.overload_dependents(conn, members)
            dependents = sorted(found - handled - deleted)
            if not dependents:
                break
            handled |= set(dependents)
            rebound += dependents
            batch = self._extract(ov, dependents)
            batches.append(batch)
            old = overlay_store.declared_in(conn, dependents)
            new = overlay_store.declared_in_batch(batch, project_map)
        return batches, handled, rebound

    @staticmethod
    def _extract(ov: OverlaySession, paths: list[str]) -> Batch:
        return _extract_paths(ov.session, paths)


def _unloaded_results(unloaded: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"index": p["index"], "error_count": 0, "missing_reference_errors": 0, "first_errors": [],
             "semantic_level": "syntax_only", "level_reason": _unloaded_reason(p["load_errors"]),
             "core_library_resolved": False} for p in unloaded]


def _unloaded_reason(load_errors: list[str]) -> str:
    language = non_csharp_language(load_errors)
    return non_csharp_reason(language) if language else "the project did not load"


def _index_meta(request: dict[str, Any], described: dict[str, Any], restored: dict[str, Any] | None,
                results: list[dict[str, Any]], counts: dict[str, int], started: float) -> dict[str, Any]:
    return {
        **request.get("meta", {}),
        "solution": described.get("solution"),
        "roslyn_version": described.get("roslyn_version"),
        "roslynmap_version": __version__,
        "semantic_level": merge_semantic_levels([r["semantic_level"] for r in results]),
        "level_evidence": level_evidence(results),
        "framework_request": {"argument": request.get("frameworks"),
                              "sources": described.get("framework_request_sources", [])},
        "counts": counts,
        "load_ms": described.get("load_ms"),
        "index_seconds": round(time.perf_counter() - started, 3),
        "workspace_diagnostics": described.get("workspace_diagnostics", []),
        "missing_reference_codes": described.get("missing_reference_codes", []),
        "diagnostics_warnings": True,  # the bridge stores warnings beside errors (diagnostics_list)
        "restore": restored,
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def _extract_paths(session: Any, paths: list[str]) -> Batch:
    """One batch for exactly these documents, from the session as loaded (the overlay extraction path)."""
    if not paths:
        return Batch()
    return decode_batch(memoryview(session.ExtractDocuments(orjson.dumps(paths).decode())))


def _text_at(root: Path, commit: str, path: str) -> str | None:
    """The file's text at `commit`. A document outside the repository (a NuGet package's content file) is not
    in git: it changes only with the packages, and a changed project or package file already forces a full
    index, so its text then is its text now."""
    if path.startswith("../") or Path(path).is_absolute():
        return _text_now(root, path)
    blob = _git(root, "show", f"{commit}:{path}")
    return None if blob is None else blob.decode("utf-8-sig", "replace")


def _text_now(root: Path, path: str) -> str | None:
    try:
        return (root / path).read_bytes().decode("utf-8-sig", "replace")
    except OSError:
        return None


def _write_overlay(request: dict[str, Any], ov: OverlaySession, baseline: Path, previous: Path | None,
                   carried: set[str], batches: list[Batch],
                   project_map: dict[int, int]) -> tuple[dict[str, Any], set[str], list[str]]:
    """(meta, extracted paths, edited paths no project compiles): the new overlay at request["out"]: the
    previous overlay's untouched files carried over, then the deletions and the new batches."""
    states: dict[str, str] = dict(request.get("states", {}))
    writer = overlay_store.OverlayWriter(Path(request["out"]), baseline, previous)
    try:
        writer.carry(carried)
        writer.add_projects(ov.described["projects"], project_map)
        for path in request.get("deleted_now", ()):
            writer.mark(path, "deleted")
        for batch in batches:
            writer.add_batch(batch, states, project_map)
        extracted = {f.path for b in batches for f in b.files}
        # Edited files the overlay does not hold: no project of the solution compiles them.
        missing = sorted(p for p, state in states.items() if state != "deleted" and p not in writer.states)
        every_rebound = sorted(p for p, state in writer.states.items() if state == "rebound")
        meta = writer.finish({**request.get("meta", {}), "not_in_solution": missing, "rebound": every_rebound})
    except BaseException:
        writer.abandon()
        raise
    return meta, extracted, missing


class OverlaySession:
    """A loaded solution kept for overlays, with what the disk held when it was loaded: its text of a
    file is the working tree's at load time, which differs from a workspace's baseline commit for the
    files dirty then (or changed between that HEAD and the baseline); `fixups_for` sends those back to
    the baseline's text."""

    def __init__(self, session: Any, described: dict[str, Any], load_seconds: float, head: str | None,
                 dirty: set[str]) -> None:
        self.session = session
        self.described = described
        self.load_seconds = load_seconds
        self.head = head
        self.dirty = dirty
        self.state: bytes | None = None
        self.stamp: tuple[tuple[str, int | None], ...] = ()
        self._fixups: dict[str, dict[str, Any]] = {}

    def fixups_for(self, repo_root: str, base: str, baseline: Path) -> dict[str, Any]:
        found = self._fixups.get(base)
        if found is None:
            found = _fixups(Path(repo_root), self.head, self.dirty, base, baseline)
            self._fixups[base] = found
        return found


def _first_documents(described: dict[str, Any], repo_root: str) -> list[str]:
    """Some C# file of the solution (the JIT warm-up extracts one)."""
    for project in described["projects"]:
        folder = Path(repo_root) / Path(project["path"]).parent
        for file in sorted(folder.glob("*.cs")):
            return [file.relative_to(repo_root).as_posix()]
    return []


def _project_files_stamp(repo_root: str, solution: str,
                         described: dict[str, Any]) -> tuple[tuple[str, int | None], ...]:
    """Modification times of the files that define the loaded solution's shape."""
    root = Path(repo_root)
    files = [Path(solution), *(root / p["path"] for p in described["projects"])]
    files += [root / name for name in ("Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props")]
    out = []
    for file in files:
        try:
            out.append((str(file), file.stat().st_mtime_ns))
        except OSError:
            out.append((str(file), None))
    return tuple(out)


def _simple_name(symbol_id: str) -> str:
    """`M:Ns.Type.Method(Int32)` -> `Method`; `T:Ns.List`1` -> `List`."""
    body = symbol_id.split(":", 1)[-1].split("(", 1)[0]
    name = body.rsplit(".", 1)[-1]
    return name.split("`", 1)[0]


def _project_map(conn: sqlite3.Connection, projects: list[dict[str, Any]]) -> dict[int, int]:
    """Overlay session project index -> baseline project id (by project path; new projects get new ids)."""
    by_path = {row[1]: int(row[0]) for row in conn.execute("SELECT id, path FROM main.projects")}
    return {p["index"]: by_path.get(p["path"], overlay_store.OVERLAY_ID_BASE + p["index"]) for p in projects}


def _git(root: Path, *args: str) -> bytes | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=60, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def _git_state(root: Path) -> tuple[str | None, set[str]]:
    """HEAD and the C# files differing from it (tracked or not), as the solution is about to be loaded."""
    head = _git(root, "rev-parse", "HEAD")
    if head is None:
        return None, set()
    status = _git(root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames") or b""
    dirty = {entry[3:].decode("utf-8", "replace") for entry in status.split(b"\0") if len(entry) > 3}
    return head.decode().strip(), {p for p in dirty if _is_source(p)}


def _is_source(path: str) -> bool:
    """A C# file the solution may compile as a document of its own (not build output under bin/ or obj/)."""
    return path.endswith(".cs") and not any(part in ("bin", "obj") for part in path.split("/")[:-1])


def _fixups(root: Path, head: str | None, dirty: set[str], base: str, baseline: Path) -> dict[str, Any]:
    """The loaded texts that are not the baseline commit's: their text at `base` (or removal)."""
    out: dict[str, Any] = {"changed": {}, "added": {}, "deleted": []}
    if head is None:
        return out
    paths = set(dirty)
    if head != base:
        diff = _git(root, "diff", "--name-only", "-z", "--no-renames", head, base, "--", "*.cs") or b""
        paths |= {p for p in (raw.decode("utf-8", "replace") for raw in diff.split(b"\0")) if _is_source(p)}
    if not paths:
        return out
    conn = sqlite3.connect(f"file:{baseline}?mode=ro", uri=True)
    try:
        indexed = {row[0] for row in conn.execute("SELECT path FROM files")}
    finally:
        conn.close()
    for path in sorted(paths):
        blob = _git(root, "show", f"{base}:{path}")
        if blob is None:
            out["deleted"].append(path)
        elif path in indexed:
            out["added"][path] = blob.decode("utf-8-sig", "replace")
        else:
            out["changed"][path] = blob.decode("utf-8-sig", "replace")
    return out


_PROJECT_FILE = re.compile(r"([^\s'\"]+\.(?:cs|vb|fs)proj)", re.I)


def unloaded_projects(described: dict[str, Any], root: Path) -> list[dict[str, Any]]:
    """Projects the solution names but MSBuildWorkspace could not load (missing file, broken XML):
    listed like the others, with the reason and no semantics, so the baseline never claims `full`."""
    loaded = {p["path"] for p in described["projects"]}
    out: list[dict[str, Any]] = []
    for message in described.get("workspace_diagnostics", []):
        if message.startswith("warning: "):
            continue
        match = _PROJECT_FILE.search(message)
        if not match:
            continue
        path = Path(match.group(1).replace("\\", "/"))
        try:
            rel = (path if path.is_absolute() else root / path).resolve().relative_to(root).as_posix()
        except ValueError:
            rel = path.as_posix()
        if rel in loaded or any(p["path"] == rel for p in out):
            continue
        out.append({"index": len(described["projects"]) + len(out), "name": path.stem, "path": rel,
                    "target_framework": None, "target_frameworks": [], "documents": 0, "restored": False,
                    "load_errors": [message]})
    return out


class Watchdog:
    """Fails the current request when it makes no progress for its deadline: writes a diagnosis to the
    log (which request and phase, the bridge's last load step, child processes, every Python thread's
    stack), answers the parent with a retryable error and ends the process, whose CLR may hold threads
    blocked for good. The parent then starts a fresh worker."""

    def __init__(self, out: Callable[[dict[str, Any]], None], worker: Worker) -> None:
        self._out = out
        self._worker = worker
        self._cond = threading.Condition()
        self._request: dict[str, Any] | None = None
        self._phase = ""
        self._last = 0.0
        self._deadline = 0.0
        threading.Thread(target=self._watch, name="roslynmap-watchdog", daemon=True).start()

    def begin(self, request: dict[str, Any]) -> None:
        with self._cond:
            self._request = request
            self._deadline = float(request.get("deadline_s") or deadline_seconds())
            self.touch("start")

    def touch(self, phase: str | None = None) -> None:
        with self._cond:
            self._last = time.monotonic()
            if phase:
                self._phase = phase
            self._cond.notify()

    def end(self) -> None:
        with self._cond:
            self._request = None
            self._cond.notify()

    def _watch(self) -> None:
        with self._cond:
            while True:
                if self._request is None:
                    self._cond.wait()
                    continue
                left = self._last + self._deadline - time.monotonic()
                if left > 0:
                    self._cond.wait(left)
                    continue
                self._stalled(self._request, self._phase, time.monotonic() - self._last)

    def _stalled(self, request: dict[str, Any], phase: str, quiet: float) -> None:
        op, request_id = request.get("op"), request.get("id")
        load_step = self._worker.load_phase()
        where = f"request {request_id} ({op}) made no progress for {quiet:.0f} s in phase {phase!r}"
        sys.stdout.write(f"\nroslynmap worker: STALLED: {where}\n  bridge: {load_step or '-'}\n"
                         f"  child processes: {_children()}\n  Python threads:\n")
        sys.stdout.flush()
        faulthandler.dump_traceback(all_threads=True)
        sys.stderr.flush()
        message = f"The indexer worker stalled: {where}" + (f" (MSBuildWorkspace: {load_step})" if load_step else "")
        try:
            self._out({"id": request_id, "event": "result", "ok": False, "restart": True, "error": {
                "code": ErrorCode.BUSY.value, "message": message[:2000], "retryable": True,
                "hint": "Call again: a fresh worker process takes over. The stalled worker's thread stacks are in "
                        "its log (ROSLYNMAP_HOME/logs)."}})
        finally:
            os._exit(70)


def _children() -> str:
    """This process's children (pid, state, command): is the MSBuild build host still alive?"""
    out = []
    me = str(os.getpid())
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if fields[1] != me:
                continue
            cmd = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, IndexError):
            continue
        out.append(f"{stat.parent.name} [{fields[0]}] {cmd[:160]}")
    return "; ".join(out) or "none"


def serve(in_fd: int, out_fd: int, idle_timeout: float) -> None:
    worker = Worker()
    write_lock = threading.Lock()

    def send(message: dict[str, Any]) -> None:
        with write_lock:
            write_frame(out_fd, message)

    watchdog = Watchdog(send, worker)

    while True:
        ready, _, _ = select.select([in_fd], [], [], idle_timeout)
        if not ready:
            return
        request = read_frame(in_fd)
        if request is None or request.get("op") == "shutdown":
            return
        request_id = request.get("id")

        def emit(message: dict[str, Any], request_id: Any = request_id) -> None:
            watchdog.touch(message.get("phase"))
            send({**message, "id": request_id})

        watchdog.begin(request)
        restart = False
        try:
            _debug_sleep(request)
            result = worker.handle(request, emit)
            reply: dict[str, Any] = {"event": "result", "ok": True, "result": result}
        except RoslynMapError as exc:
            reply = {"event": "result", "ok": False, "error": exc.to_dict()}
        except Exception as exc:  # the worker must answer, whatever .NET threw
            traceback.print_exc()
            sys.stdout.flush()
            text = f"{type(exc).__name__}: {exc}"
            restart = any(m in text for m in RESTART_MESSAGES)
            reply = {"event": "result", "ok": False, "restart": restart, "error": {
                "code": ErrorCode.COMPILATION_FAILED.value, "message": text[:2000], "retryable": restart,
                "hint": "A fresh worker process is tried once; see the worker log for the full trace."
                if restart else "See the worker log for the full trace."}}
        watchdog.end()
        send({**reply, "id": request_id})
        if restart:
            os._exit(0)  # threads of the abandoned load or extraction may stay blocked: start clean


def _debug_sleep(request: dict[str, Any]) -> None:
    op, _, seconds = (settings.current().debug_worker_sleep or "").partition("=")
    if op and op == request.get("op"):
        time.sleep(float(seconds or 3600))


def main() -> None:
    parser = argparse.ArgumentParser(prog="roslynmap-worker")
    parser.add_argument("--in", dest="in_fd", type=int, required=True)
    parser.add_argument("--out", dest="out_fd", type=int, required=True)
    parser.add_argument("--idle-timeout", type=float, default=600.0)
    args = parser.parse_args()
    # stderr is the log: a crash, or `kill -USR1 <pid>`, writes every thread's Python stack there.
    faulthandler.enable(file=sys.stderr, all_threads=True)
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True)
    serve(args.in_fd, args.out_fd, args.idle_timeout)


if __name__ == "__main__":
    main()
