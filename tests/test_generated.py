"""testdata/Generated: code only source generators' output uses (AvaloniaUI/Avalonia.Samples). The walk covers a
project's documents, not what generators add to its compilation, so an `[ObservableProperty]` field (the generated
property reads and writes it), its `partial void On{Prop}Changed` hook (the generated setter calls it), a
`[RelayCommand]` method (the generated command calls it) and an internal member a `[JsonSerializable]` context
serializes were "unused", and graph_callers answered a bare 0. The bridge records each use as a GeneratedUse fact."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import serving
from tests.mcp_client import McpServerProcess

APP = "Generated.App."
MVVM = "CommunityToolkit.Mvvm.SourceGenerators."
JSON = "System.Text.Json.SourceGeneration.JsonSourceGenerator"
SAVE = f"M:{APP}EditorViewModel.Save"


@pytest.fixture(scope="module")
def generated(generated_repo: Path, home: Path) -> Iterator[McpServerProcess]:
    yield from serving(generated_repo, home)


def _baseline(home: Path) -> Path:
    return next(home.glob("repos/*generated*/baselines/*.db"))


def test_generated_uses_are_facts_of_the_used_symbols(generated: McpServerProcess, home: Path) -> None:
    conn = sqlite3.connect(_baseline(home))
    rows = conn.execute("SELECT x.symbol_id, x.key, f.path, x.line, x.detail FROM facts x JOIN files f"
                        " ON f.id = x.file_id WHERE x.kind = 'GeneratedUse'").fetchall()
    conn.close()
    facts = sorted((sid, key, path, line, json.loads(detail)["from"]) for sid, key, path, line, detail in rows)
    model, order = "src/Generated.App/EditorViewModel.cs", "src/Generated.App/Order.cs"
    orphan = "src/Generated.App/OrphanViewModel.cs"
    context = f"{APP}OrderContext."
    assert facts == [
        (f"F:{APP}EditorViewModel._title", f"{MVVM}ObservablePropertyGenerator", model, 10,
         f"P:{APP}EditorViewModel.Title"),
        (f"F:{APP}OrphanViewModel._name", f"{MVVM}ObservablePropertyGenerator", orphan, 11,
         f"P:{APP}OrphanViewModel.Name"),
        (f"M:{APP}EditorViewModel.OnTitleChanged(System.String)", f"{MVVM}ObservablePropertyGenerator", model, 15,
         f"P:{APP}EditorViewModel.Title"),
        (SAVE, f"{MVVM}RelayCommandGenerator", model, 19, f"P:{APP}EditorViewModel.SaveCommand"),
        (f"M:{APP}OrphanViewModel.Go", f"{MVVM}RelayCommandGenerator", orphan, 14, f"P:{APP}OrphanViewModel.GoCommand"),
        (f"P:{APP}Order.Id", JSON, order, 7, f"M:{context}OrderPropInit(System.Text.Json.JsonSerializerOptions)"),
        (f"P:{APP}Order.Id", JSON, order, 7,
         f"M:{context}OrderSerializeHandler(System.Text.Json.Utf8JsonWriter,Generated.App.Order)"),
        (f"P:{APP}Order.Note", JSON, order, 11, f"M:{context}OrderPropInit(System.Text.Json.JsonSerializerOptions)"),
        (f"P:{APP}Order.Note", JSON, order, 11,
         f"M:{context}OrderSerializeHandler(System.Text.Json.Utf8JsonWriter,Generated.App.Order)"),
        (f"T:{APP}Order", JSON, order, 5, f"M:{context}Create_Order(System.Text.Json.JsonSerializerOptions)"),
        (f"T:{APP}Order", JSON, order, 5, f"M:{context}OrderPropInit(System.Text.Json.JsonSerializerOptions)"),
        (f"T:{APP}Order", JSON, order, 5,
         f"M:{context}OrderSerializeHandler(System.Text.Json.Utf8JsonWriter,Generated.App.Order)"),
        (f"T:{APP}Order", JSON, order, 5, f"M:{context}global::System#Text#Json#Serialization#Metadata#"
                                          "IJsonTypeInfoResolver#GetTypeInfo(System.Type,System.Text.Json.JsonSerializerOptions)"),
        (f"T:{APP}Order", JSON, order, 5, f"P:{context}Order"),
        (f"T:{APP}Order", JSON, order, 5, f"T:{APP}OrderContext")]


def test_symbols_generated_code_uses_are_not_unused(generated: McpServerProcess) -> None:
    env = generated.call("symbols_unused", {})
    assert env["ok"], env
    # OrphanViewModel, which nothing names, is dead whole: its own generated part naming its members keeps none alive.
    assert [u["symbol_id"] for u in env["data"]["unused"]] == [
        f"M:{APP}EditorViewModel.Forgotten", f"T:{APP}OrphanViewModel"]
    excluded = env["data"]["excluded"]
    assert {k: v["count"] for k, v in excluded.items()} == {"entry_point": 1, "generated_code": 6}
    # _title and OnTitleChanged, Save, Order.Note (internal: no serialization rule covers it); the orphan's _name, Go.
    assert excluded["generated_code"]["generators"] == {
        "JsonSourceGenerator": 1, "ObservablePropertyGenerator": 3, "RelayCommandGenerator": 2}
    assert excluded["generated_code"]["rule"].startswith(
        "referenced by a source generator's output, which is not indexed")


def test_graph_callers_names_the_generated_command(generated: McpServerProcess) -> None:
    env = generated.call("graph_callers", {"symbol_id": SAVE})
    assert env["ok"], env
    assert env["answer"] == ("0 bound callers of Generated.App.EditorViewModel.Save within depth 1 + 1 use in"
                             " source-generated code (SaveCommand (RelayCommandGenerator)).")
    assert env["data"]["generated_uses"] == [{"generator": f"{MVVM}RelayCommandGenerator",
                                              "hint_name": "Generated.App.EditorViewModel.Save.g.cs",
                                              "from": f"P:{APP}EditorViewModel.SaveCommand"}]
    assert env["warnings"] == [
        "Source-generated code uses Save from 1 generated member: SaveCommand (RelayCommandGenerator). Generated code"
        " is not indexed, so these uses are not listed as references; `generated_uses` names them (and the markup"
        " line when the generator maps one)."]
    assert "guidance" not in env  # no "No callers in the indexed solution"


def test_refs_find_names_the_generated_property(generated: McpServerProcess) -> None:
    env = generated.call("refs_find", {"symbol_id": f"F:{APP}EditorViewModel._title"})
    assert env["ok"], env
    assert env["answer"] == ("0 references to Generated.App.EditorViewModel._title, + 1 use in source-generated code"
                             " (Title (ObservablePropertyGenerator)).")
    assert [u["from"] for u in env["data"]["generated_uses"]] == [f"P:{APP}EditorViewModel.Title"]
    assert "guidance" not in env


def test_an_overlay_keeps_the_baselines_generated_uses(generated: McpServerProcess, generated_repo: Path) -> None:
    """The facts are the project's generated code's, computed by full indexes only: editing the file declaring `_title`
    (the overlay replaces its rows) must not make it "unused" in the workspace."""
    model = generated_repo / "src" / "Generated.App" / "EditorViewModel.cs"
    original = model.read_text()
    assert generated.call("workspace_create", {"workspace_id": "edit"})["ok"]
    try:
        model.write_text(original.replace("    // Dead: nothing calls it", "    // Dead (still): nothing calls it"))
        refreshed = generated.call("index_refresh_overlay", {"workspace_id": "edit"})
        assert refreshed["data"]["extracted"] == ["src/Generated.App/EditorViewModel.cs"], refreshed
        env = generated.call("symbols_unused", {"workspace_id": "edit"})
        assert [u["symbol_id"] for u in env["data"]["unused"]] == [
            f"M:{APP}EditorViewModel.Forgotten", f"T:{APP}OrphanViewModel"]
        assert env["data"]["excluded"]["generated_code"]["count"] == 6
    finally:
        model.write_text(original)


def test_impact_walks_on_from_the_generated_command_to_its_callers(generated: McpServerProcess) -> None:
    """impact_analyze of a `[RelayCommand]` method stopped at 0 callers: the generated SaveCommand calls it, and the
    code running the command calls SaveCommand."""
    env = generated.call("impact_analyze", {"symbol_id": SAVE})
    assert env["ok"], env
    assert env["answer"] == ("Changing Generated.App.EditorViewModel.Save touches 2 callers (1 in source-generated"
                             " code) within depth 4, 0 references in 0 files, 2 files of 1 project in all; 0 endpoints"
                             " and 0 tests reach it.")
    assert env["data"]["callers"] == [
        {"symbol_id": f"P:{APP}EditorViewModel.SaveCommand", "depth": 1, "file": None, "line": None,
         "through": "generated", "generator": "RelayCommandGenerator"},
        {"symbol_id": "M:Program.<Main>$(System.String[])", "depth": 2, "file": "src/Generated.App/Program.cs",
         "line": 4, "calls": f"P:{APP}EditorViewModel.SaveCommand"}]


def test_trace_goes_on_through_generated_members_into_the_methods_they_run(generated: McpServerProcess) -> None:
    """`editor.Title = ...` runs the generated setter, which calls OnTitleChanged; `editor.SaveCommand.Execute(..)`
    runs Save. The trace listed neither (SaveCommand and Title are not indexed)."""
    env = generated.call("graph_trace_feature", {"entry_point": "M:Program.<Main>$(System.String[])"})
    assert env["ok"], env
    assert [(n["symbol_id"], n["from"]) for n in env["data"]["nodes"]] == [
        (f"P:{APP}Order.Id", {"from": "M:Program.<Main>$(System.String[])", "kind": "Write"}),
        (f"M:{APP}EditorViewModel.OnTitleChanged(System.String)",
         {"from": "M:Program.<Main>$(System.String[])", "kind": "Generated", "via": f"P:{APP}EditorViewModel.Title"}),
        (SAVE, {"from": "M:Program.<Main>$(System.String[])", "kind": "Generated",
                "via": f"P:{APP}EditorViewModel.SaveCommand"})]
    assert all(not n["facts"] for n in env["data"]["nodes"])  # a GeneratedUse is said by its edge
