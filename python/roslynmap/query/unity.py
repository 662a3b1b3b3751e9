"""What Unity calls or sets without a reference in the code (symbols_unused's unity_* reasons, docs/tools.md).

Unity calls a MonoBehaviour's messages (`Awake`, `Update`, `OnTriggerEnter`...) by name, usually private; makes its
components and ScriptableObjects from scenes, prefabs and assets; sets `[SerializeField]` and public fields from them;
and calls the methods a scene's or prefab's UnityEvent names (`m_MethodName: OnStartClicked`). Outside the Unity
editor UnityEngine is not there (roslyn/unity.py), so a base class is matched by its name too: `: MonoBehaviour`, and
through the game's own classes (`GameManager : Singleton<GameManager>`, `Singleton<T> : MonoBehaviour`).
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from roslynmap.model.errors import RoslynMapError
from roslynmap.model.unity_files import is_asset, is_unity_project, project_files, read_asset
from roslynmap.query import projectrefs
from roslynmap.query.code import read_lines
from roslynmap.query.sql import in_chunks, memo
from roslynmap.query.types import ENUMS_OF_DECLARED_TYPES

# The bases Unity instantiates itself (components, assets, editors, state machine behaviours); Netcode's
# NetworkBehaviour is a MonoBehaviour.
OBJECT_BASES = frozenset({
    "T:UnityEngine.MonoBehaviour", "T:UnityEngine.ScriptableObject", "T:UnityEngine.StateMachineBehaviour",
    "T:UnityEditor.Editor", "T:UnityEditor.EditorWindow", "T:UnityEditor.PropertyDrawer",
    "T:UnityEditor.AssetPostprocessor", "T:UnityEditor.ScriptableWizard", "T:Unity.Netcode.NetworkBehaviour"})
# Of those, the ones a scene, prefab or asset attaches by its script's guid (roslyn/unity_assets.py); the editor's
# classes (Editor, EditorWindow...) Unity makes itself, found by their type or attribute.
ATTACHED_BASES = frozenset({
    "T:UnityEngine.MonoBehaviour", "T:UnityEngine.ScriptableObject", "T:UnityEngine.StateMachineBehaviour",
    "T:Unity.Netcode.NetworkBehaviour"})
EDITOR_BASES = OBJECT_BASES - ATTACHED_BASES
# A ScriptableObject the Assets > Create menu makes: none may exist yet, and the menu is how it is used.
CREATE_MENU_ATTRIBUTES = ("CreateAssetMenu", "CreateAssetMenuAttribute")
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
# Unity's DI containers (VContainer, Zenject/Extenject, Reflex) set an `[Inject]` field by reflection.
INJECT_ATTRIBUTES = ("Inject", "InjectAttribute")


def is_unity_baseline(conn: sqlite3.Connection) -> bool:
    """A baseline of a Unity project: synthesized from its layout (an .asmdef, `Assets/`) or Unity's generated
    solution (Assembly-CSharp.csproj)."""
    return memo(conn, "unity_baseline", lambda: any(
        is_unity_project(str(name), str(path or "")) for name, path in conn.execute("SELECT name, path FROM projects")))


def is_game_assembly(path: str) -> bool:
    """A Unity project's own assembly (an .asmdef under Assets/, or Assembly-CSharp's `Assets/`): the player loads
    it, like an app; an embedded package's (under Packages/) may be another project's library."""
    return (path.endswith((".asmdef", "/"))) and (path.startswith("Assets/") or "/Assets/" in path)


@dataclass(frozen=True)
class AssetScan:
    """What the index read of the project's text-serialized assets (roslyn/unity_assets.py's UnityAssetScan)."""
    text: int  # assets read
    binary: list[str]  # the first assets not read: binary serialization
    binary_count: int
    lfs: list[str]  # the first Git LFS pointers: the asset is not in the checkout
    lfs_count: int
    unreadable: list[str]
    unresolved_guids: int  # attachments of scripts no .cs.meta of the repository has (packages, DLLs)
    # The first of the assets not read that could attach a script (a scene, a prefab, a ScriptableObject's .asset;
    # not a LightingData.asset or an animation); None: the baseline predates telling them apart.
    attaching: list[str] | None = None
    attaching_count: int = 0

    @property
    def not_read(self) -> int:
        return self.binary_count + self.lfs_count + len(self.unreadable)

    @property
    def unseen(self) -> int:
        """Assets not read that could attach a script: one binary LightingData.asset hides no component."""
        return self.not_read if self.attaching is None else self.attaching_count

    def unseen_said(self) -> str:
        """`143 Git LFS pointers not in the checkout: Assets/Scenes/BossRoom.unity, ...`: assets whose scripts are not
        known."""
        parts = []
        for count, paths, one, many in (
                (self.lfs_count, self.lfs, "Git LFS pointer", "Git LFS pointers"),
                (self.binary_count, self.binary, "binary asset", "binary assets"),
                (len(self.unreadable), self.unreadable, "unreadable file", "unreadable files")):
            if count:
                parts.append(f"{count} {one if count == 1 else many}" + (" not in the checkout" if one.endswith(
                    "pointer") else "") + f": {', '.join(paths[:3])}" + (", ..." if count > 3 else ""))
        if self.attaching is not None and self.attaching_count < self.not_read:
            parts.append(f"of these, {self.attaching_count} can attach a script: " + ", ".join(self.attaching[:3])
                         + (", ..." if self.attaching_count > 3 else "") if self.attaching else
                         "none of these can attach a script")
        return "; ".join(parts)


def asset_scan(conn: sqlite3.Connection) -> AssetScan | None:
    """None: the baseline predates reading assets at index time (then nothing is known of attachments)."""
    def compute() -> AssetScan | None:
        row = conn.execute("SELECT detail FROM facts WHERE kind = 'UnityAssetScan' AND key = 'assets'").fetchone()
        if row is None:
            return None
        d: dict[str, Any] = json.loads(row[0])
        return AssetScan(int(d["text"]), list(d["binary"]), int(d["binary_count"]), list(d["lfs"]),
                         int(d["lfs_count"]), list(d["unreadable"]), int(d["unresolved_guids"]),
                         list(d["attaching"]) if "attaching" in d else None, int(d.get("attaching_count", 0)))
    return memo(conn, "unity_scan", compute)


def scripts_with_meta(conn: sqlite3.Connection) -> set[str]:
    """Script paths with a `.cs.meta` (a guid assets can attach them by)."""
    return memo(conn, "unity_scripts", lambda: {str(r[0]) for r in conn.execute(
        "SELECT key FROM facts WHERE kind = 'UnityScript'")})


def attached_scripts(conn: sqlite3.Connection) -> set[str]:
    """Script paths some text asset attaches."""
    return memo(conn, "unity_attached", lambda: {str(r[0]) for r in conn.execute(
        "SELECT DISTINCT key FROM facts WHERE kind = 'UnityScriptUse'")})


def scripts_naming_their_class(conn: sqlite3.Connection) -> set[str]:
    """Script paths declaring a top-level class named as the file."""
    def compute() -> set[str]:
        rows = conn.execute("SELECT s.name, f.path FROM symbols s JOIN files f ON f.id = s.file_id"
                            " WHERE s.kind = 'Class' AND (s.container_id IS NULL OR s.container_id NOT LIKE 'T:%')")
        return {str(path) for name, path in rows if Path(str(path)).stem == name}
    return memo(conn, "unity_named_scripts", compute)


def binds(conn: sqlite3.Connection, path: str | None, name: str, container: str | None) -> bool:
    """Whether Unity binds this class to its script: the top-level class named as its file (`Player` in Player.cs);
    in a file declaring none, any top-level class of it (Game Programming Patterns' TargetShatter.cs holds only
    ExplosionEffect, which a prefab attaches by that script's guid and sets the fields of)."""
    if path is None or (container or "").startswith("T:"):
        return False
    return Path(path).stem == name or path not in scripts_naming_their_class(conn)


def class_files(conn: sqlite3.Connection, symbol_ids: list[str]) -> dict[str, list[str]]:
    """Each class -> every file declaring it: its declaration's first, then its other partial parts' (the part holding
    the base may not be the script an asset attaches: Player.cs beside `partial class Player : NetworkBehaviour` in
    Player.Network.cs)."""
    files: dict[str, list[str]] = {}
    for sid, path in in_chunks(conn, "SELECT s.symbol_id, f.path FROM symbols s JOIN files f ON f.id = s.file_id"
                                     " WHERE s.symbol_id IN ({marks})", symbol_ids):
        files.setdefault(str(sid), []).append(str(path))
    for sid, path in in_chunks(conn, "SELECT sp.symbol_id, f.path FROM symbol_parts sp JOIN files f"
                                     " ON f.id = sp.file_id WHERE sp.symbol_id IN ({marks})", symbol_ids):
        if str(path) not in files.setdefault(str(sid), []):
            files[str(sid)].append(str(path))
    return files


def bound_scripts(conn: sqlite3.Connection, paths: list[str], name: str, container: str | None) -> list[str]:
    """The files of a class that Unity binds it to (binds)."""
    return [path for path in paths if binds(conn, path, name, container)]


def maybe_unity_classes(conn: sqlite3.Connection) -> frozenset[str]:
    """Classes Unity may make: deriving from a base Unity makes (OBJECT_BASES), through the game's own classes, a
    base unbound outside the Unity editor by the name it is written with (`: MonoBehaviour`), as symbols_unused
    matches them; or from another base or interface not bound, which may be a package's component (Photon's
    `MonoBehaviourPun`, UI's `Selectable`). A class of bound bases none of which is Unity's is a plain class."""
    def compute() -> frozenset[str]:
        base: dict[str, str] = {}
        for type_id, related_id, related_name, kind in conn.execute(
                "SELECT type_id, related_id, related_name, kind FROM relations"
                " WHERE kind = 'base' OR related_id IS NULL"):
            if related_id is None:
                base.setdefault(str(type_id), f"?{related_name}")
            elif kind == "base":
                base[str(type_id)] = str(related_id)
        named = {f"?{root[2:].rsplit('.', 1)[-1]}" for root in OBJECT_BASES}
        found: set[str] = set()
        for type_id in base:
            seen: set[str] = set()
            current: str | None = base[type_id]
            while current is not None and current not in seen:
                if current in OBJECT_BASES or current in named or current.startswith("?"):
                    found.add(type_id)
                    break
                seen.add(current)
                current = base.get(current)
        return frozenset(found)
    return memo(conn, "maybe_unity_classes", compute)


@dataclass(frozen=True)
class Attachment:
    asset: str
    count: int  # components (or assets) of the class in it


def scripts_of_class(conn: sqlite3.Connection, symbol_id: str) -> list[str]:
    """The scripts Unity binds a class to (binds); none when it is no class, is nested or is not named as its file."""
    row = conn.execute("SELECT s.name, s.container_id FROM symbols s WHERE s.symbol_id = ? AND s.kind = 'Class'",
                       (symbol_id,)).fetchone()
    if row is None:
        return []
    return bound_scripts(conn, class_files(conn, [symbol_id]).get(symbol_id, []), row[0], row[1])


def attachments(conn: sqlite3.Connection, scripts: list[str]) -> list[Attachment]:
    """The assets attaching a class's scripts (scripts_of_class), by path."""
    found = [json.loads(r[0]) for r in in_chunks(
        conn, "SELECT detail FROM facts WHERE kind = 'UnityScriptUse' AND key IN ({marks})", scripts)]
    return sorted((Attachment(str(d["asset"]), int(d["count"])) for d in found), key=lambda a: a.asset)


def wired_in(conn: sqlite3.Connection, name: str) -> list[str]:
    """The assets wiring or calling a method by this name (a UnityEvent, an animation event)."""
    return sorted(json.loads(r[0])["asset"] for r in conn.execute(
        "SELECT detail FROM facts WHERE kind = 'UnityEventName' AND key = ?", (name,)))


def event_names(conn: sqlite3.Connection, root: Path) -> frozenset[str]:
    """The method names assets wire (UnityEventName facts); a baseline from before they were facts reads them now."""
    if asset_scan(conn) is None:
        return asset_method_names(conn, root)
    return frozenset(str(r[0]) for r in conn.execute("SELECT DISTINCT key FROM facts WHERE kind = 'UnityEventName'"))


def create_menu_types(conn: sqlite3.Connection) -> set[str]:
    """Classes carrying [CreateAssetMenu]."""
    return _carrying(conn, ("Class",), CREATE_MENU_ATTRIBUTES)


def asset_method_names(conn: sqlite3.Connection, root: Path) -> frozenset[str]:
    """The method names the repository's scenes, prefabs and assets wire to UnityEvents (`m_MethodName: X`), read
    once per open baseline (one built before the index read them: event_names)."""
    def compute() -> frozenset[str]:
        return frozenset(name for rel, path in project_files(root) if is_asset(rel) for name in read_asset(path)[2])
    return frozenset(memo(conn, f"unity_methods:{root}", compute))


def inactive_mentions(conn: sqlite3.Connection, root: Path, names: set[str]) -> dict[int, set[str]]:
    """Project -> which of `names` the text of an inactive `#if` branch seen there spells as a word, as
    inactive.names_by_project spreads a branch's names: a branch's recorded names are the members it calls, not the
    type of its `AddComponent<AndroidBackButton>()` (`#if UNITY_ANDROID`, no platform symbol being defined). Only the
    files holding such branches are read."""
    if not names:
        return {}
    word = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(names)) + r")\b")
    branches: dict[str, list[tuple[int, int, int]]] = {}
    for project, path, line, detail in conn.execute(
            "SELECT fa.project_id, f.path, fa.line, fa.detail FROM facts fa JOIN files f ON f.id = fa.file_id"
            " WHERE fa.kind = 'InactiveCode' AND fa.project_id IS NOT NULL"):
        end = int(orjson.loads(detail or "{}").get("end_line", line))
        branches.setdefault(str(path), []).append((int(project), int(line), end))
    own: dict[int, set[str]] = {}
    for path, spans in branches.items():
        try:
            lines = read_lines(root, path)
        except RoslynMapError:  # deleted or unreadable since the index: nothing said of it
            continue
        for project, line, end in spans:
            if found := set(word.findall("\n".join(lines[line - 1:end]))):
                own.setdefault(project, set()).update(found)
    seen: dict[int, set[str]] = {}
    edges = projectrefs.project_references(conn)
    for project, found in own.items():
        for reached in {project} | projectrefs.referenced(edges, [project]):
            seen.setdefault(reached, set()).update(found)
    return seen


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


