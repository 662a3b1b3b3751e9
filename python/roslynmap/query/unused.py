"""symbols_unused: symbols nothing in the solution references, with every symbol left out for a reason
an agent can check (EXCLUSIONS). Pure reads over one baseline (or overlay view).

"Unused" is a claim an agent may act on by deleting code, so a symbol is left out whenever something
outside the reference graph may use it: the framework by convention or reflection, markup, an unbound
call or base type, a serializer. What none of the rules can see is named in the answer's `not_detected`.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from roslynmap.model.kinds import TYPE_KINDS
from roslynmap.model.readable import is_package_source
from roslynmap.query import generated, inactive, markup, projectrefs, surfaces, trace, unity, unlinked
from roslynmap.query.keys import ids_of
from roslynmap.query.projectrefs import is_test_project
from roslynmap.query.review import test_facts
from roslynmap.query.sql import in_chunks, marks, memo
from roslynmap.query.trace import HANDLER_INTERFACES, handle_methods_of_handlers, own_handler_interfaces
from roslynmap.query.typeargs import parameters
from roslynmap.query.types import ENUMS_OF_DECLARED_TYPES


@dataclass
class Unused:
    items: list[dict[str, Any]]
    excluded: dict[str, int]  # reason -> symbols left out for it
    skipped_projects: list[str]  # syntax_only: references unknown, nothing judged
    attributes: dict[str, int]  # found_by_attribute: attribute name (`CapSubscribe`) -> methods left out for it
    generators: dict[str, int]  # generated_code: generator (`RelayCommandGenerator`) -> symbols left out for it
    unity_kept: dict[str, int] = field(default_factory=dict)  # unity_object: why (query/unity.KEPT) -> classes


# Said in every symbols_unused answer beside the counts: short; docs/tools.md says each rule in full.
EXCLUSIONS = {
    "entry_point": "Main, top-level statements, module initializers",
    "test": "tests, their classes and set-up methods",
    "framework_entry": "handlers, actions, controllers, page models, middleware Invoke, Startup methods, SignalR hub "
                       "methods, Azure Functions, EF and FluentMigrator migrations, MassTransit definitions a "
                       "registration scan finds (called or found by the framework)",
    "dispatch": "overrides, interface implementations",
    "generated_code": "referenced by a source generator's output, which is not indexed ([ObservableProperty] "
                      "fields, [RelayCommand] methods, serialized members...): `generators` names them",
    "found_by_attribute": "methods and fields carrying an attribute the solution reads by reflection, or a package's "
                          "attribute (its framework or generator finds them by it; Unity's [Inject]): `attributes` "
                          "names them",
    "public_library_api": "public API of libraries no app of the solution references, or published as packages",
    "serialization": "public properties, ShouldSerialize{Property} methods and the members of an enum a public "
                     "property holds (serializers bind them)",
    "constructed": "constructors of types in use, static constructors, finalizers",
    "unbound_name": "named like a call the compiler could not bind",
    "unbound_base": "members of a type whose base or interface could not be bound (they may implement it)",
    "outside_repo": "compiled from files outside the repository (a package's build files)",
    "markup": "named in Razor or XAML markup (.cshtml, .razor, .xaml, .axaml), whose compiled code is not indexed",
    "inactive_code": "named in #if branches not compiled for the indexed target framework",
    "compiler_polyfill": "types declared in the compiler's namespaces (IsExternalInit...): the compiler uses them "
                         "unnamed",
    "enumerated": "members of an enum the solution lists or parses by name (Enum.GetValues<T>, Enum.Parse..., or a "
                  "helper of its own given typeof(T))",
    "unity_object": "classes deriving from MonoBehaviour, ScriptableObject, NetworkBehaviour, Editor, EditorWindow... "
                    "(by name where UnityEngine is not bound) that Unity may make; `why` says how: attached (a scene, "
                    "prefab or asset attaches it), editor, create_asset_menu, package, no_meta (no .cs.meta), "
                    "unseen_assets (assets not read may attach it), made_by_itself (a static member of its own adds "
                    "it), inactive_code, unbound_name, markup (named where the index cannot follow)",
    "unity_message": "Unity messages (Awake, Start, Update, OnTriggerEnter, OnValidate...) of those classes, which "
                     "Unity calls by name",
    "unity_serialized": "[SerializeField] and [SerializeReference] fields, public fields of those classes and of "
                        "[Serializable] classes, and the members of enums such fields hold: the editor sets them "
                        "from scenes, prefabs and assets",
    "unity_event": "methods (and property setters) a scene, prefab or asset wires to a UnityEvent (m_MethodName), or "
                   "an animation event calls (functionName)",
}


def _used_keys(conn: sqlite3.Connection) -> set[int]:
    """Keys some other symbol references (dispatch relations and recursion are no use)."""
    rows = conn.execute("SELECT DISTINCT target_key FROM refs WHERE target_key IS NOT NULL AND kind NOT IN"
                        " ('Implementation', 'Override') AND (from_key IS NULL OR from_key != target_key)")
    return {int(r[0]) for r in rows}


def _self_only_types(conn: sqlite3.Connection, types: dict[int, str]) -> set[int]:
    """Type keys whose every reference comes from inside the type (its own members name it)."""
    outside: set[int] = set()
    rows = in_chunks(conn, "SELECT DISTINCT target_key, from_key FROM refs WHERE target_key IN ({marks})"
                     " AND kind NOT IN ('Implementation', 'Override')", list(types))
    names = ids_of(conn, [r[1] for r in rows])
    for target, source in rows:
        inner = types[target][2:]
        caller = names.get(source, "") if source is not None else ""
        if not (caller[2:] == inner or caller[2:].startswith(inner + ".")):
            outside.add(target)
    return set(types) - outside


def _reached_from_outside(conn: sqlite3.Connection, types: set[str]) -> set[str]:
    """Of these types, those a member of which something outside the type references (a static member used
    elsewhere): the type is used even if nothing names it."""
    members = dict(in_chunks(conn, "SELECT DISTINCT i.key, s.container_id FROM symbols s JOIN ids i"
                                   " ON i.symbol_id = s.symbol_id WHERE s.container_id IN ({marks})", sorted(types)))
    rows = in_chunks(conn, "SELECT DISTINCT target_key, from_key FROM refs WHERE target_key IN ({marks})",
                     list(members))
    names = ids_of(conn, [r[1] for r in rows])
    reached: set[str] = set()
    for target, source in rows:
        inner = str(members[target])[2:]
        caller = names.get(source, "") if source is not None else ""
        if not (caller[2:] == inner or caller[2:].startswith(inner + ".")):
            reached.add(str(members[target]))
    return reached


# Calls that make a component or ScriptableObject of the type on their line (`AddComponent<Bootstrap>()`,
# `ScriptableObject.CreateInstance<Settings>()`, `new GameObject("Boot", typeof(Bootstrap))`).
_MAKING_CALLS = ("AddComponent", "CreateInstance", "GetOrAddComponent")


def _made_by_itself(conn: sqlite3.Connection, types: set[str]) -> set[str]:
    """Of these types, those a static member of their own names on the line of a call making it (`[RuntimeInitialize
    OnLoadMethod] static void Init() => new GameObject().AddComponent<Bootstrap>()`): the type reaches no instance
    through an instance member, but a static one runs without any."""
    keys = dict(in_chunks(conn, "SELECT key, symbol_id FROM ids WHERE symbol_id IN ({marks})", sorted(types)))
    rows = in_chunks(conn, "SELECT DISTINCT t.target_key, s.symbol_id FROM refs t"
                           " JOIN ids i ON i.key = t.from_key JOIN symbols s ON s.symbol_id = i.symbol_id"
                           " AND s.is_static = 1"
                           " JOIN refs c ON c.file_id = t.file_id AND c.line = t.line AND c.from_key = t.from_key"
                           f" AND (c.target_name IN ({', '.join(repr(n) for n in _MAKING_CALLS)})"
                           " OR (c.kind = 'Instantiate' AND c.target_name = 'GameObject'))"
                           " WHERE t.kind = 'TypeRef' AND t.target_key IN ({marks})", list(keys))
    return {str(keys[target]) for target, member in rows
            if str(member)[2:].startswith(str(keys[target])[2:] + ".")}


def _library_projects(conn: sqlite3.Connection) -> set[int]:
    """Library projects, tests aside, no app of the solution reaches through project references, or published as a
    package (a `PublishedPackage` fact, roslyn/packable.py: CAP's samples reference its transports, whose `UseRedis()`
    overloads were "unused"). A test or benchmark project built as an Exe (xUnit v3, BenchmarkDotNet) is no app:
    Polly's benchmarks referencing Polly made 91 members of its published API "unused"."""
    kinds = {r[0]: (r[1], r[2], r[3]) for r in conn.execute("SELECT id, output_kind, name, path FROM projects")}
    benchmarks = {int(r[0]) for r in conn.execute(
        "SELECT DISTINCT project_id FROM project_deps WHERE kind = 'package' AND name = 'BenchmarkDotNet'")}
    # A function app is a library the Functions host loads (no Main): an app all the same.
    functions = {int(r[0]) for r in conn.execute(
        "SELECT DISTINCT project_id FROM facts WHERE kind = 'FunctionTrigger' AND project_id IS NOT NULL")}
    # A Unity game's own assemblies are what the player runs (they are all built as libraries).
    apps = [p for p, (kind, name, path) in kinds.items()
            if (kind == "Exe" or p in functions or unity.is_game_assembly(str(path))) and p not in benchmarks
            and not _BENCHMARK_NAME.search(str(name)) and not is_test_project(str(name), str(path))]
    reached = projectrefs.referenced(projectrefs.project_references(conn), apps)
    reached -= {int(r[0]) for r in conn.execute("SELECT DISTINCT project_id FROM facts WHERE kind = 'PublishedPackage'"
                                                " AND project_id IS NOT NULL")}
    # A test project's public members are no published API either (a helper no test calls is unused).
    return {p for p, (kind, name, path) in kinds.items()
            if kind == "Library" and p not in reached | functions and not is_test_project(str(name), str(path))
            and not unity.is_game_assembly(str(path))}


