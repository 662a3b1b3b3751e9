"""symbols_unused on testdata/Conventions: what the framework, the runtime or a test runner reaches without a
reference is not "unused" (an agent may delete what we call unused). Each case is one eShopOnWeb or testdata/Web
said unused: a SignalR hub's methods, a page model without handlers, EF Core migrations and their snapshot, a method
group given to markup (`@onclick="Step"`), MSTest's `[AssemblyInitialize]`, a module initializer, and a member of a
type whose interface is in a package that did not restore (eShopOnWeb's `IEndpoint<...>.AddRoute`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess


@pytest.fixture(scope="module")
def conventions(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Conventions", tmp_path_factory, home, exit_code=2)  # ImportEndpoint.cs: 2 errors


def test_only_what_nothing_reaches_is_unused(conventions: McpServerProcess) -> None:
    env = conventions.call("symbols_unused", {})
    assert env["ok"], env
    web = "Conventions.Web."
    assert [u["symbol_id"] for u in env["data"]["unused"]] == [
        # Coupon derives from an IAggregateRoot implementer that is no handler: unused (and so is that interface).
        f"M:{web}Components.Pages.Stepper.Reset", f"T:{web}Data.IAggregateRoot", f"T:{web}Data.Coupon",
        f"M:{web}Data.Repository`1.Query",
        f"M:{web}Endpoints.ImportEndpoint.Unreferenced", f"M:{web}Hubs.NotificationsHub.Normalize(System.String)",
        f"T:{web}Setup.Pricing", "M:FluentValidation.AbstractValidator`1.Validate(`0)"]
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        # Subscribe, Watch (hubs); the view component and its Invoke; the migration and the model snapshot;
        # ProductValidator (AddValidatorsFromAssemblyContaining scans for it); SubscribeModel and its OnPostAsync;
        # Supplier, an entity only the model snapshot maps (by a string).
        "framework_entry": 10,
        # AboutModel's constructor (a page model without handlers), ShopContext's, Repository<T>'s.
        "constructed": 3,
        # Main; ModuleSetup.Initialize ([ModuleInitializer]) and its class.
        "entry_point": 3,
        # AssemblyFixture.Start ([AssemblyInitialize]) and its class.
        "test": 2,
        "unbound_base": 1,  # ImportEndpoint.AddRoute: IEndpoint<IResult> could not be bound
        "markup": 1,  # Stepper.Step, given to @onclick
        "dispatch": 4, "serialization": 6}


def test_a_method_group_given_to_markup_is_named_there(conventions: McpServerProcess) -> None:
    env = conventions.call("refs_find", {"symbol_id": "M:Conventions.Web.Components.Pages.Stepper.Step"})
    assert env["ok"], env
    assert env["warnings"] == [
        "Razor markup names 'Step' on 1 line (src/Conventions.Web/Components/Pages/Stepper.razor:4): markup is "
        "compiled by the Razor generator, which is not indexed, so uses there are not listed; read those lines."]


def test_a_pooled_context_factory_on_a_collection_named_service_collection_is_registered(
        conventions: McpServerProcess) -> None:
    """jellyfin's AddJellyfinDbContext calls `serviceCollection.AddPooledDbContextFactory<JellyfinDbContext>(...)`:
    neither the receiver's name nor the extension was known, so 112 injections of IDbContextFactory<JellyfinDbContext>
    had no registration."""
    env = conventions.call("surfaces_list", {"kind": "di", "filter": "ShopContext"})
    assert env["ok"], env
    assert [(r["service"], r.get("lifetime"), r["via"], r["registered_in"], r["line"])
            for r in env["data"]["registrations"]] == [
        ("IDbContextFactory<ShopContext>", "Singleton", "AddPooledDbContextFactory",
         "M:Conventions.Web.Data.DataSetup.AddShopData(Microsoft.Extensions.DependencyInjection.IServiceCollection)",
         11),
        ("ShopContext", "Scoped", "AddDbContext", "M:Program.<Main>$(System.String[])", 8),
        # TodoApi's `AddSqlite<TodoDbContext>(cs)`: a provider's shortcut for AddDbContext.
        ("ShopContext", "Scoped", "AddSqlite", "M:Program.<Main>$(System.String[])", 10)]


def test_a_generic_repositorys_dbset_is_no_table(conventions: McpServerProcess) -> None:
    """SimplCommerce's `protected DbSet<T> DbSet` in its generic repository was listed as a table "DbSet" (high),
    and a trace through the repository named it instead of the entity's table."""
    env = conventions.call("surfaces_list_db_tables", {})
    assert [(t["table"], t["schema"], t["entities"]) for t in env["data"]["tables"]] == [
        ("Products", None, ["T:Conventions.Web.Data.Product"]),
        # modular-monolith's Members in the meetings and administration schemas were one row.
        ("Products", "archive", ["T:Conventions.Web.Data.ArchivedProduct"]),
        # SimplCommerce's snapshots map `Entity("SimplCommerce.Module.Catalog.Models.Product", b => b.ToTable(...))`:
        # 69 of its 86 tables had no entity.
        ("Suppliers", None, ["T:Conventions.Web.Data.Supplier"])]
    # The snapshot's `b.ToTable("Products")` does not take the table from its DbSet.
    products = env["data"]["tables"][0]
    assert (products["dbsets"], products["symbols"], products["file"], products["line"]) == (
        ["Products"], ["P:Conventions.Web.Data.ShopContext.Products"], "src/Conventions.Web/Data/ShopContext.cs", 7)
    archived = conventions.call("surfaces_list_db_tables", {"table_filter": "archive.Products"})
    assert [(t["table"], t["schema"]) for t in archived["data"]["tables"]] == [("Products", "archive")]


