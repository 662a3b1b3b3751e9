"""No call waits forever on the indexer worker (issue 17): deadlines, a stall diagnosis in the worker's log,
a fresh worker in its place, a bounded solution open, and an index run detached from any terminal."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.roslyn.client import RETRY_NOTE, WorkerClient

from tests.conftest import roslynmap
from tests.repos import TESTDATA, make_repo


@pytest.fixture
def worker_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("ROSLYNMAP_HOME", str(home))
    monkeypatch.setenv("ROSLYNMAP_WORKER_DEADLINE_SECONDS", "2")
    return home


def test_a_stalled_request_is_diagnosed_and_its_worker_replaced(worker_home: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSLYNMAP_DEBUG_WORKER_SLEEP", "ping=600")  # every worker started now stalls on ping
    client = WorkerClient()
    started = time.monotonic()
    with pytest.raises(RoslynMapError) as caught:
        client.request({"op": "ping"})
    assert time.monotonic() - started < 30
    error = caught.value.to_dict()
    assert error["code"] == "BUSY" and error["retryable"] is True
    # The retry's (request 2) error reaches the caller; request 1 stalled the first worker.
    assert error["message"] == ("The indexer worker stalled: request 2 (ping) made no progress for 2 s "
                                "in phase 'start'")
    logs = sorted((worker_home / "logs").glob("worker-*.log"))
    assert len(logs) == 2  # the first worker and the one the request was redone in
    for request_id, log in enumerate(logs, start=1):
        text = log.read_text()
        assert f"roslynmap worker: STALLED: request {request_id} (ping) made no progress for 2 s in phase 'start'" \
            in text
        assert "child processes: none" in text
        assert "Thread 0x" in text and "in _debug_sleep" in text  # faulthandler's stack of every thread
    monkeypatch.delenv("ROSLYNMAP_DEBUG_WORKER_SLEEP")
    assert client.request({"op": "ping"}) == {"pong": True}  # a fresh worker answers
    assert len(list((worker_home / "logs").glob("worker-*.log"))) == 3
    client.close()


def test_a_worker_that_cannot_answer_is_killed_and_the_request_redone(worker_home: Path) -> None:
    """A stopped worker (as a process stopped by SIGTTOU would be) cannot even report its stall: the
    parent dumps its stacks, kills it after the deadline and a grace period, and redoes the request."""
    client = WorkerClient()
    assert client.request({"op": "ping"}) == {"pong": True}
    stuck = client.pid
    assert stuck is not None
    os.kill(stuck, signal.SIGSTOP)
    started = time.monotonic()
    result = client.request({"op": "ping"})
    assert 4 <= time.monotonic() - started < 30
    assert result[RETRY_NOTE] == ("The indexer worker did not answer the ping request for 4 s; it was killed (its "
                                  "thread stacks are in its log). The request was redone in a fresh worker process.")
    assert result["pong"] is True and client.pid not in (None, stuck)
    with pytest.raises(ProcessLookupError):
        os.kill(stuck, 0)
    client.close()


def test_a_solution_open_that_never_ends_fails_clearly_after_one_retry(tmp_path: Path) -> None:
    repo = make_repo(TESTDATA / "Shop", tmp_path / "Shop")
    home = tmp_path / "home"
    done = roslynmap("index", str(repo), "--json",
                     env={"ROSLYNMAP_HOME": str(home), "ROSLYNMAP_OPEN_TIMEOUT_SECONDS": "0.001"})
    assert done.returncode == 1, done.stdout + done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["code"] == ErrorCode.COMPILATION_FAILED.value and error["retryable"] is True
    assert error["message"].startswith(
        "TimeoutException: loading the solution timed out: MSBuildWorkspace did not finish within 0.001 s "
        f"(last step: opening {repo.resolve() / 'Shop.slnx'}: ")
    assert len(list((home / "logs").glob("worker-*.log"))) == 2  # tried once more in a fresh worker


def test_index_runs_detached_from_any_terminal(tmp_path: Path) -> None:
    """`roslynmap index` in its own session, stdin/stdout/stderr not a terminal, in the background."""
    repo = make_repo(TESTDATA / "Shop", tmp_path / "Shop")
    out, err = tmp_path / "out.json", tmp_path / "err.txt"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        # start_new_session: setsid(), so no controlling terminal at all, as a daemon or `setsid ... &` has.
        proc = subprocess.Popen([sys.executable, "-m", "roslynmap.cli", "index", str(repo), "--json"],
                                stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr, start_new_session=True,
                                env={**os.environ, "ROSLYNMAP_HOME": str(tmp_path / "home")})
    assert proc.wait(timeout=600) == 0, err.read_text()
    summary = json.loads(out.read_text())
    assert summary["built"] is True and summary["semantic_level"] == "full"
    assert summary["counts"]["symbols"] == 135


def test_index_started_in_the_background_of_a_terminal_never_touches_it(tmp_path: Path) -> None:
    """A shell with a terminal starts `roslynmap index` as a background job (`... &`) with `stty tostop`:
    any write to, or mode change of, the terminal from the job would stop it (SIGTTOU) and hang the run."""
    repo = make_repo(TESTDATA / "Shop", tmp_path / "Shop")
    out, status = tmp_path / "out.json", tmp_path / "status"
    script = (f"stty tostop; set -m; {sys.executable} -m roslynmap.cli index {repo} --json > {out} 2>/dev/null & "
              f"wait $!; echo $? > {status}")
    pid, fd = pty.fork()
    if pid == 0:  # the child's controlling terminal is the pty; its stdin is the terminal
        os.environ["ROSLYNMAP_HOME"] = str(tmp_path / "home")
        os.execvp("bash", ["bash", "-c", script])
    end = time.monotonic() + 600
    try:
        while time.monotonic() < end and not status.exists():
            try:
                os.read(fd, 4096)  # keep the terminal drained
            except OSError:
                time.sleep(0.2)
    finally:
        os.waitpid(pid, 0)
        os.close(fd)
    assert status.read_text().strip() == "0"
    assert json.loads(out.read_text())["semantic_level"] == "full"


def test_loading_the_bridge_detaches_the_hosts_per_assembly_scan() -> None:
    """The worker deadlock of docs/architecture.md ("A third hang"): with pythonnet scanning every assembly
    loaded while Roslyn compiled projects in parallel, fresh processes opening testdata/Shop and warming its
    compilations hung in about one run in five. Loading the bridge must leave that handler detached."""
    code = ("from roslynmap.roslyn.hosting import load_bridge\n"
            "session = load_bridge()\n"
            "print(session.HostAssemblyScanAttached())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "False"), done.stderr
