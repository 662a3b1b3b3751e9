"""symbols_unused on testdata/Conventions: what the framework, the runtime or a test runner reaches without a
reference is not "unused" (an agent may delete what we call unused). Each case is one eShopOnWeb or testdata/Web
said unused: a SignalR hub's methods, a page model without handlers, EF Core migrations and their snapshot, a method
group given to markup (`@onclick="Step"`), MSTest's `[AssemblyInitialize]`, a module initializer, and a member of a
type whose interface is in a package that did not restore (eShopOnWeb's `IEndpoint<...>.AddRoute`), CAP's subscribers
(found by an attribute) and Hangfire's compiler polyfills."""

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
        # Bus/Subscribers.cs: what no attribute makes the bus call (test_a_method_the_bus_finds_by_its_attribute...).
        f"T:{web}Bus.TopicSelector", f"M:{web}Bus.OrderSubscriber.Archive", f"M:{web}Bus.OrderSubscriber.Describe",
        f"M:{web}Bus.PaymentSubscriber.Fee(System.Int32)",
        # Coupon derives from an IAggregateRoot implementer that is no handler: unused (and so is that interface).
        # Badge.Hint is private: Stepper.razor's `@Hint()` is Stepper's own Hint, not Badge's.
        f"M:{web}Components.Pages.Badge.Hint",
        f"M:{web}Components.Pages.Stepper.Reset", f"T:{web}Data.IAggregateRoot", f"T:{web}Data.Coupon",
        f"M:{web}Data.Repository`1.Query",
        f"M:{web}Endpoints.ImportEndpoint.Unreferenced", f"M:{web}Hubs.NotificationsHub.Normalize(System.String)",
        # Setup/Palette.cs: Size is neither listed nor parsed; Palette's members are named by nothing.
        f"F:{web}Setup.Size.Large", f"T:{web}Setup.Palette",
        # Door is compared in a property's body, held by no property: Closed is unused.
        f"F:{web}Setup.Door.Closed",
        # Finish is named, not handed to Labels.Of: Gloss is unused; so is Labels.Count, which nothing calls.
        f"F:{web}Setup.Finish.Gloss", f"M:{web}Setup.Labels.Count",
        f"T:{web}Setup.Pricing", "M:FluentValidation.AbstractValidator`1.Validate(`0)"]
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        # Subscribe, Watch (hubs); the view component and its Invoke; the three migrations and the two model
        # snapshots; ProductValidator (AddValidatorsFromAssemblyContaining scans for it); SubscribeModel's
        # OnPostAsync; Supplier, an entity only the model snapshot maps (by a string).
        # + Previewer.BuildAvaloniaApp (Avalonia calls it by name) and its class; HostModel.OnGet (a page model's
        # handler, found by its name though `_Host.cshtml` is no routed page).
        "framework_entry": 15,
        # SubscribeModel, which Subscribe.cshtml's generated page class names (`@model`); Badge's OnPick, which
        # Stepper.razor's `<Badge OnPick="Pick">` sets, its ChildContent and Caption, which Badge.razor reads, and
        # Stepper's Hint and Pick, which Stepper.razor names.
        "generated_code": 6,
        # AboutModel's constructor (a page model without handlers), ShopContext's, Repository<T>'s, AccountsContext's,
        # UserStore's, ClubContext's; ShopUserManager's and ShopSignInManager's (Identity's builder registers them);
        # PriceRelay's (Hubs/NotificationsHub.cs).
        "constructed": 9,
        # Main; ModuleSetup.Initialize ([ModuleInitializer]) and its class.
        "entry_point": 3,
        # AssemblyFixture.Start ([AssemblyInitialize]) and its class.
        "test": 2,
        "unbound_base": 1,  # ImportEndpoint.AddRoute: IEndpoint<IResult> could not be bound
        # Stepper.Step, given to @onclick: without `@using Microsoft.AspNetCore.Components.Web` the generator writes
        # the attribute as text, so only the name says it.
        "markup": 1,
        # The four + Up and Down of two migrations, a designer's BuildTargetModel, a snapshot's BuildModel,
        # AccountsContext.OnModelCreating; PaymentSubscriber (implements CAP's ICapSubscribe).
        # + TenantContext<T>.Members and ClubMember.Id, public properties; Gate.IsOpen; Badge.Title, a parameter
        # no markup sets. + PriceRelay and its PriceChanged: an implementation of IPriceClient, which a constructor
        # takes (IHubContext<PricesHub, IPriceClient>).
        "dispatch": 14, "serialization": 10,
        # OrderSubscriber.OnOrderCreated and its class, PaymentSubscriber's OnPaymentReceived and Reconcile.
        "found_by_attribute": 4,
        # IsExternalInit, MaybeNullWhenAttribute, its constructor and ReturnValue.
        "compiler_polyfill": 4,
        # Shade.Light and Shade.Dark (Enum.GetValues<Shade>()), Channel.Sms (Enum.TryParse(text, out Channel c));
        # Tone.Warm and Tone.Cool (Labels.Of(typeof(Tone)), a helper handing its Type to Enum.GetNames).
        "enumerated": 5}


