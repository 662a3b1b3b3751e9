"""testdata/Library: a published library (Polly) whose only referencing apps are its benchmarks and tests, a packaged
one an app references (CAP), and what serializers and the middleware pipeline call by convention (Kavita)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import roslynmap, serving
from tests.mcp_client import McpServerProcess
from tests.repos import TESTDATA, make_repo


@pytest.fixture(scope="module")
def library_repo(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    repo = make_repo(TESTDATA / "Library", tmp_path_factory.mktemp("repos") / "Library", restore=False)
    # Lib.Specs needs a package never published: the restore fails for it by design, and restores the rest.
    subprocess.run(["dotnet", "restore", "-v", "q"], cwd=repo, check=False, capture_output=True, timeout=600)
    done = roslynmap("index", str(repo), "--json", env={"ROSLYNMAP_HOME": str(home)})
    assert done.returncode == 2, done.stdout + done.stderr  # partial: Lib.Specs
    return repo


@pytest.fixture(scope="module")
def library(library_repo: Path, home: Path) -> Iterator[McpServerProcess]:
    yield from serving(library_repo, home)


def test_unused_keeps_a_published_librarys_api_and_what_conventions_call(library: McpServerProcess) -> None:
    """Polly: its benchmarks (a BenchmarkDotNet Exe) reference it, so 91 members of its public API were "unused".
    Kavita: `ShouldSerializeTotal()`, which serializers call by name, was unused; `JwtRevocationMiddleware`, which no
    UseMiddleware names, was not (its InvokeAsync counted as the framework's)."""
    env = library.call("symbols_unused", {})
    assert [(u["symbol_id"], u["line"]) for u in env["data"]["unused"]] == [
        ("M:Shared.Guard.NeverCalled", 19),  # public in an internal class: no published API
        ("M:Lib.Hosting.HostDefaults.Banner", 8),  # the app's helper library: no package (IsPackable false)
        ("M:Lib.Redis.RedisOptionsExtensions.Reset(Lib.Redis.RedisOptions)", 25),  # internal
        ("M:Lib.Web.Feed.ShouldSerializeNothing", 11),  # no property named Nothing
        ("M:Lib.Web.Feed.FlushLegacy", 14),  # Lib's #if names Lib's own FlushLegacy, not Lib.Web's
        ("T:Lib.Web.LegacyMiddleware", 10),
        # Kavita's JwtRevocationMiddleware: its InvokeAsync calls a member of its own, which made the type "named"
        ("M:Lib.Web.StaleMiddleware.InvokeAsync(Microsoft.AspNetCore.Http.HttpContext)", 18),
        ("M:Lib.Client.Flush", 23),  # internal: not the library's API
        ("M:Lib.Client.CloseLegacy", 42),  # the inactive branch declares its own: no use of this one
        ("T:Lib.Specs.ClientSpecs", 3)]  # a test project's public helper nothing calls: no published API
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        # Close, QueryAsync(string) (not Lib.Specs' ClientSpecs: a test project's); UseRedis() and UseRedis(string)
        "public_library_api": 4,
        "serialization": 1,  # Feed.ShouldSerializeTotal (Total itself is read by the endpoint's initializer)
        "framework_entry": 2,  # TimingMiddleware.InvokeAsync, SendBenchmarks.Send ([Benchmark])
        "entry_point": 3, "constructed": 2, "test": 6, "inactive_code": 1}


def test_a_published_librarys_api_is_kept_though_an_app_references_it(library: McpServerProcess) -> None:
    """CAP: its samples reference its transports, so `UseRedis()`, `UseRedis(string)` and about 25 more members of
    the packages' public API were "unused", while NATS's, which no sample references, were `public_library_api`.
    Lib.Redis gets PackageTags from src/Directory.Build.props: published. Lib.Hosting, under the same props, says
    `<IsPackable>false</IsPackable>`: the app's own helper, its unused public member listed."""
    env = library.call("symbols_unused", {"project": "Lib.Redis"})
    assert [u["symbol_id"] for u in env["data"]["unused"]] == [
        "M:Lib.Redis.RedisOptionsExtensions.Reset(Lib.Redis.RedisOptions)"]
    assert env["data"]["excluded"] == {"public_library_api": {
        "count": 2, "rule": "public API of libraries no app of the solution references, or published as packages"}}
    hosting = library.call("symbols_unused", {"project": "Lib.Hosting"})
    assert [u["symbol_id"] for u in hosting["data"]["unused"]] == ["M:Lib.Hosting.HostDefaults.Banner"]
    assert hosting["data"]["excluded"] == {}


