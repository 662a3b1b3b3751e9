"""Agent tasks with known answers (issue 14): each one asked of roslynmap over MCP stdio and answered by the
smallest grep+read that holds the same answer, with the tokens each costs.

A task names its testdata fixture, the tool calls an agent makes, how to read the answer from the
envelopes and the exact expected answer. Its grep+read side is the shell steps an agent would run instead
(`grep -rnE` over the repository's tracked files, `cat -n` of a line range), with the strings their output
must hold for the answer to be there at all (`evidence`) and what grep+read cannot tell (`gap`).

Tokens are characters / 4 (as tests/fast/test_tool_list.py counts them) of what crosses the model's context:
for a tool call, its name and JSON arguments plus the text content the server returns (a rendering of the
whole envelope); for a shell step, the command and its output. The tool list itself is paid once per
conversation and reported apart. Used by tests/test_agent_tasks.py (correctness, the cost target) and
bench/tasks.py (the table in docs/benchmarks.md).
"""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

CHARS_PER_TOKEN = 4
Envelope = dict[str, Any]


def tokens(chars: int) -> int:
    return -(-chars // CHARS_PER_TOKEN)


class ToolResult(Protocol):
    structured_content: Any
    content: list[Any]


class Server(Protocol):
    def call_raw(self, name: str, args: dict[str, Any] | None = None) -> Any: ...


@dataclass(frozen=True)
class Call:
    tool: str
    args: dict[str, Any]

    def request_chars(self) -> int:
        return len(self.tool) + len(json.dumps(self.args, separators=(",", ":"), ensure_ascii=False))


@dataclass(frozen=True)
class Grep:
    """`grep -rnE PATTERN --include=GLOB .` over the tracked files, in path order."""

    pattern: str
    include: str = "*.cs"

    def command(self) -> str:
        return f"grep -rnE '{self.pattern}' --include='{self.include}' ."

    def output(self, repo: Path) -> str:
        regex = re.compile(self.pattern)
        lines = []
        for path in tracked_files(repo):
            if not fnmatch.fnmatch(path.rsplit("/", 1)[-1], self.include):
                continue
            for number, text in enumerate((repo / path).read_text(encoding="utf-8-sig").splitlines(), 1):
                if regex.search(text):
                    lines.append(f"./{path}:{number}:{text}")
        return "\n".join(lines)


@dataclass(frozen=True)
class Read:
    """`cat -n FILE | sed -n 'START,ENDp'`: numbered lines of one file."""

    file: str
    start: int = 1
    end: int | None = None

    def command(self) -> str:
        return f"cat -n {self.file}" + (f" | sed -n '{self.start},{self.end}p'" if self.end or self.start > 1 else "")

    def output(self, repo: Path) -> str:
        lines = (repo / self.file).read_text(encoding="utf-8-sig").splitlines()
        end = self.end or len(lines)
        return "\n".join(f"{n:6}\t{lines[n - 1]}" for n in range(self.start, min(end, len(lines)) + 1))


Step = Grep | Read


@dataclass(frozen=True)
class Edit:
    """An edit the agent made before asking (a task about uncommitted work); undone after the task."""

    file: str
    old: str
    new: str


def tracked_files(repo: Path) -> list[str]:
    done = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True, check=True, timeout=60)
    return sorted(done.stdout.splitlines())


@dataclass(frozen=True)
class Task:
    name: str
    fixture: str
    question: str
    calls: tuple[Call, ...]
    answer: Callable[[list[Envelope]], Any]
    expected: Any
    grep_read: tuple[Step, ...]
    evidence: tuple[str, ...]
    gap: str = ""
    edits: tuple[Edit, ...] = ()


@dataclass(frozen=True)
class TaskResult:
    task: Task
    answer: Any
    correct: bool
    tool_tokens: int
    grep_tokens: int
    grep_complete: bool
    grep_lines: int

    @property
    def ratio(self) -> float:
        return self.tool_tokens / self.grep_tokens


def run_task(task: Task, server: Server, repo: Path) -> TaskResult:
    before = {e.file: (repo / e.file).read_bytes() for e in task.edits}
    try:
        for e in task.edits:
            text = (repo / e.file).read_text(encoding="utf-8-sig")
            assert e.old in text, (e.file, e.old)
            (repo / e.file).write_text(text.replace(e.old, e.new, 1), encoding="utf-8")
        return _run(task, server, repo)
    finally:
        for file, content in before.items():
            (repo / file).write_bytes(content)