def test_a_method_the_bus_finds_by_its_attribute_is_not_unused(conventions: McpServerProcess) -> None:
    """CAP: 8 `[CapSubscribe("topic")]` handlers of its samples were unused. CAP's selector reads its TopicAttribute
    by reflection (`method.GetCustomAttributes<TopicAttribute>(true)`), so a method carrying it or a subclass of it
    (`[Subscribe]`) is called by the bus; so is one carrying a package's attribute (CAP's `[CapSubscribe]` when CAP is
    a package, JetBrains' `[UsedImplicitly]`), but not one only annotating (`[Pure]`), nor one carrying an attribute
    of the solution nothing reads (`[Audited]`), nor one returning the attribute type: those are listed above."""
    env = conventions.call("symbols_unused", {"kinds": ["Method"]})
    assert env["data"]["excluded"]["found_by_attribute"] == {
        "count": 3, "attributes": {"CapSubscribe": 1, "Subscribe": 1, "UsedImplicitly": 1},
        "rule": "methods and fields carrying an attribute the solution reads by reflection, or a package's attribute "
                "(its framework or generator finds them by it; Unity's [Inject]): `attributes` names them"}
    # Hangfire.Core's IsExternalInit, which `init` needs on netstandard2.0 and no code names.
    polyfills = conventions.call("symbols_unused", {"kinds": ["Class"]})
    assert polyfills["data"]["excluded"]["compiler_polyfill"]["count"] == 2


def test_a_method_group_given_to_markup_is_named_there(conventions: McpServerProcess) -> None:
    env = conventions.call("refs_find", {"symbol_id": "M:Conventions.Web.Components.Pages.Stepper.Step"})
    assert env["ok"], env
    assert env["warnings"] == [
        "Razor markup names 'Step' on 1 line (src/Conventions.Web/Components/Pages/Stepper.razor:4): markup is "
        "compiled by the Razor generator, which is not indexed, so uses there are not listed; read those lines."]


