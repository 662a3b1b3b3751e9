"""Unity projects found and their assemblies read off the layout (roslyn/discovery.py, roslyn/unity.py): pure file
system, over testdata/Unity and small trees written here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.roslyn.discovery import find_solution, other_candidates
from roslynmap.roslyn.unity import define_symbols, in_range, is_unity_marker, layout

from tests.repos import TESTDATA

MARKER = "ProjectSettings/ProjectVersion.txt"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = tmp_path / "Unity"
    shutil.copytree(TESTDATA / "Unity", root)
    return root


def test_the_unity_project_wins_over_an_unrelated_tool_project(game: Path) -> None:
    found = find_solution(game)
    assert found == game / MARKER and is_unity_marker(MARKER)
    assert other_candidates(game, found) == ["tools/Build/Build.csproj"]
    # solution_path still wins; the marker may be asked for too.
    assert find_solution(game, "tools/Build/Build.csproj") == game / "tools/Build/Build.csproj"
    assert find_solution(game, MARKER) == game / MARKER


def test_unitys_own_generated_solution_is_preferred_when_its_projects_are_there(game: Path) -> None:
    (game / "Unity.sln").write_text("")
    assert find_solution(game) == game / MARKER  # a committed .sln whose generated projects git ignored: not it
    (game / "Assembly-CSharp.csproj").write_text("<Project />")
    assert find_solution(game) == game / "Unity.sln"


def test_a_solution_above_a_nested_unity_project_is_the_repositorys(tmp_path: Path) -> None:
    """MessagePack-CSharp: MessagePack.sln at the root, its Unity client under src/: the client is one part of the
    repository, not the whole (a review finding: the Unity marker won, and only the client was indexed)."""
    (tmp_path / "src" / "Lib").mkdir(parents=True)
    (tmp_path / "src" / "Lib" / "Lib.csproj").write_text("<Project />")
    (tmp_path / "Repo.sln").write_text("")
    client = tmp_path / "src" / "UnityClient"
    (client / "Assets").mkdir(parents=True)
    (client / "ProjectSettings").mkdir()
    (client / MARKER).write_text("m_EditorVersion: 2022.3.10f1\n")
    assert find_solution(tmp_path) == tmp_path / "Repo.sln"
    assert find_solution(tmp_path, f"src/UnityClient/{MARKER}") == client / MARKER


def test_two_unity_projects_at_one_depth_are_not_guessed(tmp_path: Path) -> None:
    for name in ("Client", "Tools"):
        shutil.copytree(TESTDATA / "Unity", tmp_path / name)
    with pytest.raises(RoslynMapError) as err:
        find_solution(tmp_path)
    assert err.value.code == ErrorCode.AMBIGUOUS
    assert err.value.message == "2 Unity projects sit at the same depth; roslynmap will not guess."


def test_the_assemblies_of_the_layout(game: Path) -> None:
    spec = layout(game, MARKER)
    assert spec["unity_version"] == "2022.3"
    assert [(p["name"], p["path"], p["files"], p["references"], p["missing"], p["editor"])
            for p in spec["projects"]] == [
        ("Game.Core", "Assets/Scripts/Core/Game.Core.asmdef",
         ["Assets/Scripts/Core/Damage.cs", "Assets/Scripts/Core/Health.cs"], ["Game.Utils"], [], False),
        ("Game.Gameplay", "Assets/Scripts/Gameplay/Game.Gameplay.asmdef",
         ["Assets/Scripts/Gameplay/Hud.cs", "Assets/Scripts/Gameplay/Loadout.cs", "Assets/Scripts/Gameplay/Player.cs",
          "Assets/Scripts/Gameplay/PlayerAnimation.cs", "Assets/Scripts/Gameplay/Sentry.Network.cs",
          "Assets/Scripts/Gameplay/Sentry.cs", "Assets/Scripts/Gameplay/Turret.cs",
          "Assets/Scripts/Gameplay/WeaponData.cs"], ["Game.Core"], ["Unity.Netcode.Runtime"], False),
        ("Game.Gameplay.Editor", "Assets/Scripts/Gameplay/Editor/Game.Gameplay.Editor.asmdef",
         ["Assets/Scripts/Gameplay/Editor/PlayerInspector.cs"], ["Game.Gameplay"], [], True),
        ("Game.Utils", "Packages/com.game.utils/Runtime/Game.Utils.asmdef",
         ["Packages/com.game.utils/Runtime/MathUtil.cs"], [], [], False),
        ("Assembly-CSharp-firstpass", "Assets/Plugins/", ["Assets/Plugins/VendorLib.cs"],
         ["Game.Core", "Game.Gameplay", "Game.Utils"], [], False),
        ("Assembly-CSharp", "Assets/", ["Assets/AndroidBackButton.cs", "Assets/Bootstrap.cs", "Assets/MainMenu.cs",
                                        "Assets/SceneLinks.cs", "Assets/Wall.cs"],
         ["Assembly-CSharp-firstpass", "Game.Core", "Game.Gameplay", "Game.Utils"], [], False),
        ("Assembly-CSharp-Editor", "Assets/**/Editor/", ["Assets/Editor/MenuTools.cs"],
         ["Assembly-CSharp", "Assembly-CSharp-firstpass", "Game.Core", "Game.Gameplay", "Game.Gameplay.Editor",
          "Game.Utils"], [], True),
    ]
    assert [p["defines"] for p in spec["projects"]] == [[], ["HAS_GAME_UTILS"], [], [], [], [], []]
    assert spec["notes"] == [
        "1 script(s) under Packages/ belong to no .asmdef: Unity does not compile them, and they are not indexed"]


def test_a_folder_named_like_build_output_below_assets_is_the_games(game: Path) -> None:
    """Unity compiles `Assets/Scripts/Logs/` and `Assets/bin/`: only hidden, `~` and cvs folders are skipped there (the
    layout skipped logs/, temp/, bin/ and obj/ at every depth, losing the game's scripts in them)."""
    for folder in ("Logs", "bin", ".hidden", "Samples~", "CVS"):
        (game / "Assets" / folder).mkdir(exist_ok=True)
        (game / "Assets" / folder / f"In{folder.strip('.~').title()}.cs").write_text("class X {}")
    (game / "Library").mkdir(exist_ok=True)
    (game / "Library" / "Cached.cs").write_text("class Cached {}")
    main = next(p for p in layout(game, MARKER)["projects"] if p["name"] == "Assembly-CSharp")
    assert main["files"] == ["Assets/AndroidBackButton.cs", "Assets/Bootstrap.cs", "Assets/MainMenu.cs",
                             "Assets/SceneLinks.cs", "Assets/Wall.cs", "Assets/Logs/InLogs.cs", "Assets/bin/InBin.cs"]


def test_an_asmref_lends_its_folder_to_another_assembly(game: Path) -> None:
    shared = game / "Assets" / "Shared"
    shared.mkdir()
    (shared / "Shared.asmref").write_text('{"reference": "GUID:0f1e2d3c4b5a69788796a5b4c3d2e1f0"}')
    (shared / "Extra.cs").write_text("class Extra {}")
    core = next(p for p in layout(game, MARKER)["projects"] if p["name"] == "Game.Core")
    assert core["files"] == ["Assets/Scripts/Core/Damage.cs", "Assets/Scripts/Core/Health.cs",
                             "Assets/Shared/Extra.cs"]


def test_define_symbols_follow_the_editor_version() -> None:
    assert define_symbols((2019, 2))[3:] == [
        "UNITY_5_3_OR_NEWER", "UNITY_5_4_OR_NEWER", "UNITY_5_5_OR_NEWER", "UNITY_5_6_OR_NEWER",
        "UNITY_2017_1_OR_NEWER", "UNITY_2017_2_OR_NEWER", "UNITY_2017_3_OR_NEWER", "UNITY_2017_4_OR_NEWER",
        "UNITY_2018_1_OR_NEWER", "UNITY_2018_2_OR_NEWER", "UNITY_2018_3_OR_NEWER", "UNITY_2018_4_OR_NEWER",
        "UNITY_2019_1_OR_NEWER", "UNITY_2019_2_OR_NEWER", "UNITY_2019", "UNITY_2019_2"]
    six = define_symbols((6000, 1))
    assert six[:3] == ["UNITY_EDITOR", "DEBUG", "TRACE"]
    assert six[-6:] == ["UNITY_2023_2_OR_NEWER", "UNITY_2023_3_OR_NEWER", "UNITY_6000_0_OR_NEWER",
                        "UNITY_6000_1_OR_NEWER", "UNITY_6000", "UNITY_6000_1"]


@pytest.mark.parametrize(("version", "expression", "holds"), [
    ("2.4.3", "[1.5.2,1.6.0]", False), ("1.5.2", "[1.5.2,1.6.0]", True), ("1.6.0", "[1.5.2,1.6.0)", False),
    ("1.0.0", "1.0", True), ("0.9.9", "1.0", False), ("1.7.1", "(1.5,)", True), ("1.5.0", "(1.5,)", False),
    ("2.0.0-pre.3", "[2.0.0]", True), ("2022.3", "[2021.3,2023.1)", True)])
def test_version_define_expressions(version: str, expression: str, holds: bool) -> None:
    assert in_range(version, expression) is holds


def test_assembly_definitions_referencing_each_other_in_a_cycle_lose_the_closing_reference(game: Path) -> None:
    """Unity refuses a cycle, and a workspace holding one would never finish binding: the reference closing it is left
    out, and said (a review finding: the bridge relied on the workspace to refuse it, which it does not)."""
    core = game / "Assets" / "Scripts" / "Core" / "Game.Core.asmdef"
    core.write_text(core.read_text().replace('"Game.Utils"', '"Game.Utils", "Game.Gameplay"'))
    spec = layout(game, MARKER)
    references = {p["name"]: p["references"] for p in spec["projects"]}
    assert (references["Game.Core"], references["Game.Gameplay"]) == (["Game.Utils"], ["Game.Core"])
    assert spec["notes"][-1] == ("Assets/Scripts/Core/Game.Core.asmdef: its reference to Game.Gameplay closes a cycle "
                                 "(Unity refuses one): left out")


def test_a_guid_reference_to_an_assembly_definition_without_its_meta_file_is_said(game: Path) -> None:
    """A GUID reference resolves through the referenced .asmdef's .meta file: without it the reference read as an
    assembly missing from the repository, with nothing said (a review finding)."""
    meta = next((game / "Assets").rglob("*.asmdef.meta"))
    meta.unlink()
    spec = layout(game, MARKER)
    missing = {p["name"]: p["missing"] for p in spec["projects"]}
    assert [m for ms in missing.values() for m in ms if m.startswith("GUID:")] != []
    assert spec["notes"][-1] == (
        "1 GUID reference(s) resolve to no assembly definition here; without the .meta file holding their guid: "
        "Assets/Scripts/Core/Game.Core.asmdef, Assets/Scripts/Gameplay/Game.Gameplay.asmdef, "
        "Assets/Scripts/Gameplay/Editor/Game.Gameplay.Editor.asmdef and 1 more, which may be the ones referenced")
    assert meta.name == "Game.Core.asmdef.meta"  # the fixture's one .meta: the others have none
