"""A project MSBuild cannot evaluate (testdata/MissingSdk: Custom names an SDK no feed serves, as eShop's
Aspire.AppHost.Sdk and MSTest.Sdk were here) keeps what its syntax shows: its symbols, its attribute
routes and literal configuration keys, at level syntax_only with the reason, beside a project that
compiles fully."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import roslynmap
from tests.mcp_client import McpServerProcess
from tests.repos import TESTDATA, make_repo

HANDLER = "M:Custom.Controllers.OrdersController.Get(System.Int32)"


def test_an_unevaluable_project_is_indexed_from_its_sources(tmp_path: Path) -> None:
    repo = make_repo(TESTDATA / "MissingSdk", tmp_path / "MissingSdk")
    home = {"ROSLYNMAP_HOME": str(tmp_path / "home")}
    done = roslynmap("index", str(repo), "--json", env=home)
    assert done.returncode == 2, done.stdout + done.stderr  # degraded: one project syntax_only
    summary = json.loads(done.stdout)
    projects = {p["name"]: p for p in summary["projects"]}
    assert {n: (p["semantic_level"], p["symbol_count"]) for n, p in projects.items()} == {
        "Custom": ("syntax_only", 9), "Plain": ("full", 2)}
    assert projects["Custom"]["level_reason"] == (
        "MSBuild could not evaluate the project: its .cs files were indexed by syntax, with no references")
    assert "Contoso.Unavailable.Sdk/1.0.0" in projects["Custom"]["load_errors"][0]
    assert summary["semantic_level"] == "partial"

    server = McpServerProcess(repo, home)
    try:
        endpoints = server.call("surfaces_list_endpoints", {})["data"]["endpoints"]
        assert [(e["method"], e["route"], e["handler"], e["line"], e["confidence"]) for e in endpoints] == [
            ("GET", "/api/orders/{id}", HANDLER, 14, "medium")]
        keys = server.call("surfaces_list_config_keys", {})["data"]["keys"]
        assert [(k["key"], k["usages"][0]["symbol_id"], k["usages"][0]["line"]) for k in keys] == [
            ("Orders:Prefix", HANDLER, 15)]
        found = server.call("symbols_search", {"kinds": ["Class", "Property"], "file_path": "Custom/"})
        assert sorted(r["symbol_id"] for r in found["data"]["results"]) == [
            "P:Custom.Startup.Port", "T:Custom.Controllers.OrdersController", "T:Custom.Diagnostics",
            "T:Custom.Startup"]

        # Parsed as an SDK build in Debug would: DEBUG and net10.0's symbols are defined (bitwarden's Core had none).
        outline = server.call("code_outline", {"file_path": "Custom/Diagnostics.cs"})
        assert [d["name"] for d in outline["data"]["declarations"]] == ["Diagnostics", "Verbose", "Modern"]
        assert outline["data"]["inactive"] == [{
            "line": 13, "end_line": 13, "condition": "#else of #if NET8_0_OR_GREATER",
            "declares": ["method Diagnostics.Legacy:13"]}]

        # The code's own error is listed; the 28 the unevaluable project reports (no System.Object, no ASP.NET)
        # are counted apart, and listed when that project is asked for.
        errors = server.call("diagnostics_list", {})
        assert errors["answer"] == (
            "1 error, 0 warnings. Not listed: 28 errors of references that did not resolve, in 1 project"
            " (syntax_only, or a partial project's missing types); project=\"Custom\" lists its 28.")
        assert [(d["code"], d["file"], d["line"]) for d in errors["data"]["diagnostics"]] == [
            ("CS0103", "Plain/Greeter.cs", 6)]
        assert errors["data"]["unresolved"] == {"errors": 28, "warnings": 0, "projects": [
            {"project": "Custom", "semantic_level": "syntax_only", "count": 28}]}
        custom = server.call("diagnostics_list", {"project": "Custom"})["data"]
        assert (custom["by_code"], "unresolved" in custom) == (
            [{"code": "CS0518", "count": 17}, {"code": "CS0246", "count": 9}, {"code": "CS0234", "count": 2}], False)
    finally:
        server.close()