def test_a_components_parameters_set_in_markup_are_used_there(conventions: McpServerProcess) -> None:
    """MudBlazor's `<MudButton Color="Color.Primary">`: refs_find on MudButton.Color found 1 reference (its own
    Classname) beside a warning counting 1,670 markup lines named `Color`. The Razor generator writes a parameter set
    as an attribute as `AddComponentParameter(n, nameof(Badge.Tone), ...)`, mapped to the attribute: a use."""
    tone = conventions.call("refs_find", {"symbol_id": "P:Conventions.Web.Components.Pages.Badge.Tone"})
    assert tone["answer"] == ("1 references to Conventions.Web.Components.Pages.Badge.Tone (1 Read), + 1 use in "
                              "source-generated code (BuildRenderTree (RazorSourceGenerator, "
                              "src/Conventions.Web/Components/Pages/Stepper.razor:6)).")
    assert tone["data"]["generated_uses"] == [{
        "generator": "Microsoft.NET.Sdk.Razor.SourceGenerators.RazorSourceGenerator",
        "hint_name": "Components/Pages/Stepper_razor.g.cs",
        "from": "M:Conventions.Web.Components.Pages.Stepper.BuildRenderTree("
                "Microsoft.AspNetCore.Components.Rendering.RenderTreeBuilder)",
        "mapped": "src/Conventions.Web/Components/Pages/Stepper.razor:6"}]
    # An EventCallback parameter given a method group: its caller is the component setting it.
    pick = conventions.call("graph_callers", {"symbol_id": "P:Conventions.Web.Components.Pages.Badge.OnPick"})
    assert pick["answer"] == ("0 bound callers of Conventions.Web.Components.Pages.Badge.OnPick within depth 1 + 1 "
                              "use in source-generated code (BuildRenderTree (RazorSourceGenerator, "
                              "src/Conventions.Web/Components/Pages/Stepper.razor:6)).")
    # A RenderFragment parameter given as the tag's content: the generator names it as text,
    # `AddAttribute(10, "ChildContent", ...)` after `OpenComponent<Badge>`, on no markup line.
    content = conventions.call("refs_find", {"symbol_id": "P:Conventions.Web.Components.Pages.Badge.ChildContent"})
    pages = "Conventions.Web.Components.Pages"
    assert [(u["from"].split("(")[0], u.get("mapped")) for u in content["data"]["generated_uses"]] == [
        (f"M:{pages}.Badge.BuildRenderTree", "src/Conventions.Web/Components/Pages/Badge.razor:1"),
        (f"M:{pages}.Stepper.BuildRenderTree", None)]
    # A parameter no tag sets has none.
    title = conventions.call("refs_find", {"symbol_id": "P:Conventions.Web.Components.Pages.Badge.Title"})
    assert "generated_uses" not in title["data"]


def test_a_private_member_is_named_only_by_its_own_components_markup(conventions: McpServerProcess) -> None:
    """MudBlazor's MudMask.GetCounterText and MudItem.Parent: private, named by no markup of theirs, yet kept as
    "named in markup" because other components' markup names a `GetCounterText`/`Parent`. Badge.Hint's name is in
    Stepper.razor, which can only mean Stepper's own Hint: no markup warning, and it is unused (above)."""
    badge = conventions.call("refs_find", {"symbol_id": "M:Conventions.Web.Components.Pages.Badge.Hint"})
    assert badge["answer"] == "0 references to Conventions.Web.Components.Pages.Badge.Hint."
    assert "warnings" not in badge
    # Stepper's Hint: its own markup names it, and the generator's code binds it.
    stepper = conventions.call("refs_find", {"symbol_id": "M:Conventions.Web.Components.Pages.Stepper.Hint"})
    assert stepper["data"]["generated_uses"][0]["mapped"] == "src/Conventions.Web/Components/Pages/Stepper.razor:5"
    assert stepper["warnings"][0] == (
        "Razor markup names 'Hint' on 1 line (src/Conventions.Web/Components/Pages/Stepper.razor:5), matched by name: "
        "the Razor generator's code using this symbol is listed in generated_uses; the other lines may name another "
        "member of that name, or use this one where the generator's code did not bind.")


def test_a_component_only_its_razor_file_declares_is_said_to_derive(conventions: McpServerProcess) -> None:
    """MudBlazor's MudTabPanel and MudContainer (`@inherits MudComponentBase`, their code in `@code`) have no C# part:
    types_hierarchy listed MudComponentBase's derived types without them, and said nothing. Chip.razor is one."""
    env = conventions.call("types_hierarchy", {"symbol_id": "T:Conventions.Web.Components.Pages.Badge"})
    assert env["answer"] == ("Class Conventions.Web.Components.Pages.Badge: base "
                             "T:Microsoft.AspNetCore.Components.ComponentBase, 1 component declared only in .razor "
                             "markup.")
    assert env["data"]["markup_components"] == [
        {"name": "Chip", "file": "src/Conventions.Web/Components/Pages/Chip.razor", "line": 1, "inherits": "Badge"}]
    assert env["data"]["descendants"] == []
    assert env["warnings"] == [
        "1 component declared only in .razor files `@inherits` it (Chip (src/Conventions.Web/Components/Pages/"
        "Chip.razor:1)): the Razor generator's classes are not indexed, so they are not among the derived types and "
        "their `@code` members are no symbols; read those files."]


