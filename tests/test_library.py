"""testdata/Library: a published library (Polly) whose only referencing apps are its benchmarks and tests, and what
serializers and the middleware pipeline call by convention (Kavita)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Library", tmp_path_factory, home)


def test_unused_keeps_a_published_librarys_api_and_what_conventions_call(library: McpServerProcess) -> None:
    """Polly: its benchmarks (a BenchmarkDotNet Exe) reference it, so 91 members of its public API were "unused".
    Kavita: `ShouldSerializeTotal()`, which serializers call by name, was unused; `JwtRevocationMiddleware`, which no
    UseMiddleware names, was not (its InvokeAsync counted as the framework's)."""
    env = library.call("symbols_unused", {})
    assert [(u["symbol_id"], u["line"]) for u in env["data"]["unused"]] == [
        ("M:Lib.Web.Feed.ShouldSerializeNothing", 11),  # no property named Nothing
        ("T:Lib.Web.LegacyMiddleware", 10),
        ("M:Lib.Client.Flush", 19)]  # internal: not the library's API
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        "public_library_api": 1,  # Client.Close
        "serialization": 1,  # Feed.ShouldSerializeTotal (Total itself is read by the endpoint's initializer)
        "framework_entry": 2,  # TimingMiddleware.InvokeAsync, SendBenchmarks.Send ([Benchmark])
        "entry_point": 3, "constructed": 1, "test": 2}


def test_an_fscheck_property_is_a_test(library: McpServerProcess) -> None:
    """Polly's RetryHelperTests: `[FsCheck.Xunit.Property]` derives from xUnit's Fact; tests_find missed it."""
    env = library.call("tests_find", {"symbol_id": "M:Lib.Client.Retry(System.Int32)"})
    assert [(t["test"], t["framework"], t["attribute"], t["line"]) for t in env["data"]["tests"]] == [
        ("M:Lib.Tests.ClientTests.RetryKeepsTheAttempts(System.Int32)", "xunit", "Property", 10)]
