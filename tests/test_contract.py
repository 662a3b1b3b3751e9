"""The agent contract (DESIGN §9): budgets by construction, overflow that names real parameters,
errors as results, guidance, measured savings, and symbols_resolve across edits."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from roslynmap.mcp import dispatch  # importing it registers every tool in TOOLS
from roslynmap.mcp.envelope import estimate_tokens
from roslynmap.mcp.registry import TOOLS

from tests.conftest import indexed_copy, roslynmap
from tests.mcp_client import McpServerProcess
from tests.repos import TESTDATA

IDS = ["T:Shop.Domain.Order", "M:Shop.Domain.IOrderRepository.Save(Shop.Domain.Order)",
       "M:Shop.Services.OrderService.Place(Shop.Domain.Order,System.Threading.CancellationToken)",
       "P:Shop.Domain.Customer.Item(System.Int32)", "T:Shop.Domain.Discount", "T:Shop.Domain.IOrderRepository",
       "M:Program.<Main>$(System.String[])", "T:Nope.Missing", "garbage id"]
TYPES = ["T:Shop.Domain.Discount", "T:Shop.Domain.IOrderRepository", "T:Shop.Domain.IRepository`1"]
FILES = ["src/Shop.App/Program.cs", "src/Shop.Domain/Customer.cs", "src/Shop.Infrastructure/SqlOrderRepository.cs"]
budgets = st.one_of(st.integers(1, 20000), st.sampled_from([100, 101, 150, 300, 1000, 3000, 10000, 10001]))

CALLS: dict[str, Any] = {
    "symbols_search": st.fixed_dictionaries({}, optional={
        "query": st.one_of(st.text(max_size=12), st.sampled_from(["Order", "Repository", "Save", "o", "*"])),
        "kinds": st.lists(st.sampled_from(["Class", "Method", "Property", "Field"]), max_size=2),
        "limit": st.integers(1, 150), "offset": st.integers(0, 40)}),
    "symbols_get_card": st.fixed_dictionaries({"symbol_id": st.sampled_from(IDS)}, optional={
        "include": st.lists(st.sampled_from(["source", "callers", "callees"]), max_size=3)}),
    "symbols_get_definition_span": st.fixed_dictionaries({"symbol_id": st.sampled_from(IDS)},
                                                         optional={"max_lines": st.integers(1, 500)}),
    "code_get_span": st.fixed_dictionaries({"file_path": st.sampled_from(FILES)}, optional={
        "start_line": st.integers(1, 40), "max_lines": st.integers(1, 500)}),
    "refs_find": st.fixed_dictionaries({"symbol_id": st.sampled_from(IDS)}, optional={
        "limit": st.integers(1, 600), "offset": st.integers(0, 30),
        "kind": st.sampled_from(["Call", "TypeRef", "Write"])}),
    "graph_callers": st.fixed_dictionaries({"symbol_id": st.sampled_from(IDS)}, optional={
        "depth": st.integers(0, 9), "limit_per_level": st.integers(1, 300)}),
    "graph_callees": st.fixed_dictionaries({"symbol_id": st.sampled_from(IDS)}, optional={
        "depth": st.integers(0, 9)}),
    "types_hierarchy": st.fixed_dictionaries({"symbol_id": st.sampled_from(TYPES + IDS[:2])},
                                             optional={"transitive": st.booleans()}),
    "symbols_resolve": st.one_of(
        st.fixed_dictionaries({"symbol_id": st.sampled_from(IDS)}),
        st.fixed_dictionaries({"file_path": st.sampled_from(FILES), "line": st.integers(1, 40)})),
    "surfaces_list_endpoints": st.fixed_dictionaries({}, optional={
        "path_filter": st.text(max_size=5), "http_method": st.sampled_from(["GET", "POST"]),
        "limit": st.integers(1, 600)}),
    "surfaces_list_config_keys": st.fixed_dictionaries({}, optional={"key_filter": st.text(max_size=5)}),
    "surfaces_list_db_tables": st.fixed_dictionaries({}, optional={"table_filter": st.text(max_size=5),
                                                                   "with_endpoints": st.booleans()}),
    "surfaces_list": st.one_of(
        st.fixed_dictionaries({"kind": st.just("di")}, optional={
            "filter": st.text(max_size=5), "level": st.sampled_from(["Scoped", "Singleton"]),
            "file": st.text(max_size=5), "limit": st.integers(1, 600)}),
        st.fixed_dictionaries({"kind": st.just("middleware")}, optional={"project": st.text(max_size=5)}),
        st.fixed_dictionaries({"kind": st.just("logs")}, optional={
            "filter": st.text(max_size=5), "level": st.sampled_from(["Information", "Error"])}),
        st.fixed_dictionaries({"kind": st.just("exceptions")}, optional={
            "filter": st.text(max_size=5), "symbol_id": st.sampled_from(IDS)}),
        st.fixed_dictionaries({"kind": st.just("retries")}, optional={
            "filter": st.text(max_size=5), "project": st.text(max_size=5)})),
    "graph_trace_feature": st.fixed_dictionaries({"entry_point": st.sampled_from(
        [*IDS, "GET /api/orders/{id}", "nonsense"])}, optional={"depth": st.integers(0, 9)}),
    "diagnostics_list": st.fixed_dictionaries({}, optional={
        "severity": st.sampled_from(["error", "warning"]), "code": st.sampled_from(["CS0246", "CS1501"]),
        "file_path": st.sampled_from(FILES), "limit": st.integers(1, 600), "offset": st.integers(0, 30)}),
    "code_outline": st.one_of(st.fixed_dictionaries({"file_path": st.sampled_from(FILES)}),
                              st.fixed_dictionaries({"symbol_id": st.sampled_from(TYPES + IDS)})),
    "code_search_text": st.fixed_dictionaries({"pattern": st.sampled_from(["Order", "Save(", r"class\s+\w+", "("])},
                                              optional={"regex": st.booleans(), "limit": st.integers(1, 600),
                                                        "kind": st.sampled_from(["code", "string", "comment"]),
                                                        "offset": st.integers(0, 30)}),
    "stacktrace_resolve": st.fixed_dictionaries({"stack_trace": st.sampled_from([
        "   at Shop.Services.OrderService.<Place>d__3.MoveNext() in /ci/src/Shop.App/Program.cs:line 3",
        "System.Exception: x\n   at Shop.Domain.Customer.get_Item(Int32 i)\n   at System.Threading.Tasks.Task.Wait()",
        "nothing"])}),
    "repo_overview": st.just({}),
    "tests_find": st.fixed_dictionaries({"symbol_id": st.sampled_from(IDS)}, optional={"depth": st.integers(0, 9)}),
    "impact_analyze": st.fixed_dictionaries({"symbol_id": st.sampled_from(IDS)}, optional={
        "depth": st.integers(0, 9)}),
    "diff_semantic": st.fixed_dictionaries({}, optional={"base_commit": st.text(max_size=8)}),
    "symbols_unused": st.fixed_dictionaries({}, optional={
        "project": st.sampled_from(["Shop.Domain", "Shop.App", "Nope"]),
        "kinds": st.lists(st.sampled_from(["Class", "Method", "Property"]), max_size=2),
        "limit": st.integers(1, 600), "offset": st.integers(0, 30)}),
    "projects_graph": st.just({}),
    "repo_status": st.just({}),
    "index_ensure_baseline": st.just({}),
    "roslynmap_guide": st.fixed_dictionaries({}, optional={
        "topic": st.sampled_from(["overview", "tasks", "ids", "narrowing", "errors", "tools"])}),
}


def test_every_tool_is_covered_by_the_property_test_and_documented() -> None:
    cache_tools = {"index_list_baselines", "index_cleanup"}
    workspace_tools = {name for name in TOOLS if name.startswith("workspace_") or name == "index_refresh_overlay"}
    assert set(TOOLS) - cache_tools - workspace_tools <= set(CALLS)
    reference = (Path(__file__).resolve().parents[1] / "docs" / "tools.md").read_text()
    assert [name for name in TOOLS if f"`{name}`" not in reference] == []


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), budget=budgets)
def test_budget_is_never_exceeded_and_truncation_teaches(server: McpServerProcess, data: st.DataObject,
                                                         budget: int) -> None:
    tool = data.draw(st.sampled_from(sorted(CALLS)))
    args = {**data.draw(CALLS[tool]), "token_budget": budget}
    env = server.call(tool, args)
    applied = max(100, min(10000, budget))
    used = estimate_tokens(env)
    assert used <= applied, (tool, args, used)
    if budget != applied:
        assert env["meta"]["limits_applied"]["token_budget"] == {"requested": budget, "applied": applied}
    if env["ok"] and env["truncated"]:
        text = env["overflow"]["hint"] if "overflow" in env else " ".join(env.get("warnings", []))
        other = re.search(r"(\w+)\(", text)  # a hint may continue in another tool: name its parameters
        params = set(TOOLS[other.group(1) if other and other.group(1) in TOOLS else tool].params.model_fields)
        named = set(re.findall(r"(\w+)=", text))
        assert named and named <= params, (tool, text)
    guidance = [k for k in ("hint", "warning", "must_follow") if k in env]
    assert len(guidance) <= 1


def test_budget_floor_keeps_shape(server: McpServerProcess) -> None:
    env = server.call("refs_find", {"symbol_id": "T:Shop.Domain.Order", "token_budget": 100})
    assert env["ok"] is True and env["truncated"] is True
    assert estimate_tokens(env) <= 100


def test_golden_search_hint(server: McpServerProcess) -> None:
    env = server.call("symbols_search", {"query": "Order", "limit": 2})
    total = env["overflow"]["total"]
    top_kind = env["data"]["by_kind"][0]
    top_file = env["overflow"]["by_file"][0]
    assert env["overflow"]["hint"] == (
        f"Showing 2 of {total} (symbols_search). Narrow: kinds=[\"{top_kind['kind']}\"] ({top_kind['count']} of "
        f"them); or scope: file_path=\"{top_file['file']}\" ({top_file['count']} there); or page: offset=2")


def test_errors_are_results_and_only_internal_sets_is_error(server: McpServerProcess) -> None:
    result = server.call_raw("symbols_get_card", {"symbol_id": "T:Nope"})
    assert result.is_error is False and result.structured_content["error"]["code"] == "NOT_FOUND"
    assert "NOT_FOUND" in result.content[0].text


def test_text_content_is_the_whole_answer(server: McpServerProcess) -> None:
    """Clients that show the model only the text content see every result, compactly (DESIGN §9)."""
    result = server.call_raw("symbols_search", {"kinds": "Method", "limit": 30})
    env = result.structured_content
    lines = result.content[0].text.splitlines()
    assert lines[0] == env["answer"]
    # Said by the id or once: the kind (M:), the name each symbol_id spells; the file of consecutive rows.
    header = lines.index("results (30; by file): symbol_id | signature | line | project")
    first = env["data"]["results"][0]
    assert lines[header + 1] == f"  {first['file']}"
    assert lines[header + 2] == "    " + " | ".join([first["symbol_id"], first["signature"], str(first["line"]),
                                                     first["project"]])
    assert [line for line in lines if line.startswith("truncated: ")] == [f"truncated: {env['overflow']['hint']}"]
    assert len(result.content[0].text) < len(json.dumps(env, separators=(",", ":"), ensure_ascii=False))


def test_short_ids_over_mcp(shop: Path, home: Path) -> None:
    """By default answers leave out the namespaces no other type needs, and take the short ids back."""
    short = McpServerProcess(shop, {"ROSLYNMAP_HOME": str(home), "ROSLYNMAP_IDS": "short"})
    try:
        callers = short.call("graph_callers", {"symbol_id": "M:Shop.Domain.IOrderRepository.Save(Shop.Domain.Order)",
                                               "depth": 2})
        ids = [n["symbol_id"] for n in callers["data"]["nodes"]]
        assert ids and all(i.startswith("M:") and not i.startswith("M:Shop.") for i in ids), ids
        card = short.call("symbols_get_card", {"symbol_id": ids[0]})
        assert card["ok"] and card["data"]["symbol_id"] == ids[0] and card["data"]["fqn"].startswith("Shop.")
        typo = short.call("symbols_get_card", {"symbol_id": "OrderService.Placee"})
        assert typo["error"]["code"] == "NOT_FOUND" and typo["error"]["candidates"][0]["symbol_id"].startswith(
            "M:OrderService.Place(")
    finally:
        short.close()


def test_guide_without_repo_and_topics() -> None:

    env, _ = dispatch.run("roslynmap_guide", {"topic": "ids"}, None)
    assert env["ok"] and "M:Ns.Type.#ctor" in env["answer"]
    tools, _ = dispatch.run("roslynmap_guide", {"topic": "tools"}, None)
    assert all(name in tools["answer"] for name in TOOLS)


def test_tokens_saved_is_measured(shop: Path, home: Path) -> None:
    """Token accounting is verbose meta (`serve --verbose-meta`); lean meta leaves it out."""
    verbose = McpServerProcess(shop, {"ROSLYNMAP_HOME": str(home)}, ["--verbose-meta"])
    try:
        env = verbose.call("symbols_get_card", {"symbol_id": "T:Shop.Domain.Order"})
    finally:
        verbose.close()
    size = (shop / "src/Shop.Domain/Order.cs").stat().st_size
    assert env["meta"]["token_budget"]["used"] == estimate_tokens(env)
    expected = max(0, -(-size // 4) - env["meta"]["token_budget"]["used"])
    assert env["meta"]["tokens_saved"]["upper_bound"] == expected


def test_stats_command_totals(shop: Path, home: Path) -> None:
    """Two CLI calls (each process flushes at exit) add exactly their own calls and tokens."""
    env = {"ROSLYNMAP_HOME": str(home)}

    def totals() -> dict[str, Any]:
        done = roslynmap("stats", "--repo", str(shop), "--json", env=env)
        tools: dict[str, Any] = json.loads(done.stdout)["tools"]
        found: dict[str, Any] = tools.get("symbols_search", {"calls": 0, "tokens_emitted": 0, "tokens_saved": 0})
        return found

    before = totals()
    envelopes = [json.loads(roslynmap("call", "symbols_search", json.dumps({"query": q}), "--repo", str(shop),
                                      "--verbose-meta", env=env).stdout) for q in ("Order", "Repository")]
    after = totals()
    assert after["calls"] - before["calls"] == 2
    assert after["tokens_emitted"] - before["tokens_emitted"] == sum(
        e["meta"]["token_budget"]["used"] for e in envelopes)
    assert after["tokens_saved"] - before["tokens_saved"] == sum(
        e["meta"]["tokens_saved"]["upper_bound"] for e in envelopes)


@pytest.fixture(scope="module")
def editable(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    return indexed_copy("Shop", tmp_path_factory.mktemp("edits") / "Shop", home)


PAY = "M:Shop.Services.OrderService.Pay(System.Guid)"


def test_resolve_across_edits_moves_and_deletions(editable: Path, home: Path) -> None:
    service = editable / "src/Shop.Services/OrderService.cs"
    original = service.read_text()
    server = McpServerProcess(editable, {"ROSLYNMAP_HOME": str(home)})
    try:
        verified = server.call("symbols_resolve", {"symbol_id": PAY})["data"]
        assert (verified["found"], verified["index_stale"], verified["location"]["line"]) == (True, False, 30)
        # Three lines inserted above: the live position moves, the index is stale.
        service.write_text(original.replace("    public Order? Pay(", "    // a\n    // b\n    // c\n"
                                            "    public Order? Pay(", 1))
        moved = server.call("symbols_resolve", {"symbol_id": PAY})["data"]
        assert (moved["location"]["line"], moved["index_stale"], moved["relocated"]) == (33, True, False)
        assert moved["indexed"]["line"] == 30
        # A brand-new method: not in the index; its class is the nearest indexed container.
        service.write_text(original.replace("    public bool Cancel(", "    public int Fresh() => 1;\n\n"
                                            "    public bool Cancel(", 1))
        line = service.read_text().splitlines().index("    public int Fresh() => 1;") + 1
        fresh = server.call("symbols_resolve", {"file_path": "src/Shop.Services/OrderService.cs", "line": line})
        assert fresh["data"]["in_index"] is False
        assert fresh["data"]["symbol_id"] == "M:Shop.Services.OrderService.Fresh"
        assert fresh["data"]["nearest_indexed"] == "T:Shop.Services.OrderService"
        # Deleted: not found, stale.
        start = original.index("    public Order? Pay(")
        end = original.index("    public bool Cancel(")
        service.write_text(original[:start] + original[end:])
        gone = server.call("symbols_resolve", {"symbol_id": PAY})
        assert gone["data"]["found"] is False and gone["data"]["index_stale"] is True
        assert "symbols_search" in gone["warning"]
    finally:
        service.write_text(original)
        server.close()


def test_resolve_without_baseline_is_syntax_only(tmp_path: Path) -> None:
    repo = tmp_path / "plain"
    shutil.copytree(TESTDATA / "Shop" / "src" / "Shop.Domain", repo)
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(tmp_path / "nohome")})
    try:
        env = server.call("symbols_resolve", {"file_path": "Customer.Address.cs", "line": 28})
        assert env["ok"] and env["meta"]["semantic_level"] == "syntax_only"
        assert [c["symbol_id"] for c in env["data"]["chain"]] == [
            "T:Shop.Domain.Customer", "T:Shop.Domain.Customer.Address", "P:Shop.Domain.Customer.Address.Street"]
        assert all(c["in_index"] is False for c in env["data"]["chain"])
    finally:
        server.close()