def test_a_razor_only_page_is_served_by_no_class_of_its_name_elsewhere(conventions: McpServerProcess) -> None:
    """MudBlazor.Docs' Pages/Index.razor (`@page "/"`, no C# part) was handled by MudBlazor.Docs.Pages.Api.Index,
    the only C# class named Index (Pages/Api/Index.razor.cs), which also made a class of that name "framework_entry".
    Palette.razor has no C# part; Setup.Palette is another class, unused (test_only_what_nothing_reaches_is_unused)."""
    env = conventions.call("surfaces_list_endpoints", {"path_filter": "/swatches"})
    assert [(e["route"], e["handler"], e["file"], e["line"]) for e in env["data"]["endpoints"]] == [
        ("/swatches", None, "src/Conventions.Web/Components/Pages/Palette.razor", 1)]


def test_a_component_only_markup_declares_has_its_references_listed(conventions: McpServerProcess) -> None:
    """MudBlazor's MudTabPanel: 23 C# references bind to it, yet refs_find said "No symbol 'T:MudBlazor.MudTabPanel'
    in the index" (only the Razor generator's code declares it). Badge.Caption names Chip and its `@code` Weight."""
    chip = "Conventions.Web.Components.Pages.Chip"
    env = conventions.call("refs_find", {"symbol_id": f"T:{chip}"})
    assert env["answer"] == f"1 references to {chip} (1 TypeRef)."
    assert [(r["file"], r["line"], r["from_symbol_id"]) for r in env["data"]["references"]] == [
        ("src/Conventions.Web/Components/Pages/Badge.razor.cs", 19, "M:Conventions.Web.Components.Pages.Badge.Caption")]
    assert env["warnings"][0] == (
        f"{chip} is declared in no indexed file: a Blazor component only its .razor file declares (or a member of its "
        "`@code`), another source generator's output, or an implicit constructor. Its references are listed; it has "
        "no declaration to show.")
    weight = conventions.call("refs_find", {"symbol_id": f"P:{chip}.Weight"})
    assert weight["answer"] == f"1 references to {chip}.Weight (1 Read)."
    # Not `base Object`: what its `@inherits` says.
    hierarchy = conventions.call("types_hierarchy", {"symbol_id": f"T:{chip}"})
    assert hierarchy["answer"] == (
        f"Class {chip} is declared in no indexed file, so its bases, interfaces and derived types are not known: "
        "`@inherits Badge` (src/Conventions.Web/Components/Pages/Chip.razor:1).")
    assert hierarchy["data"]["markup_base"] == {
        "name": "Chip", "file": "src/Conventions.Web/Components/Pages/Chip.razor", "line": 1, "inherits": "Badge"}
    card = conventions.call("symbols_get_card", {"symbol_id": f"T:{chip}"})
    assert card["answer"] == (
        f"Class {chip} is declared in no indexed file (a Blazor component only its .razor file declares, a member of "
        "its `@code`, another source generator's output, or an implicit constructor); the solution uses it: 1 TypeRef.")
    # No source to show: said, not an internal error (test_contract's fuzzing found the crash).
    span = conventions.call("symbols_get_definition_span", {"symbol_id": f"T:{chip}"})
    assert (span["error"]["code"], span["error"]["message"]) == (
        "NOT_FOUND",
        f"{chip} is declared in no indexed file (source-generated or implicit): there is no source to show.")
    # A declared symbol asked in a project that does not declare it is not found there, never "declared nowhere".
    badge = conventions.call("symbols_get_definition_span", {"symbol_id": "M:Conventions.Web.Components.Pages.Badge."
                                                                          "Caption", "project": "Conventions.Core"})
    assert badge["error"]["code"] == "NOT_FOUND"
    assert badge["error"]["message"].startswith("No symbol 'M:Conventions.Web.Components.Pages.Badge.Caption' in "
                                                "project 'Conventions.Core'")


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
        ("ShopContext", "Scoped", "AddDbContext", "M:Program.<Main>$(System.String[])", 9),
        # TodoApi's `AddSqlite<TodoDbContext>(cs)`: a provider's shortcut for AddDbContext.
        ("ShopContext", "Scoped", "AddSqlite", "M:Program.<Main>$(System.String[])", 11)]


