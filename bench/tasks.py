"""The agent task suite (tests/agent_tasks.py) as a table for docs/benchmarks.md ("Agent tasks"):

    python bench/tasks.py [--work DIR]

Copies testdata/Shop, Web and Tested into git repositories under DIR (a temporary folder by default;
an existing copy is reused), indexes them with the CLI, serves each over MCP stdio with the default
settings (short ids, lean meta) and prints the table: per task, the calls, tokens and correctness of
roslynmap's answer against the tokens of the grep+read that answers the same question.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "python"))

from tests.agent_tasks import TASKS, Server, serve_and_report, user_settings  # noqa: E402
from tests.fast.test_tool_list import listed_tools, tokens  # noqa: E402
from tests.repos import TESTDATA, make_repo  # noqa: E402

# Web.NoPackages lacks its packages by design: its index is partial (exit 2).
EXIT_CODES = {"Shop": 0, "Web": 2, "Tested": 0}


def indexed(work: Path, home: Path, fixture: str) -> Path:
    repo = work / fixture
    if not repo.exists():
        make_repo(TESTDATA / fixture, repo)
    done = subprocess.run([sys.executable, "-m", "roslynmap.cli", "index", str(repo), "--json"], capture_output=True,
                          text=True, env={**os.environ, "ROSLYNMAP_HOME": str(home)}, timeout=900, check=False)
    if done.returncode != EXIT_CODES[fixture]:
        sys.exit(f"indexing {fixture} failed ({done.returncode}): {done.stderr[-2000:]}")
    return repo


def tool_list_tokens() -> int:
    return sum(tokens(t) for t in listed_tools())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", help="where the fixture repositories and their baselines go")
    args = parser.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="roslynmap-tasks-"))
    home = work / "home"
    home.mkdir(parents=True, exist_ok=True)
    fixtures = sorted({t.fixture for t in TASKS})
    repos = {f: indexed(work, home, f) for f in fixtures}

    def start_clean(servers: Mapping[str, Server]) -> None:
        # A reused --work folder still has the workspace of the last run: the task starts from none.
        servers["Shop"].call_raw("workspace_delete", {"workspace_id": "task"})

    print(serve_and_report(repos, user_settings(home), tool_list_tokens(), prepare=start_clean))


if __name__ == "__main__":
    main()