_BENCHMARK_NAME = re.compile(r"(?:^|[.\-_])[A-Za-z]*Benchmarks?$")


class _Symbol(NamedTuple):
    symbol_id: str
    name: str
    kind: str
    visibility: str
    container: str | None
    project_id: int
    path: str | None
    line: int | None
    is_static: int
    col: int | None


@dataclass
class _Rules:
    """What each exclusion rule knows of the baseline; `reason` applies them in order (the first that holds)."""
    keys: dict[str, int]
    by_attribute: dict[int, str]  # member key -> reason (a set-up method, a benchmark, a module initializer)
    maybe_called: set[str]  # types an unbound call may reach
    unbound_bases: set[str]  # types naming a base or interface the compiler could not bind
    entry_types: set[str]  # types holding Main
    tests: dict[str, Any]
    test_classes: set[str | None]
    framework: set[str]
    framework_types: set[str]  # types whose members the framework calls, or which it constructs
    dispatch: set[int]  # keys of overrides and interface implementations
    libraries: set[int]
    named_types: set[str]
    unbound_names: set[str]
    in_markup: set[str]
    in_inactive_code: dict[int, frozenset[str]]  # project -> members #if branches not compiled here use
    properties: set[tuple[str | None, str]]  # (type, property name)
    named_outside: set[str]  # types something outside them references
    hidden_types: set[str]  # types no user of a library sees: internal or private, or nested in such a type
    found_by_attribute: dict[str, str]  # method or field -> the attribute its framework finds it by (`CapSubscribe`)
    enumerated: set[str]  # enums the solution lists or parses by name
    serialized_enums: set[str]  # enums a public property holds
    generated: dict[str, str]  # symbol -> the source generator whose output uses it
    unity_objects: set[str]  # classes Unity may make (MonoBehaviour, ScriptableObject... by base name; query/unity)
    unity_serialized: set[str]  # fields carrying [SerializeField] or [SerializeReference]
    unity_events: frozenset[str]  # method names scenes, prefabs and assets wire to UnityEvents
    unity_serializable: set[str] = field(default_factory=set)  # [Serializable] types of a Unity project
    unity_enums: set[str] = field(default_factory=set)  # enums a Unity-serialized field holds
    # Components and ScriptableObjects nothing makes: no asset attaches them and nothing outside them names them.
    # Listed, their instance members with them (messages, serialized fields: no instance has them).
    unity_unattached: set[str] = field(default_factory=set)
    unity_kept: dict[str, str | None] = field(default_factory=dict)  # class -> why Unity may make it

    def unity_reason(self, s: _Symbol) -> str | None:
        """Boss Room's MonoBehaviours: private `Awake`/`Update`, `[SerializeField]` fields no code reads, a button's
        `m_MethodName: OnStartClicked` in a scene. Unity calls or sets each; the code never names them."""
        if s.symbol_id in self.unity_objects:
            return "unity_object"
        if s.kind == "Method" and s.container in self.unity_objects and s.name in unity.MESSAGES:
            return "unity_message"
        if s.container in self.unity_unattached:
            return None  # nothing makes the class: its messages, its fields and the enums they hold are not Unity's
        if s.kind == "Field" and (s.symbol_id in self.unity_serialized
                                  or ((s.container in self.unity_objects or s.container in self.unity_serializable)
                                      and s.visibility == "public" and not s.is_static)):
            return "unity_serialized"
        if s.kind == "EnumMember" and s.container in self.unity_enums:
            return "unity_serialized"
        if (s.kind == "Method" and s.name in self.unity_events) or \
                (s.kind == "Property" and f"set_{s.name}" in self.unity_events):
            return "unity_event"
        return None

    def reason(self, s: _Symbol) -> str | None:
        if s.path and is_package_source(s.path):
            return "outside_repo"
        if _COMPILER_POLYFILL.match(s.symbol_id):
            return "compiler_polyfill"
        # Evidence, not a guess: the generated code names it (Avalonia.Samples' [ObservableProperty] fields).
        if s.symbol_id in self.generated:
            return "generated_code"
        # An instance member of a Unity component nothing makes ([SerializeField], [ServerRpc], an override of an
        # unbound MonoBehaviour's) is reached on no instance: listed with its class. A static one ([MenuItem],
        # [RuntimeInitializeOnLoadMethod]) is judged as any other, and may keep its class.
        if s.symbol_id in self.unity_unattached or (s.container in self.unity_unattached and not s.is_static):
            return None  # the class itself too: its interfaces (`dispatch`) are called on no instance of it
        if (by_attribute := self.by_attribute.get(self.keys.get(s.symbol_id, -1))) is not None:
            return by_attribute
        if (by_unity := self.unity_reason(s)) is not None:
            return by_unity
        # No instance of a component nothing attaches or names exists for an unbound call to reach.
        if s.symbol_id in self.maybe_called and s.symbol_id not in self.unity_unattached:
            return "unbound_name"
        if s.container in self.unbound_bases and _may_implement(s.kind, s.visibility, s.is_static, s.symbol_id):
            return "unbound_base"
        if s.name in _ENTRY_NAMES or s.symbol_id in self.entry_types:
            return "entry_point"
        if s.symbol_id in self.tests or s.symbol_id in self.test_classes:
            return "test"
        # A convention-based middleware's Invoke runs only if something registers its type (`UseMiddleware<T>()`
        # names it): Kavita's JwtRevocationMiddleware, named by nothing, is unused with its Invoke. (A Startup's
        # Configure* may be found by name, `UseStartup(assemblyName)`: not asked to be named.)
        if s.symbol_id in self.framework or s.symbol_id in self.framework_types \
                or (_called_by_convention(s.symbol_id, s.name)
                    and (not s.name.startswith("Invoke") or s.container in self.named_outside)):
            return "framework_entry"
        if self.keys.get(s.symbol_id) in self.dispatch:
            return "dispatch"
        # EF Core finds migrations and snapshots by their attributes and calls these by name; with EF Core not restored
        # nothing says they override (a designer's `BuildTargetModel`, a snapshot's `BuildModel`): the file tells.
        if s.name in _EF_MIGRATION_MEMBERS and _in_migrations(s.path):
            return "framework_entry"
        if s.symbol_id in self.found_by_attribute:
            return "found_by_attribute"
        if s.visibility in _API_VISIBILITY and s.project_id in self.libraries and s.container not in self.hidden_types:
            return "public_library_api"
        if s.kind == "Property" and s.visibility == "public":
            return "serialization"
        # A deserializer makes any member of an enum a DTO's property holds (trading-app-functions-dotnet's
        # `public ByBitV5OrderStatus orderStatus`: "Untriggered" comes from the exchange, never from the code).
        if s.kind == "EnumMember" and s.container in self.serialized_enums:
            return "serialization"
        # XmlSerializer and Json.NET call `ShouldSerialize{Property}()` by name (Kavita's OPDS feed).
        if s.kind == "Method" and s.name.startswith("ShouldSerialize") \
                and (s.container, s.name.removeprefix("ShouldSerialize")) in self.properties:
            return "serialization"
        if s.kind == "Destructor" or (s.kind == "Constructor" and (
                s.container in self.named_types or s.container in self.framework_types or ".#cctor" in s.symbol_id)):
            return "constructed"
        if s.name in self.unbound_names:
            return "unbound_name"
        if s.kind == "EnumMember" and s.container in self.enumerated:
            return "enumerated"
        if s.symbol_id in self.in_markup:
            return "markup"
        if s.name in self.in_inactive_code.get(s.project_id, ()):
            return "inactive_code"
        return None


