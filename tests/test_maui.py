"""testdata/Maui: a .NET MAUI app's shape (edgiardina/IfpaMaui) on a machine without the MAUI workload, so it is
never restored: MAUI's types and CommunityToolkit.Mvvm do not bind and its source generators do not run. On IfpaMaui
symbols_unused said 88 `[ObservableProperty]` fields unused (ViewModels/BaseViewModel.cs:15 `bool isBusy`, which 58
XAML lines bind as `IsBusy`), refs_find on a `[RelayCommand]` method (AboutViewModel.OpenReview) answered a bare 0
though AboutPage.xaml:123 binds `OpenReviewCommand`, and net10.0-ios was said skipped as "older than net10.0-android".
Beside it: Maui.Core, which the app references, and Maui.Tools, unrelated, whose same-named members the app's XAML
cannot name (markup is scoped to its project and what that references)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

VM = "Maui.App.ViewModels.RankingsViewModel"
PAGE = "src/Maui.App/Views/RankingsPage.xaml"


@pytest.fixture(scope="module")
def maui(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    # Never restored: restore would fail on the missing workload (NETSDK1147), as on any machine without it.
    yield from served_copy("Maui", tmp_path_factory, home, exit_code=2, restore=False)


def test_a_platform_project_says_why_it_is_partial_and_what_to_install(maui: McpServerProcess) -> None:
    env = maui.call("index_ensure_baseline", {})
    [app] = [p for p in env["data"]["projects"] if p["name"] == "Maui.App"]
    assert (app["semantic_level"], app["target_framework"], app["restored"]) == ("partial", "net10.0-android", False)
    # Same version, another platform: not "older".
    assert app["skipped_frameworks"] == [{
        "framework": "net10.0-ios",
        "reason": "same .NET version as net10.0-android, which was chosen (one framework is indexed per project; "
                  "`framework` picks another)"}]
    assert app["hint"] == (
        "Not restored (no src/Maui.App/obj/project.assets.json): index again with restore=true (CLI: --restore) to "
        "bind package references. It targets net10.0-android, a platform whose reference packs come with a .NET "
        "workload, not the SDK: `dotnet workload list` shows what is installed and `dotnet workload restore` installs "
        "what the project needs; without it restore fails (NETSDK1147) and calls into the platform and its packages "
        "stay unbound.")
    assert {p["name"]: p["semantic_level"] for p in env["data"]["projects"]} == {
        "Maui.App": "partial", "Maui.Core": "full", "Maui.Tools": "full", "Maui.Widget": "syntax_only"}
    # A library built for net10.0 and the app's platform (eShop's ClientApp): the platform one is not "older" either.
    [core] = [p for p in env["data"]["projects"] if p["name"] == "Maui.Core"]
    assert (core["target_framework"], core["skipped_frameworks"]) == ("net10.0", [{
        "framework": "net10.0-android",
        "reason": "same .NET version as net10.0, preferred for having no platform suffix (one framework is indexed "
                  "per project; `framework` picks another)"}])
    assert "hint" not in core


def test_unused_keeps_generator_fields_and_scopes_xaml_names_to_the_app(maui: McpServerProcess) -> None:
    env = maui.call("symbols_unused", {})
    assert env["ok"], env
    assert [u["symbol_id"] for u in env["data"]["unused"]] == [
        f"F:{VM}.retries",  # no attribute, nothing reads it
        f"M:{VM}.Refresh",  # only a button's Text="Refresh" says the word
        "F:Maui.Core.Glyphs.Moon",
        # The app's XAML names a Star and an OnRefreshClicked; Maui.Tools is not the app's nor referenced by it.
        "F:Maui.Tools.Exporter.Star", "M:Maui.Tools.Exporter.OnRefreshClicked"]
    excluded = env["data"]["excluded"]
    assert {k: v["count"] for k, v in excluded.items()} == {
        "constructed": 2,  # RankingsPage's (DI makes it) and MainApplication's
        "entry_point": 2,  # Maui.Tools' Main and its class
        "found_by_attribute": 4,  # isBusy, _searchTerm, LoadRankingsAsync; OnIsBusyChanged, the generated setter's
        # Glyphs.Star ({x:Static core:Glyphs.Star}, Maui.Core referenced) with its class; the code-behind handler;
        # Weather.Sun with its class, named by Maui.Widget's XAML (a project that did not load: counts for all).
        "markup": 5,
        # App.CreateWindow, both platform entry points' CreateMauiApp and their classes (MAUI's bases did not bind).
        "unbound_base": 5,
        # RegisterServices and its class: `builder.RegisterServices()` on the unbound MauiAppBuilder did not bind.
        "unbound_name": 2}
    assert excluded["found_by_attribute"]["attributes"] == {"ObservableProperty": 3, "RelayCommand": 1}
    assert excluded["found_by_attribute"]["rule"] == (
        "methods and fields carrying an attribute the solution reads by reflection, or a package's attribute (its "
        "framework or generator finds them by it; Unity's [Inject]): `attributes` names them")


def _xaml(env: dict[str, Any]) -> list[str]:
    warnings: list[str] = env.get("warnings", [])
    return [w for w in warnings if w.startswith("XAML")]


def test_refs_and_callers_name_the_xaml_binding_the_generated_member(maui: McpServerProcess) -> None:
    command = maui.call("refs_find", {"symbol_id": f"M:{VM}.LoadRankingsAsync"})
    assert command["data"]["references"] == []
    assert _xaml(command) == [
        f"XAML markup names 'LoadRankingsCommand' (generated from LoadRankingsAsync) on 1 line ({PAGE}:11): markup "
        "is compiled by its UI framework's XAML build, which is not indexed, so uses there are not listed; read those "
        "lines."]
    callers = maui.call("graph_callers", {"symbol_id": f"M:{VM}.LoadRankingsAsync"})
    assert _xaml(callers) == _xaml(command)
    field = maui.call("refs_find", {"symbol_id": f"F:{VM}.isBusy"})
    assert _xaml(field) == [
        f"XAML markup names 'IsBusy' (generated from isBusy) on 1 line ({PAGE}:10): markup is compiled by its UI "
        "framework's XAML build, which is not indexed, so uses there are not listed; read those lines."]
    underscored = maui.call("refs_find", {"symbol_id": f"F:{VM}._searchTerm"})
    assert _xaml(underscored) == [
        f"XAML markup names 'SearchTerm' (generated from _searchTerm) on 1 line ({PAGE}:11): markup is compiled by "
        "its UI framework's XAML build, which is not indexed, so uses there are not listed; read those lines."]


def test_xaml_warns_only_for_its_project_and_those_it_references(maui: McpServerProcess) -> None:
    referenced = maui.call("refs_find", {"symbol_id": "F:Maui.Core.Glyphs.Star"})
    assert _xaml(referenced) == [
        f"XAML markup names 'Star' on 1 line ({PAGE}:12): markup is compiled by its UI framework's XAML build, "
        "which is not indexed, so uses there are not listed; read those lines."]
    for unrelated in ("F:Maui.Tools.Exporter.Star", "M:Maui.Tools.Exporter.OnRefreshClicked"):
        env = maui.call("refs_find", {"symbol_id": unrelated})
        assert env["ok"] and _xaml(env) == [], env


def test_registrations_read_from_syntax_are_listed_not_said_missing(maui: McpServerProcess) -> None:
    """IfpaMaui registers through `var s = builder.Services;` and MAUI did not restore: its registrations were lost,
    and those read from syntax (`builder.Services.AddSingleton<T>()`) were also counted as "did not bind ...: what
    they register is not listed"."""
    env = maui.call("surfaces_list", {"kind": "di"})
    assert env["ok"], env
    program = "src/Maui.App/MauiProgram.cs"
    assert [(r["service"], r["implementation"], r["lifetime"], r["registered_in"], r["file"], r["line"],
             r["confidence"]) for r in env["data"]["registrations"]] == [
        ("RankingsViewModel", "RankingsViewModel", "Singleton", "M:Maui.App.MauiProgram.CreateMauiApp", program, 14,
         "medium"),
        ("RankingsPage", "RankingsPage", "Singleton", "M:Maui.App.MauiProgram.CreateMauiApp", program, 15, "medium"),
        ("IRankingsService", "RankingsService", "Singleton",
         "M:Maui.App.ServiceRegistrations.RegisterServices(MauiAppBuilder)", program, 27, "medium")]
    assert "warnings" not in env, env


