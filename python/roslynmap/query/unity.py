"""What Unity calls or sets without a reference in the code (symbols_unused's unity_* reasons, docs/tools.md).

Unity calls a MonoBehaviour's messages (`Awake`, `Update`, `OnTriggerEnter`...) by name, usually private; makes its
components and ScriptableObjects from scenes, prefabs and assets; sets `[SerializeField]` and public fields from them;
and calls the methods a scene's or prefab's UnityEvent names (`m_MethodName: OnStartClicked`). Outside the Unity
editor UnityEngine is not there (roslyn/unity.py), so a base class is matched by its name too: `: MonoBehaviour`, and
through the game's own classes (`GameManager : Singleton<GameManager>`, `Singleton<T> : MonoBehaviour`).
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

from roslynmap.query.sql import in_chunks, memo
from roslynmap.query.types import ENUMS_OF_DECLARED_TYPES

# The bases Unity instantiates itself (components, assets, editors, state machine behaviours); Netcode's
# NetworkBehaviour is a MonoBehaviour.
OBJECT_BASES = frozenset({
    "T:UnityEngine.MonoBehaviour", "T:UnityEngine.ScriptableObject", "T:UnityEngine.StateMachineBehaviour",
    "T:UnityEditor.Editor", "T:UnityEditor.EditorWindow", "T:UnityEditor.PropertyDrawer",
    "T:UnityEditor.AssetPostprocessor", "T:UnityEditor.ScriptableWizard", "T:Unity.Netcode.NetworkBehaviour"})
# Messages Unity sends by name to MonoBehaviours, ScriptableObjects, editors and editor windows.
MESSAGES = frozenset({
    "Awake", "Start", "Update", "FixedUpdate", "LateUpdate", "OnEnable", "OnDisable", "OnDestroy", "OnValidate",
    "Reset", "OnGUI", "OnDrawGizmos", "OnDrawGizmosSelected", "OnApplicationQuit", "OnApplicationPause",
    "OnApplicationFocus", "OnBecameVisible", "OnBecameInvisible", "OnRenderObject", "OnWillRenderObject",
    "OnPreCull", "OnPreRender", "OnPostRender", "OnRenderImage", "OnAnimatorMove", "OnAnimatorIK",
    "OnControllerColliderHit", "OnJointBreak", "OnJointBreak2D", "OnParticleCollision", "OnParticleTrigger",
    "OnParticleSystemStopped", "OnTransformParentChanged", "OnTransformChildrenChanged",
    "OnBeforeTransformParentChanged", "OnRectTransformDimensionsChange", "OnCanvasGroupChanged",
    "OnDidApplyAnimationProperties", "OnAudioFilterRead", "OnServerInitialized", "OnConnectedToServer",
    *(f"On{what}{phase}{dim}" for what in ("Trigger", "Collision") for phase in ("Enter", "Exit", "Stay")
      for dim in ("", "2D")),
    *(f"OnMouse{what}" for what in ("Down", "Up", "UpAsButton", "Enter", "Exit", "Over", "Drag")),
    # Editor and EditorWindow
    "OnInspectorGUI", "OnSceneGUI", "OnHeaderGUI", "OnPreviewGUI", "HasPreviewGUI", "CreateGUI",
    "CreateInspectorGUI", "OnFocus", "OnLostFocus", "OnHierarchyChange", "OnProjectChange", "OnSelectionChange",
    "OnInspectorUpdate", "OnWizardCreate", "OnWizardUpdate", "OnWizardOtherButton",
    # AssetPostprocessor
    "OnPreprocessAsset", "OnPostprocessAllAssets", "OnPreprocessTexture", "OnPostprocessTexture",
    "OnPreprocessModel", "OnPostprocessModel", "OnPreprocessAudio", "OnPostprocessAudio",
})
SERIALIZE_ATTRIBUTES = ("SerializeField", "SerializeFieldAttribute", "SerializeReference",
                        "SerializeReferenceAttribute")
ASSET_SUFFIXES = (".unity", ".prefab", ".asset", ".controller", ".overridecontroller", ".playable", ".anim",
                  # a model's import settings hold the animation events of its clips (Boss Room's CharacterSet.fbx)
                  ".fbx.meta", ".obj.meta", ".blend.meta", ".dae.meta", ".max.meta", ".ma.meta", ".mb.meta")
# Unity's DI containers (VContainer, Zenject/Extenject, Reflex) set an `[Inject]` field by reflection.
INJECT_ATTRIBUTES = ("Inject", "InjectAttribute")
# Unity's caches and build output (Library/ holds thousands of imported .asset files), never the project's own.
_SKIPPED = frozenset({"library", "temp", "logs", "obj", "bin", "node_modules", "build", "builds"})
# A UnityEvent's call (`m_MethodName: OnStartClicked`), the same overridden in a prefab instance (`propertyPath:
# ...m_MethodName` then `value: OnStartClicked`: Boss Room's main menu) and an animation event (`functionName:
# OnAnimEvent`).
_METHOD_NAME = re.compile(rb"(?:m_MethodName:|m_MethodName\s*\n\s*value:|functionName:)[ \t]*([A-Za-z_]\w*)")


def is_unity_baseline(conn: sqlite3.Connection) -> bool:
    """A baseline of a Unity project: synthesized from its layout (an .asmdef, `Assets/`) or Unity's generated
    solution (Assembly-CSharp.csproj)."""
    return conn.execute("SELECT 1 FROM projects WHERE path LIKE '%.asmdef' OR name = 'Assembly-CSharp'"
                        " OR (path LIKE '%Assets/%' AND path LIKE '%/') LIMIT 1").fetchone() is not None


def is_game_assembly(path: str) -> bool:
    """A Unity project's own assembly (an .asmdef under Assets/, or Assembly-CSharp's `Assets/`): the player loads
    it, like an app; an embedded package's (under Packages/) may be another project's library."""
    return (path.endswith((".asmdef", "/"))) and (path.startswith("Assets/") or "/Assets/" in path)


def asset_method_names(conn: sqlite3.Connection, root: Path) -> frozenset[str]:
    """The method names the repository's scenes, prefabs and assets wire to UnityEvents (`m_MethodName: X`), read
    once per open baseline."""
    def compute() -> frozenset[str]:
        names: set[bytes] = set()
        for folder, dirs, files in os.walk(root):  # no symbolic links followed: nothing outside is read
            dirs[:] = [d for d in dirs if not d.startswith(".") and d.lower() not in _SKIPPED]
            for name in files:
                path = Path(folder, name)
                if not name.lower().endswith(ASSET_SUFFIXES) or path.is_symlink():
                    continue
                try:
                    names.update(_METHOD_NAME.findall(path.read_bytes()))
                except OSError:
                    continue
        return frozenset(n.decode() for n in names)
    return frozenset(memo(conn, f"unity_methods:{root}", compute))


def _carrying(conn: sqlite3.Connection, kinds: tuple[str, ...], attributes: tuple[str, ...]) -> set[str]:
    """Symbols of these kinds carrying one of these attributes, bound or not (its name as the reference has it)."""
    rows = conn.execute(
        "SELECT DISTINCT s.symbol_id FROM refs r JOIN ids i ON i.key = r.from_key"
        f" JOIN symbols s ON s.symbol_id = i.symbol_id AND s.kind IN ({','.join('?' * len(kinds))})"
        f" WHERE r.kind = 'TypeRef' AND r.target_name IN ({','.join('?' * len(attributes))})", (*kinds, *attributes))
    return {str(r[0]) for r in rows}


def injected_fields(conn: sqlite3.Connection) -> dict[str, str]:
    """Fields carrying [Inject] (Boss Room's `[Inject] ConnectionManager m_ConnectionManager`) -> "Inject"."""
    return dict.fromkeys(_carrying(conn, ("Field",), INJECT_ATTRIBUTES), "Inject")


def serializable_types(conn: sqlite3.Connection) -> set[str]:
    """Types carrying [Serializable]: Unity serializes their public fields where a component or asset holds one
    (Boss Room's ActionConfig, whose `ManaCost` only its .asset files set)."""
    return _carrying(conn, ("Class", "Struct"), ("Serializable", "SerializableAttribute"))


def enums_of_fields(conn: sqlite3.Connection, fields: set[str]) -> set[str]:
    """Enums the declared type of one of `fields` names: Unity stores such a field's value as a number in scenes and
    assets, so each member may come from there (Boss Room's `public ActionLogic Logic`, set per action in its .asset
    files)."""
    rows = in_chunks(conn, ENUMS_OF_DECLARED_TYPES.format(where="m.symbol_id IN ({marks})"), sorted(fields))
    return {str(r[0]) for r in rows}


def serialized_fields(conn: sqlite3.Connection) -> set[str]:
    """Fields carrying [SerializeField] or [SerializeReference] (bound or not): Unity sets them from scenes and
    prefabs."""
    return _carrying(conn, ("Field",), SERIALIZE_ATTRIBUTES)
