"""Issue 14's new answers over small hand-written baselines: diagnostics_list, code_outline,
code_search_text, stacktrace_resolve (parsing and lookup), repo_overview, and symbols_get_card's
include mode. The workspace half of diagnostics needs Roslyn: tests/test_workspaces.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from roslynmap.mcp import api
from roslynmap.model.records import DiagnosticRecord, FactRecord
from roslynmap.query import stacktrace, textsearch
from roslynmap.store.repo import RepoInfo

from tests.fast.batches import SAVE, SQL_SAVE, Sample, ref, short, symbol, write_baseline
from tests.fast.conftest import Call

BILLING = """namespace Shop;

// Note: move the SQL to a repository
public class Invoice
{
    public const string Query = "SELECT * FROM Invoices WHERE Id = @id";
    public int Total { get; set; }

    public async Task<int> SumAsync(int id)
    {
        var sql = @"SELECT Total
FROM Invoices"; /* select the invoices */
        return await Task.FromResult(id);
    }

    public class Line
    {
        public void Add(int amount) { }
    }
}

public class Repo<T>
{
    public T Find<TKey>(TKey key) => default!;
    public Repo() { }
}
"""
PROGRAM = """var invoice = new Shop.Invoice();
await invoice.SumAsync(1);
"""
B, P = "src/Shop/Billing.cs", "src/Shop/Program.cs"
SUM = "M:Shop.Invoice.SumAsync(System.Int32)"
ADD = "M:Shop.Invoice.Line.Add(System.Int32)"
MAIN = "M:Program.<Main>$(System.String[])"
FIND = "M:Shop.Repo`1.Find``1(``0)"
CTOR = "M:Shop.Repo`1.#ctor"


def billing() -> Sample:
    sample = Sample({B: BILLING, P: PROGRAM})
    sample.symbols += [
        symbol("T:Shop.Invoice", "Invoice", "Class", B, 4, 20, signature="public class Invoice"),
        symbol("F:Shop.Invoice.Query", "Query", "Constant", B, 6, 6, container="T:Shop.Invoice"),
        symbol("P:Shop.Invoice.Total", "Total", "Property", B, 7, 7, container="T:Shop.Invoice"),
        symbol(SUM, "SumAsync", "Method", B, 9, 14, container="T:Shop.Invoice",
               signature="public async Task<int> Invoice.SumAsync(int id)"),
        symbol("T:Shop.Invoice.Line", "Line", "Class", B, 16, 19, container="T:Shop.Invoice"),
        symbol(ADD, "Add", "Method", B, 18, 18, container="T:Shop.Invoice.Line"),
        symbol("T:Shop.Repo`1", "Repo", "Class", B, 22, 26, arity=1),
        symbol(FIND, "Find", "Method", B, 24, 24, container="T:Shop.Repo`1", arity=1),
        symbol(CTOR, "Repo", "Constructor", B, 25, 25, container="T:Shop.Repo`1"),
        symbol("T:Program", "Program", "Class", P, 1, 2, namespace="", visibility="internal"),
        symbol(MAIN, "<Main>$", "Method", P, 1, 2, container="T:Program", namespace="", visibility="private",
               is_static=True),
    ]
    sample.refs += [
        ref(SUM, "SumAsync", "Method", ADD, B, 18, 40, "Call"),
        ref("T:Shop.Invoice", "Invoice", "Class", FIND, B, 24, 12, "TypeRef"),
        ref(SUM, "SumAsync", "Method", MAIN, P, 2, 15, "Call", "invoice"),
        ref("T:Shop.Invoice", "Invoice", "Class", MAIN, P, 1, 19, "Instantiate"),
    ]
    sample.facts += [
        FactRecord("Config", MAIN, 0, P, 1, 1, "high", "ConnectionStrings:Main",
                   '{"pattern": "GetConnectionString"}'),
        FactRecord("DbTable", None, 0, B, 6, 5, "medium", "Invoices", '{"source": "Sql"}'),
        FactRecord("DiRegistration", MAIN, 0, P, 1, 1, "high", "IClock",
                   '{"lifetime": "Singleton", "form": "generic"}'),
    ]
    sample.diagnostics += [
        DiagnosticRecord(0, B, 11, 13, "warning", "CS0219",
                         "The variable 'sql' is assigned but its value is never used"),
        DiagnosticRecord(0, P, 2, 15, "error", "CS1501", "No overload for method 'SumAsync' takes 1 arguments"),
        DiagnosticRecord(0, B, 9, 28, "warning", "CS1998", "This async method lacks 'await' operators"),
    ]
    return sample


@pytest.fixture(scope="module")
def billing_repo(tmp_path_factory: pytest.TempPathFactory, home: Path) -> RepoInfo:
    return write_baseline(tmp_path_factory.mktemp("tasks") / "Billing", billing())


@pytest.fixture(scope="module")
def bill(billing_repo: RepoInfo) -> Call:
    allowed = api.confinement([str(billing_repo.root)])

    def run(tool: str, **args: Any) -> dict[str, Any]:
        return api.call(tool, args, str(billing_repo.root), allowed)

    return run


# ---------------------------------------------------------------- diagnostics_list

def test_diagnostics_list_puts_errors_first_and_counts_by_code(bill: Call) -> None:
    env = bill("diagnostics_list")
    assert env["answer"] == "1 error, 2 warnings."
    assert [(d["severity"], d["code"], d["file"], d["line"], d["col"]) for d in env["data"]["diagnostics"]] == [
        ("error", "CS1501", P, 2, 15), ("warning", "CS1998", B, 9, 28), ("warning", "CS0219", B, 11, 13)]
    assert env["data"]["diagnostics"][0]["project"] == "Shop"
    assert env["data"]["by_code"] == [{"code": "CS0219", "count": 1}, {"code": "CS1501", "count": 1},
                                      {"code": "CS1998", "count": 1}]
    assert "warnings" not in env


def test_diagnostics_list_filters(bill: Call) -> None:
    env = bill("diagnostics_list", severity="warning", file_path="src/Shop/Billing.cs")
    assert env["answer"] == "0 errors, 2 warnings matching the filters."
    assert [d["code"] for d in env["data"]["diagnostics"]] == ["CS1998", "CS0219"]
    assert [d["line"] for d in bill("diagnostics_list", code="cs1501")["data"]["diagnostics"]] == [2]
    assert bill("diagnostics_list", project="Nope")["data"]["diagnostics"] == []


def test_diagnostics_list_new_only_needs_a_workspace(bill: Call) -> None:
    env = bill("diagnostics_list", new_only=True)
    assert env["ok"] is False and env["error"]["code"] == "WORKSPACE_REQUIRED"


def test_diagnostics_list_pages_at_a_small_budget(bill: Call) -> None:
    env = bill("diagnostics_list", limit=1)
    assert [d["code"] for d in env["data"]["diagnostics"]] == ["CS1501"]
    assert env["truncated"] is True and env["overflow"]["next_offset"] == 1


# ---------------------------------------------------------------- code_outline

def test_code_outline_of_a_file_nests_by_depth(bill: Call) -> None:
    env = bill("code_outline", file_path=B)
    assert env["answer"] == f"{B} declares 3 types and 6 members."
    assert [(d["depth"], d["kind"], d["name"], d["line"], d["end_line"]) for d in env["data"]["declarations"]] == [
        (0, "Class", "Invoice", 4, 20), (1, "Constant", "Query", 6, 6), (1, "Property", "Total", 7, 7),
        (1, "Method", "SumAsync", 9, 14), (1, "Class", "Line", 16, 19), (2, "Method", "Add", 18, 18),
        (0, "Class", "Repo", 22, 26), (1, "Method", "Find", 24, 24), (1, "Constructor", "Repo", 25, 25)]
    assert env["data"]["declarations"][3]["symbol_id"] == short(SUM) == "M:Invoice.SumAsync(Int32)"


def test_code_outline_of_a_type_lists_its_members(bill: Call) -> None:
    env = bill("code_outline", symbol_id="Invoice")
    assert env["answer"] == "Class Invoice (src/Shop/Billing.cs:4-20) declares 4 members."
    assert [d["name"] for d in env["data"]["declarations"]] == ["Query", "Total", "SumAsync", "Line"]
    assert env["data"]["declarations"][0]["file"] == B


def test_code_outline_refuses_a_member_and_an_unindexed_file(bill: Call) -> None:
    env = bill("code_outline", symbol_id=short(SUM))  # a short id, as answers give it
    assert env["error"]["code"] == "INVALID_ARGUMENT"
    assert env["error"]["hint"] == 'Pass its type: symbol_id="T:Invoice".'
    assert bill("code_outline", file_path="src/Shop/None.cs")["error"]["code"] == "NOT_FOUND"
    assert bill("code_outline")["error"]["code"] == "INVALID_ARGUMENT"
    assert bill("code_outline", file_path="../outside.cs")["error"]["code"] == "PATH_OUTSIDE_REPO"


# ---------------------------------------------------------------- code_search_text

def test_code_search_text_classes_matches_as_code_string_or_comment(bill: Call) -> None:
    env = bill("code_search_text", pattern="invoices")
    assert env["answer"] == "3 matches of 'invoices' in 1 file (2 of 2 indexed files searched)."
    assert [(m["line"], m["col"], m["kind"]) for m in env["data"]["matches"]] == [
        (6, 48, "string"), (12, 6, "string"), (12, 31, "comment")]
    assert env["data"]["by_kind"] == {"string": 2, "comment": 1}
    strings = bill("code_search_text", pattern="SELECT", kind="string", case_sensitive=True)
    assert [m["line"] for m in strings["data"]["matches"]] == [6, 11]
    assert [m["line"] for m in bill("code_search_text", pattern="sql", kind="comment")["data"]["matches"]] == [3]
    code = bill("code_search_text", pattern=r"Sum\w+", regex=True, kind="code")
    assert [(m["file"], m["line"]) for m in code["data"]["matches"]] == [(B, 9), (P, 2)]


def test_code_search_text_scopes_pages_and_refuses_bad_patterns(bill: Call) -> None:
    assert bill("code_search_text", pattern="Invoice", file_path="src/Shop/Program.cs")["data"]["matches"][0][
        "line"] == 1
    page = bill("code_search_text", pattern="invoice", limit=2, offset=1)
    assert [(m["file"], m["line"]) for m in page["data"]["matches"]] == [(B, 6), (B, 12)]
    assert page["overflow"]["total"] == 7  # Billing.cs lines 4, 6, 12 (twice); Program.cs lines 1 (twice), 2
    bad = bill("code_search_text", pattern="(", regex=True)
    assert bad["error"]["code"] == "INVALID_ARGUMENT" and "regex=false" in bad["error"]["hint"]


def test_lexer_knows_verbatim_raw_char_and_interpolated_literals() -> None:
    text = 'var a = @"x ""y"" z"; // c\nvar b = """raw "q" """; char c = \'"\'; var d = $"{a} // no";'
    spans = textsearch.lex_spans(text)
    kinds = [(text[s:e], k) for s, e, k in zip(*spans, strict=True)]
    assert kinds == [('@"x ""y"" z"', "string"), ("// c", "comment"), ('"""raw "q" """', "string"),
                     ("'\"'", "string"), ('$"{a} // no"', "string")]


# ---------------------------------------------------------------- stacktrace_resolve

FRAMES: list[tuple[str, tuple[str, str, list[str], int]]] = [
    ("at Shop.OrderService.Place(Order order)", ("Shop.OrderService", "Place", [], 0)),
    ("at Shop.OrderService.<PlaceAsync>d__5.MoveNext()", ("Shop.OrderService", "PlaceAsync",
                                                         ["async/iterator state machine"], 0)),
    ("at Shop.OrderService.<>c__DisplayClass3_0.<Place>b__0(Order o)", ("Shop.OrderService", "Place",
                                                                         ["lambda"], 0)),
    ("at Shop.OrderService.<>c.<Place>b__3_0(Order o)", ("Shop.OrderService", "Place", ["lambda"], 0)),
    ("at Shop.OrderService.<Place>g__Validate|3_0(Int32 x)", ("Shop.OrderService", "Place",
                                                            ["local function Validate"], 0)),
    ("at Shop.OrderService.<>c.<<Place>b__3_0>d.MoveNext()", ("Shop.OrderService", "Place",
                                                            ["async/iterator state machine", "lambda"], 0)),
    ("at Shop.Repo`1.Find[TKey](TKey key)", ("Shop.Repo`1", "Find", [], 1)),
    ("at Shop.Repo`1.<FindAsync>d__4`1.MoveNext()", ("Shop.Repo`1", "FindAsync", ["async/iterator state machine"], 0)),
    ("at Shop.A.<>c__DisplayClass2_0`1.<Run>b__0()", ("Shop.A", "Run", ["lambda"], 0)),
    ("at Shop.A.<>c.<.ctor>b__1_0(Int32 x)", ("Shop.A", ".ctor", ["lambda"], 0)),
    ("at Shop.Map`2.Get[TA,TB](TA a, TB b)", ("Shop.Map`2", "Get", [], 2)),
    ("at Shop.Repo`1..ctor()", ("Shop.Repo`1", ".ctor", [], 0)),
    ("at Shop.Repo`1..cctor()", ("Shop.Repo`1", ".cctor", [], 0)),
    ("at Shop.Outer+Inner.Run()", ("Shop.Outer.Inner", "Run", [], 0)),
    ("at Shop.Order.get_Total()", ("Shop.Order", "get_Total", [], 0)),
    ("at Program.<Main>$(String[] args)", ("Program", "<Main>$", [], 0)),
    ("at Program.<<Main>$>g__Run|0_0()", ("Program", "<Main>$", ["local function Run"], 0)),
    ("at Shop.Order.System.IDisposable.Dispose()", ("Shop.Order.System.IDisposable", "Dispose", [], 0)),
]


@pytest.mark.parametrize(("line", "expected"), FRAMES, ids=[f[0][3:40] for f in FRAMES])
def test_stack_frames_are_undone_to_the_method_the_user_wrote(line: str, expected: tuple[str, str, list[str],
                                                                                              int]) -> None:
    frame = stacktrace.parse_frame(0, "   " + line)
    assert frame is not None
    assert (frame.type_name, frame.method, frame.notes, frame.method_arity) == expected


def test_a_frame_keeps_its_file_line_and_parameter_types() -> None:
    frame = stacktrace.parse_frame(3, r"   at Shop.A.B(Dictionary`2[String,Int32] map, Int32 n) in C:\src\A.cs:line 42")
    assert frame is not None
    assert (frame.params, frame.file, frame.line) == (["Dictionary`2[String,Int32]", "Int32"], r"C:\src\A.cs", 42)
    assert stacktrace.parse_frame(0, "at nothing") is None


def test_a_trace_gives_its_exceptions_and_skips_separators() -> None:
    trace = stacktrace.parse("System.InvalidOperationException: Boom\n ---> System.IO.IOException: Disk\n"
                             "   at Shop.A.B()\n   --- End of inner exception stack trace ---\n"
                             "--- End of stack trace from previous location ---\n   at Shop.A.C()\n   at ???\n")
    assert trace.exceptions == [{"type": "System.InvalidOperationException", "message": "Boom"},
                                {"type": "System.IO.IOException", "message": "Disk"}]
    assert [f.method for f in trace.frames] == ["B", "C"]
    assert trace.unparsed == 1


def test_match_file_prefers_the_longest_common_suffix() -> None:
    paths = ["src/A/Orders.cs", "src/B/Orders.cs", "tests/B/Orders.cs"]
    assert stacktrace.match_file(paths, "/home/ci/repo/src/B/Orders.cs") == "src/B/Orders.cs"
    assert stacktrace.match_file(paths, r"D:\a\tests\B\Orders.cs") == "tests/B/Orders.cs"
    assert stacktrace.match_file(paths, "/x/Other.cs") is None


TRACE = r"""System.InvalidOperationException: Sequence contains no elements
   at System.Linq.ThrowHelper.ThrowNoElementsException()
   at Shop.Invoice.Line.Add(Int32 amount) in /home/ci/work/src/Shop/Billing.cs:line 18
   at Shop.Invoice.<SumAsync>d__3.MoveNext() in /home/ci/work/src/Shop/Billing.cs:line 13