def _run(task: Task, server: Server, repo: Path) -> TaskResult:
    envelopes: list[Envelope] = []
    chars = 0
    for call in task.calls:
        result = server.call_raw(call.tool, call.args)
        envelopes.append(result.structured_content)
        chars += call.request_chars() + sum(len(c.text) for c in result.content if getattr(c, "text", None))
    try:
        answer = task.answer(envelopes)
    except (KeyError, IndexError, TypeError) as exc:  # a wrong shape is a wrong answer, shown in the report
        answer = f"unreadable answer: {exc!r}; {[e.get('error') or e.get('answer') for e in envelopes]}"
    grep_chars, lines, seen = 0, 0, []
    for step in task.grep_read:
        text = step.output(repo)
        grep_chars += len(step.command()) + 1 + len(text)
        lines += text.count("\n") + 1 if text else 0
        seen.append(text)
    everything = "\n".join(seen)
    return TaskResult(task, answer, answer == task.expected, tokens(chars), tokens(grep_chars),
                      all(e in everything for e in task.evidence), lines)


# ---------------------------------------------------------------- reading answers

def _data(envelope: Envelope) -> dict[str, Any]:
    data: dict[str, Any] = envelope["data"]
    return data


def _ids(key: str, field: str = "symbol_id") -> Callable[[list[Envelope]], list[str]]:
    return lambda envs: sorted(item[field] for item in _data(envs[0])[key])


def _callees_called(envs: list[Envelope]) -> list[str]:
    return sorted(n["symbol_id"] for n in _data(envs[0])["nodes"] if any(e["kind"] == "Call" for e in n["edges"]))


def _outline(envs: list[Envelope]) -> list[tuple[str, int]]:
    return [(d["name"], d["line"]) for d in _data(envs[0])["declarations"]]


def _card(envs: list[Envelope]) -> tuple[str, list[str], list[str]]:
    data = _data(envs[0])
    return (data["card"]["signature"], sorted(c["symbol_id"] for c in data["callers"]),
            sorted(c["symbol_id"] for c in data["callees"]))


def _frames(envs: list[Envelope]) -> list[tuple[str, str, int]]:
    return [(f["symbol_id"], f["file"], f["line"]) for f in _data(envs[0])["frames"]]


def _matches(envs: list[Envelope]) -> list[tuple[str, int]]:
    return [(m["file"], m["line"]) for m in _data(envs[0])["matches"]]


def _handlers(envs: list[Envelope]) -> list[tuple[str, str]]:
    return sorted((e["route"], e["handler"]) for e in _data(envs[0])["endpoints"])


def _undefined_keys(envs: list[Envelope]) -> list[str]:
    return sorted(k["key"] for k in _data(envs[0])["keys"] if k["status"] == "used_but_undefined")


def _registrations(envs: list[Envelope]) -> list[tuple[str, str, str]]:
    return [(r["service"], r["implementation"], r["lifetime"]) for r in _data(envs[0])["registrations"]]


def _tables(envs: list[Envelope]) -> list[str]:
    return sorted(t["table"] for t in _data(envs[0])["tables"])


def _tests(envs: list[Envelope]) -> list[str]:
    return sorted(t["test"] for t in _data(envs[0])["tests"])


def _new_errors(envs: list[Envelope]) -> list[tuple[str, int, str]]:
    return [(d["file"], d["line"], d["code"]) for d in _data(envs[-1])["new_errors"]]


def _impact(envs: list[Envelope]) -> tuple[list[str], list[str], list[str]]:
    data = _data(envs[0])
    return (sorted(c["symbol_id"] for c in data["callers"]), sorted(t["test"] for t in data["tests"]),
            sorted(e["endpoint"] for e in data["endpoints"]))


# ---------------------------------------------------------------- the tasks

SHOP_TRACE = """System.InvalidOperationException: Sequence contains no elements
   at Shop.Infrastructure.SqlOrderRepository.Save(Order order, Boolean overwrite)
   at Shop.Infrastructure.SqlOrderRepository.Save(Order order)
   at Shop.Services.OrderService.Pay(Guid id)
   at Program.<Main>$(String[] args)"""

REPO_IMPLEMENTERS = Grep(r"class \w+[^{]*IOrderRepository")