def unused(conn: sqlite3.Connection, project: str | None, kinds: list[str],
           in_markup: markup.MarkupNames | None = None, unity_events: frozenset[str] = frozenset(),
           root: Path | None = None) -> Unused:
    """`in_markup`: the names the repository's Razor and XAML markup uses (query/markup.py); `unity_events`: the
    method names its Unity scenes and prefabs wire (query/unity.py): those are left out. `root`: the working tree,
    whose inactive `#if` branches may name a Unity component nothing else makes."""
    projects = {r[0]: (r[1], r[2]) for r in conn.execute("SELECT id, name, semantic_level FROM projects")}
    skipped = sorted(name for name, level in projects.values() if level == "syntax_only")
    rows = conn.execute(
        "SELECT s.symbol_id, s.name, s.kind, s.visibility, s.container_id, s.project_id, f.path, s.line, s.is_static,"
        " s.col"
        " FROM symbols s LEFT JOIN files f ON f.id = s.file_id ORDER BY f.path, s.line").fetchall()
    # A file compiled into several projects declares its symbols once per project: judged once, as the asked
    # project's declaration when it has one (Dapper.StrongName compiles Dapper's files: asked for Dapper, its
    # unused members were StrongName's and left out).
    # Not asked for one: the project whose folder holds the file, the deepest (Dapper's, not Dapper.StrongName's).
    wanted = {pid for pid, (name, _) in projects.items() if name == project}
    folders = projectrefs.project_folders(conn)
    chosen: dict[str, _Symbol] = {}
    for row in rows:
        found = chosen.get(row[0])
        if found is None or (row[5] in wanted and found.project_id not in wanted) or (
                not wanted and projects.get(row[5], ("",))[0] == projectrefs.project_of_path(folders, row[6])
                and projects.get(found.project_id, ("",))[0] != projectrefs.project_of_path(folders, found.path)):
            chosen[row[0]] = _Symbol(*row)
    symbols = list(chosen.values())
    keys = dict(in_chunks(conn, "SELECT symbol_id, key FROM ids WHERE symbol_id IN ({marks})",
                          [s.symbol_id for s in symbols]))
    used = _used_keys(conn)
    type_keys = {keys[s.symbol_id]: s.symbol_id for s in symbols
                 if s.kind in TYPE_KINDS and keys.get(s.symbol_id) in used}
    used -= _self_only_types(conn, type_keys)
    # Types something outside them names (UseMiddleware<T>(), new T(), typeof(T)): not the types whose own
    # members only call each other (Kavita's JwtRevocationMiddleware.InvokeAsync calling its IsTokenRevoked).
    named_outside = {sid for key, sid in type_keys.items() if key in used}
    # A type whose members are used is used, even if nothing names the type itself.
    used_containers = {s.container for s in symbols if s.container and keys.get(s.symbol_id) in used}
    used |= {keys[s.symbol_id] for s in symbols if s.symbol_id in used_containers and s.symbol_id in keys}
    tests = test_facts(conn)
    lineage = _Bases(conn)
    framework = _framework_members(conn, symbols, lineage)
    framework |= set(trace.convention_handle_methods(conn))  # found by name (Foundatio.Mediator, Wolverine)
    named_types = {s.symbol_id for s in symbols if s.kind in TYPE_KINDS
                   and (keys.get(s.symbol_id) in used or s.symbol_id in used_containers)}
    unbound_names = {r[0] for r in conn.execute("SELECT DISTINCT target_name FROM refs WHERE target_key IS NULL")}
    # A type an unbound call may reach through one of its members (an extension method on a missing library's
    # type) is not said unused: its members are judged one by one.
    maybe_called = {s.container for s in symbols
                    if s.container and s.kind not in TYPE_KINDS and s.name in unbound_names}
    # Markup names a symbol for the projects its own project sees (query/markup.py): asked with every project
    # declaring the symbol, a file several projects compile being theirs too; a private member, only by its own
    # component's markup.
    declaring: dict[str, set[int]] = {}
    for row in rows:
        declaring.setdefault(row[0], set()).add(row[5])
    named_in_markup = {s.symbol_id for s in symbols if in_markup is not None and in_markup.names(
        s.name, s.kind, declaring[s.symbol_id], markup.private_owner(s.visibility, s.container))}
    is_unity = unity.is_unity_baseline(conn)
    unimplemented = _unimplemented_members(conn)
    rules = _Rules(
        keys=keys, by_attribute=_run_by_attribute(conn), maybe_called=maybe_called, unbound_bases=lineage.unbound,
        # The class holding Main (top-level statements' `Program`) is the entry point's, not unused.
        entry_types={s.container for s in symbols if s.name in _ENTRY_NAMES and s.container},
        tests=tests, test_classes=_test_classes(symbols, tests, lineage), framework=framework,
        framework_types={s.container for s in symbols if s.symbol_id in framework and s.container}
        | lineage.derived_from(_MADE_BY_FRAMEWORK),
        dispatch={r[0] for r in conn.execute("SELECT DISTINCT from_key FROM refs WHERE kind IN"
                                             " ('Implementation', 'Override') AND from_key IS NOT NULL")}
        # A class deriving from a handler implements its interface too (eShop's six
        # `*IdentifiedCommandHandler : IdentifiedCommandHandler<T, R>`, found by MediatR's assembly scan), and so does
        # one deriving from an implementer of an interface a constructor takes (Radarr's BrowserConfig, under a base
        # implementing the IMapHttpRequestsToDisk a controller takes all of, made by DryIoc's assembly scan).
        | {keys[t] for t in lineage.derived_from(lineage.implementers | lineage.implementing(_injected(conn)))
           if t in keys}
        # A handler's Handle is the mediator's to call, even where its signature misses the interface's (Contoso on
        # MediatR 12 for 11: CS0738, so no Implementation reference).
        | {keys[h] for h in handle_methods_of_handlers(conn) if h in keys}
        | set(unlinked.implementations(conn))  # its signature names a missing type: linked by name
        | {keys[s.symbol_id] for s in symbols if s.container and (s.container, s.name) in unimplemented
           and s.symbol_id in keys and _may_implement(s.kind, s.visibility, s.is_static, s.symbol_id)
           and _arity_matches(unimplemented[(s.container, s.name)], s)},
        libraries=_library_projects(conn), named_types=named_types, unbound_names=unbound_names,
        in_markup=named_in_markup, in_inactive_code=inactive.names_by_project(conn),
        properties={(s.container, s.name) for s in symbols if s.kind == "Property"}, named_outside=named_outside,
        hidden_types=_hidden_types(symbols),
        found_by_attribute=_found_by_attribute(conn, symbols, lineage) | unity.injected_fields(conn),
        enumerated=_enumerated_enums(conn), serialized_enums=_property_enums(conn),
        generated=generated.generators_by_symbol(conn),
        # Unity's rules only in a Unity project: an unrestored MAUI app's `class X : Editor` is no Unity editor.
        unity_objects=set(),
        unity_serialized=unity.serialized_fields(conn) if is_unity else set(),
        unity_events=unity_events if is_unity else frozenset())
    if is_unity:
        rules.unity_kept = _unity_objects(conn, symbols, lineage)
        # A component no asset attaches, that code names nowhere outside itself (its members may call each other:
        # TextMesh Pro's VertexZoom starts its own coroutine), has no instance: unused, with all its members. One code
        # names keeps Unity's rules (AddComponent<T>() makes it; a base class's Awake runs in its subclasses).
        unattached = {sid for sid, why in rules.unity_kept.items() if why is None} - named_outside
        unattached -= _reached_from_outside(conn, unattached) if unattached else set()
        # One its own static member adds or creates (a [RuntimeInitializeOnLoadMethod]'s AddComponent<T>()), or named
        # where the index cannot follow it (an `#if UNITY_ANDROID` branch's AddComponent<T>(), an unbound call,
        # markup), may be made: kept, said why, and its members judged by Unity's rules.
        made_by_itself = _made_by_itself(conn, unattached) if unattached else set()
        unattached_symbols = [s for s in symbols if s.symbol_id in unattached]
        in_branches = unity.inactive_mentions(conn, root, {s.name for s in unattached_symbols}) if root else {}
        for s in unattached_symbols:
            if s.symbol_id in made_by_itself:
                rules.unity_kept[s.symbol_id] = "made_by_itself"
            elif s.name in rules.in_inactive_code.get(s.project_id, ()) or s.name in in_branches.get(s.project_id, ()):
                rules.unity_kept[s.symbol_id] = "inactive_code"
            elif s.name in unbound_names:
                rules.unity_kept[s.symbol_id] = "unbound_name"
            elif s.symbol_id in named_in_markup:
                rules.unity_kept[s.symbol_id] = "markup"
        rules.unity_unattached = {sid for sid in unattached if rules.unity_kept.get(sid) is None}
        rules.unity_objects = set(rules.unity_kept) - rules.unity_unattached
        used_containers -= rules.unity_unattached
        used -= {keys[t] for t in rules.unity_unattached if t in keys}
        rules.unity_serializable = unity.serializable_types(conn)
        rules.unity_enums = unity.enums_of_fields(conn, {s.symbol_id for s in symbols if s.kind == "Field"
                                                         and rules.unity_reason(s) == "unity_serialized"})
    reasons = {s.symbol_id: rules.reason(s) for s in symbols
               if keys.get(s.symbol_id) not in used and s.symbol_id not in used_containers}
    # A type nothing names whose member the framework, the runtime or a test runner reaches is reached with it
    # (a class holding a module initializer, a [TestClass] holding only an [AssemblyInitialize]).
    changed = True
    while changed:  # up through nested types: a nested class's module initializer reaches its outer class too
        changed = False
        for sym in symbols:
            reason = reasons.get(sym.symbol_id)
            if reason in _REACHES_ITS_TYPE and sym.container in reasons and reasons[sym.container] is None \
                    and not (reason in _NEEDS_AN_INSTANCE and sym.container in rules.unity_unattached):
                reasons[sym.container] = reason
                if reason == "found_by_attribute":  # a subscriber class nothing names: said by its method's attribute
                    rules.found_by_attribute[sym.container] = rules.found_by_attribute[sym.symbol_id]
                changed = True
    # A type left out for a reason (an implementation DI may make, a page model) is constructed some way we
    # cannot see: so is its constructor.
    for sym in symbols:
        if sym.kind == "Constructor" and reasons.get(sym.symbol_id, "") is None and reasons.get(sym.container or ""):
            reasons[sym.symbol_id] = "constructed"
    excluded: dict[str, int] = {}
    kept: dict[str, int] = {}
    attributes: dict[str, int] = {}
    generators: dict[str, int] = {}
    items = []
    for sym in symbols:
        pname, level = projects.get(sym.project_id, ("?", "syntax_only"))
        if level == "syntax_only" or (project and pname != project) or (kinds and sym.kind not in kinds):
            continue
        if sym.symbol_id not in reasons:
            continue
        if reason := reasons[sym.symbol_id]:
            excluded[reason] = excluded.get(reason, 0) + 1
            if reason == "found_by_attribute":
                attribute = rules.found_by_attribute[sym.symbol_id]
                attributes[attribute] = attributes.get(attribute, 0) + 1
            if reason == "generated_code":
                generator = generated.short(rules.generated[sym.symbol_id])
                generators[generator] = generators.get(generator, 0) + 1
            if reason == "unity_object":
                why = str(rules.unity_kept.get(sym.symbol_id))
                kept[why] = kept.get(why, 0) + 1
            continue
        if sym.container in reasons and reasons[sym.container] is None:  # said once, by its type
            continue
        items.append({"symbol_id": sym.symbol_id, "kind": sym.kind, "file": sym.path, "line": sym.line,
                      "project": pname})
    return Unused(items, excluded, skipped, dict(sorted(attributes.items())), dict(sorted(generators.items())),
                  dict(sorted(kept.items())))


