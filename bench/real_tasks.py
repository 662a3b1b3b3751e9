"""The agent task suite on a real repository: eShopOnWeb, the application issue 14 measured (12 tasks, 3x the
tokens of grep+read then). Not in CI (third-party code is never committed); run by hand:

    python bench/real_tasks.py CHECKOUT [--home DIR]

CHECKOUT is a clone of dotnet-architecture/eShopOnWeb at commit 2414014b (the answers below are that
commit's). Restored as this machine can (Ardalis.Specification is not served here: its calls are unbound,
as on any machine with a broken restore). The tasks, the grep+read recipes and the scoring are those of
tests/agent_tasks.py: every roslynmap answer is checked against the expected value (read from the code by
hand), every recipe against the evidence it must hold.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "python"))

from tests.agent_tasks import (  # noqa: E402
    Call,
    Envelope,
    Grep,
    Read,
    Task,
    _data,
    _handlers,
    _ids,
    _outline,
    _registrations,
    _tables,
    _tests,
    _undefined_keys,
    serve_and_report,
    user_settings,
)
from tests.fast.test_tool_list import listed_tools, tokens  # noqa: E402

COMMIT = "2414014bfa0f4d2021b5bc9061429a98d232f440"
SOLUTION = "eShopOnWeb.sln"
TRACE = "\n".join([
    "System.ArgumentNullException: Value cannot be null. (Parameter 'basket')",
    "   at Ardalis.GuardClauses.GuardClauseExtensions.Null[T](IGuardClause guardClause, T input, String parameterName, "
    "String message)",
    "   at Microsoft.eShopWeb.ApplicationCore.Services.OrderService.CreateOrderAsync(Int32 basketId, Address "
    "shippingAddress) in /src/ApplicationCore/Services/OrderService.cs:line 35",
    "   at Microsoft.eShopWeb.Web.Pages.Basket.CheckoutModel.OnPost(IEnumerable`1 items) in "
    "/src/Web/Pages/Basket/Checkout.cshtml.cs:line 57",
    "   at Microsoft.AspNetCore.Mvc.RazorPages.Infrastructure.ExecutorFactory.GenericTaskHandlerMethod.Convert[T]("
    "Object taskAsObject)"])


def _frames(envs: list[Envelope]) -> list[tuple[str, int]]:
    return [(f["symbol_id"], f["line"]) for f in _data(envs[0])["frames"] if f.get("symbol_id")]


def _impact(envs: list[Envelope]) -> tuple[int, int, int]:
    data = _data(envs[0])
    return len(data["callers"]), len(data["tests"]), sum(data["references_by_kind"].values())


def _matches(envs: list[Envelope]) -> list[tuple[str, int]]:
    return [(m["file"], m["line"]) for m in _data(envs[0])["matches"]]


WEB_CONFIG = (r"Configuration\[|configuration\[|GetValue|GetSection|GetConnectionString")

TASKS: tuple[Task, ...] = (
    Task("implementations", "eShopOnWeb", "Which classes implement IBasketService?",
         (Call("types_hierarchy", {"symbol_id": "IBasketService"}),),
         _ids("descendants"), ["T:BasketService"],
         (Grep(r"class \w+[^{]*IBasketService"),),
         ("BasketService.cs:11:",)),
    Task("callers", "eShopOnWeb", "Which methods call IOrderService.CreateOrderAsync?",
         (Call("graph_callers", {"symbol_id": "IOrderService.CreateOrderAsync"}),),
         _ids("nodes"), ["M:CheckoutModel.OnPost(IEnumerable{BasketItemViewModel})"],
         (Grep(r"\.CreateOrderAsync\("), Read("src/Web/Pages/Basket/Checkout.cshtml.cs", 17, 57)),
         ("Checkout.cshtml.cs:57:", "IOrderService _orderService", "public async Task<IActionResult> OnPost"),
         "the receiver's declared type and the enclosing method are read around the hit"),
    Task("outline", "eShopOnWeb", "What does BasketService.cs declare, and where?",
         (Call("code_outline", {"file_path": "src/ApplicationCore/Services/BasketService.cs"}),),
         _outline, [("BasketService", 11), ("_basketRepository", 13), ("_logger", 14), ("BasketService", 16),
                    ("AddItemToBasket", 23), ("DeleteBasketAsync", 40), ("SetQuantities", 47),
                    ("TransferBasketAsync", 66)],
         (Read("src/ApplicationCore/Services/BasketService.cs"),),
         ("public class BasketService", "public async Task TransferBasketAsync")),
    Task("stack trace", "eShopOnWeb", "Where in the code is each frame of this stack trace?",
         (Call("stacktrace_resolve", {"stack_trace": TRACE}),),
         _frames, [("M:OrderService.CreateOrderAsync(Int32,Address)", 35),
                   ("M:CheckoutModel.OnPost(IEnumerable{BasketItemViewModel})", 57)],
         (Grep(r"Task CreateOrderAsync\(|Task<IActionResult> OnPost\(IEnumerable"),),
         ("OrderService.cs:30:", "Checkout.cshtml.cs:44:"),
         "the frames' file:line are there already; which overload and class is read from the files"),
    Task("text search", "eShopOnWeb", "Where is the log message 'Fetching user failed.' written?",
         (Call("code_search_text", {"pattern": "Fetching user failed."}),),
         _matches, [("src/BlazorAdmin/CustomAuthStateProvider.cs", 61)],
         (Grep("Fetching user failed"),),
         ("CustomAuthStateProvider.cs:61:",)),
    Task("route", "eShopOnWeb", "Which code handles GET /api/catalog-items/{catalogItemId}?",
         (Call("surfaces_list_endpoints", {"path_filter": "/api/catalog-items/{catalogItemId}",
                                           "http_method": "GET"}),),
         _handlers, [("/api/catalog-items/{catalogItemId}",
                      "M:CatalogItemGetByIdEndpoint.HandleAsync(GetByIdCatalogItemRequest,IRepository{Entities.CatalogItem})")],
         (Grep(r'MapGet\("api/catalog-items/\{'),
          Read("src/PublicApi/CatalogItemEndpoints/CatalogItemGetByIdEndpoint.cs", 25, 34)),
         ("CatalogItemGetByIdEndpoint.cs:25:", "return await HandleAsync(", "public async Task<IResult> HandleAsync("),
         "the lambda forwards to HandleAsync: read to find the handler"),
    Task("config gaps", "eShopOnWeb", "Which configuration keys does Web read that none of its appsettings define?",
         (Call("surfaces_list_config_keys", {"project": "Web", "status": "used_but_undefined"}),),
         _undefined_keys, ["AZURE_KEY_VAULT_ENDPOINT", "AZURE_SQL_CATALOG_CONNECTION_STRING_KEY",
                           "AZURE_SQL_IDENTITY_CONNECTION_STRING_KEY", "UseOnlyInMemoryDatabase"],
         (Grep(WEB_CONFIG), Read("src/Web/appsettings.json"), Read("src/Web/appsettings.Development.json"),
          Read("src/Web/appsettings.Docker.json")),
         ('"AZURE_KEY_VAULT_ENDPOINT"', '"UseOnlyInMemoryDatabase"', '"CatalogConnection"'),
         "keys are compared by hand with the nested JSON of three files; a library's keys with its hosts'"),
    Task("di", "eShopOnWeb", "What implements IBasketService at run time, with what lifetime?",
         (Call("surfaces_list", {"kind": "di", "filter": "IBasketService"}),),
         _registrations, [("IBasketService", "BasketService", "Scoped")],
         (Grep(r"IBasketService, BasketService|IBasketService\)"),),
         ("AddScoped<IBasketService, BasketService>",)),
    Task("tables", "eShopOnWeb", "Which database tables does the code use?",
         (Call("surfaces_list_db_tables", {}),),
         _tables, ["AspNetRoleClaims", "AspNetRoles", "AspNetUserClaims", "AspNetUserLogins", "AspNetUserRoles",
                   "AspNetUserTokens", "AspNetUsers", "BasketItems", "Baskets", "Catalog", "CatalogBrands",
                   "CatalogTypes", "OrderItems", "Orders"],
         (Grep(r'ToTable\(|DbSet<'),),
         ('"AspNetRoleClaims"', '"Catalog"', "DbSet<Basket> Baskets", "DbSet<OrderItem> OrderItems"),
         "snapshot and migration files repeat each table; DbSet names stand for tables only by convention"),
    Task("tests", "eShopOnWeb", "Which tests exercise BasketService.AddItemToBasket?",
         (Call("tests_find", {"symbol_id": "BasketService.AddItemToBasket"}),),
         # The four functional tests POST /basket/index, whose page handler (Basket/Index OnPost) makes the call
         # through IBasketService: unbound here (its argument's type is from an unrestored package), but the
         # compiler's only candidate.
         _tests, ["M:AddItemToBasket.InvokesBasketRepositoryGetBySpecAsyncOnce",
                  "M:AddItemToBasket.InvokesBasketRepositoryUpdateAsyncOnce",
                  "M:BasketPageCheckout.RedirectsToLoginIfNotAuthenticated", "M:CheckoutTest.SucessfullyPay",
                  "M:IndexTest.OnPostUpdateTo0EmptyBasket", "M:IndexTest.OnPostUpdateTo50Successfully"],
         (Grep(r"\.AddItemToBasket\("),
          Read("tests/UnitTests/ApplicationCore/Services/BasketServiceTests/AddItemToBasket.cs", 18, 45),
          Grep(r'public async Task \w+\(\)|"/basket/index"')),
         ("InvokesBasketRepositoryGetBySpecAsyncOnce", "InvokesBasketRepositoryUpdateAsyncOnce",
          "new BasketService(", "Pages/Basket/Index.cshtml.cs:47", '"/basket/index"', "OnPostUpdateTo50Successfully",
          "OnPostUpdateTo0EmptyBasket", "SucessfullyPay", "RedirectsToLoginIfNotAuthenticated"),
         "the receiver's type tells the service's calls from the interface's; the page's route is known by "
         "convention (/basket/index is Pages/Basket/Index's OnPost); the test around each POST is read"),
    Task("impact", "eShopOnWeb", "What does changing Basket.AddItem affect: callers, tests, references?",
         (Call("impact_analyze", {"symbol_id": "BasketAggregate.Basket.AddItem"}),),
         # 23 callers within depth 4, 17 of them tests (listed under tests: the first 10 of 23 tests); all 24
         # `.AddItem(` calls bound (a restore missing packages binds fewer: see docs/benchmarks.md)
         _impact, (6, 10, 24),
         (Grep(r"\.AddItem\("),),
         ("BasketAddItem.cs", "BasketBuilder.cs", "TransferBasket.cs"),
         "each hit's enclosing method and receiver type are read; tests through helpers are more greps"),
    Task("unused", "eShopOnWeb", "What code in ApplicationCore does nothing reference?",
         (Call("symbols_unused", {"project": "ApplicationCore"}),),
         # BasketGuards is used: OrderService calls its extension method on Ardalis' IGuardClause (unbound, and
         # so listed as unused, where Ardalis.GuardClauses cannot be restored).
         _ids("unused"), ["F:AuthorizationConstants.AUTH_KEY", "M:BasketAggregate.Basket.SetNewBuyerId(String)",
                          "T:BasketNotFoundException"],
         (Grep(r"AUTH_KEY|SetNewBuyerId|BasketNotFoundException"),),
         ("AUTH_KEY", "SetNewBuyerId", "BasketNotFoundException"),
         "knowing the three names; finding them means grepping every declared name of the project"),
)


def tool_list_tokens() -> int:
    return sum(tokens(t) for t in listed_tools())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", help="a clone of eShopOnWeb at commit 2414014b")
    parser.add_argument("--home", help="ROSLYNMAP_HOME (a temporary folder by default)")
    args = parser.parse_args()
    repo = Path(args.checkout).resolve()
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True).stdout
    if head.strip() != COMMIT:
        sys.exit(f"{repo} is at {head.strip()[:12]}; the answers are those of {COMMIT[:12]}")
    home = Path(args.home or tempfile.mkdtemp(prefix="roslynmap-real-tasks-"))
    done = subprocess.run([sys.executable, "-m", "roslynmap.cli", "index", str(repo), "--solution", SOLUTION, "--json"],
                          capture_output=True, text=True, env={**os.environ, "ROSLYNMAP_HOME": str(home)},
                          timeout=1800, check=False)
    if done.returncode not in (0, 2):  # 2: partial (packages this machine cannot restore)
        sys.exit(f"indexing failed ({done.returncode}): {done.stderr[-2000:]}")
    print(serve_and_report({"eShopOnWeb": repo}, user_settings(home), tool_list_tokens(), TASKS))


if __name__ == "__main__":
    main()