TASKS: tuple[Task, ...] = (
    Task("implementations", "Shop", "Which classes implement IOrderRepository?",
         (Call("types_hierarchy", {"symbol_id": "IOrderRepository"}),),
         _ids("descendants"), ["T:InMemoryOrderRepository", "T:SqlOrderRepository"],
         (REPO_IMPLEMENTERS,),
         ("InMemoryOrderRepository.cs:6:", "SqlOrderRepository.cs:6:"),
         "a base list split over lines, or a class deriving from an implementer, is not matched"),
    Task("callers", "Shop", "Which methods call IOrderRepository.Save?",
         (Call("graph_callers", {"symbol_id": "IOrderRepository.Save"}),),
         _ids("nodes"), ["M:OrderService.Pay(Guid)", "M:OrderService.Place(Order,CancellationToken)"],
         (Grep(r"\.Save\("), Read("src/Shop.Services/OrderService.cs", 6, 40), Read("src/Shop.App/Program.cs", 20, 22)),
         ("OrderService.cs:25:", "OrderService.cs:39:", "IOrderRepository _repository"),
         "5 hits for 2 callers: the receiver's type and the enclosing method are read around each"),
    Task("callees", "Shop", "What does OrderService.Pay call?",
         (Call("graph_callees", {"symbol_id": "OrderService.Pay"}),),
         _callees_called, ["M:IOrderRepository.Get(Guid)", "M:IOrderRepository.Save(Order)", "M:Order.MarkPaid"],
         (Grep(r" Pay\("), Read("src/Shop.Services/OrderService.cs", 29, 41), REPO_IMPLEMENTERS),
         ("_repository.Get(id)", "order.MarkPaid()", "_repository.Save(paid)"),
         "which Get and Save run is read from the implementers, not from the call"),
    Task("outline", "Shop", "What does SqlOrderRepository.cs declare, and where?",
         (Call("code_outline", {"file_path": "src/Shop.Infrastructure/SqlOrderRepository.cs"}),),
         _outline, [("SqlOrderRepository", 6), ("TableName", 8), ("_rows", 10), ("_log", 11), ("_writes", 12),
                    ("Saved", 14), ("Count", 16), ("Writes", 19), ("Log", 22), ("Get", 24), ("Save", 30),
                    ("Save", 33), ("Delete", 46), ("OnSaved", 52)],
         (Read("src/Shop.Infrastructure/SqlOrderRepository.cs"),),
         ("class SqlOrderRepository", "private void OnSaved")),
    Task("explain", "Shop", "Explain OrderService.Place: its code, who calls it, what it calls.",
         (Call("symbols_get_card", {"symbol_id": "OrderService.Place", "include": ["source", "callers", "callees"]}),),
         _card, ("public Order Place(Order order, CancellationToken cancellationToken)",
                 ["M:Program.<Main>$(String[])"],
                 ["M:IOrderRepository.Save(Order)", "M:InMemoryOrderRepository.Save(Order)",
                  "M:SqlOrderRepository.Save(Order)"]),
         (Grep(r"Place\("), Read("src/Shop.Services/OrderService.cs", 6, 27), REPO_IMPLEMENTERS),
         ("Program.cs:13:", "public Order Place(", "_repository.Save(order)", "SqlOrderRepository.cs:6:")),
    Task("stack trace", "Shop", "Where in the code is each frame of this stack trace?",
         (Call("stacktrace_resolve", {"stack_trace": SHOP_TRACE}),),
         _frames, [("M:SqlOrderRepository.Save(Order,Boolean)", "src/Shop.Infrastructure/SqlOrderRepository.cs", 33),
                   ("M:SqlOrderRepository.Save(Order)", "src/Shop.Infrastructure/SqlOrderRepository.cs", 30),
                   ("M:OrderService.Pay(Guid)", "src/Shop.Services/OrderService.cs", 30),
                   ("M:Program.<Main>$(String[])", "src/Shop.App/Program.cs", 5)],
         (Grep(r"void Save\(Order order|Order\? Pay\(Guid"),),
         ("SqlOrderRepository.cs:30:", "SqlOrderRepository.cs:33:", "OrderService.cs:30:"),
         "overloads are told apart by reading their parameters"),
    Task("text search", "Shop", "Where is the SQL text MERGE INTO written?",
         (Call("code_search_text", {"pattern": "MERGE INTO"}),),
         _matches, [("src/Shop.Infrastructure/SqlOrderRepository.cs", 41)],
         (Grep("MERGE INTO"),),
         ("SqlOrderRepository.cs:41:",)),
    Task("route", "Web", "Which code handles GET /api/orders/{id}?",
         (Call("surfaces_list_endpoints", {"path_filter": "/api/orders/{id", "http_method": "GET"}),),
         _handlers, [("/api/Orders/{id:int}", "M:OrdersController.Get(Int32,CancellationToken)"),
                     ("/api/orders/{id:int}", "M:OrderEndpoints.GetById(Int32,IOrderService,CancellationToken)")],
         (Grep(r"Map(Get|Group)\(|\[(HttpGet|Route)\("), Read("src/Web.Api/Controllers/OrdersController.cs", 7, 19)),
         ('MapGroup("/orders")', "OrderEndpoints.GetById", '[HttpGet("{id:int}")]', 'Route("api/[controller]")'),
         "the route is put together by hand from group prefixes, the [controller] token and attributes"),
    Task("config gaps", "Web", "Which configuration keys does Web.Api read that no appsettings file defines?",
         (Call("surfaces_list_config_keys", {"project": "Web.Api", "status": "used_but_undefined"}),),
         _undefined_keys, ["Features:ActiveFlag", "Features:MaxPageSize"],
         (Grep(r'GetValue|GetSection|GetConnectionString|Configuration\[|config\[|configuration\['),
          Read("src/Web.Api/appsettings.json"), Read("src/Web.Api/appsettings.Development.json")),
         ('"Features:MaxPageSize"', '"Features:ActiveFlag"'),
         "keys are compared by hand with the nested JSON sections; bound options' properties are not seen"),
    Task("di", "Web", "What implements IOrderService at run time, with what lifetime?",
         (Call("surfaces_list", {"kind": "di", "filter": "IOrderService"}),),
         _registrations, [("IOrderService", "OrderService", "Scoped")],
         (Grep("IOrderService"),),
         ("AddScoped<IOrderService, OrderService>",)),
    Task("tables", "Web", "Which database tables does the code use?",
         (Call("surfaces_list_db_tables", {}),),
         _tables, ["audit_log", "customers", "invoices", "orders", "payments"],
         (Grep(r'ToTable\(|\[Table\(|DbSet<| FROM | INTO |UPDATE '),),
         ('"audit_log"', '"orders"', '"customers"', "Invoices", '"payments"'),
         "DbSet names stand for tables only by convention; SQL strings are read one by one"),
    Task("tests", "Tested", "Which tests exercise PriceCalculator.Compute, directly or not?",
         (Call("tests_find", {"symbol_id": "PriceCalculator.Compute"}),),
         _tests, ["M:ApiTests.QuoteAnswers", "M:NUnitStyleTests.ComputesThroughTheInterface",
                  "M:OrderServiceTests.ComputeDoubles(Int32)", "M:OrderServiceTests.PlaceDoublesTheQuantity"],
         (Grep(r"Compute\("), Grep(r"Place\("), Grep(r"Quote|/api/orders"),
          Read("tests/Tested.Tests/OrderServiceTests.cs"), Read("tests/Tested.Tests/LegacyTests.cs", 1, 13)),
         ("ComputeDoubles", "ComputesThroughTheInterface", "PlaceDoublesTheQuantity", '"/api/orders/5"',
          "OrderEndpoints.Quote"),
         "each hop (interface, Place, the route) is a new grep; test attributes are read in the files"),
    Task("impact", "Tested", "What does changing OrderService.Place affect: callers, tests, endpoints?",
         (Call("impact_analyze", {"symbol_id": "OrderService.Place"}),),
         _impact, (["M:OrderEndpoints.Quote(Int32)"],
                   ["M:ApiTests.QuoteAnswers", "M:OrderServiceTests.PlaceDoublesTheQuantity"],
                   ["GET /api/orders/{id:int}"]),
         (Grep(r"\.Place\("), Grep(r"Quote|/api/orders"), Read("tests/Tested.Tests/OrderServiceTests.cs", 1, 14)),
         ("OrderEndpoints.cs:10:", "PlaceDoublesTheQuantity", '"/api/orders/5"', "OrderEndpoints.Quote")),
    Task("edit broke", "Shop", "IsLarge now returns int: what no longer compiles?",
         (Call("workspace_create", {"workspace_id": "task"}),
          Call("index_refresh_overlay", {"workspace_id": "task"})),
         _new_errors, [("src/Shop.App/Program.cs", 11, "CS0029")],
         (Grep(r"IsLarge\("),),
         ("Program.cs:11:pricing.AddRule(order => order.IsLarge() ? -10m : 0m);", "Program.cs:34:"),
         "each use is judged by hand: the ternary needs a bool, the interpolation takes an int",
         edits=(Edit("src/Shop.Domain/OrderExtensions.cs", "static bool IsLarge(this Order o) => "
                     "o.Total >= ShopConstants.LargeOrderThreshold", "static int IsLarge(this Order o) => "
                     "o.Total >= ShopConstants.LargeOrderThreshold ? 1 : 0"),)),
    Task("unused", "Tested", "What code in Tested.Core does nothing call?",
         (Call("symbols_unused", {"project": "Tested.Core"}),),
         _ids("unused"), ["M:OrderService.Round(Decimal)", "T:LegacyPricing"],
         (Read("src/Tested.Core/Pricing.cs"),
          Grep(r"IPriceCalculator|PriceCalculator|Compute|OrderService|Place|Archive|Round|LegacyPricing|Flat")),
         ("Round(decimal value)", "LegacyPricing"),
         "every declared name is grepped; hits in its own declaration are told from uses by reading"),
)