def test_a_generic_repositorys_dbset_is_no_table(conventions: McpServerProcess) -> None:
    """SimplCommerce's `protected DbSet<T> DbSet` in its generic repository was listed as a table "DbSet" (high),
    and a trace through the repository named it instead of the entity's table."""
    env = conventions.call("surfaces_list_db_tables", {})
    assert [(t["table"], t["schema"], t["entities"]) for t in env["data"]["tables"]] == [
        # Identity's tables, mapped by AccountsContext's snapshot (test_an_identity_contexts_dbsets_...).
        ("AspNetUserClaims", None, ["T:Microsoft.AspNetCore.Identity.IdentityUserClaim`1"]),
        ("AspNetUserLogins", None, ["T:Microsoft.AspNetCore.Identity.IdentityUserLogin`1"]),
        ("AspNetUsers", None, [f"{ACCOUNTS}ShopUser"]),
        # ClubContext's DbSet, declared by its generic base `TenantContext<TMember>`, of the type argument it gives.
        ("Members", None, ["T:Conventions.Web.Data.ClubMember"]),
        ("Products", None, ["T:Conventions.Web.Data.Product"]),
        # modular-monolith's Members in the meetings and administration schemas were one row.
        ("Products", "archive", ["T:Conventions.Web.Data.ArchivedProduct"]),
        # SimplCommerce's snapshots map `Entity("SimplCommerce.Module.Catalog.Models.Product", b => b.ToTable(...))`:
        # 69 of its 86 tables had no entity.
        ("Suppliers", None, ["T:Conventions.Web.Data.Supplier"])]
    # The snapshot's `b.ToTable("Products")` does not take the table from its DbSet.
    products = env["data"]["tables"][4]
    assert (products["dbsets"], products["symbols"], products["file"], products["line"]) == (
        ["Products"], ["P:Conventions.Web.Data.ShopContext.Products"], "src/Conventions.Web/Data/ShopContext.cs", 7)
    # The base's `DbSet<TMember> Members` is no table; ClubContext's, inherited, is (no package's model names it).
    members = env["data"]["tables"][3]
    assert (members["dbsets"], members["sources"], members["symbols"]) == (
        ["Members"], [{"source": "DbSet", "file": "src/Conventions.Web/Data/ClubContext.cs", "line": 12,
                       "inherited": "solution"}], ["P:Conventions.Web.Data.TenantContext`1.Members"])
    archived = conventions.call("surfaces_list_db_tables", {"table_filter": "archive.Products"})
    assert [(t["table"], t["schema"]) for t in archived["data"]["tables"]] == [("Products", "archive")]


ACCOUNTS = "T:Conventions.Web.Data.Accounts."
SHOP_MIGRATIONS = "src/Conventions.Web/Data/Migrations/"
ACCOUNTS_FILE = "src/Conventions.Web/Data/Accounts/AccountsContext.cs"


