"""One settings object for every ROSLYNMAP_* variable, documented in docs/configuration.md."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from roslynmap.model import settings

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"ROSLYNMAP_[A-Z0-9_]*[A-Z0-9]")


def names_in(paths: list[Path]) -> set[str]:
    return {n for p in paths for n in NAME.findall(p.read_text(encoding="utf-8"))}


def test_every_variable_in_the_code_is_a_setting_and_documented() -> None:
    code = [*(ROOT / "python").rglob("*.py"), *(ROOT / "dotnet").rglob("*.cs"), ROOT / "build.py"]
    documented = names_in([ROOT / "docs" / "configuration.md"])
    assert names_in(code) <= set(settings.NAMES)
    assert documented == set(settings.NAMES)
    every_doc = names_in([*(ROOT / "docs").glob("*.md"), ROOT / "README.md"])
    assert every_doc <= set(settings.NAMES)  # no doc names a variable that does not exist


def test_only_settings_reads_the_variables() -> None:
    """Other modules name variables in messages, but never read one from os.environ themselves."""
    readers = {str(p.relative_to(ROOT)) for p in (ROOT / "python").rglob("*.py")
               if re.search(r"(environ(\.get)?|getenv)\(?\[?\s*\"ROSLYNMAP_", p.read_text(encoding="utf-8"))}
    assert readers == set()


def test_defaults() -> None:
    s = settings.load({})
    assert s == settings.Settings(
        home=Path.home() / ".roslynmap", cache_dir=None, allowed_roots=(), worker_deadline_s=900.0,
        restore_timeout_s=600.0, open_timeout_s=600.0, stall_s=300.0, no_facts=False, bridge_dir=None,
        s3_endpoint_url=None, debug_worker_sleep=None, incremental=True, derive_max_commits=50, warm_load=True,
        warm_min_free_mb=2048.0)


def test_values_and_bad_numbers() -> None:
    roots = f"/a{os.pathsep}{os.pathsep}/b"
    s = settings.load({settings.HOME: "/h", settings.CACHE_DIR: "  ", settings.ALLOWED_ROOTS: roots,
                       settings.WORKER_DEADLINE_SECONDS: "2.5", settings.RESTORE_TIMEOUT_SECONDS: "-1",
                       settings.STALL_SECONDS: "soon", settings.NO_FACTS: "1", settings.BRIDGE_DIR: "/bridge"})
    assert (s.home, s.cache_dir, s.allowed_roots) == (Path("/h"), None, ("/a", "/b"))
    assert (s.worker_deadline_s, s.restore_timeout_s, s.stall_s) == (2.5, 600.0, 300.0)
    assert (s.no_facts, s.bridge_dir) == (True, Path("/bridge"))


def test_current_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(settings.HOME, str(tmp_path / "one"))
    first = settings.current()
    assert first.home == tmp_path / "one" and settings.current() is first  # read once
    monkeypatch.setenv(settings.HOME, str(tmp_path / "two"))
    assert settings.current().home == tmp_path / "two"


def test_override_sets_a_known_variable_for_children(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(settings.CACHE_DIR, raising=False)
    settings.override(settings.CACHE_DIR, "/shared")
    assert os.environ[settings.CACHE_DIR] == "/shared" and settings.current().cache_dir == "/shared"
    monkeypatch.delenv(settings.CACHE_DIR)
    with pytest.raises(KeyError):
        settings.override("ROSLYNMAP_NOPE", "1")