def user_settings(home: Path) -> dict[str, str]:
    """The server environment of the suite: a user's defaults (short ids, lean meta), whatever the test
    tier sets (tests/conftest.py pins full ids)."""
    return {"ROSLYNMAP_HOME": str(home), "ROSLYNMAP_IDS": "", "ROSLYNMAP_META": ""}


def run_suite(servers: Mapping[str, Server], repos: Mapping[str, Path],
              tasks: tuple[Task, ...] = TASKS) -> list[TaskResult]:
    return [run_task(task, servers[task.fixture], repos[task.fixture]) for task in tasks]


def serve_and_report(repos: Mapping[str, Path], env: dict[str, str], tool_list_tokens: int,
                     tasks: tuple[Task, ...] = TASKS,
                     prepare: Callable[[Mapping[str, Server]], None] | None = None) -> str:
    """The benches' run (bench/tasks.py, bench/real_tasks.py): one server per repository, the suite, the
    table, then what was wrong or what the grep+read output lacked."""
    from tests.mcp_client import McpServerProcess

    servers = {name: McpServerProcess(repo, env) for name, repo in repos.items()}
    try:
        if prepare is not None:
            prepare(servers)
        results = run_suite(servers, repos, tasks)
    finally:
        for server in servers.values():
            server.close()
    lines = [render(results, tool_list_tokens)]
    for r in results:
        if not r.correct:
            lines.append(f"\n{r.task.name}: expected {r.task.expected!r}\n  got {r.answer!r}")
        if not r.grep_complete:
            lines.append(f"\n{r.task.name}: the grep+read output lacks some evidence of {r.task.evidence!r}")
    return "\n".join(lines)