def _unity_objects(conn: sqlite3.Connection, symbols: list[_Symbol], lineage: _Bases) -> dict[str, str | None]:
    """The classes deriving from a base Unity makes, judged by the assets attaching them (query/unity.py)."""
    objects = lineage.derived_from(unity.OBJECT_BASES)
    paths = {int(r[0]): str(r[1]) for r in conn.execute("SELECT id, path FROM projects")}
    files = unity.class_files(conn, sorted(objects))
    declared = {s.symbol_id: unity.Declared(s.path, s.name, s.container,
                                            unity.is_game_assembly(paths.get(s.project_id, "")),
                                            tuple(f for f in files.get(s.symbol_id, []) if f != s.path))
                for s in symbols if s.symbol_id in objects}
    return unity.judge_objects(conn, objects, lineage.derived_from(unity.EDITOR_BASES), declared)


# System.Enum's methods that reach every member of the enum they are given (as a type argument or `typeof`).
_ENUMERATING = ("GetValues", "GetNames", "GetValuesAsUnderlyingType", "Parse", "TryParse", "IsDefined")


# A method told which enum to list: a `System.Type` parameter, or a type parameter of its own (``` ``0 ```).
_GIVEN_AN_ENUM = re.compile(r"[(,]System\.Type[,)]|``\d")

# The enums named on the line of a call to one of these methods (keys of `ids`).
_ENUMS_ON_CALL_LINES = (
    "SELECT DISTINCT t.symbol_id FROM refs c"
    " JOIN refs r ON r.file_id = c.file_id AND r.line = c.line AND r.kind = 'TypeRef'"
    " JOIN ids t ON t.key = r.target_key JOIN symbols s ON s.symbol_id = t.symbol_id AND s.kind = 'Enum'"
    " WHERE c.kind = 'Call' AND c.target_key IN ({keys})")


def _calls_masstransit_scan(conn: sqlite3.Connection) -> bool:
    """Whether the solution calls one of MassTransit's registration scans, bound (a range over the unique index of
    ids, then refs by target) or not (the partial index of unresolved names): no scan of the references."""
    scans = [int(r[0]) for r in conn.execute(
        "SELECT key, symbol_id FROM ids WHERE symbol_id >= 'M:MassTransit.' AND symbol_id < 'M:MassTransit/'")
        if _MASSTRANSIT_SCAN_ID.search(str(r[1]))]
    if scans and conn.execute(f"SELECT 1 FROM refs WHERE target_key IN ({marks(scans)}) AND kind = 'Call' LIMIT 1",
                              scans).fetchone():
        return True
    return conn.execute(f"SELECT 1 FROM refs WHERE target_key IS NULL AND target_name IN"
                        f" ({marks(list(_MASSTRANSIT_SCANS))}) AND kind = 'Call' LIMIT 1",
                        list(_MASSTRANSIT_SCANS)).fetchone() is not None