# Why a class Unity may make is left out of symbols_unused (`unity_object`), said beside the count.
KEPT = {
    "attached": "a scene, prefab or asset attaches it (m_Script, by its .cs.meta guid)",
    "editor": "an editor class (Editor, EditorWindow, PropertyDrawer...) the editor finds by type or attribute",
    "create_asset_menu": "a [CreateAssetMenu] ScriptableObject: the Assets > Create menu makes it",
    "package": "in an embedded package (Packages/): the projects using it attach its components",
    "no_meta": "its script has no .cs.meta, so the guid assets would attach it by is not known",
    "unseen_assets": "no text asset attaches it, but some assets could not be read (binary or Git LFS pointers): "
                     "it may be attached there",
    "assets_not_read": "the baseline predates reading assets (index --force reads them)",
    "made_by_itself": "a static member of its own makes it (AddComponent<T>() in a [RuntimeInitializeOnLoadMethod])",
    "inactive_code": "named in #if branches not compiled here (an `#if UNITY_ANDROID` AddComponent<T>())",
    "unbound_name": "named like a call or type the compiler could not bind",
    "markup": "named in markup, whose compiled code is not indexed",
}


@dataclass(frozen=True)
class Declared:
    """Where a class is declared: what Unity binds it by, and whether its assembly is the game's own."""
    path: str | None
    name: str
    container: str | None
    game: bool
    parts: tuple[str, ...] = ()  # the files of its other partial parts


