"""What a Unity project's assets say about its scripts (roslyn/unity_assets.py): pure file system, over
testdata/Unity and files written here (a binary asset, a Git LFS pointer, a JSON settings asset, Library/)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from roslynmap.roslyn.unity_assets import asset_facts

from tests.repos import TESTDATA

UNITY_PROJECTS = [{"name": "Assembly-CSharp", "path": "Assets/"}]


def facts_of(root: Path) -> list[tuple[str, str, dict[str, object]]]:
    return [(f.kind, f.key, json.loads(f.detail)) for f in asset_facts(root, UNITY_PROJECTS)]


def test_the_fixture_attaches_two_scripts_and_wires_three_methods() -> None:
    assert facts_of(TESTDATA / "Unity") == [
        ("UnityScript", "Assets/MainMenu.cs", {"guid": "4a1b2c3d4e5f60718293a4b5c6d7e8f9"}),
        ("UnityScript", "Assets/Scripts/Gameplay/PlayerAnimation.cs", {"guid": "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"}),
        ("UnityScript", "Assets/Scripts/Gameplay/Turret.cs", {"guid": "5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d"}),
        ("UnityScript", "Assets/Scripts/Gameplay/WeaponData.cs", {"guid": "6e6e6e6e6e6e6e6e6e6e6e6e6e6e6e6e"}),
        # Menu.prefab's third component is a package's script: no .cs.meta of the repository has its guid (counted in
        # unresolved_guids)
        ("UnityScriptUse", "Assets/Scripts/Gameplay/PlayerAnimation.cs",
         {"asset": "Assets/Prefabs/Menu.prefab", "count": 2}),
        ("UnityScriptUse", "Assets/MainMenu.cs", {"asset": "Assets/Scenes/Main.unity", "count": 1}),
        # an animation event, a prefab instance's override of m_MethodName (propertyPath, then value), a UnityEvent
        ("UnityEventName", "OnFootstep", {"asset": "Assets/Animations/Walk.anim"}),
        ("UnityEventName", "OnMenuOpened", {"asset": "Assets/Prefabs/Menu.prefab"}),
        ("UnityEventName", "OnStartClicked", {"asset": "Assets/Scenes/Main.unity"}),
        ("UnityAssetScan", "assets", {"text": 3, "binary": [], "binary_count": 0, "lfs": [], "lfs_count": 0,
                                      "unreadable": [], "unresolved_guids": 1}),
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
    # a model's import settings carry its clips' animation events
    (root / "Assets/Animations/Hero.fbx.meta").write_text(
        "fileFormatVersion: 2\nguid: 1111\nModelImporter:\n  animations:\n    events:\n    - functionName: OnLand\n")
    facts = facts_of(root)
    assert ("UnityEventName", "OnLand", {"asset": "Assets/Animations/Hero.fbx.meta"}) in facts
    assert facts[-1] == ("UnityAssetScan", "assets", {
        "text": 4, "binary": ["Assets/Scenes/Arena.unity"], "binary_count": 1, "lfs": ["Assets/Scenes/Boss.unity"],
        "lfs_count": 1, "unreadable": [], "unresolved_guids": 1})


def test_a_project_that_is_no_unity_project_has_no_asset_facts() -> None:
    assert asset_facts(TESTDATA / "Unity", [{"name": "Api", "path": "src/Api/Api.csproj"}]) == []