def _enumerated_enums(conn: sqlite3.Connection) -> set[str]:
    """Enums named on the line of a call listing or parsing an enum (`Enum.GetValues<ShapeType>()`,
    `Enum.TryParse(text, out Color c)`): their members are reached by value, none by name (Avalonia.Samples'
    ShapeType, shown by templates keyed by member name); and those named on the line of a call to a helper of the
    solution that hands the enum it is given (a `Type` parameter, or a type argument) to such a call: SimplCommerce's
    `EnumHelper.ToDictionary(typeof(OrderStatus))` lists every member through `Enum.GetValues(type)`."""
    # A range over the unique index of ids, then refs by target: no scan of the references.
    enum_calls = [int(r[0]) for r in conn.execute(
        "SELECT key FROM ids WHERE symbol_id >= 'M:System.Enum.' AND symbol_id < 'M:System.Enum/'")]
    if not enum_calls:
        return set()
    found = {str(r[0]) for r in conn.execute(
        _ENUMS_ON_CALL_LINES.format(keys=marks(enum_calls))
        + f" AND c.target_name IN ({marks(list(_ENUMERATING))})", [*enum_calls, *_ENUMERATING])}
    # One hop: the members making those calls whose enum comes from their caller (its Type or a type argument).
    helpers = [int(r[0]) for r in conn.execute(
        f"SELECT DISTINCT c.from_key, h.symbol_id FROM refs c JOIN ids h ON h.key = c.from_key WHERE c.kind = 'Call'"
        f" AND c.target_key IN ({marks(enum_calls)}) AND c.target_name IN ({marks(list(_ENUMERATING))})",
        [*enum_calls, *_ENUMERATING]) if _GIVEN_AN_ENUM.search(str(r[1]))]
    if helpers:
        found |= {str(r[0]) for r in conn.execute(_ENUMS_ON_CALL_LINES.format(keys=marks(helpers)), helpers)}
    return found


def _property_enums(conn: sqlite3.Connection) -> set[str]:
    """Enums a public property's type names (itself, or a type argument: `List<Status>`): a name on the declaration's
    line before the property's own, not one its body or attributes use (`bool IsPaid => Status == Status.Paid`)."""
    rows = conn.execute(ENUMS_OF_DECLARED_TYPES.format(where="m.kind = 'Property' AND m.visibility = 'public'"))
    # A positional record's property is declared by its primary constructor's parameter, whose type the constructor
    # references (EventSourcing.NetCore's `record CategoriseIncident(Guid IncidentId, IncidentCategory Category, ...)`:
    # IncidentCategory's members were "unused").
    positional = conn.execute(
        "SELECT DISTINCT t.symbol_id FROM symbols m JOIN symbols c ON c.container_id = m.container_id"
        " AND c.kind = 'Constructor' JOIN ids ck ON ck.symbol_id = c.symbol_id"
        " JOIN refs r ON r.from_key = ck.key AND r.kind = 'TypeRef' AND r.file_id = m.file_id AND r.line = m.line"
        " AND r.col < m.col JOIN ids t ON t.key = r.target_key JOIN symbols e ON e.symbol_id = t.symbol_id"
        " AND e.kind = 'Enum' WHERE m.kind = 'Property' AND m.visibility = 'public'")
    return {str(r[0]) for r in rows} | {str(r[0]) for r in positional}


def _in_migrations(path: str | None) -> bool:
    """An EF migration or model snapshot: under a `Migrations` (or `Migration`) folder, or a `*ModelSnapshot.cs` (a
    WinForms `.Designer.cs` is none)."""
    return surfaces.in_migration_folder(path) or (path or "").replace("\\", "/").endswith("ModelSnapshot.cs")


_EF_MIGRATION_MEMBERS = frozenset({"Up", "Down", "BuildTargetModel", "BuildModel"})
_API_VISIBILITY = ("public", "protected", "protected internal")


def _hidden_types(symbols: list[_Symbol]) -> set[str]:
    """Types a library's users cannot see: not public (or protected), or nested in such a type. A public member of
    `internal static class Guard` is no published API."""
    types = {s.symbol_id: s for s in symbols if s.kind in TYPE_KINDS}
    hidden: set[str] = set()
    for type_id in types:
        current: str | None = type_id
        for _ in range(32):  # nesting depth; a cycle in broken code ends it
            found = types.get(current) if current else None
            if found is None:
                break
            if found.visibility not in _API_VISIBILITY:
                hidden.add(type_id)
                break
            current = found.container
    return hidden


def _test_classes(symbols: list[_Symbol], tests: dict[str, Any], lineage: _Bases) -> set[str | None]:
    """Classes declaring a test, and classes deriving from one: Dapper's 45 `sealed class SystemSqlClientAsyncTests :
    AsyncTests<SystemSqlClientProvider> { }` declare nothing, yet they are what the test runner runs."""
    declaring = {s.container for s in symbols if s.symbol_id in tests and s.container}
    return {*declaring, *lineage.derived_from(frozenset(declaring))}


def _framework_members(conn: sqlite3.Connection, symbols: list[_Symbol], lineage: _Bases) -> set[str]:
    """Symbols the framework calls or finds: route and action handlers, every endpoint's handler (Razor page
    handlers, Blazor components), EF migrations and mapped entities, SignalR hub methods, view components' Invoke."""
    framework: set[str] = set()
    for kind in ("Route", "ControllerAction"):
        for fact in surfaces.facts_of_kind(conn, kind):
            handler = fact.get("handler") or fact["symbol_id"]
            if handler:
                framework.add(handler)
            if fact.get("endpoint"):  # a FastEndpoints class whose handler it inherits (PingV1 : Ping)
                framework.add(str(fact["endpoint"]))
    framework.update(str(e["handler"]) for e in surfaces.endpoints(conn, None, None).items if e.get("handler"))
    # Azure Functions whatever their trigger (a timer, a queue, a durable orchestration): the host runs them.
    framework.update(str(f["symbol_id"]) for f in surfaces.facts_of_kind(conn, "FunctionTrigger") if f["symbol_id"])
    framework |= lineage.derived_from(_FOUND_BY_BASE)
    # Entities the current EF Core model maps: its snapshot names them by a string (SimplCommerce registers them by
    # reflection), not by a reference. (Not an old migration's designer, nor a [Table] class nothing maps.)
    framework |= {str(f["entity"]) for f in surfaces.facts_of_kind(conn, "DbTable")
                  if f.get("entity") and str(f.get("file") or "").endswith("ModelSnapshot.cs")}
    # Types an assembly scan registers, when the solution asks for that scan (Contoso's 15 validators and 20
    # AutoMapper profiles): AddValidatorsFromAssembly*, AddAutoMapper.
    # An Autofac assembly scan (`RegisterAssemblyTypes(...).AsClosedTypesOf(typeof(IValidator<>))`, modular-monolith's
    # validators) may register either.
    autofac_scan = conn.execute("SELECT 1 FROM facts WHERE kind = 'DiRegistration' AND detail LIKE"
                                " '%\"form\":\"scan\"%' LIMIT 1").fetchone() is not None
    for scan, bases in _SCANNED_BASES.items():
        if autofac_scan or conn.execute("SELECT 1 FROM facts WHERE kind = 'DiRegistration' AND detail LIKE ? LIMIT 1",
                                        (f'%"via":"{scan}%',)).fetchone():
            framework |= lineage.derived_from(bases)
    # MassTransit's registration scans register the consumers, activities and sagas they find with the definitions
    # configuring them, which nothing names (Sample-Twitch's FulfillOrderConsumerDefinition, its retry policy and
    # concurrency limit, was "unused"). Any scan counts: a definition in a namespace no scan names stays out too.
    if _calls_masstransit_scan(conn):
        framework |= lineage.derived_from(_MASSTRANSIT_DEFINITIONS)
    hubs = lineage.derived_from(_HUB_BASES)
    framework |= {s.symbol_id for s in symbols
                  if s.container in hubs and s.kind == "Method" and s.visibility == "public" and not s.is_static}
    # A page model's handlers are found by name (On{Verb}[Handler][Async]), whether or not its page is a routed one
    # the index lists: MudBlazor's Docs.WasmHost `_Host.cshtml`, which `MapFallbackToPage("/_Host")` serves.
    page_models = lineage.derived_from(frozenset({_PAGE_MODEL}))
    framework |= {s.symbol_id for s in symbols if s.container in page_models and s.kind == "Method"
                  and s.visibility == "public" and not s.is_static and _PAGE_HANDLER.match(s.name)}
    view_components = lineage.derived_from(_VIEW_COMPONENT_BASES)
    framework |= {s.symbol_id for s in symbols
                  if s.container in view_components and s.name in ("Invoke", "InvokeAsync")}
    # A Marten projection's Apply/Create/Project/Transform/ShouldDelete methods are found by name and called from
    # the code Marten generates at run time (EventSourcing.NetCore's IncidentHistoryTransformation: ten Transform
    # methods "unused"). Any visibility: Marten finds non-public ones too.
    projections = lineage.derived_from(_MARTEN_PROJECTION_BASES)
    framework |= {s.symbol_id for s in symbols
                  if s.container in projections and s.kind == "Method" and s.name in _MARTEN_CONVENTIONAL_METHODS}
    # Wolverine finds its message handlers by name alone: a public Handle/Consume method (static or not) of a class
    # named *Handler or *Consumer, whether or not anything sends its message through a bus (a message an endpoint or
    # handler returns is cascaded to it). In a solution using Wolverine, every such method is taken for one.
    framework |= {h for handlers in trace.wolverine_handlers(conn).values() for h in handlers}
    return framework