def judge_objects(conn: sqlite3.Connection, objects: set[str], editor_made: set[str],
                  declared: dict[str, Declared]) -> dict[str, str | None]:
    """Each class deriving from a base Unity makes -> why it may be made (a KEPT key), or None: no text asset
    attaches it (every asset was read), nothing makes it from a menu and it is the game's own: only code could use
    it. A class Unity does not bind to its script (not named as its file, nested) is attached by no asset either."""
    scan = asset_scan(conn)
    with_meta = scripts_with_meta(conn)
    attached = attached_scripts(conn)
    menu = create_menu_types(conn)
    judged: dict[str, str | None] = {}
    for sid in objects:
        where = declared.get(sid)
        scripts = [] if where is None or where.path is None else bound_scripts(
            conn, [where.path, *where.parts], where.name, where.container)
        if sid in editor_made:
            judged[sid] = "editor"
        elif scan is None:
            judged[sid] = "assets_not_read"
        elif where is None or not where.game:
            judged[sid] = "package"
        elif any(script in attached for script in scripts):
            judged[sid] = "attached"
        elif sid in menu:
            judged[sid] = "create_asset_menu"
        elif scripts and not all(script in with_meta for script in scripts):
            judged[sid] = "no_meta"
        elif scripts and scan.unseen:
            judged[sid] = "unseen_assets"
        else:
            judged[sid] = None
    return judged