def test_an_fscheck_property_is_a_test(library: McpServerProcess) -> None:
    """Polly's RetryHelperTests: `[FsCheck.Xunit.Property]` derives from xUnit's Fact; tests_find missed it."""
    env = library.call("tests_find", {"symbol_id": "M:Lib.Client.Retry(System.Int32)"})
    assert [(t["test"], t["framework"], t["attribute"], t["line"]) for t in env["data"]["tests"]] == [
        ("M:Lib.Tests.ClientTests.RetryKeepsTheAttempts(System.Int32)", "xunit", "Property", 10),
        ("M:Lib.Tests.LongRunningTests.RetriesForLong", "xunit", "FactLongRunning", 14)]


def test_a_package_restore_left_unresolved_makes_the_project_partial(library: McpServerProcess) -> None:
    """Polly.Specs reported `full` with NSubstitute missing: it came in by a global `<Using>`, so the errors landed in
    the generated GlobalUsings.g.cs, which is not indexed. The assets file's NU1101 says the package is missing. A
    package restore only downloads (Lib's `PackageDownload`, Polly's package-validation baseline) changes nothing."""
    status = library.call("repo_status", {})
    assert {p["name"]: (p["semantic_level"], p["level_reason"]) for p in status["data"]["head_baseline"]["projects"]
            if p["semantic_level"] != "full"} == {
        "Lib.Specs": ("partial", "restore left 1 package unresolved (RoslynMap.Testdata.NeverPublished)")}


GUARD_NOT_NULL = "M:Shared.Guard.NotNull``1(``0)"


def test_a_file_compiled_into_two_projects_is_one_declaration(library: McpServerProcess) -> None:
    """Polly links Polly.Core's Utils/Guard.cs into other projects: refs_find listed each reference in it once per
    project and took no `project` (149 references for any), asked for a project it then ignored; code_outline
    listed its inactive regions once per project; a stack frame offered the same id as another candidate."""
    every = library.call("refs_find", {"symbol_id": GUARD_NOT_NULL})
    assert [(r["file"], r["line"], r["kind"]) for r in every["data"]["references"]] == [
        ("shared/Guard.cs", 15, "Call"), ("src/Lib/Client.cs", 12, "Call")]
    impact = library.call("impact_analyze", {"symbol_id": GUARD_NOT_NULL})
    assert (impact["data"]["references_by_kind"], impact["data"]["files"]) == (
        {"Call": 2}, [{"file": "shared/Guard.cs", "references": 1}, {"file": "src/Lib/Client.cs", "references": 1},
                      # callers' files (Send's benchmark, NotEmpty's endpoint): affected, no reference of their own
                      {"file": "bench/Lib.Benchmarks/SendBenchmarks.cs", "references": 0},
                      {"file": "src/Lib.Web/Program.cs", "references": 0},
                      {"file": "tests/Lib.Tests/InheritedTests.cs", "references": 0}])  # Sends, a test of Send
    web = library.call("refs_find", {"symbol_id": GUARD_NOT_NULL, "project": "Lib.Web"})
    assert [(r["file"], r["line"]) for r in web["data"]["references"]] == [("shared/Guard.cs", 15)]
    outline = library.call("code_outline", {"file_path": "shared/Guard.cs"})
    assert outline["data"]["inactive"] == [
        {"line": 12, "end_line": 12, "condition": "#if NET46", "declares": ["method Guard.Legacy:12"]}]
    frames = library.call("stacktrace_resolve", {"stack_trace": "   at Shared.Guard.NotEmpty(String value)"})
    assert frames["data"]["frames"] == [{"frame": 0, "matched_by": "name", "file": "shared/Guard.cs", "line": 15,
                                         "symbol_id": "M:Shared.Guard.NotEmpty(System.String)"}]


def test_a_workspace_keeps_what_restore_left_unresolved(library: McpServerProcess, library_repo: Path) -> None:
    """The overlay recounts each project's level from its diagnostics: Lib.Specs, whose errors land in generated
    files, became `full` in a workspace though its package is still missing."""
    specs = library_repo / "tests/Lib.Specs/ClientSpecs.cs"
    text = specs.read_text(encoding="utf-8")
    try:
        assert library.call("workspace_create", {"workspace_id": "specs"})["ok"]
        specs.write_text(text.replace("Retry(2)", "Retry(3)"), encoding="utf-8")
        refreshed = library.call("index_refresh_overlay", {"workspace_id": "specs"})
        assert refreshed["data"]["extracted"] == ["tests/Lib.Specs/ClientSpecs.cs"], refreshed
        found = library.call("symbols_search", {"query": "Attempts", "workspace_id": "specs"})
        assert found["meta"]["semantic_level"] == "partial"
    finally:
        specs.write_text(text, encoding="utf-8")