# Members ASP.NET Core calls by their name and shape, never through a reference: a convention-based middleware's
# Invoke/InvokeAsync(HttpContext) (jellyfin's eight, run by UseMiddleware<T>()) and a Startup class's
# ConfigureServices(IServiceCollection)/ConfigureContainer.
_CONVENTION = re.compile(r"\.(?:Invoke(?:Async)?\(Microsoft\.AspNetCore\.Http\.HttpContext"
                         r"|Configure\w*Services\(Microsoft\.Extensions\.DependencyInjection\.IServiceCollection"
                         r"|Configure\w*\(Microsoft\.AspNetCore\.Builder\.IApplicationBuilder"
                         r"|ConfigureContainer\()")


def _called_by_convention(sid: str, name: str) -> bool:
    """`ConfigureDevelopmentServices` and `ConfigureStaging(IApplicationBuilder)` too (Startup's per-environment
    variants)."""
    # Avalonia's previewer and headless test runner call an app's static `BuildAvaloniaApp()` by name.
    return name == "BuildAvaloniaApp" or (
        name.startswith(("Invoke", "Configure")) and _CONVENTION.search(sid) is not None)


_ENTRY_NAMES = ("Main", "<Main>$")
# `markup` too: a type listed stands for its members, so deleting it would delete what views use (Contoso's
# HtmlHelperExtensions, every method called as `@Html.FormBlock(...)`). Markup is matched by name only, so a dead type
# with a member named like one markup uses (`Count`) is no longer said whole: its other unused members are listed.
# Not `generated_code`: a type's own generated part (an [ObservableProperty]'s property) naming its members keeps none
# of them alive; a type another type's generated code names has a fact of its own.
_REACHES_ITS_TYPE = frozenset({"entry_point", "test", "framework_entry", "unbound_base", "unbound_name",
                               "outside_repo", "markup", "found_by_attribute", "unity_message", "unity_event"})
# Reasons a member is reached only on an instance of its class: a Unity component no asset attaches and no code names
# has none (its methods overriding or implementing an unbound MonoBehaviour's or interface's, wired by a name another
# class has too).
_NEEDS_AN_INSTANCE = frozenset({"unbound_base", "unbound_name", "unity_message", "unity_event"})
# Types the framework finds by reflection, by the base they derive from: EF Core reads a DbContext's migrations
# and its model snapshot from the assembly (eShopOnWeb's six were "unused").
# FluentMigrator's runner finds its migrations the same way (`ScanIn(assembly)`: Sonarr's 155 were "unused").
_FOUND_BY_BASE = frozenset({"T:Microsoft.EntityFrameworkCore.Migrations.Migration",
                            "T:Microsoft.EntityFrameworkCore.Infrastructure.ModelSnapshot",
                            "T:FluentMigrator.Migration", "T:FluentMigrator.ForwardOnlyMigration",
                            "T:FluentMigrator.AutoReversingMigration",
                            # xunit makes the test framework `[assembly: TestFramework("Ns.Type", "Assembly")]` names
                            # by a string (EventSourcing.NetCore's Helpdesk AssemblyFixture was "unused").
                            "T:Xunit.Sdk.XunitTestFramework", "T:Xunit.v3.XunitTestFramework"})
# A registration scanning assemblies -> the bases whose subclasses it registers.
_SCANNED_BASES = {"AddValidatorsFrom": frozenset({"T:FluentValidation.AbstractValidator`1"}),
                  "AddAutoMapper": frozenset({"T:AutoMapper.Profile"})}
_MASSTRANSIT_SCANS = tuple(f"Add{kind}{scope}" for kind in ("Consumers", "Activities", "SagaStateMachines", "Sagas",
                                                              "Futures")
                           for scope in ("", "FromNamespaceContaining"))
_MASSTRANSIT_SCAN_ID = re.compile(r"\.(?:" + "|".join(_MASSTRANSIT_SCANS) + r")(?:``\d+)?(?:\(|$)")
# Version 8's bases, and version 7's (MassTransit.Definition) for a solution whose package did restore as 7.
_MASSTRANSIT_DEFINITIONS = frozenset(f"T:MassTransit.{ns}{name}" for ns in ("", "Definition.") for name in (
    "ConsumerDefinition`1", "ActivityDefinition`3", "ExecuteActivityDefinition`2", "SagaDefinition`1",
    "FutureDefinition`1"))
# A SignalR hub's public methods are called by clients, by name, over the connection.
_HUB_BASES = frozenset({"T:Microsoft.AspNetCore.SignalR.Hub", "T:Microsoft.AspNetCore.SignalR.Hub`1"})
# A view component's Invoke/InvokeAsync runs by name (`Component.InvokeAsync("Basket")`).
_VIEW_COMPONENT_BASES = frozenset({"T:Microsoft.AspNetCore.Mvc.ViewComponent"})
_PAGE_MODEL = "T:Microsoft.AspNetCore.Mvc.RazorPages.PageModel"
# Marten's projection bases (7 to 9) and the methods it calls on their subclasses by name.
_MARTEN_PROJECTION_BASES = frozenset({
    "T:Marten.Events.Projections.EventProjection", "T:Marten.Events.Aggregation.SingleStreamProjection`1",
    "T:Marten.Events.Aggregation.SingleStreamProjection`2", "T:Marten.Events.Projections.MultiStreamProjection`2",
    "T:Marten.Events.Aggregation.CustomProjection`2"})
_MARTEN_CONVENTIONAL_METHODS = frozenset({"Apply", "Create", "Project", "Transform", "ShouldDelete"})
_PAGE_HANDLER = re.compile(r"^On(?:Get|Post|Put|Delete|Patch|Head|Options)(?![a-z])")
# Types the framework constructs, with or without a handler of their own: a page model with no OnGet (eShopOnWeb's
# Admin IndexModel), a controller, a component, a hub.
_MADE_BY_FRAMEWORK = frozenset({
    _PAGE_MODEL, "T:Microsoft.AspNetCore.Mvc.Controller",
    "T:Microsoft.AspNetCore.Mvc.ControllerBase", "T:Microsoft.AspNetCore.Components.ComponentBase",
    "T:Microsoft.AspNetCore.Components.LayoutComponentBase", *_VIEW_COMPONENT_BASES, *_HUB_BASES})


# "'AcceptOrderActivity' does not implement interface member 'IStateMachineActivity<S, M>.Execute(...)'" (CS0535),
# "... inherited abstract member 'Base.Run()'" (CS0534), "... 'I.M()'. 'X.M()' cannot implement ..." (CS0738).
_UNIMPLEMENTED_CODES = ("CS0535", "CS0534", "CS0738", "CS0737", "CS0736")
_QUOTED = re.compile(r"'([^']*)'")


def _unimplemented_members(conn: sqlite3.Connection) -> dict[tuple[str, str], set[int | None]]:
    """(type, member name) -> the parameter counts (None: a property) of each member the compiler says a type of the
    solution fails to implement or override: its own member of that name and arity is the implementation, written
    for another version of the package than the one restored (Sample-Twitch's AcceptOrderActivity.Execute, for
    MassTransit 7's Automatonymous `Activity<S, M>`, on 8's obsolete alias taking an IBehavior: "unused", with no
    Implementation reference). Once per connection."""
    def compute() -> dict[tuple[str, str], set[int | None]]:
        found: dict[tuple[str, str], set[int | None]] = {}
        kinds = sorted(TYPE_KINDS)
        rows = conn.execute(
            "SELECT t.symbol_id, d.file_id, d.line, d.col, d.message FROM diagnostics d JOIN symbols t"
            " ON t.file_id = d.file_id AND t.line <= d.line AND t.end_line >= d.line"
            f" WHERE d.code IN ({marks(list(_UNIMPLEMENTED_CODES))}) AND t.kind IN ({marks(kinds)}) ORDER BY t.line",
            [*_UNIMPLEMENTED_CODES, *kinds])
        innermost: dict[tuple[int, int, int, str], str] = {}
        for type_id, file_id, line, col, message in rows:  # the type declared last around the error: the innermost
            innermost[(file_id, line, col, str(message))] = str(type_id)
        for (_, _, _, message), type_id in innermost.items():
            quoted = _QUOTED.findall(message)
            if len(quoted) >= 2 and (name := _member_name(quoted[1])):
                found.setdefault((type_id, name), set()).add(_parameter_count(quoted[1]))
        return found
    return memo(conn, "unimplemented_members", compute)