# The assets refs_find lists by path (Boss Room's Character prefabs attach its components dozens of times): the rest
# are counted.
LISTED_ASSETS = 10


@dataclass(frozen=True)
class AssetUses:
    """The assets a class is attached by, or a method wired by name in, for refs_find and symbols_get_card."""
    what: str  # "attached by" | "wired by name in"
    assets: list[Attachment]
    scan: AssetScan
    no_meta: bool = False  # a class whose script has no .cs.meta: what attaches it is not known
    guid: str | None = None  # its script's, which the assets name

    def headline(self) -> str:
        """`3 Unity assets attach it (Assets/Prefabs/Menu.prefab, ...)`, added to an answer's count."""
        first = ", ".join(a.asset for a in self.assets[:3]) + (", ..." if len(self.assets) > 3 else "")
        one = len(self.assets) == 1
        said = ("asset attaches it by its script" if one else "assets attach it by its script") \
            if self.what == "attached by" else ("asset wires it by name" if one else "assets wire it by name")
        return f"{len(self.assets)} Unity {said}" + (f" ({first})" if first else "")

    def as_data(self) -> dict[str, Any]:
        return {"unity_assets": [{"asset": a.asset, "count": a.count} for a in self.assets[:LISTED_ASSETS]],
                **({"unity_assets_total": len(self.assets)} if len(self.assets) > LISTED_ASSETS else {})}

    def note(self) -> str | None:
        """What the assets do not show: more than listed, assets not read, a method matched only by its name."""
        said = []
        if self.no_meta:
            said.append("its script has no .cs.meta, so the guid scenes and prefabs would attach it by is not known: "
                        "they may attach it")
        elif not self.assets and not self.scan.unseen:
            said.append(f"no scene, prefab or asset attaches it ({self.scan.text} text assets read)")
        if len(self.assets) > LISTED_ASSETS:
            said.append(f"`unity_assets` lists the first {LISTED_ASSETS} of {len(self.assets)} assets (by path); "
                        f"the others name its script's guid {self.guid}")
        if self.what == "wired by name in":
            said.append("a UnityEvent or animation event names a method, not its class: these assets wire a method "
                        "of this name, maybe of another class")
        # A binary animation may wire a method by name too; only a scene, prefab or asset can attach a class.
        if self.scan.unseen or (self.what == "wired by name in" and self.scan.not_read):
            said.append(f"assets not read ({self.scan.unseen_said()}) may use it too")
        return "Unity: " + "; ".join(said) + "." if said else None


