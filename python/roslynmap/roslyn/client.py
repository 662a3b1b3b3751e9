"""Spawns and talks to the indexer worker. Runs in the server and CLI processes; never loads the CLR.

No call waits forever: every request has a deadline (seconds without a progress frame). The worker's own
watchdog reports a stall first (with a diagnosis in its log) and exits; if the worker cannot even do that,
the parent asks it for a Python stack dump (SIGUSR1, faulthandler) and kills its process group. Either
way the request is sent once more to a fresh worker before the caller gets an error.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.roslyn.protocol import GRACE_S, deadline_seconds, read_frame, readable, write_frame
from roslynmap.store.paths import logs_dir

OnEvent = Callable[[dict[str, Any]], None]
KEEP_LOGS = 20  # the newest worker logs always stay (a hang is diagnosed from them)
LOG_GRACE_S = 3600.0  # a log written this recently may belong to a live worker of another process


def prune_logs(folder: Path, keep: int = KEEP_LOGS, now: float | None = None) -> list[Path]:
    """Removes worker logs beyond the newest `keep` (by modification time) that were not written in the
    last hour; each worker start adds one, so without this they pile up forever. Returns what went."""
    now = time.time() if now is None else now
    logs = []
    for path in folder.glob("worker-*.log"):
        with contextlib.suppress(OSError):  # removed meanwhile by another process's prune
            logs.append((path.stat().st_mtime, path))
    logs.sort(reverse=True)
    gone = []
    for mtime, path in logs[keep:]:
        if now - mtime > LOG_GRACE_S:
            with contextlib.suppress(OSError):
                path.unlink()
                gone.append(path)
    return gone


RETRY_NOTE = "worker_retry"  # key of the result that says the request was redone in a fresh worker


class WorkerFailed(RoslynMapError):
    """The worker stalled, timed out opening the solution, or died: a fresh process may well succeed."""


class WorkerClient:
    """One worker process; requests are serialized (all CLR work happens on one worker thread)."""

    def __init__(self, idle_timeout: float = 600.0) -> None:
        self._idle_timeout = idle_timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._to_worker = -1
        self._from_worker = -1
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.log_path: Path | None = None

    def _start(self) -> None:
        logs_dir().mkdir(parents=True, exist_ok=True)
        prune_logs(logs_dir())
        self.log_path = logs_dir() / f"worker-{os.getpid()}-{int(time.time() * 1000)}.log"
        child_in, parent_out = os.pipe()
        parent_in, child_out = os.pipe()
        with open(self.log_path, "ab") as log:
            # Own session, no stdin: the worker and the build hosts it starts never touch a terminal
            # (no SIGTTOU/SIGTTIN when started in the background, no SIGHUP when the terminal closes).
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "roslynmap.roslyn.worker", "--in", str(child_in), "--out", str(child_out),
                 "--idle-timeout", str(self._idle_timeout)],
                pass_fds=(child_in, child_out), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                start_new_session=True,
                env={**os.environ, "DOTNET_CLI_TELEMETRY_OPTOUT": "1", "DOTNET_NOLOGO": "1"},
            )
        os.close(child_in)
        os.close(child_out)
        self._to_worker, self._from_worker = parent_out, parent_in

    def _alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._alive() and self._proc else None

    def request(self, message: dict[str, Any], on_event: OnEvent | None = None,
                deadline_s: float | None = None) -> dict[str, Any]:
        """Sends one request and returns its result; progress events go to `on_event`. A stalled or dead
        worker is replaced and the request sent once more; the result then holds RETRY_NOTE."""
        with self._lock:
            try:
                return self._request_once(message, on_event, deadline_s)
            except WorkerFailed as first:
                self._stop()
                result = self._request_once(message, on_event, deadline_s)
                result[RETRY_NOTE] = f"{first.message} The request was redone in a fresh worker process."
                return result

    def _request_once(self, message: dict[str, Any], on_event: OnEvent | None,
                      deadline_s: float | None) -> dict[str, Any]:
        if not self._alive():
            self._close_pipes()
            self._start()
        deadline = deadline_s or deadline_seconds()
        request_id = next(self._ids)
        op = message.get("op")
        try:
            write_frame(self._to_worker, {**message, "id": request_id, "deadline_s": deadline})
            grace = min(GRACE_S, deadline)
            last = time.monotonic()
            while True:
                if not readable(self._from_worker, last + deadline + grace - time.monotonic()):
                    raise self._unresponsive(op, deadline + grace)
                frame = read_frame(self._from_worker)
                if frame is None:
                    raise self._crashed()
                if frame.get("id") not in (None, request_id):
                    continue  # left over from an earlier request
                last = time.monotonic()
                if frame.get("event") == "result":
                    if frame.get("ok"):
                        result: dict[str, Any] = frame["result"]
                        return result
                    err = frame["error"]
                    kind = WorkerFailed if frame.get("restart") else RoslynMapError
                    if frame.get("restart"):
                        self._reap()
                    raise kind(ErrorCode(err["code"]), err["message"], err.get("hint", ""),
                               retryable=err.get("retryable"))
                if on_event is not None:
                    on_event(frame)
        except BrokenPipeError as exc:
            raise self._crashed() from exc

    def _unresponsive(self, op: Any, waited: float) -> WorkerFailed:
        """The worker did not even report its own stall: dump its Python stacks to its log, then kill it."""
        if self._proc is not None and self._alive():
            with contextlib.suppress(OSError):
                os.kill(self._proc.pid, signal.SIGUSR1)  # faulthandler writes every thread's stack
            time.sleep(1.0)
        self._stop()
        return WorkerFailed(
            ErrorCode.BUSY,
            f"The indexer worker did not answer the {op} request for {waited:.0f} s; it was killed "
            "(its thread stacks are in its log).",
            f"Call again: a fresh worker takes over. Log: {self.log_path}", retryable=True)

    def _crashed(self) -> WorkerFailed:
        code = self._reap()
        return WorkerFailed(
            ErrorCode.INTERNAL,
            f"The indexer worker exited unexpectedly (exit code {code}).",
            f"Call again: a fresh worker takes over. See its log: {self.log_path}", retryable=True)

    def _reap(self) -> int | None:
        """Waits for a worker that is exiting (after a stall report) and kills it if it lingers."""
        if self._proc is None:
            return None
        try:
            code = self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._kill_group()
            return self._proc.wait(timeout=10)
        self._kill_group()  # build hosts it left behind
        return code

    def _kill_group(self) -> None:
        """Kills the worker and whatever it started (build hosts, restore): its session is its own. Also
        after the worker itself has exited: a build host outlives a worker that left mid-load (seen as
        orphaned BuildHost processes, one per stalled worker, that never exit)."""
        if self._proc is None:
            return
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            return  # the group is empty: nothing left behind
        except OSError:
            if self._proc.poll() is None:
                self._proc.kill()

    def _stop(self) -> None:
        self._kill_group()
        if self._proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=10)
        self._close_pipes()

    def _close_pipes(self) -> None:
        for fd in (self._to_worker, self._from_worker):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._to_worker = self._from_worker = -1

    def close(self) -> None:
        if self._alive():
            try:
                write_frame(self._to_worker, {"op": "shutdown"})
                assert self._proc is not None
                self._proc.wait(timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill_group()
        self._close_pipes()