def _arity_matches(counts: set[int | None], s: _Symbol) -> bool:
    """The member, named like one its type fails to implement, has as many parameters (an overload with fewer,
    Exceptionless' test double's `GetGoogleUserInfoAsync(string)`, implements nothing)."""
    return None in counts or (len(parameters(s.symbol_id)) if "(" in s.symbol_id else 0) in counts


def _parameter_count(written: str) -> int | None:
    """`I.M(A<B, C>, D)` -> 2; `I.M()` -> 0; a property, `I.Name`: None."""
    if "(" not in written:
        return None
    inside = written.split("(", 1)[1].rsplit(")", 1)[0].strip()
    if not inside:
        return 0
    depth, count = 0, 1
    for c in inside:
        depth += (c in "<([") - (c in ">)]")
        count += c == "," and depth == 0
    return count


def _member_name(written: str) -> str | None:
    """`IStateMachineActivity<S, M>.Faulted<TException>(A<S>, B)` -> `Faulted`; `I.Name` -> `Name`."""
    head = written.split("(", 1)[0]
    while (bare := _GENERIC_ARGUMENTS.sub("", head)) != head:  # nested ones from the inside out
        head = bare
    name = head.rsplit(".", 1)[-1]
    return name if name.isidentifier() else None


_GENERIC_ARGUMENTS = re.compile(r"<[^<>]*>")


def _may_implement(kind: str, visibility: str, is_static: int, symbol_id: str) -> bool:
    """An instance member that could implement an interface or override a base member: not private, unless it is an
    explicit implementation (`P:A.Accessor.Lib#IAccessor#Context`: private, and an interface's)."""
    explicit = "#" in symbol_id.split("(", 1)[0].rsplit(".", 1)[-1]
    return kind in ("Method", "Property", "Event", "Indexer") and (visibility != "private" or explicit) \
        and not is_static


def _injected(conn: sqlite3.Connection) -> set[str]:
    """The types the constructors of the solution take (their parameters' types and the type arguments in them,
    `IEnumerable<IMapper>` naming IMapper): what DI resolves. A type named only in a constructor's body is not."""
    found: set[str] = set()
    for (ctor,) in conn.execute("SELECT symbol_id FROM symbols WHERE kind = 'Constructor'"):
        for parameter in parameters(str(ctor)):
            found.update("T:" + name for name in _NAMES_IN_TYPE.split(parameter) if name and not name.startswith("`"))
    return found


# Splits a documentation-id parameter type into the type names it holds: `Generic.IEnumerable{N.IMapper}`, arrays,
# `@` (ref) and pointers.
_NAMES_IN_TYPE = re.compile(r"[{},\[\]@*]+")