def asset_uses(conn: sqlite3.Connection, symbol_id: str, kind: str, name: str) -> AssetUses | None:
    """A class's attachments (a top-level class named as its file), a method's or setter's wiring by name; None
    outside a Unity baseline that read its assets, or for a symbol no asset can name."""
    scan = asset_scan(conn) if is_unity_baseline(conn) else None
    if scan is None:
        return None
    # Only what Unity may make or call: a plain class is attached by no asset, a static method wired by no UnityEvent
    # (an animation event calls a private instance method too).
    if kind == "Class":
        scripts = scripts_of_class(conn, symbol_id) if symbol_id in maybe_unity_classes(conn) else []
        if not scripts:
            return None
        found = attachments(conn, scripts)
        guids = dict(in_chunks(conn, "SELECT key, json_extract(detail, '$.guid') FROM facts WHERE kind = 'UnityScript'"
                                     " AND key IN ({marks})", scripts))
        # The guid assets name: the attached part's (else the first part's with a .cs.meta).
        with_guid = sorted((s for s in scripts if s in guids), key=lambda s: s not in attached_scripts(conn))
        guid = str(guids[with_guid[0]]) if with_guid else None
        return AssetUses("attached by", found, scan, no_meta=len(guids) < len(scripts), guid=guid)
    member = conn.execute("SELECT container_id, is_static FROM symbols WHERE symbol_id = ?", (symbol_id,)).fetchone()
    if member is None or member[1] or member[0] not in maybe_unity_classes(conn):
        return None
    if kind in ("Method", "Property"):
        wired = wired_in(conn, name if kind == "Method" else f"set_{name}")
        return AssetUses("wired by name in", [Attachment(a, 1) for a in wired], scan) if wired else None
    return None
