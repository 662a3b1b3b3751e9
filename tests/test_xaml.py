"""XAML markup on testdata/Xaml (Avalonia .axaml, WPF/WinUI .xaml): the UI framework's build compiles it, and its
output is not indexed, so what only XAML names has no reference. On AvaloniaUI/Avalonia.Samples symbols_unused said
unused every view's code-behind class (named by `x:Class`), handlers (`Click="cmdClose_Click"`), an attached
property's accessors (`DialogManager.SetRegister`), a static class XAML reads with `{x:Static ...}` and enum members
named by an `x:Key`. Names, not bindings (query/markup.py): those are left out as `markup` and refs_find and
graph_callers say where XAML names them; what no XAML names stays unused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

VIEWS = "src/Xaml.App/Views"


@pytest.fixture(scope="module")
def xaml(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Xaml", tmp_path_factory, home, exit_code=2)  # Xaml.Fs, an F# project: not indexed


def test_what_only_xaml_names_is_left_out_as_markup(xaml: McpServerProcess) -> None:
    env = xaml.call("symbols_unused", {})
    assert env["ok"], env
    # The counterpart of each rule that no XAML names.
    assert [u["symbol_id"] for u in env["data"]["unused"]] == [
        "P:Xaml.App.Controls.Badge.Shade",
        "M:Xaml.App.Controls.Layout.GetSpan(System.Object)",
        "M:Xaml.App.Controls.Layout.SetSpan(System.Object,System.Int32)",
        "P:Xaml.App.Controls.GlyphExtension.Kind", "F:Xaml.App.Controls.GlyphKind.Heart",
        "M:Xaml.App.Converters.Converters.Unnamed",
        "P:Xaml.App.ViewModels.MainViewModel.Unbound", "P:Xaml.App.ViewModels.Order.Tax",
        "P:Xaml.App.ViewModels.ShapeOption.Hint", "F:Xaml.App.ViewModels.ShapeKind.Square",
        "M:Xaml.App.ViewModels.SettingsViewModel.Discard",
        "M:Xaml.App.Views.MainWindow.OnHelpClick(System.Object,System.EventArgs)",
        "T:Xaml.App.Views.OrphanView"]
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        "entry_point": 2,  # Program.Main and its class
        "constructed": 1,  # GlyphExtension's constructor: XAML names its type
        # x:Class: MainWindow, SettingsPage; element and DataType types: Badge, ShapeKind, MainViewModel; the
        # owners of attached properties and of {x:Static}: Layout, Tips, DialogHost, Converters; GlyphExtension,
        # written `{local:Glyph Star}` (10 types; Order is referenced).
        # Binding paths: Title, Order, Total, Items, Greeting, Farewell, Caption ($parent[Window].DataContext.Caption),
        # Status, Options, Note (#badge.Note), Accent (TemplateBinding), ViewModel and Save (x:Bind); Converters.
        # StatusToBrush (x:Static); Label and Code (DisplayMemberPath, SelectedValuePath); Level (an attribute);
        # handlers OnCloseClick, OnPageLoaded; ShapeKind.Circle (x:Key) and .Triangle (element text); the accessors
        # of DialogHost.Register and Layout.Column (attributes), Layout.Row (a setter) and Tips.Tip (a property
        # element): 8; GlyphKind.Star, a markup extension's argument (30 members).
        "markup": 40}
    assert env["data"]["excluded"]["markup"]["rule"] == (
        "named in Razor or XAML markup (.cshtml, .razor, .xaml, .axaml), whose compiled code is not indexed")


def test_refs_and_callers_say_where_xaml_names_a_member(xaml: McpServerProcess) -> None:
    handler = xaml.call("refs_find", {"symbol_id": "M:Xaml.App.Views.MainWindow.OnCloseClick(System.Object,"
                                                   "System.EventArgs)"})
    assert handler["data"]["references"] == []
    assert handler["warnings"] == [
        f"XAML markup names 'OnCloseClick' on 1 line ({VIEWS}/MainWindow.axaml:27): markup is compiled by its UI "
        "framework's XAML build, which is not indexed, so uses there are not listed; read those lines."]
    accessor = xaml.call("graph_callers", {"symbol_id": "M:Xaml.App.Services.DialogHost.SetRegister(System.Object,"
                                                        "System.Object)"})
    assert accessor["ok"], accessor
    assert f"XAML markup names 'SetRegister' on 1 line ({VIEWS}/MainWindow.axaml:9): markup is compiled by its UI " \
           "framework's XAML build, which is not indexed, so uses there are not listed; read those lines." \
        in accessor["warnings"]
    path = xaml.call("refs_find", {"symbol_id": "P:Xaml.App.ViewModels.Order.Total"})
    assert [w for w in path["warnings"] if w.startswith("XAML")] == [
        f"XAML markup names 'Total' on 1 line ({VIEWS}/MainWindow.axaml:15): markup is compiled by its UI "
        "framework's XAML build, which is not indexed, so uses there are not listed; read those lines."]
    # A type: wherever its name appears, in both kinds of XAML file.
    badge = xaml.call("refs_find", {"symbol_id": "T:Xaml.App.Controls.Badge"})
    assert [w for w in badge["warnings"] if w.startswith("XAML")] == [
        f"XAML markup names 'Badge' on 3 lines ({VIEWS}/MainWindow.axaml:21, {VIEWS}/SettingsPage.xaml:7, "
        f"{VIEWS}/SettingsPage.xaml:11): markup is compiled by its UI framework's XAML build, which is not indexed, "
        "so uses there are not listed; read those lines."]
    # A markup extension's class, which XAML names without its suffix.
    extension = xaml.call("refs_find", {"symbol_id": "T:Xaml.App.Controls.GlyphExtension"})
    assert [w for w in extension["warnings"] if w.startswith("XAML")] == [
        f"XAML markup names 'GlyphExtension' on 1 line ({VIEWS}/SettingsPage.xaml:22): markup is compiled by its UI "
        "framework's XAML build, which is not indexed, so uses there are not listed; read those lines."]
    # What no XAML names gets no warning.
    unnamed = xaml.call("refs_find", {"symbol_id": "M:Xaml.App.Views.MainWindow.OnHelpClick(System.Object,"
                                                   "System.EventArgs)"})
    assert unnamed["ok"] and "warnings" not in unnamed, unnamed


def test_an_fsharp_project_is_said_not_indexed_not_broken(xaml: McpServerProcess) -> None:
    """Avalonia.Samples' F# MusicStore was told "The project file could not be loaded (see load_errors); restore
    cannot fix a project file: fix it": nothing is wrong with it; roslynmap indexes C# projects."""
    env = xaml.call("index_ensure_baseline", {})
    [fsharp] = [p for p in env["data"]["projects"] if p["name"] == "Xaml.Fs"]
    assert (fsharp["semantic_level"], fsharp["level_reason"], fsharp["hint"]) == (
        "syntax_only", "F# project: not indexed (roslynmap indexes C# projects)",
        "F# project: not indexed (roslynmap indexes C# projects); restoring or fixing it changes nothing here, and "
        "C# code only it calls has no reference.")