def test_the_model_snapshot_is_the_current_schema(conventions: McpServerProcess) -> None:
    """Kavita listed 70 tables where its model snapshot has 61: a migration's designer naming a table a later migration
    renamed (Users, AppUserProgress) or dropped (ChapterPerson, SyncHistory...) made a current table of it. A table only
    migrations name that the snapshot covering them does not have is a former table: not listed, not counted, said
    apart with what happened to it (Down undoes Up: its RenameTable and DropTable are no history)."""
    env = conventions.call("surfaces_list_db_tables", {})
    assert env["answer"] == ("7 database tables (3 more that migrations name are not in the model snapshot: renamed "
                             "or dropped, under former_tables).")
    assert [t["table"] for t in env["data"]["tables"]] == [
        "AspNetUserClaims", "AspNetUserLogins", "AspNetUsers", "Members", "Products", "Products", "Suppliers"]
    cleanup = f"{SHOP_MIGRATIONS}20250201000000_Cleanup.cs"
    assert env["data"]["former_tables"] == [
        {"table": "Discounts", "schema": None, "entities": [],  # its entity is gone from the code
         "file": f"{SHOP_MIGRATIONS}20250101000000_Initial.Designer.cs", "line": 14,
         "migrations": 2, "dropped": True, "by": {"file": cleanup, "line": 15}},
        # An application table Identity took over: a rename alone names it (AccountsContext's own migrations).
        {"table": "Users", "schema": None, "entities": [],
         "file": "src/Conventions.Web/Data/Accounts/Migrations/20250301000000_Accounts.cs", "line": 12,
         "migrations": 1, "renamed_to": "AspNetUsers",
         "by": {"file": "src/Conventions.Web/Data/Accounts/Migrations/20250301000000_Accounts.cs", "line": 12}},
        {"table": "Vendors", "schema": None, "entities": ["T:Conventions.Web.Data.Supplier"],
         "file": f"{SHOP_MIGRATIONS}20250101000000_Initial.Designer.cs", "line": 13,
         "migrations": 2, "renamed_to": "Suppliers", "by": {"file": cleanup, "line": 14}}]
    suppliers = env["data"]["tables"][6]
    assert (suppliers["renamed_from"], suppliers["file"], suppliers["line"], suppliers["migrations"]) == (
        ["Vendors"], f"{SHOP_MIGRATIONS}ShopContextModelSnapshot.cs", 18, 1)
    # Where the migrations are, said once (how many of each folder's files name a listed or former table).
    assert env["data"]["migration_folders"] == [
        {"folder": "src/Conventions.Web/Data/Accounts/Migrations", "files": 2},
        {"folder": SHOP_MIGRATIONS.rstrip("/"), "files": 3}]  # Initial.cs: its designer names the table
    # Asked about the old name: no table, and what became of it.
    vendors = conventions.call("surfaces_list_db_tables", {"table_filter": "vendors"})
    assert vendors["answer"] == ("0 database tables match 'vendors' (Vendors was renamed to Suppliers by a migration: "
                                 "under former_tables).")
    assert [t["table"] for t in vendors["data"]["former_tables"]] == ["Vendors"]
    assert "hint" not in vendors
    assert conventions.call("repo_overview", {})["data"]["counts"]["db_tables"] == 7


