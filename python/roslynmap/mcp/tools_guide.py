"""roslynmap_guide: short task-oriented guidance, because clients truncate server instructions and
tool descriptions and do not show resources to the model."""

from __future__ import annotations

from typing import Literal

from roslynmap.mcp.output import ToolOutput
from roslynmap.mcp.registry import SHARED_HELP, TOOLS, BaseParams, tool

Topic = Literal["overview", "tasks", "ids", "parameters", "narrowing", "errors", "tools"]

GUIDE: dict[str, str] = {
    "overview": (
        "roslynmap answers from a Roslyn-compiled index of the repository (one baseline per commit). "
        "1) repo_status: is there a baseline for HEAD? 2) if not, index_ensure_baseline once. "
        "3) symbols_search to get a symbol_id, then symbols_get_card / refs_find / graph_callers / "
        "types_hierarchy with it. Read `answer` first; if `truncated`, `overflow.hint` is the exact next call. "
        "`meta.semantic_level` says how complete the compile was (full / partial / syntax_only)."
    ),
    "tasks": (
        "Find a symbol: symbols_search(query, kinds?). Understand it: symbols_get_card. Read it: "
        "symbols_get_definition_span, or code_get_span for any range. Before changing or deleting: "
        "refs_find (every use, classified) and graph_callers(depth=2..3) (calls, including through "
        "interfaces). What does it call: graph_callees. Who implements or derives: types_hierarchy. "
        "A line from a diff: symbols_resolve(file_path, line) gives the enclosing symbol_id. A whole stack trace: "
        "stacktrace_resolve. First look at a repository: repo_overview. What a file or type declares: "
        "code_outline. Explain a symbol in one call: symbols_get_card(include=[\"source\",\"callers\","
        "\"callees\"]). Text that is not a symbol (SQL, messages): code_search_text(kind=\"string\"). After "
        "editing in a workspace: index_refresh_overlay, then diagnostics_list(workspace_id, new_only=true)."
        " Tests to run after a change: tests_find; everything a change touches: impact_analyze. Review: "
        "diff_semantic(base_commit or workspace_id); dead code: symbols_unused; projects and packages: "
        "projects_graph."
    ),
    "ids": (
        "Wherever a symbol_id is expected, a plain name works too: OrderService.Place, or Place when only one "
        "symbol has that name (AMBIGUOUS lists the candidates). Answers leave out namespaces the index does not "
        "need (M:OrderService.Place(Order)); both forms are accepted. "
        "symbol_id is Roslyn's documentation id: T:Ns.Type, T:Ns.Generic`1, M:Ns.Type.Method(Ns.Arg,System.Int32), "
        "M:Ns.Type.#ctor(...), P:Ns.Type.Property, F:Ns.Type.field, E:Ns.Type.Event; top-level code is "
        "M:Program.<Main>$(System.String[]). Copy ids from results rather than build them by hand. stable_id "
        "(sym_ + 16 hex) survives moves and is accepted wherever symbol_id is. Paths are repo-relative "
        "with '/'; lines and columns are 1-based."
    ),
    "parameters": SHARED_HELP,
    "narrowing": (
        "Filters apply before limits and totals are exact. symbols_search: kinds, namespace (prefix), "
        "file_path (prefix). refs_find: kind (Call, Read, Write, Instantiate, Override, Implementation, "
        "TypeRef, ImplicitCall, MockSetup, AttributeArgument), file_path, resolution_state. "
        "Order of preference when a result is truncated: "
        "a filter, then a file scope from overflow.by_file, then paging with offset. token_budget (100..10000) caps "
        "every response."
    ),
    "errors": (
        "Errors are results with ok=false and error.code: INVALID_ARGUMENT (fix the argument, see hint), "
        "NOT_FOUND (see candidates), AMBIGUOUS (pass project or solution_path from candidates), "
        "INDEX_NOT_AVAILABLE (call index_ensure_baseline, retryable), PATH_OUTSIDE_REPO, "
        "COMPILATION_FAILED (see hint and worker log), INTERNAL (a bug)."
    ),
}


class GuideParams(BaseParams):
    topic: Topic | None = None


@tool("roslynmap_guide", GuideParams, needs_repo=False)
def guide_tool(params: GuideParams, repo_path: str) -> ToolOutput:
    """Use when unsure which tool answers a question, how ids look, or what the shared parameters do."""
    topic = params.topic or "overview"
    if topic == "tools":
        text = " ".join(f"{t.name}: {t.description.split('.')[0]}." for t in TOOLS.values())
    else:
        text = GUIDE[topic]
    others = [t for t in (*GUIDE, "tools") if t != topic]
    return ToolOutput(answer=text, data={"topic": topic, "other_topics": others})