class _Bases:
    """The solution's types by the base classes they derive from, and those naming a base or interface the
    compiler could not bind (a package not restored: eShopOnWeb's `IEndpoint<...>.AddRoute` implementations)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._base: dict[str, str] = {}
        self.unbound: set[str] = set()
        # Handlers only: a dead subclass of an entity implementing IAggregateRoot is still dead.
        own = own_handler_interfaces(conn)  # `ICommandHandler<T> : IRequestHandler<T>` (modular-monolith)
        self.implementers: frozenset[str] = frozenset(str(r[0]) for r in conn.execute(
            f"SELECT DISTINCT type_id FROM relations WHERE kind = 'interface' AND (related_name IN"
            f" ({marks(list(HANDLER_INTERFACES))}) OR related_id IN ({marks(own)}))", [*HANDLER_INTERFACES, *own]))
        self._interfaces: dict[str, set[str]] = {}
        for type_id, related_id, related_name, kind in conn.execute(
                "SELECT type_id, related_id, related_name, kind FROM relations"):
            if kind == "interface" and related_id is not None:
                self._interfaces.setdefault(type_id, set()).add(related_id)
            if related_id is None:
                self.unbound.add(type_id)
                # Unbound (its package did not restore): known by the name it is written with, `AbstractValidator`
                self._base.setdefault(type_id, f"?{related_name}")
            elif kind == "base":
                self._base[type_id] = related_id

    def bases_of(self, type_id: str) -> list[str]:
        """The base classes of a type, nearest first (an unbound one by its name: `?Profile`)."""
        out: list[str] = []
        current = self._base.get(type_id)
        while current is not None and current not in out:
            out.append(current)
            current = self._base.get(current)
        return out

    def implementing(self, interfaces: set[str]) -> frozenset[str]:
        """The types naming one of `interfaces` among those they implement."""
        return frozenset(t for t, named in self._interfaces.items() if named & interfaces)

    def derived_from(self, roots: frozenset[str]) -> set[str]:
        """Types whose base class chain reaches one of `roots` (an unbound base by its name: `?Profile`)."""
        named = {f"?{root[2:].rsplit('.', 1)[-1].split('`', 1)[0]}" for root in roots}
        out: set[str] = set()
        for type_id in self._base:
            seen: set[str] = set()
            current: str | None = self._base[type_id]
            while current is not None and current not in seen:
                if current in roots or current in named:
                    out.add(type_id)
                    break
                seen.add(current)
                current = self._base.get(current)
        return out


# Methods the runtime or a test framework runs because of an attribute they carry: MSTest's and NUnit's set-up
# and clean-up methods (eShopOnWeb's `[AssemblyInitialize]`), a module initializer, a benchmark.
_RUN_BY_ATTRIBUTE = {
    **{f"T:Microsoft.VisualStudio.TestTools.UnitTesting.{name}Attribute": "test" for name in (
        "AssemblyInitialize", "AssemblyCleanup", "ClassInitialize", "ClassCleanup", "TestInitialize", "TestCleanup")},
    **{f"T:NUnit.Framework.{name}Attribute": "test" for name in (
        "SetUp", "TearDown", "OneTimeSetUp", "OneTimeTearDown")},
    **{f"T:BenchmarkDotNet.Attributes.{name}Attribute": "framework_entry" for name in (
        "Benchmark", "GlobalSetup", "GlobalCleanup", "IterationSetup", "IterationCleanup")},
    "T:System.Runtime.CompilerServices.ModuleInitializerAttribute": "entry_point",
}


def _run_by_attribute(conn: sqlite3.Connection) -> dict[int, str]:
    """Key of each member carrying one of _RUN_BY_ATTRIBUTE's attributes -> its reason. An attribute the compiler
    could not bind (its package not restored) counts by its name."""
    reasons: dict[int, str] = {}
    bound = in_chunks(conn, "SELECT r.from_key, i.symbol_id FROM refs r JOIN ids i ON i.key = r.target_key"
                            " WHERE r.kind = 'TypeRef' AND r.from_key IS NOT NULL AND i.symbol_id IN ({marks})",
                      list(_RUN_BY_ATTRIBUTE))
    by_name = {type_id.rsplit(".", 1)[1]: reason for type_id, reason in _RUN_BY_ATTRIBUTE.items()}
    by_name |= {name.removesuffix("Attribute"): reason for name, reason in list(by_name.items())}
    unbound = in_chunks(conn, "SELECT from_key, target_name FROM refs WHERE target_key IS NULL"
                              " AND kind = 'TypeRef' AND from_key IS NOT NULL AND target_name IN ({marks})",
                        list(by_name))
    for from_key, type_id in bound:
        reasons[int(from_key)] = _RUN_BY_ATTRIBUTE[type_id]
    for from_key, name in unbound:
        reasons.setdefault(int(from_key), by_name[name])
    return reasons



# Types the compiler needs in source where the target framework lacks them and uses without any name in the code:
# Hangfire.Core's `IsExternalInit` (netstandard2.0 `init` accessors), RequiredMemberAttribute, nullable attributes.
_COMPILER_POLYFILL = re.compile(r"^[A-Z]:(?:System\.Runtime\.CompilerServices\.|System\.Diagnostics\.CodeAnalysis\."
                                r"|System\.(?:Index|Range)(?:$|\.)|Microsoft\.CodeAnalysis\.EmbeddedAttribute(?:$|\.))")

# Reflection reading a member's attributes, whatever overload: `GetCustomAttributes<TopicAttribute>(true)`,
# `IsDefined(typeof(T))`, `CustomAttributes.Any(a => a.AttributeType == typeof(T))`.
_ATTRIBUTE_READERS = re.compile(r"^[MP]:System\.[\w.`]*\.(?:GetCustomAttributes?|IsDefined|GetCustomAttributesData"
                                r"|CustomAttributes|AttributeType)(?:[`(]|$)")
# Assemblies of the .NET shared frameworks (and .NET Framework's): their attributes annotate ([Obsolete],
# [NonAction], [LoggerMessage]); those meaning "called by the runtime" are _CALLED_BY_FRAMEWORK.
_FRAMEWORK_ASSEMBLY = re.compile(r"^(?:System(?:\..*)?|mscorlib|netstandard|WindowsBase|Presentation\w+|Microsoft\."
                                 r"(?:AspNetCore|Extensions|Win32|JSInterop|Net\.Http\.Headers|VisualBasic|CSharp|NETCore)"
                                 r"(?:\..*)?)$")
_CALLED_BY_FRAMEWORK = frozenset({
    "T:Microsoft.JSInterop.JSInvokableAttribute",  # Blazor's JavaScript calls it by name
    "T:System.Runtime.InteropServices.UnmanagedCallersOnlyAttribute",  # native code calls it
    *(f"T:System.Runtime.Serialization.On{when}Attribute"  # serializers call these callbacks
      for when in ("Deserialized", "Deserializing", "Serialized", "Serializing"))})
# Package attributes that only annotate a method something else calls: JetBrains' annotations (but [UsedImplicitly]
# and [PublicAPI], which say it is used), Hangfire's job filters (the job is named by the expression enqueuing it),
# EF Core's [DbFunction], Refit's HTTP verbs, FluentAssertions' [CustomAssertion], woven aspects (Fody add-ins,
# PostSharp, Metalama).
_ANNOTATING_PACKAGE = re.compile(r"^T:(?:JetBrains\.Annotations\.(?!(?:UsedImplicitly|PublicAPI)Attribute$)|Hangfire\."
                                 r"|Microsoft\.EntityFrameworkCore\.|Refit\.|FluentAssertions\.|PostSharp\.|Metalama\."
                                 r"|MethodTimer\.|NullGuard\.|PropertyChanged\.|Anotar\.)")


def _found_by_attribute(conn: sqlite3.Connection, symbols: list[_Symbol],
                        lineage: _Bases) -> dict[str, str]:
    """Method -> the attribute (`CapSubscribe`) by which something outside the reference graph finds and calls it:
    one whose type, or a base of it, the solution reads by reflection (CAP's subscribers: `[CapSubscribe]` derives
    from the TopicAttribute that `method.GetCustomAttributes<TopicAttribute>(true)` reads), one from a package (its
    framework's: Dapr's [Topic], Azure Functions' [FunctionName], CAP's when CAP is a package) unless it only
    annotates (_ANNOTATING_PACKAGE), one of _CALLED_BY_FRAMEWORK, or one the compiler could not bind (its package did
    not restore: whose it is cannot be told). An attribute is a TypeRef of the method written before its name, not
    its return type. Fields too: a source generator's attribute (`[ObservableProperty] bool isBusy;`) makes code that
    reads the field, and unrestored (IfpaMaui, a MAUI app without its workload) no generator runs to show it."""
    methods = {s.symbol_id: s for s in symbols if s.kind in ("Method", "Field")}
    # Joined in SQL: the TypeRefs of every method's signature and body would be many more rows.
    uses = [u for u in conn.execute(
        "SELECT s.symbol_id, r.target_key, r.target_name, r.line, r.col FROM refs r JOIN ids i ON i.key = r.from_key"
        " JOIN symbols s ON s.symbol_id = i.symbol_id AND s.file_id = r.file_id WHERE r.kind = 'TypeRef'"
        " AND s.kind IN ('Method', 'Field') AND (r.line < s.line OR (r.line = s.line AND r.col < s.col))")
        if u[0] in methods]
    if not uses:
        return {}
    signatures = dict(in_chunks(conn, "SELECT symbol_id, signature FROM symbols WHERE symbol_id IN ({marks})",
                                list({u[0] for u in uses})))
    targets = ids_of(conn, list({u[1] for u in uses if u[1] is not None}))
    assemblies = dict(in_chunks(conn, "SELECT symbol_id, assembly FROM externals WHERE symbol_id IN ({marks})",
                                list(targets.values())))
    reflected = _read_by_reflection(conn)
    found: dict[str, str] = {}
    for method_id, target_key, name, _line, _col in sorted(uses, key=lambda u: (u[3], u[4] or 0)):
        method = methods[method_id]
        signature = signatures.get(method_id) or ""
        declared = re.search(rf"\b{re.escape(method.name)}\s*[<(]", signature)
        if re.search(rf"\b{re.escape(name)}\b", signature[:declared.start() if declared else len(signature)]):
            continue  # `public TopicAttribute Describe()`: its return type (or an explicit implementation's interface)
        type_id = targets.get(target_key) if target_key is not None else None
        if type_id is None:
            called = target_key is None  # unbound
        elif type_id in assemblies:  # a framework's or a package's
            called = type_id in _CALLED_BY_FRAMEWORK or type_id in reflected or (
                name.endswith("Attribute") and not _FRAMEWORK_ASSEMBLY.match(assemblies[type_id] or "")
                and not _ANNOTATING_PACKAGE.match(type_id))
        else:  # the solution's own
            called = bool(reflected & {type_id, *lineage.bases_of(type_id)})
        if called:
            found.setdefault(method_id, name.removesuffix("Attribute") or name)
    # The `partial void On{Property}Changing/Changed` hooks the generated property's setter calls: unrestored, no
    # generated half declares them, and nothing else names them.
    hooks = {(methods[f].container, f"On{p}{when}"): found[f] for f in list(found) if methods[f].kind == "Field"
             and found[f] == "ObservableProperty" for p in markup.generated_names(conn, f, methods[f].name, "Field")
             for when in ("Changing", "Changed")}
    for s in symbols:
        if s.kind == "Method" and (attribute := hooks.get((s.container, s.name))):
            found.setdefault(s.symbol_id, attribute)
    return found


def _read_by_reflection(conn: sqlite3.Connection) -> set[str]:
    """Types the solution reads from members' attributes by reflection: a type named (`<TopicAttribute>`,
    `typeof(T)`, `is T`) by the member calling an _ATTRIBUTE_READERS member, after that call and at most two lines
    below it. `System.Attribute` itself (every attribute) is none."""
    readers = [key for key, sid in conn.execute(
        "SELECT key, symbol_id FROM ids WHERE (symbol_id >= 'M:System.' AND symbol_id < 'M:System/')"
        " OR (symbol_id >= 'P:System.' AND symbol_id < 'P:System/')") if _ATTRIBUTE_READERS.match(sid)]
    reads: dict[int, list[tuple[int, int, int]]] = {}
    for from_key, file_id, line, col in in_chunks(conn, "SELECT from_key, file_id, line, col FROM refs"
                                                        " WHERE target_key IN ({marks}) AND from_key IS NOT NULL",
                                                  readers):
        reads.setdefault(int(from_key), []).append((file_id, line, col or 0))
    named = in_chunks(conn, "SELECT from_key, file_id, line, col, target_key FROM refs WHERE from_key IN ({marks})"
                            " AND kind = 'TypeRef' AND target_key IS NOT NULL", list(reads))
    keys = {target for from_key, file_id, line, col, target in named
            if any(file_id == at_file and (at_line, at_col) < (line, col or 0) and line <= at_line + 2
                   for at_file, at_line, at_col in reads[from_key])}
    return set(ids_of(conn, list(keys)).values()) - {"T:System.Attribute"}