def test_an_identity_contexts_dbsets_are_the_tables_its_snapshot_maps(conventions: McpServerProcess) -> None:
    """Kavita's `DataContext : IdentityDbContext<AppUser, ...>` declares `DbSet<AppUser> AppUser`; Identity maps AppUser
    to AspNetUsers, as the snapshot says. AppUser was a table of its own credited with 122 endpoints, while AspNetUsers
    had no code though `_context.Users` (inherited from Identity's IdentityUserContext) reads it. The snapshot's table
    is the entity's: both DbSets are its sources, their readers its endpoints, and a trace through either reaches it.
    Identity's UserTokens, which the context ignores and the snapshot does not map, is no table."""
    env = conventions.call("surfaces_list_db_tables", {"table_filter": "AspNetUser", "with_endpoints": True})
    claims, logins, users = env["data"]["tables"]
    assert (users["table"], users["entities"], users["dbsets"], users["sources"], users["symbols"], users["file"],
            users["line"], users["renamed_from"]) == (
        "AspNetUsers", [f"{ACCOUNTS}ShopUser"], ["Users", "ShopUser"],
        [{"source": "DbSet", "file": ACCOUNTS_FILE, "line": 10, "inherited": "package"},
         {"source": "DbSet", "file": ACCOUNTS_FILE, "line": 12}],
        ["P:Microsoft.AspNetCore.Identity.EntityFrameworkCore.IdentityUserContext`5.Users",
         "P:Conventions.Web.Data.Accounts.AccountsContext.ShopUser"], ACCOUNTS_FILE, 12, ["Users"])
    assert [e["endpoint"] for e in users["endpoints"]] == ["GET /accounts", "GET /accounts/{name}"]
    # A snapshot names a generic entity in C# form: `Microsoft.AspNetCore.Identity.IdentityUserClaim<string>`.
    assert [(t["dbsets"], t["symbols"], t["endpoints"]) for t in (claims, logins)] == [
        (["UserClaims"], ["P:Microsoft.AspNetCore.Identity.EntityFrameworkCore.IdentityUserContext`5.UserClaims"], []),
        (["UserLogins"], ["P:Microsoft.AspNetCore.Identity.EntityFrameworkCore.IdentityUserContext`5.UserLogins"], [])]
    for name in ("ShopUser", "UserTokens"):
        assert [t["table"] for t in conventions.call("surfaces_list_db_tables", {"table_filter": name})["data"][
            "tables"]] == (["AspNetUsers"] if name == "ShopUser" else []), name
    # UserStore.FindAsync reads the inherited `context.Users`; MapAccounts' lambda reads `db.ShopUser`.
    find = conventions.call("graph_trace_feature", {"entry_point": "GET /accounts/{name}"})
    assert find["data"]["tables"] == [
        {"table": "AspNetUsers", "via": "M:Conventions.Web.Data.Accounts.UserStore.FindAsync(System.String)"}]
    count = conventions.call("graph_trace_feature", {"entry_point": "GET /accounts"})
    assert count["data"]["tables"] == [
        {"table": "AspNetUsers", "via": "P:Conventions.Web.Data.Accounts.AccountsContext.ShopUser"}]
    card = conventions.call("symbols_get_card", {"symbol_id": f"P:{ACCOUNTS[2:]}AccountsContext.ShopUser"})
    assert [(f["key"], f["dbset"], f["line"]) for f in card["data"]["facts"]] == [("AspNetUsers", "ShopUser", 12)]


def test_a_package_dbset_only_a_fact_names_has_a_card_and_a_short_id(conventions: McpServerProcess,
                                                                        home: Path) -> None:
    """Identity's `UserClaims`, inherited by AccountsContext, is named by no code: the bridge records it (and its
    entity type) among the externals, so its card says which table it is and a short id names it (eShopOnWeb's tables
    answer spelled `P:Microsoft.AspNetCore.Identity.EntityFrameworkCore.IdentityUserContext`5.UserClaims`)."""
    full = "P:Microsoft.AspNetCore.Identity.EntityFrameworkCore.IdentityUserContext`5.UserClaims"
    card = conventions.call("symbols_get_card", {"symbol_id": full})
    assert card["answer"] == ("Property Microsoft.AspNetCore.Identity.EntityFrameworkCore.IdentityUserContext<TUser, "
                              "TKey, TUserClaim, TUserLogin, TUserToken>.UserClaims is external (assembly "
                              "Microsoft.AspNetCore.Identity.EntityFrameworkCore, no source here); no reference in "
                              "the solution names it.")
    assert "next_actions" not in card  # nothing for refs_find to list
    assert [(f["key"], f["dbset"], f["inherited"], f["line"]) for f in card["data"]["facts"]] == [
        ("AspNetUserClaims", "UserClaims", "package", 10)]
    short = McpServerProcess(conventions.repo, {"ROSLYNMAP_HOME": str(home), "ROSLYNMAP_IDS": "short"})
    try:
        tables = short.call("surfaces_list_db_tables", {"table_filter": "AspNetUserClaims"})["data"]["tables"]
        assert [(t["entities"], t["symbols"]) for t in tables] == [
            (["T:IdentityUserClaim`1"], ["P:IdentityUserContext`5.UserClaims"])]
        assert short.call("symbols_get_card", {"symbol_id": "P:IdentityUserContext`5.UserClaims"})["data"][
            "fqn"].endswith(".UserClaims")
    finally:
        short.close()


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
    assert [(r["service_id"], r.get("implementation"), r["form"], r.get("service_key"), r["lifetime"])
            for r in env["data"]["registrations"]] == [
        # SimplCommerce's `AddSingleton(typeof(IModuleInitializer), moduleInitializer)` was `typeof` of itself.
        ("T:Conventions.Web.Data.IProductHandler", "ProductAddedHandler", "instance", None, "Singleton"),
        # `AddSingleton(typeof(IProductHandler), handlerType)`, a System.Type: its type unknown (was `Type`).
        ("T:Conventions.Web.Data.IProductHandler", None, "typeof", None, "Singleton"),
        # SimplCommerce's `AddSingleton(typeof(IModuleInitializer), moduleInitializer)`, the instance made by
        # reflection and typed as the interface: its class unknown (the interface was its own implementation).
        ("T:Conventions.Web.Data.IProductHandler", None, "instance", None, "Singleton"),
        ("T:Conventions.Web.Data.IProductHandler", "THandler", "generic", "typeof(TEvent)", "Transient"),
        # Program's `AddSubscription<Product, ProductAddedHandler>()`: what that generic extension registers, its type
        # arguments put in, the key too.
        ("T:Conventions.Web.Data.IProductHandler", "ProductAddedHandler", "extension", "typeof(Product)", "Transient")]


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