def test_a_page_with_only_a_post_handler_still_renders_on_get(conventions: McpServerProcess) -> None:
    """Contoso's Courses/Create has only OnPostAsync: `GET /Courses/Create` was missing and a trace NOT_FOUND."""
    env = conventions.call("surfaces_list_endpoints", {"path_filter": "/Subscribe"})
    assert [(e["method"], e["route"], e["handler"]) for e in env["data"]["endpoints"]] == [
        ("GET", "/Subscribe", "T:Conventions.Web.Pages.SubscribeModel"),
        ("POST", "/Subscribe", "M:Conventions.Web.Pages.SubscribeModel.OnPostAsync")]


def test_a_generic_keyed_registrations_typeof_is_its_key(conventions: McpServerProcess) -> None:
    """eShop's `AddKeyedTransient<IIntegrationEventHandler, TH>(typeof(T))` was read as a typeof registration of
    service T: filtering for the handler interface found nothing."""
    env = conventions.call("surfaces_list", {"kind": "di", "filter": "IProductHandler"})
    assert [(r["service_id"], r["implementation"], r["form"], r.get("service_key"), r["lifetime"])
            for r in env["data"]["registrations"]] == [
        # SimplCommerce's `AddSingleton(typeof(IModuleInitializer), moduleInitializer)` was `typeof` of itself.
        ("T:Conventions.Web.Data.IProductHandler", "ProductAddedHandler", "instance", None, "Singleton"),
        ("T:Conventions.Web.Data.IProductHandler", "THandler", "generic", "typeof(TEvent)", "Transient")]


def test_keys_razor_views_read_through_an_injected_configuration(conventions: McpServerProcess) -> None:
    """SimplCommerce's views read `@Config["GoogleAppKey"]` and `Config.GetValue<bool>("Global.AssetBundling")`
    after `@inject IConfiguration Config`: "0 configuration keys" was answered for both."""
    env = conventions.call("surfaces_list_config_keys", {})
    assert [(k["key"], k["status"], [(u["pattern"], u["through"], u["file"], u["line"]) for u in k["usages"]])
            for k in env["data"]["keys"]] == [
        ("Features:Beta", "used_but_undefined", [("markup", "GetValue", "src/Conventions.Web/Pages/About.cshtml", 6)]),
        ("Support:Email", "used", [("markup", "indexer", "src/Conventions.Web/Pages/About.cshtml", 5)])]
    overview = conventions.call("repo_overview", {})
    assert overview["data"]["counts"]["config_keys"] == 2
