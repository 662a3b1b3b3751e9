"""Spawns and talks to the indexer worker. Runs in the server and CLI processes; never loads the CLR."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.roslyn.protocol import read_frame, write_frame
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


class WorkerClient:
    """One worker process; requests are serialized (all CLR work happens on one worker thread)."""

    def __init__(self, idle_timeout: float = 600.0) -> None:
        self._idle_timeout = idle_timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._to_worker = -1
        self._from_worker = -1
        self._lock = threading.Lock()
        self.log_path: Path | None = None

    def _start(self) -> None:
        logs_dir().mkdir(parents=True, exist_ok=True)
        prune_logs(logs_dir())
        self.log_path = logs_dir() / f"worker-{os.getpid()}-{int(time.time() * 1000)}.log"
        child_in, parent_out = os.pipe()
        parent_in, child_out = os.pipe()
        with open(self.log_path, "ab") as log:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "roslynmap.roslyn.worker", "--in", str(child_in), "--out", str(child_out),
                 "--idle-timeout", str(self._idle_timeout)],
                pass_fds=(child_in, child_out), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
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

    def request(self, message: dict[str, Any], on_event: OnEvent | None = None) -> dict[str, Any]:
        """Sends one request and returns its result; progress events go to `on_event`."""
        with self._lock:
            if not self._alive():
                self._close_pipes()
                self._start()
            try:
                write_frame(self._to_worker, message)
                while True:
                    frame = read_frame(self._from_worker)
                    if frame is None:
                        raise self._crashed()
                    if frame.get("event") == "result":
                        if frame.get("ok"):
                            result: dict[str, Any] = frame["result"]
                            return result
                        err = frame["error"]
                        raise RoslynMapError(ErrorCode(err["code"]), err["message"], err.get("hint", ""))
                    if on_event is not None:
                        on_event(frame)
            except BrokenPipeError as exc:
                raise self._crashed() from exc

    def _crashed(self) -> RoslynMapError:
        code = self._proc.wait(timeout=10) if self._proc else None
        return RoslynMapError(
            ErrorCode.COMPILATION_FAILED,
            f"The indexer worker exited unexpectedly (exit code {code}).",
            f"See its log: {self.log_path}",
        )

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
                if self._proc:
                    self._proc.kill()
        self._close_pipes()