def test_an_identity_builders_calls_register_its_managers(conventions: McpServerProcess) -> None:
    """Blogifier: `AddIdentityCore<User>().AddUserManager<UserManager>().AddSignInManager<SignInManager>()
    .AddEntityFrameworkStores<AppDbContext>()` registered nothing, though AccountController injects SignInManager."""
    env = conventions.call("surfaces_list", {"kind": "di", "filter": "ShopUser"})
    assert [(r["service"], r.get("implementation"), r["via"], r["line"]) for r in env["data"]["registrations"]] == [
        ("UserManager<ShopUser>", None, "AddIdentityCore", 13),
        ("UserManager<ShopUser>", "ShopUserManager", "AddUserManager", 14),
        ("SignInManager<ShopUser>", "ShopSignInManager", "AddSignInManager", 15),
        ("IUserStore<ShopUser>", None, "AddEntityFrameworkStores", 16)]
    assert {r["lifetime"] for r in env["data"]["registrations"]} == {"Scoped"}


def test_a_call_on_a_signalr_client_proxy_runs_no_implementation_of_the_client_interface(
        conventions: McpServerProcess) -> None:
    """RockPaperOrleans' LeaderboardObserver implements the hub's client interface on the server: the hub's
    `Clients.All.OnGameStarted(...)` was its caller, and its own `hub.Clients.All.OnGameStarted(...)` called itself and
    the hub. Both go over the wire to the connected clients (Hubs/NotificationsHub.cs: PriceRelay)."""
    relay = "M:Conventions.Web.Hubs.PriceRelay.PriceChanged(System.Int32,System.Decimal)"
    client = "M:Conventions.Web.Hubs.IPriceClient.PriceChanged(System.Int32,System.Decimal)"
    callers = conventions.call("graph_callers", {"symbol_id": relay})
    assert callers["data"]["nodes"] == []
    callees = conventions.call("graph_callees", {"symbol_id": relay})
    assert [(n["symbol_id"], n["edges"][0]["kind"]) for n in callees["data"]["nodes"]] == [(client, "Call")]
    # The interface member itself is still called, by both proxies.
    called = conventions.call("graph_callers", {"symbol_id": client})
    assert [n["symbol_id"] for n in called["data"]["nodes"]] == [
        relay, "M:Conventions.Web.Hubs.PricesHub.Watch(System.Int32)"]