def render(results: list[TaskResult], tool_list_tokens: int) -> str:
    """The markdown table of docs/benchmarks.md ("Agent tasks")."""
    rows = ["| task | fixture | calls | roslynmap tokens | correct | grep+read steps | grep+read tokens "
            "| grep output holds the answer | ratio | what grep+read cannot tell |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        rows.append(f"| {r.task.name} | {r.task.fixture} | {len(r.task.calls)} | {r.tool_tokens} | "
                    f"{'yes' if r.correct else 'NO'} | {len(r.task.grep_read)} ({r.grep_lines} lines) | "
                    f"{r.grep_tokens} | {'yes' if r.grep_complete else 'no'} | {r.ratio:.2f} | {r.task.gap} |")
    tool, grep = sum(r.tool_tokens for r in results), sum(r.grep_tokens for r in results)
    rows.append(f"| **all {len(results)}** | | {sum(len(r.task.calls) for r in results)} | **{tool}** | "
                f"{sum(r.correct for r in results)}/{len(results)} | {sum(len(r.task.grep_read) for r in results)} | "
                f"**{grep}** | {sum(r.grep_complete for r in results)}/{len(results)} | **{tool / grep:.2f}** | |")
    rows.append("")
    rows.append(f"With the tool list ({tool_list_tokens} tokens, paid once per conversation): "
                f"{tool + tool_list_tokens} against {grep} ({(tool + tool_list_tokens) / grep:.2f}).")
    return "\n".join(rows)