def test_tests_under_a_fact_prefix_and_inherited_tests_are_tests(library: McpServerProcess) -> None:
    """Dapper: 32 tests marked `[FactMySql]`, `[FactLongRunning]`... (xUnit Facts by a name starting with Fact) were no
    tests, so symbols_unused listed them; its 45 sealed classes running an abstract generic base's tests
    (`SystemSqlClientAsyncTests : AsyncTests<SystemSqlClientProvider> { }`) were listed unused too."""
    sends = library.call("tests_find", {"symbol_id": "M:Lib.Client.Send"})
    assert [(t["test"], t["attribute"]) for t in sends["data"]["tests"]] == [
        ("M:Lib.Tests.ClientContract`1.Sends", "Fact")]
    unused = library.call("symbols_unused", {"project": "Lib.Tests"})
    assert unused["data"]["unused"] == []
    # ClientTests, LongRunningTests, InMemoryClientTests and their three tests (ClientContract`1 is named as a base)
    assert {k: v["count"] for k, v in unused["data"]["excluded"].items()} == {"test": 6}


def test_a_member_named_only_in_inactive_code_is_not_unused(library: McpServerProcess) -> None:
    """Dapper's TestBase.SkipIfMsDataClient is called only inside `#if ENTITY_FRAMEWORK` (tests built for net481,
    indexed for net10.0): "unused", and refs_find's 0 references said nothing of the five calls."""
    unused = library.call("symbols_unused", {"project": "Lib"})
    assert [u["symbol_id"] for u in unused["data"]["unused"]] == [
        "M:Shared.Guard.NeverCalled", "M:Lib.Client.Flush", "M:Lib.Client.CloseLegacy"]
    assert unused["data"]["excluded"]["inactive_code"] == {
        "count": 1, "rule": "named in #if branches not compiled for the indexed target framework"}
    refs = library.call("refs_find", {"symbol_id": "M:Lib.Client.FlushLegacy"})
    assert refs["answer"] == "0 references to Lib.Client.FlushLegacy."
    assert refs["warnings"] == ["'FlushLegacy' is also named in 1 #if branch not compiled for the indexed target "
                                "(src/Lib/Client.cs:38-39 (#if NET46)): uses there are not listed as references."]
    # A name the branch only declares is no use (CloseLegacy, also declared in the #else, is listed above).
    assert library.call("refs_find", {"symbol_id": "M:Lib.Client.CloseLegacy"}).get("warnings") is None


def test_a_linked_files_unused_member_is_listed_for_each_project_compiling_it(library: McpServerProcess) -> None:
    """Dapper.StrongName compiles Dapper's files: asked for project Dapper, its two unused internal members were
    missing (judged as StrongName's declaration, the first row), though listed for Dapper.StrongName."""
    for project in ("Lib", "Lib.Web"):
        unused = library.call("symbols_unused", {"project": project})
        assert [(u["symbol_id"], u["project"]) for u in unused["data"]["unused"]
                if u["symbol_id"].startswith("M:Shared.")] == [("M:Shared.Guard.NeverCalled", project)], project


def test_a_generic_async_state_machine_frame_is_the_generic_overload(library: McpServerProcess) -> None:
    """Dapper's `<QueryAsync>d__33`1.MoveNext() in SqlMapper.Async.cs:line 434` was answered with the plain
    QueryAsync declared at line 27 (the arity of the state machine was dropped, and the name beat the line)."""
    trace = "   at Lib.Client.<QueryAsync>d__9`1.MoveNext() in /build/src/Lib/Client.cs:line 34"
    frames = library.call("stacktrace_resolve", {"stack_trace": trace})["data"]["frames"]
    assert [(f["symbol_id"], f["matched_by"], f["line"]) for f in frames] == [
        ("M:Lib.Client.QueryAsync``1(System.String)", "name+line", 34)]
    # Without a line the arity still picks it.
    bare = library.call("stacktrace_resolve", {"stack_trace": "   at Lib.Client.<QueryAsync>d__9`1.MoveNext()"})
    assert [f["symbol_id"] for f in bare["data"]["frames"]] == ["M:Lib.Client.QueryAsync``1(System.String)"]
