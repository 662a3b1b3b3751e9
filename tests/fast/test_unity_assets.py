"""What a Unity project's assets say about its scripts (roslyn/unity_assets.py): pure file system, over
testdata/Unity and files written here (a binary asset, a Git LFS pointer, a JSON settings asset, Library/, build
output, a binary LightingData.asset)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from roslynmap.model.unity_files import is_skipped_folder, may_attach
from roslynmap.query.unity import AssetScan
from roslynmap.roslyn.unity_assets import asset_facts

from tests.repos import TESTDATA

UNITY_PROJECTS = [{"name": "Assembly-CSharp", "path": "Assets/"}]


def facts_of(root: Path) -> list[tuple[str, str, dict[str, object]]]:
    return [(f.kind, f.key, json.loads(f.detail)) for f in asset_facts(root, UNITY_PROJECTS)]


def test_the_fixture_attaches_four_scripts_and_wires_three_methods() -> None:
    assert facts_of(TESTDATA / "Unity") == [
        ("UnityScript", "Assets/AndroidBackButton.cs", {"guid": "1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d"}),
        ("UnityScript", "Assets/Bootstrap.cs", {"guid": "9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c"}),
        ("UnityScript", "Assets/MainMenu.cs", {"guid": "4a1b2c3d4e5f60718293a4b5c6d7e8f9"}),
        ("UnityScript", "Assets/Scripts/Gameplay/PlayerAnimation.cs", {"guid": "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"}),
        ("UnityScript", "Assets/Scripts/Gameplay/Sentry.Network.cs", {"guid": "2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e"}),
        ("UnityScript", "Assets/Scripts/Gameplay/Sentry.cs", {"guid": "8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b"}),
        ("UnityScript", "Assets/Scripts/Gameplay/Turret.cs", {"guid": "5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d"}),
        ("UnityScript", "Assets/Scripts/Gameplay/WeaponData.cs", {"guid": "6e6e6e6e6e6e6e6e6e6e6e6e6e6e6e6e"}),
        ("UnityScript", "Assets/Wall.cs", {"guid": "7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a"}),
        # Menu.prefab's third component is a package's script: no .cs.meta of the repository has its guid (counted in
        # unresolved_guids)
        ("UnityScriptUse", "Assets/Scripts/Gameplay/PlayerAnimation.cs",
         {"asset": "Assets/Prefabs/Menu.prefab", "count": 2}),
        ("UnityScriptUse", "Assets/Scripts/Gameplay/Sentry.cs", {"asset": "Assets/Prefabs/Sentry.prefab", "count": 1}),
        # a folder named Build under Assets/ is the game's own: read (only the one beside Assets/ is build output)
        ("UnityScriptUse", "Assets/Wall.cs", {"asset": "Assets/Prefabs/Build/Wall.prefab", "count": 1}),
        ("UnityScriptUse", "Assets/MainMenu.cs", {"asset": "Assets/Scenes/Main.unity", "count": 1}),
        # an animation event, a prefab instance's override of m_MethodName (propertyPath, then value), a UnityEvent
        ("UnityEventName", "OnFootstep", {"asset": "Assets/Animations/Walk.anim"}),
        ("UnityEventName", "OnMenuOpened", {"asset": "Assets/Prefabs/Menu.prefab"}),
        ("UnityEventName", "OnStartClicked", {"asset": "Assets/Scenes/Main.unity"}),
        ("UnityAssetScan", "assets", {"text": 5, "binary": [], "binary_count": 0, "lfs": [], "lfs_count": 0,
                                      "unreadable": [], "unresolved_guids": 1, "attaching": [],
                                      "attaching_count": 0}),
    ]


def test_assets_not_read_are_counted_and_named(tmp_path: Path) -> None:
    root = tmp_path / "Unity"
    shutil.copytree(TESTDATA / "Unity", root)
    (root / "Assets/Scenes/Arena.unity").write_bytes(b"\x00\x00\x00\x00\x01\x02binary serialization")
    (root / "Assets/Scenes/Boss.unity").write_text(
        "version https://git-lfs.github.com/spec/v1\noid sha256:3a00\nsize 427987\n")
    (root / "Assets/XRSettings.asset").write_text('{"m_SettingKeys": []}')  # JSON: no Unity YAML, not counted
    # Library/ is Unity's cache: never read, whatever it holds
    (root / "Library").mkdir()
    (root / "Library/Cached.prefab").write_bytes(b"\x00binary")
    # Build output beside Assets/ is not read either; one below Assets/ is (Assets/Prefabs/Build/Wall.prefab)
    (root / "Build").mkdir()
    (root / "Build/Player.prefab").write_bytes(b"\x00binary")
    # Unity writes baked lighting in binary even under Force Text, and an animation attaches no script: both are not
    # read, but neither can hide a component
    (root / "Assets/Scenes/Main").mkdir()
    (root / "Assets/Scenes/Main/LightingData.asset").write_bytes(b"\x00\x01lighting")
    (root / "Assets/Animations/Run.anim").write_bytes(b"\x00\x01clip")
    # a model's import settings carry its clips' animation events
    (root / "Assets/Animations/Hero.fbx.meta").write_text(
        "fileFormatVersion: 2\nguid: 1111\nModelImporter:\n  animations:\n    events:\n    - functionName: OnLand\n")
    facts = facts_of(root)
    assert ("UnityEventName", "OnLand", {"asset": "Assets/Animations/Hero.fbx.meta"}) in facts
    assert facts[-1] == ("UnityAssetScan", "assets", {
        "text": 6, "binary": ["Assets/Scenes/Arena.unity", "Assets/Animations/Run.anim",
                              "Assets/Scenes/Main/LightingData.asset"], "binary_count": 3,
        "lfs": ["Assets/Scenes/Boss.unity"], "lfs_count": 1, "unreadable": [], "unresolved_guids": 1,
        "attaching": ["Assets/Scenes/Arena.unity", "Assets/Scenes/Boss.unity"], "attaching_count": 2})


def test_build_output_is_skipped_beside_assets_only() -> None:
    assert [is_skipped_folder(name, parents) for name, parents in (
        ("Library", ()), ("Build", ()), ("obj", ("Game",)), ("Temp", ("Game",)),
        ("Build", ("Assets", "Prefabs")), ("bin", ("Assets",)), ("Logs", ("Packages", "com.game.utils")),
        (".git", ()), ("Samples~", ("Assets",)), ("CVS", ("Assets", "Art")))] == [
        True, True, True, True, False, False, False, True, True, True]


def test_only_assets_that_can_attach_a_script_hide_attachments() -> None:
    assert [may_attach(path) for path in (
        "Assets/Scenes/Main.unity", "Assets/Prefabs/Wall.prefab", "Assets/Data/Sword.asset",
        "Assets/Scenes/Main/LightingData.asset", "Assets/Anim/Player.controller", "Assets/Timeline/Intro.playable",
        "Assets/Anim/Run.anim", "Assets/Audio/Main.mixer", "Assets/Timeline/Hit.signal")] == [
        True, True, True, False, True, True, False, False, False]
    read = AssetScan(6, ["Assets/Scenes/Main/LightingData.asset", "Assets/Anim/Run.anim"], 2, [], 0, [], 0, [], 0)
    assert (read.not_read, read.unseen) == (2, 0)
    assert read.unseen_said() == ("2 binary assets: Assets/Scenes/Main/LightingData.asset, Assets/Anim/Run.anim; "
                                  "none of these can attach a script")
    mixed = AssetScan(6, ["Assets/Scenes/Arena.unity", "Assets/Scenes/Main/LightingData.asset"], 2, [], 0, [], 0,
                      ["Assets/Scenes/Arena.unity"], 1)
    assert (mixed.not_read, mixed.unseen) == (2, 1)
    assert mixed.unseen_said() == ("2 binary assets: Assets/Scenes/Arena.unity, Assets/Scenes/Main/LightingData.asset; "
                                   "of these, 1 can attach a script: Assets/Scenes/Arena.unity")
    # A baseline from before the two were told apart: every asset not read counts
    assert AssetScan(6, ["Assets/Scenes/Main/LightingData.asset"], 1, [], 0, [], 0).unseen == 1


def test_a_project_that_is_no_unity_project_has_no_asset_facts() -> None:
    assert asset_facts(TESTDATA / "Unity", [{"name": "Api", "path": "src/Api/Api.csproj"}]) == []