--- End of stack trace from previous location ---
   at Shop.Repo`1.Find[TKey](TKey key)
   at Shop.Repo`1..ctor()
   at Program.<Main>$(String[] args) in C:\agent\src\Shop\Program.cs:line 2
   at Program.<<Main>$>g__Run|0_0()
   at Shop.Invoice.<>c.<SumAsync>b__3_0(Int32 x)
"""


def test_stacktrace_resolve_maps_every_frame_shape_to_the_index(bill: Call) -> None:
    env = bill("stacktrace_resolve", stack_trace=TRACE)
    assert env["answer"] == ("8 frames: 7 in the solution, 1 outside it; the innermost solution frame is "
                             f"{short(ADD)} at {B}:18.")
    frames = env["data"]["frames"]
    assert frames[0] == {"frame": 0, "method": "System.Linq.ThrowHelper.ThrowNoElementsException",
                         "in_solution": False}
    assert [(f.get("symbol_id"), f.get("file"), f.get("line"), f.get("matched_by"), f.get("note"))
            for f in frames[1:]] == [
        ("M:Invoice.Line.Add(Int32)", B, 18, "name+line", None),
        (short(SUM), B, 13, "name+line", "async/iterator state machine"),
        ("M:Repo`1.Find``1(``0)", B, 24, "name", None),
        ("M:Repo`1.#ctor", B, 25, "name", None),
        (short(MAIN), P, 2, "name+line", None),
        (short(MAIN), P, 1, "name", "local function Run"),
        (short(SUM), B, 9, "name", "lambda")]
    assert env["data"]["exceptions"] == [{"type": "System.InvalidOperationException",
                                          "message": "Sequence contains no elements"}]
    assert env["next_actions"][0]["args"] == {"file_path": B, "start_line": 13, "end_line": 23}


def test_stacktrace_resolve_uses_the_line_when_the_name_is_unknown(call: Call) -> None:
    env = call("stacktrace_resolve", stack_trace="   at Shop.Renamed.Gone() in /ci/src/Shop/Orders.cs:line 29\n"
                                                 "   at Shop.SqlOrderRepository.Save(Order order)\n")
    assert [(f.get("symbol_id"), f.get("matched_by"), f.get("line")) for f in env["data"]["frames"]] == [
        ("M:OrderService.Place(Order)", "line", 29), (short(SQL_SAVE), "name", 16)]
    assert call("stacktrace_resolve", stack_trace="no frames here")["error"]["code"] == "INVALID_ARGUMENT"


# ---------------------------------------------------------------- repo_overview

def test_repo_overview_names_roles_entry_points_counts_and_central_types(bill: Call, call: Call) -> None:
    env = bill("repo_overview")
    assert env["answer"] == ("1 project (1 app), 1 entry point, 0 endpoints, 1 config keys, 1 tables, "
                             "1 DI registrations.")
    assert env["data"]["projects"][0]["role"] == "app"
    assert env["data"]["entry_points"] == [{"symbol_id": short(MAIN), "project": "Shop", "file": P, "line": 1}]
    assert [(t["symbol_id"], t["used_by_types"]) for t in env["data"]["central_types"]] == [
        ("T:Invoice", 3)]
    assert env["next_actions"] == [{"tool": "code_outline", "why": "what T:Invoice declares",
                                    "args": {"symbol_id": "T:Invoice"}}]
    shop = call("repo_overview")
    assert [(t["symbol_id"], t["used_by_types"]) for t in shop["data"]["central_types"]] == [
        ("T:IOrderRepository", 3), ("T:Order", 1), ("T:SqlOrderRepository", 1)]
    assert shop["data"]["projects"][0]["role"] == "library"


# ---------------------------------------------------------------- symbols_get_card include

def test_card_with_source_callers_and_callees_in_one_call(call: Call) -> None:
    env = call("symbols_get_card", symbol_id="M:Shop.OrderService.Place(Shop.Order)",
               include=["source", "callers", "callees"])
    assert env["answer"] == ("Method OrderService.Place in src/Shop/Orders.cs:27-30 (Shop): 0 callers, "
                             "2 callees.")
    assert [(c["symbol_id"], c["line"]) for c in env["data"]["callees"]] == [(short(SAVE), 6), (short(SQL_SAVE), 16)]
    assert [line["line"] for line in env["data"]["source"]] == [27, 28, 29, 30]
    assert env["data"]["source"][2]["text"] == "        _repo.Save(order); _ = order.Id; order.Validate();"
    assert env["data"]["card"]["signature"] == "public void OrderService.Place(Order order)"
    callers = call("symbols_get_card", symbol_id=SAVE, include="callers")
    assert callers["data"]["callers_total"] == 41 and len(callers["data"]["callers"]) == 10


def test_code_search_text_never_reads_outside_the_repository(tmp_path: Path, home: Path) -> None:
    """An indexed file replaced by a symlink to a file outside the repository is skipped, not read."""
    repo = write_baseline(tmp_path / "Linked", Sample({"src/A.cs": "// nothing here\n", "src/B.cs": "// secret\n"}))
    outside = tmp_path / "outside.cs"
    outside.write_text("// secret\n", encoding="utf-8")
    (repo.root / "src/A.cs").unlink()
    (repo.root / "src/A.cs").symlink_to(outside)
    env = api.call("code_search_text", {"pattern": "secret"}, str(repo.root), api.confinement([str(repo.root)]))
    assert [(m["file"], m["line"]) for m in env["data"]["matches"]] == [("src/B.cs", 1)]
    assert env["warnings"][-1] == ("1 indexed file could not be read (deleted, or outside the repository): "
                                   "src/A.cs.")


def test_repo_overview_gives_razor_pages_to_the_project_holding_them(tmp_path: Path, home: Path) -> None:
    """Razor page facts carry no project (roslyn/razor.py): the project whose folder holds the file is web."""
    sample = Sample({"src/Shop/Pages/Index.cshtml": "@page\n<h1>Hi</h1>\n"})
    sample.facts.append(FactRecord("RazorPage", None, None, "src/Shop/Pages/Index.cshtml", 1, 1, "high", "/Index",
                                    "{}"))
    repo = write_baseline(tmp_path / "Pages", sample)
    env = api.call("repo_overview", {}, str(repo.root), api.confinement([str(repo.root)]))
    assert [(p["name"], p["role"]) for p in env["data"]["projects"]] == [("Shop", "web")]
