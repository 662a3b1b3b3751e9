"""A Unity project, which has no project files in its repository (testdata/Unity), over MCP stdio.

testdata/Unity is a Unity 2022.3 project (ProjectSettings/ProjectVersion.txt) with no Unity assemblies: Assets/ holds
two assembly definitions (Game.Core, with a .meta guid Game.Gameplay references it by; Game.Gameplay, with a nested
Editor-only Game.Gameplay.Editor), loose scripts (Assembly-CSharp), an Editor folder (Assembly-CSharp-Editor), Plugins
(Assembly-CSharp-firstpass), a `Samples~` folder Unity ignores, a scene wiring Player.OnStartClicked to a button, a
prefab instance overriding a button's method (PlayerAnimation.OnMenuOpened) and an animation event (OnFootstep);
Packages/ an embedded package with its own .asmdef and a script outside it. Wall is attached only by a prefab under
Assets/Prefabs/Build/, Sentry by its part without the base (Sentry.cs; `: NetworkBehaviour` in Sentry.Network.cs),
Bootstrap by nothing (its static [RuntimeInitializeOnLoadMethod] adds it), AndroidBackButton only in an
`#if UNITY_ANDROID` branch; SceneLinks is a plain static class with a method named like a wired one.
tools/Build/Build.csproj is an unrelated tool project (Boss Room's dotnet-tools trap): the Unity project is indexed,
not it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import indexed_copy, roslynmap, serving
from tests.mcp_client import McpServerProcess
from tests.repos import GIT_ENV, TESTDATA, make_repo

UNITY_NOTES = [
    "Unity project (editor 2022.3): 7 assemblies synthesized from its layout (each .asmdef; Assembly-CSharp, -Editor, "
    "-firstpass for other scripts under Assets/), no MSBuild; chosen over tools/Build/Build.csproj (solution_path "
    "indexes one instead)",
    "Unity's own assemblies (UnityEngine, UnityEditor, the packages in Library/PackageCache) are not available outside "
    "the Unity editor: their types are unbound, so the projects are partial; the game's own classes bind to each other "
    "and to the .NET reference assemblies (net10.0). Defined: UNITY_EDITOR and UNITY_<version>_OR_NEWER, no platform "
    "symbols",
    "To bind Unity's types too: open the project in Unity once (Assets > Open C# Project writes its .csproj and .sln "
    "files) and index that .sln (solution_path)",
    "1 script(s) under Packages/ belong to no .asmdef: Unity does not compile them, and they are not indexed",
]
HINT = ("Unity's own assemblies come with the Unity editor, not NuGet: open the project in Unity once (Assets > Open "
        "C# Project writes its .csproj and .sln files) and index that .sln (solution_path) to bind Unity's types; "
        "meanwhile calls among the game's own classes bind.")


@pytest.fixture(scope="module")
def unity_repo(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    # No dotnet restore: there is nothing it could restore (and the CLI does not try for a Unity project).
    return indexed_copy("Unity", tmp_path_factory.mktemp("repos") / "Unity", home, exit_code=2, restore=False)


@pytest.fixture(scope="module")
def unity(unity_repo: Path, home: Path) -> Iterator[McpServerProcess]:
    yield from serving(unity_repo, home)


def test_the_unity_project_is_indexed_not_the_tool_beside_it(unity: McpServerProcess) -> None:
    env = unity.call("index_ensure_baseline", {"token_budget": 8000})
    data = env["data"]
    assert data["solution"] == "ProjectSettings/ProjectVersion.txt"
    assert data["workspace_diagnostics"] == UNITY_NOTES
    # facts: the inactive `#if NETCODE_1_5` and `#if UNITY_ANDROID` branches; 9 scripts with a .cs.meta, 4
    # attachments (MainMenu in Main.unity, PlayerAnimation in Menu.prefab, Wall in Build/Wall.prefab, Sentry in
    # Sentry.prefab), 3 method names wired (OnStartClicked, OnMenuOpened, OnFootstep), the scan
    assert data["counts"] == {"symbols": 64, "references": 73, "files": 19, "unresolved_references": 47, "facts": 19,
                              "projects": 7}
    projects = data["projects"]
    assert [(p["name"], p["path"], p["semantic_level"], p["resolved_references"], p["unresolved_references"],
             p["missing_reference_errors"], p["target_framework"]) for p in projects] == [
        ("Game.Core", "Assets/Scripts/Core/Game.Core.asmdef", "partial", 9, 4, 5, "net10.0"),
        ("Game.Gameplay", "Assets/Scripts/Gameplay/Game.Gameplay.asmdef", "partial", 7, 22, 27, "net10.0"),
        ("Game.Gameplay.Editor", "Assets/Scripts/Gameplay/Editor/Game.Gameplay.Editor.asmdef", "partial", 1, 4, 4,
         "net10.0"),
        ("Game.Utils", "Packages/com.game.utils/Runtime/Game.Utils.asmdef", "full", 0, 0, 0, "net10.0"),
        ("Assembly-CSharp-firstpass", "Assets/Plugins/", "full", 0, 0, 0, "net10.0"),
        ("Assembly-CSharp", "Assets/", "partial", 7, 12, 13, "net10.0"),
        ("Assembly-CSharp-Editor", "Assets/**/Editor/", "partial", 2, 5, 4, "net10.0"),
    ]
    core = projects[0]
    assert core["level_reason"] == (
        "5 missing-reference errors: synthesized from Unity's layout; Unity's own assemblies (UnityEngine, "
        "UnityEditor, the packages in Library/PackageCache) are not available outside the Unity editor: their types "
        "are unbound")
    assert core["hint"] == HINT and core["restored"] is True
    assert projects[1]["load_errors"] == [
        "warning: references 1 assemblies that are not in the repository (Unity.Netcode.Runtime)"]
    assert projects[2]["load_errors"] == ["warning: Editor-only: Unity compiles it for the editor, not for players"]
    assert "hint" not in projects[3]


def test_each_script_goes_to_the_assembly_unity_compiles_it_into(unity: McpServerProcess) -> None:
    env = unity.call("symbols_search", {"kinds": ["Class", "Enum"], "limit": 50})
    assert sorted((r["symbol_id"], r["file"], r["project"]) for r in env["data"]["results"]) == [
        ("T:AndroidBackButton", "Assets/AndroidBackButton.cs", "Assembly-CSharp"),
        ("T:Bootstrap", "Assets/Bootstrap.cs", "Assembly-CSharp"),
        ("T:Game.Core.Damage", "Assets/Scripts/Core/Damage.cs", "Game.Core"),
        ("T:Game.Core.Health", "Assets/Scripts/Core/Health.cs", "Game.Core"),
        ("T:Game.Gameplay.Editor.PlayerInspector", "Assets/Scripts/Gameplay/Editor/PlayerInspector.cs",
         "Game.Gameplay.Editor"),
        ("T:Game.Gameplay.Hud", "Assets/Scripts/Gameplay/Hud.cs", "Game.Gameplay"),
        ("T:Game.Gameplay.Loadout", "Assets/Scripts/Gameplay/Loadout.cs", "Game.Gameplay"),
        ("T:Game.Gameplay.Player", "Assets/Scripts/Gameplay/Player.cs", "Game.Gameplay"),
        ("T:Game.Gameplay.PlayerAnimation", "Assets/Scripts/Gameplay/PlayerAnimation.cs", "Game.Gameplay"),
        ("T:Game.Gameplay.Sentry", "Assets/Scripts/Gameplay/Sentry.Network.cs", "Game.Gameplay"),
        ("T:Game.Gameplay.Stance", "Assets/Scripts/Gameplay/Loadout.cs", "Game.Gameplay"),
        ("T:Game.Gameplay.Turret", "Assets/Scripts/Gameplay/Turret.cs", "Game.Gameplay"),
        ("T:Game.Gameplay.WeaponData", "Assets/Scripts/Gameplay/WeaponData.cs", "Game.Gameplay"),
        ("T:MainMenu", "Assets/MainMenu.cs", "Assembly-CSharp"),
        ("T:MenuTools", "Assets/Editor/MenuTools.cs", "Assembly-CSharp-Editor"),
        ("T:SceneLinks", "Assets/SceneLinks.cs", "Assembly-CSharp"),
        ("T:ScoreKeeper", "Assets/MainMenu.cs", "Assembly-CSharp"),
        ("T:Utils.MathUtil", "Packages/com.game.utils/Runtime/MathUtil.cs", "Game.Utils"),
        ("T:VendorLib", "Assets/Plugins/VendorLib.cs", "Assembly-CSharp-firstpass"),
        ("T:Wall", "Assets/Wall.cs", "Assembly-CSharp"),
    ]
    # Assets/Samples~ (Unity ignores `~` folders) and Packages/com.game.utils/Loose.cs (no .asmdef) are not compiled.
    assert unity.call("symbols_search", {"query": "Sample"})["data"]["results"] == []
    assert unity.call("symbols_search", {"query": "Loose"})["data"]["results"] == []
    # Game.Gameplay's versionDefines: HAS_GAME_UTILS (the embedded com.game.utils 1.0.0 is "1.0" or newer) holds,
    # NETCODE_1_5 (netcode 1.7.1 is not in [1.5.2,1.6.0]) does not.
    starts = unity.call("symbols_search", {"query": "Start"})["data"]["results"]
    assert sorted(r["symbol_id"] for r in starts if r["name"] == "Start") == [
        "M:Game.Gameplay.PlayerAnimation.Start", "M:MainMenu.Start", "M:Wall.Start"]
    assert unity.call("symbols_search", {"query": "OldNetcode"})["data"]["results"] == []


def test_assemblies_reference_each_other_as_unity_links_them(unity: McpServerProcess) -> None:
    env = unity.call("projects_graph", {})
    assert {p["project"]: p["references"] for p in env["data"]["projects"]} == {
        "Assembly-CSharp": ["Assembly-CSharp-firstpass", "Game.Core", "Game.Gameplay", "Game.Utils"],
        # Every auto-referenced assembly, the Editor-only Game.Gameplay.Editor too.
        "Assembly-CSharp-Editor": ["Assembly-CSharp", "Assembly-CSharp-firstpass", "Game.Core", "Game.Gameplay",
                                   "Game.Gameplay.Editor", "Game.Utils"],
        "Assembly-CSharp-firstpass": ["Game.Core", "Game.Gameplay", "Game.Utils"],
        "Game.Core": ["Game.Utils"],
        "Game.Gameplay": ["Game.Core"],  # by "GUID:0f1e..." (Game.Core.asmdef.meta); Unity.Netcode.Runtime is missing
        "Game.Gameplay.Editor": ["Game.Gameplay"],
        "Game.Utils": [],
    }


def test_calls_between_the_games_own_classes_bind(unity: McpServerProcess) -> None:
    # Player (Game.Gameplay, a NetworkBehaviour) calls Health.TakeDamage (Game.Core, a MonoBehaviour) in an
    # `#if UNITY_2022_3_OR_NEWER` block: both bases unbound, the call bound.
    env = unity.call("graph_callers", {"symbol_id": "M:Game.Core.Health.TakeDamage(System.Int32)"})
    assert env["answer"] == "1 bound caller of Game.Core.Health.TakeDamage within depth 1."
    assert [(n["symbol_id"], n["file"], n["edges"][0]["line"]) for n in env["data"]["nodes"]] == [
        ("M:Game.Gameplay.Player.Update", "Assets/Scripts/Gameplay/Player.cs", 14)]
    env = unity.call("refs_find", {"symbol_id": "M:Utils.MathUtil.Clamp(System.Int32,System.Int32,System.Int32)"})
    assert [(r["file"], r["line"]) for r in env["data"]["references"]] == [("Assets/Scripts/Core/Damage.cs", 7)]


def test_unused_knows_what_unity_calls_and_sets(unity: McpServerProcess) -> None:
    env = unity.call("symbols_unused", {})
    # A plain class's `Reset` is no Unity message; NeverCalled and Unwired are named by nothing, not even the scene;
    # a [Serializable] class's private field is not serialized. Turret, a MonoBehaviour no scene or prefab attaches
    # (its guid, in Turret.cs.meta, is in none) and no code names, is unused with its Update, its fields and its Fire
    # (which would have been `unbound_base`): said once, by the class.
    assert [i["symbol_id"] for i in env["data"]["unused"]] == [
        "M:ScoreKeeper.Reset", "M:Game.Core.Health.NeverCalled", "F:Game.Gameplay.Loadout._spare",
        "M:Game.Gameplay.Player.Unwired", "T:Game.Gameplay.Turret"]
    excluded = env["data"]["excluded"]
    assert {k: v["count"] for k, v in excluded.items()} == {
        # [MenuItem] HealAll and its class MenuTools, [ServerRpc] FireServerRpc, PlayerAnimation's [Inject] _health,
        # Bootstrap's [RuntimeInitializeOnLoadMethod] Init
        "found_by_attribute": 5,
        "unbound_base": 1,  # Player.OnNetworkSpawn overrides NetworkBehaviour's
        # Player.OnStartClicked (the scene's m_MethodName), PlayerAnimation.OnMenuOpened (a prefab instance's override
        # of m_MethodName), PlayerAnimation.OnFootstep (Walk.anim's animation event); SceneLinks.OnStartClicked and
        # its class, by the name alone
        "unity_event": 5,
        # MainMenu.Start, Health.Awake, Player.Update, PlayerInspector.OnSceneGUI, PlayerAnimation.Start, Wall.Start,
        # Sentry.Update, Bootstrap.Awake, AndroidBackButton.Update
        "unity_message": 9,
        # MainMenu (Main.unity attaches it), PlayerAnimation (Menu.prefab, twice), Wall
        # (Assets/Prefabs/Build/Wall.prefab: a Build folder under Assets/ is read), Sentry (Sentry.prefab attaches
        # Sentry.cs, the part without its base), PlayerInspector (an Editor), WeaponData ([CreateAssetMenu], no asset
        # yet), Hud (no Hud.cs.meta: its guid is not known), Bootstrap (its static Init adds it), AndroidBackButton
        # (added in an `#if UNITY_ANDROID` branch); Health and Player are named by code
        "unity_object": 9,
        # Health.tint, MainMenu.title (public fields), PlayerAnimation.loadout ([SerializeField], never read),
        # Loadout.Stance and Loadout.Ammo (a [Serializable] class's public fields), Stance.Guard and Stance.Charge (the
        # members of an enum a serialized field holds), WeaponData.damage, Bootstrap.frameRate
        "unity_serialized": 9,
    }
    assert excluded["found_by_attribute"]["attributes"] == {
        "Inject": 1, "MenuItem": 2, "RuntimeInitializeOnLoadMethod": 1, "ServerRpc": 1}
    assert excluded["unity_object"]["why"] == {"attached": 4, "create_asset_menu": 1, "editor": 1, "inactive_code": 1,
                                               "made_by_itself": 1, "no_meta": 1}
    assert env["data"]["unity_assets"] == (
        "5 text assets read (.unity, .prefab, .asset, .controller, .playable...) for the scripts they attach by the "
        "guid of each script's .cs.meta: a MonoBehaviour or ScriptableObject of the game's own assemblies none "
        "attaches, that no code names and no [CreateAssetMenu] marks, is listed with its messages and serialized "
        "fields.")
    assert env["data"]["not_detected"].endswith(
        "; Unity: methods called by a string (SendMessage, Invoke, StartCoroutine(\"X\")), components added by "
        "AddComponent(Type) or a type name")


def test_refs_find_names_the_scenes_and_prefabs_attaching_a_component(unity: McpServerProcess) -> None:
    # No C# reference names MainMenu: Main.unity attaches it by the guid in MainMenu.cs.meta.
    env = unity.call("refs_find", {"symbol_id": "T:MainMenu"})
    assert env["answer"] == ("0 references to MainMenu; 1 Unity asset attaches it by its script "
                             "(Assets/Scenes/Main.unity).")
    assert env["data"]["unity_assets"] == [{"asset": "Assets/Scenes/Main.unity", "count": 1}]
    assert "hint" not in env  # not "No references in the indexed solution..."
    # Menu.prefab holds two PlayerAnimation components (and one of a package's script, whose guid no .cs.meta has).
    env = unity.call("refs_find", {"symbol_id": "T:Game.Gameplay.PlayerAnimation"})
    assert env["data"]["unity_assets"] == [{"asset": "Assets/Prefabs/Menu.prefab", "count": 2}]
    env = unity.call("refs_find", {"symbol_id": "T:Game.Gameplay.Turret"})
    assert env["answer"] == "0 references to Game.Gameplay.Turret."
    assert "unity_assets" not in env["data"]
    assert env["warnings"] == ["Unity: no scene, prefab or asset attaches it (5 text assets read)."]
    assert env["hint"].startswith("No references in the indexed solution.")
    env = unity.call("refs_find", {"symbol_id": "T:Game.Gameplay.Hud"})
    assert env["warnings"] == [
        "Unity: its script has no .cs.meta, so the guid scenes and prefabs would attach it by is not known: they may "
        "attach it."]
    # The card says it too.
    env = unity.call("symbols_get_card", {"symbol_id": "T:Game.Gameplay.PlayerAnimation"})
    assert env["answer"] == ("Class Game.Gameplay.PlayerAnimation in Assets/Scripts/Gameplay/PlayerAnimation.cs:7-31 "
                             "(Game.Gameplay); 1 Unity asset attaches it by its script (Assets/Prefabs/Menu.prefab).")
    assert env["data"]["unity_assets"] == [{"asset": "Assets/Prefabs/Menu.prefab", "count": 2}]
    # A UnityEvent names a method, not its class: the assets wiring the name are said, with that caveat.
    env = unity.call("refs_find", {"symbol_id": "M:Game.Gameplay.Player.OnStartClicked"})
    assert env["answer"] == ("0 references to Game.Gameplay.Player.OnStartClicked; 1 Unity asset wires it by name "
                             "(Assets/Scenes/Main.unity).")
    assert env["warnings"] == [
        "Unity: a UnityEvent or animation event names a method, not its class: these assets wire a method of this "
        "name, maybe of another class."]


def test_unity_notes_go_only_to_what_unity_makes_and_every_part_of_a_class_is_its_script(
        unity: McpServerProcess) -> None:
    # Sentry.prefab attaches Sentry.cs (by Sentry.cs.meta's guid); the part holding `: NetworkBehaviour` is
    # Sentry.Network.cs, where the class is declared first.
    env = unity.call("refs_find", {"symbol_id": "T:Game.Gameplay.Sentry"})
    assert env["answer"] == ("0 references to Game.Gameplay.Sentry; 1 Unity asset attaches it by its script "
                             "(Assets/Prefabs/Sentry.prefab).")
    assert env["data"]["unity_assets"] == [{"asset": "Assets/Prefabs/Sentry.prefab", "count": 1}]
    assert "warnings" not in env
    # A plain static class is attached by nothing and Unity calls none of its static methods: no Unity note.
    env = unity.call("refs_find", {"symbol_id": "T:VendorLib"})
    assert env["answer"] == "1 references to VendorLib (1 TypeRef)." and "warnings" not in env
    env = unity.call("refs_find", {"symbol_id": "M:SceneLinks.OnStartClicked"})
    assert env["answer"] == "0 references to SceneLinks.OnStartClicked." and "warnings" not in env
    assert "unity_assets" not in env["data"]
    # An animation event calls a private method of a component.
    env = unity.call("refs_find", {"symbol_id": "M:Game.Gameplay.PlayerAnimation.OnFootstep"})
    assert env["answer"] == ("0 references to Game.Gameplay.PlayerAnimation.OnFootstep; 1 Unity asset wires it by "
                             "name (Assets/Animations/Walk.anim).")


def test_a_workspace_overlay_adds_a_script_to_the_assembly_of_its_folder(unity: McpServerProcess,
                                                                        unity_repo: Path) -> None:
    # The in-memory workspace (no MSBuild) forks like a loaded one: the new file joins Game.Gameplay (its .asmdef's
    # folder) and its call to Game.Core binds.
    enemy = unity_repo / "Assets/Scripts/Gameplay/Enemy.cs"
    unity.call("workspace_create", {"workspace_id": "unity"})
    enemy.write_text("namespace Game.Gameplay\n{\n    public class Enemy\n    {\n        public void "
                     "Strike(Game.Core.Health target)\n        {\n            target.TakeDamage(5);\n        }\n"
                     "    }\n}\n")
    try:
        data = unity.call("index_refresh_overlay", {"workspace_id": "unity"})["data"]
        assert (data["extracted"], data["changed_files"]) == (
            ["Assets/Scripts/Gameplay/Enemy.cs"], [{"path": "Assets/Scripts/Gameplay/Enemy.cs", "state": "added"}])
        found = unity.call("symbols_search", {"query": "Enemy", "workspace_id": "unity"})["data"]["results"]
        assert [(r["symbol_id"], r["project"]) for r in found] == [("T:Game.Gameplay.Enemy", "Game.Gameplay")]
        env = unity.call("graph_callers", {"symbol_id": "M:Game.Core.Health.TakeDamage(System.Int32)",
                                           "workspace_id": "unity"})
        assert [n["symbol_id"] for n in env["data"]["nodes"]] == [
            "M:Game.Gameplay.Enemy.Strike(Game.Core.Health)", "M:Game.Gameplay.Player.Update"]
    finally:
        enemy.unlink()


def test_a_scene_that_is_not_text_keeps_every_component_nothing_else_attaches(tmp_path: Path, home: Path) -> None:
    # Boss Room's scenes are Git LFS pointers in a checkout without LFS; a binary-serialized scene is no better: either
    # may attach Turret, so it is kept, and the answer names what was not read.
    source = tmp_path / "source"
    shutil.copytree(TESTDATA / "Unity", source)
    (source / "Assets/Scenes/Boss.unity").write_text(
        "version https://git-lfs.github.com/spec/v1\noid sha256:3a002e0d\nsize 427987\n")
    (source / "Assets/Scenes/Arena.unity").write_bytes(b"\x00\x00\x00\x00\x01\x02binary serialization")
    # Unity writes baked lighting in binary even under Force Text: not read, but it attaches no script
    (source / "Assets/Scenes/Main").mkdir()
    (source / "Assets/Scenes/Main/LightingData.asset").write_bytes(b"\x00\x01lighting")
    repo = make_repo(source, tmp_path / "Unity", restore=False)
    done = roslynmap("index", str(repo), "--json", env={"ROSLYNMAP_HOME": str(home)})
    assert done.returncode == 2, done.stdout + done.stderr
    for server in serving(repo, home):
        env = server.call("symbols_unused", {})
        assert [i["symbol_id"] for i in env["data"]["unused"]] == [
            "M:ScoreKeeper.Reset", "M:Game.Core.Health.NeverCalled", "F:Game.Gameplay.Loadout._spare",
            "M:Game.Gameplay.Player.Unwired"]
        # Turret, Bootstrap and AndroidBackButton: no text asset attaches them
        assert env["data"]["excluded"]["unity_object"]["why"] == {
            "attached": 4, "create_asset_menu": 1, "editor": 1, "no_meta": 1, "unseen_assets": 3}
        unseen = ("1 Git LFS pointer not in the checkout: Assets/Scenes/Boss.unity; 2 binary assets: "
                  "Assets/Scenes/Arena.unity, Assets/Scenes/Main/LightingData.asset; of these, 2 can attach a script: "
                  "Assets/Scenes/Arena.unity, Assets/Scenes/Boss.unity")
        assert env["data"]["unity_assets"].endswith(
            f"fields. Not read: {unseen}; a class none of the others attaches may be attached there, so it is left "
            "out (unity_object, why unseen_assets).")
        env = server.call("refs_find", {"symbol_id": "T:Game.Gameplay.Turret"})
        assert env["warnings"] == [f"Unity: assets not read ({unseen}) may use it too."]
        # Only the binary LightingData.asset not read: nothing is hidden, Turret is listed
        (repo / "Assets/Scenes/Boss.unity").unlink()
        (repo / "Assets/Scenes/Arena.unity").unlink()
        subprocess.run(["git", "-C", str(repo), "commit", "-qam", "text scenes only"], check=True,
                       env={**os.environ, **GIT_ENV})
        server.call("index_ensure_baseline", {})
        env = server.call("symbols_unused", {})
        assert [i["symbol_id"] for i in env["data"]["unused"]][-1] == "T:Game.Gameplay.Turret"
        assert env["data"]["unity_assets"].endswith(
            "fields. Not read: 1 binary asset: Assets/Scenes/Main/LightingData.asset; none of these can attach a "
            "script, so the listing stands.")