def test_xaml_of_a_project_that_did_not_load_counts_for_every_project(maui: McpServerProcess) -> None:
    """Maui.Widget names an SDK no feed serves: what it references is not known, so its XAML's `Weather.Sun` is said
    for Maui.Core's, which nothing else names (without the fallback Weather would be listed unused)."""
    env = maui.call("refs_find", {"symbol_id": "F:Maui.Core.Weather.Sun"})
    assert _xaml(env) == [
        "XAML markup names 'Sun' on 1 line (src/Maui.Widget/WidgetView.xaml:4): markup is compiled by its UI "
        "framework's XAML build, which is not indexed, so uses there are not listed; read those lines."]
    # Maui.App references no project that did not load, but a reference to one may be what is missing: its XAML
    # still counts for Maui.Widget's symbols.
    cloud = maui.call("refs_find", {"symbol_id": "F:Maui.Widget.WidgetGlyphs.Cloud"})
    assert _xaml(cloud) == [
        f"XAML markup names 'Cloud' on 1 line ({PAGE}:14): markup is compiled by its UI framework's XAML build, which "
        "is not indexed, so uses there are not listed; read those lines."]


def test_a_generated_member_asked_by_name_points_to_what_it_is_generated_from(maui: McpServerProcess) -> None:
    """IfpaMaui: refs_find(name="IsBusy") listed 90 unbound uses and no word of `[ObservableProperty] bool isBusy`."""
    xaml = ("markup is compiled by its UI framework's XAML build, which is not indexed, so uses there are not listed; "
            "read those lines.")
    command = maui.call("refs_find", {"name": "LoadRankingsCommand"})
    assert (command["error"]["code"], command["error"]["message"], command["error"]["candidates"]) == (
        "NOT_FOUND",
        f"No declared symbol 'LoadRankingsCommand': it is what CommunityToolkit.Mvvm generates from "
        f"M:{VM}.LoadRankingsAsync ([RelayCommand]); the generator's output is not indexed (nor generated at all when "
        "the package did not restore): refs_find with that symbol_id also says where markup names it. XAML markup "
        f"names 'LoadRankingsCommand' (generated from LoadRankingsAsync) on 1 line ({PAGE}:11): {xaml}",
        [{"symbol_id": f"M:{VM}.LoadRankingsAsync"}])
    # Refresh() writes the generated SearchTerm: the unbound use is listed, and what generates it is said.
    prop = maui.call("refs_find", {"name": "SearchTerm"})
    assert [(r["file"], r["line"], r["kind"]) for r in prop["data"]["references"]] == [
        ("src/Maui.App/ViewModels/RankingsViewModel.cs", 23, "Write")]
    assert [w for w in prop["warnings"] if w.startswith("No declared")] == [
        f"No declared symbol 'SearchTerm': it is what CommunityToolkit.Mvvm generates from F:{VM}._searchTerm "
        "([ObservableProperty]); the generator's output is not indexed (nor generated at all when the package did not "
        "restore): refs_find with that symbol_id also says where markup names it. XAML markup names 'SearchTerm' "
        f"(generated from _searchTerm) on 1 line ({PAGE}:11): {xaml}"]
