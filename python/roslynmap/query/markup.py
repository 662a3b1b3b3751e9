"""What markup names: Razor (.cshtml, .razor) and XAML (.xaml, .axaml). Razor's C# is compiled by the Razor
generator and XAML by its UI framework's build (WPF's and WinUI's generated code-behind, Avalonia's XAML compiler),
whose output is not indexed, so a member used only in markup (`@Model.BasketModel.Total()`, eShopOnWeb's Basket
page; `Click="cmdClose_Click"`, Avalonia.Samples' tray icon) has no reference. symbols_unused leaves such names
out (`markup`), and refs_find and graph_callers say where markup names a member, rather than answering a confident 0.

Razor names a member where it accesses it (`.Total`, `@Total`), calls it (`Total(`) or gives it as an attribute's
value (`OnSaveClick="Reload"`, `asp-for="Input.Email"`). XAML names one in a binding's path (`{Binding Order.Total}`,
`{x:Bind ViewModel.Save}`, Avalonia's `$parent[Window].DataContext.X`), an `{x:Static ns:Type.Member}`, an attribute
whose value is one name (an event handler, an `x:Key` naming an enum member), a `*Path` attribute
(`DisplayMemberPath="Name"`), an attribute's or a property element's property (`Value="3"`; an attached property
`svc:DialogManager.Register="..."` or `<local:Tips.Tip>` names `GetRegister`, `SetRegister`, `RegisterProperty`)
and an element's text that is one name (an enum value in a XAML collection). A type is named wherever its name
appears in either (`@model BasketViewModel`, `<CartItem />`, `x:Class="App.Views.MainView"`). Names, not bindings:
another member of the same name counts too, which is why this excludes and warns but never adds references.

A markup file is compiled into its own project (the deepest project folder holding it), so its names count only for
the symbols of that project and of the projects it references: a `Clicked="OnRefreshClicked"` in a MAUI app keeps no
same-named member of an unrelated tool alive. A file whose project cannot be told counts for every project.
"""

from __future__ import annotations

import re
import sqlite3
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from roslynmap.model.errors import RoslynMapError
from roslynmap.model.kinds import TYPE_KINDS
from roslynmap.model.readable import in_project_folders, repository_files
from roslynmap.query import projectrefs
from roslynmap.query.code import read_lines
from roslynmap.query.sql import memo

RAZOR_FILES = ("*.cshtml", "*.razor")
XAML_FILES = ("*.xaml", "*.axaml")
MARKUP_FILES = RAZOR_FILES + XAML_FILES
# `.Name`, `@Name`, `Name(`, and an attribute's value that starts with a name: a component parameter given a method
# group (`OnSaveClick="ReloadCatalogItems"`, eShopOnWeb's BlazorAdmin) or a tag helper's model path
# (`asp-for="Input.Email"`).
_MEMBER = re.compile(r"[.@]\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*\(|=\s*\"\s*([A-Za-z_]\w*)")
_WORD = re.compile(r"[A-Za-z_]\w*")

# XAML. A binding's path: the extension's first argument (`{Binding Items.Count, Mode=OneWay}`, `{x:Bind
# ViewModel.Save}`, `{Binding $parent[Window].DataContext.Caption}`, `{Binding #nameBox.Text}`) or its `Path=`.
_XAML_BINDING = re.compile(r"\{\s*(?:Binding|x:Bind|CompiledBinding|ReflectionBinding|TemplateBinding)\s+"
                           r"([^,{}=\"']+)(?=[,}])")
_XAML_PATH_ARGUMENT = re.compile(r"(?<![\w:.])Path\s*=\s*([^,{}\"'\s][^,{}\"']*)")
# `DisplayMemberPath="Name"`, `SelectedValuePath`, `<Binding Path="Order.Total"/>`: a member path as an attribute.
_XAML_PATH_ATTRIBUTE = re.compile(r"(?<![\w:.])\w*Path\s*=\s*([\"'])([^\"'{}]*)\1")
# `{x:Static conv:FuncValueConverters.StringToBrushConverter}` (Avalonia.Samples' ValueConversionSample).
_XAML_STATIC = re.compile(r"\{\s*x:Static\s+(?:Member\s*=\s*)?(?:\w+:)?([\w.+]+)")
# An attribute whose whole value is one name: an event handler (`Click="cmdClose_Click"`), an `x:Key` the code looks
# up by an enum member's name (`x:Key="RedCircle"`, Avalonia.Samples' IDataTemplateSample).
_XAML_NAME_VALUE = re.compile(r"(?<![\w:.])((?:\w+:)?[\w.]+)\s*=\s*([\"'])\s*([A-Za-z_]\w*)\s*\2")
# Attributes whose value is shown text, a size or a name the markup declares, never a member of the code: a MAUI
# button's `Text="Refresh"` kept every `Refresh()` alive (IfpaMaui), `Width="Auto"` an `Auto`.
_XAML_LITERAL_ATTRIBUTES = frozenset({
    "Text", "Title", "Content", "Header", "Placeholder", "Description", "Hint", "ToolTip", "FontFamily", "AutomationId",
    "Width", "Height", "WidthRequest", "HeightRequest", "MinWidth", "MaxWidth", "MinHeight", "MaxHeight",
    "Margin", "Padding", "x:Name", "Name", "x:Uid"})
# An attribute's property (`Value="3"`, `svc:DialogManager.Register="{Binding}"`) and a property element
# (`<local:Tips.Tip>`): an owner before the dot makes it an attached property, set through its accessors.
_XAML_ATTRIBUTE = re.compile(r"(?<=\s)(?:(\w+):)?(?:([A-Za-z_]\w*)\.)?([A-Za-z_]\w*)\s*=\s*[\"']")
_XAML_PROPERTY_ELEMENT = re.compile(r"<(?:\w+:)?[A-Za-z_]\w*\.([A-Za-z_]\w*)(?=[\s/>])")
# A setter's or a trigger's property (`Property="local:Layout.Row"`, `Property="Heading"`): the property and its field.
_XAML_PROPERTY_VALUE = re.compile(r"(?<![\w:.])Property\s*=\s*([\"'])\s*(?:\w+:)?([A-Za-z_]\w*\.)?([A-Za-z_]\w*)"
                                  r"\s*\1")
# An element's text that is one name: `<vm:ShapeKind>Triangle</vm:ShapeKind>`, `<x:String>Pending</x:String>`.
_XAML_TEXT = re.compile(r">\s*([A-Za-z_]\w*)\s*</")
# A markup extension's argument that is one name, as `{ui:SymbolIcon Alert16}` names an enum member (WPF UI's
# Gallery); and the extension's class, which XAML names without its `Extension` suffix (`{ui:ThemeResource ...}` is
# ThemeResourceExtension).
_XAML_EXTENSION_ARGUMENT = re.compile(r"(?:\{\s*(?:\w+:)?[A-Za-z_]\w*\s+|,\s*)(?:\w+\s*=\s*)?([A-Za-z_]\w*)\s*(?=[,}])")
_XAML_EXTENSION = re.compile(r"\{\s*(?:\w+:)?([A-Za-z_]\w*)")


_XAML_SUFFIXES = tuple(pattern.removeprefix("*") for pattern in XAML_FILES)


def is_xaml(rel: str) -> bool:
    return rel.lower().endswith(_XAML_SUFFIXES)


def _accessors(prop: str) -> tuple[str, ...]:
    """What setting an attached property (or a property element) names: the property and its static accessors."""
    return prop, f"Get{prop}", f"Set{prop}", f"{prop}Property"


def xaml_members(text: str) -> list[tuple[str, int]]:
    """The members a XAML text names, each with the offset where it is named."""
    out: list[tuple[str, int]] = []

    def path(match: re.Match[str], group: int) -> None:
        out.extend((w.group(), match.start(group) + w.start()) for w in _WORD.finditer(match.group(group)))

    for pattern in (_XAML_BINDING, _XAML_PATH_ARGUMENT):
        for m in pattern.finditer(text):
            path(m, 1)
    for m in _XAML_PATH_ATTRIBUTE.finditer(text):
        path(m, 2)
    for m in _XAML_STATIC.finditer(text):
        path(m, 1)
    for m in _XAML_NAME_VALUE.finditer(text):
        attribute = m.group(1)
        if attribute not in _XAML_LITERAL_ATTRIBUTES and attribute.rsplit(".", 1)[-1] not in _XAML_LITERAL_ATTRIBUTES:
            out.append((m.group(3), m.start(3)))
    for m in _XAML_ATTRIBUTE.finditer(text):
        if m.group(1) != "xmlns" and not m.group(3).startswith("xmlns"):
            out.extend((name, m.start(3)) for name in (_accessors(m.group(3)) if m.group(2) else (m.group(3),)))
    for m in _XAML_PROPERTY_ELEMENT.finditer(text):
        out.extend((name, m.start(1)) for name in _accessors(m.group(1)))
    for m in _XAML_PROPERTY_VALUE.finditer(text):
        prop = m.group(3)
        out.extend((name, m.start(3)) for name in (_accessors(prop) if m.group(2) else (prop, f"{prop}Property")))
    for pattern in (_XAML_TEXT, _XAML_EXTENSION_ARGUMENT):
        out.extend((m.group(1), m.start(1)) for m in pattern.finditer(text))
    return out


Scope = frozenset[int] | None  # the projects whose symbols a markup file may name; None: any project's


@dataclass
class MarkupNames:
    """The names markup uses, per scope: the projects a markup file's own project sees (itself and what it
    references), None for a file whose project cannot be told."""
    members: dict[Scope, set[str]] = field(default_factory=dict)  # accessed or called
    words: dict[Scope, set[str]] = field(default_factory=dict)  # every identifier (type names)
    # What a private member's own type's markup may name: per member name, the Razor components naming it (by file
    # stem, `Badge` for Badge.razor), and the names XAML gives (a code-behind's private event handler).
    components: dict[Scope, dict[str, set[str]]] = field(default_factory=dict)
    in_xaml: dict[Scope, set[str]] = field(default_factory=dict)

    def names(self, name: str, kind: str, projects: Iterable[int] | None = None,
              private_to: str | None = None) -> bool:
        """Whether markup that can see one of `projects` (a symbol's declaring projects; None: any) names it.
        `private_to`: the simple name of the type declaring a private member, which only that type's markup can
        name (a component's own `.razor`; a `.cshtml` compiles to a view class of its own; XAML of its project)."""
        if kind in TYPE_KINDS:
            return _seen(self.words, name, projects)
        if private_to is not None:
            return _seen(self.in_xaml, name, projects) or any(
                private_to in by_name.get(name, ()) and _sees(scope, projects)
                for scope, by_name in self.components.items())
        return _seen(self.members, name, projects)


def _sees(scope: Scope, projects: Iterable[int] | None) -> bool:
    """Markup of this scope may name a symbol of one of `projects` (None: any)."""
    return scope is None or projects is None or not scope.isdisjoint(projects)


def _seen(by_scope: dict[Scope, set[str]], name: str, projects: Iterable[int] | None) -> bool:
    """`name` is among the names of a scope that sees one of `projects` (None: any)."""
    wanted = None if projects is None else set(projects)
    return any(name in found and _sees(scope, wanted) for scope, found in by_scope.items())


def private_owner(visibility: str | None, container: str | None) -> str | None:
    """For a private member, the simple name of its type (`Column` for ``T:MudBlazor.Column`1``), the only component
    whose markup can name it: MudBlazor's MudMask.GetCounterText, named by other components' markup only, was kept as
    used. None for any other member."""
    if visibility != "private" or not container:
        return None
    return container.split(":", 1)[-1].rsplit(".", 1)[-1].split("`", 1)[0]


def _component(rel: str) -> str | None:
    """The component a `.razor` file compiles to, by its file name (`Badge` for `Pages/Badge.razor`)."""
    name = rel.rsplit("/", 1)[-1]
    return name[: -len(".razor")] if name.lower().endswith(".razor") else None


def _scopes(conn: sqlite3.Connection, rels: Iterable[str]) -> dict[str, Scope]:
    """Each markup file's scope: its project (the deepest project folder holding it), the projects that project
    references, directly or not, and those that did not load (syntax_only: a reference to one may be missing from the
    index). None (any project's) when no project's folder holds it, or its own project did not load (what it
    references is not known)."""
    folders = projectrefs.project_folders(conn)
    unloaded = {int(r[0]) for r in conn.execute("SELECT id FROM projects WHERE semantic_level = 'syntax_only'")}
    edges = projectrefs.project_references(conn)
    out: dict[str, Scope] = {}
    for rel in rels:
        own = next((pid for pid, _, folder in folders if rel.startswith(folder)), None)
        out[rel] = None if own is None or own in unloaded \
            else frozenset({own} | projectrefs.referenced(edges, [own]) | unloaded)
    return out


def _texts(conn: sqlite3.Connection, root: Path) -> list[tuple[str, str]]:
    """The markup files' texts, read once per open baseline (the server keeps its connection: a hint, not worth
    walking the tree on every call)."""
    return list(memo(conn, f"markup_texts:{root}", lambda: _read_texts(conn, root)))


def _read_texts(conn: sqlite3.Connection, root: Path) -> list[tuple[str, str]]:
    """The markup of the solution's projects (files in their folders: an app beside the solution is not its)."""
    projects = [str(r[0]) for r in conn.execute("SELECT path FROM projects WHERE path IS NOT NULL")] or None
    out = []
    for path in repository_files(root, MARKUP_FILES):
        rel = path.relative_to(root).as_posix()
        if not in_project_folders(rel, projects):
            continue
        try:
            out.append((rel, "\n".join(read_lines(root, rel))))
        except RoslynMapError:  # deleted since, or unreadable: not markup we can speak for
            continue
    return out


def _xaml_lines(conn: sqlite3.Connection, root: Path) -> dict[str, dict[str, list[int]]]:
    """Per XAML file, each member it names and the lines naming it (the same rules for names and mentions)."""
    def compute() -> dict[str, dict[str, list[int]]]:
        out: dict[str, dict[str, list[int]]] = {}
        for rel, text in _texts(conn, root):
            if not is_xaml(rel):
                continue
            starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
            lines: dict[str, set[int]] = {}
            for name, offset in xaml_members(text):
                lines.setdefault(name, set()).add(bisect_right(starts, offset))
            out[rel] = {name: sorted(numbers) for name, numbers in lines.items()}
        return out
    return dict(memo(conn, f"markup_xaml:{root}", compute))


def names(conn: sqlite3.Connection, root: Path) -> MarkupNames:
    """Every name the repository's markup accesses, calls or spells, by the scope of the file naming it."""
    found = MarkupNames()
    xaml = _xaml_lines(conn, root)
    texts = _texts(conn, root)
    scopes = _scopes(conn, [rel for rel, _ in texts])
    for rel, text in texts:
        members = found.members.setdefault(scopes[rel], set())
        words = found.words.setdefault(scopes[rel], set())
        words.update(_WORD.findall(text))
        if rel in xaml:
            members.update(xaml[rel])
            found.in_xaml.setdefault(scopes[rel], set()).update(xaml[rel])
            words.update(f"{name}Extension" for name in _XAML_EXTENSION.findall(text))
        elif not is_xaml(rel):
            named = {a or b or c for a, b, c in _MEMBER.findall(text)}
            members.update(named)
            if (component := _component(rel)) is not None:
                by_name = found.components.setdefault(scopes[rel], {})
                for name in named:
                    by_name.setdefault(name, set()).add(component)
    return found


def _mention_lines(conn: sqlite3.Connection, root: Path, name: str, kind: str,
                   projects: Iterable[int] | None = None, private_to: str | None = None) -> list[tuple[str, int]]:
    """Each markup `(file, line)` naming `name`: as a member, or as a word for a type kind, in file order; with
    `projects` (the symbol's declaring projects), only in markup whose scope sees one of them. A private member
    (`private_to`, its type's simple name: private_owner) only in its own component's `.razor`, or XAML."""
    escaped = re.escape(name)
    word = rf"(?<!\w){escaped}(?!\w)"
    razor = re.compile(word if kind in TYPE_KINDS
                       else rf"[.@]\s*{escaped}(?!\w)|(?<![\w.]){escaped}\s*\(|=\s*\"\s*{escaped}(?!\w)")
    # A type in XAML: its name, or an extension's without its suffix (`{ui:ThemeResource` for ThemeResourceExtension).
    extension = name.removesuffix("Extension")
    xaml_type = re.compile(word + (rf"|\{{\s*(?:\w+:)?{re.escape(extension)}(?!\w)" if extension != name else ""))
    xaml = _xaml_lines(conn, root)
    texts = _texts(conn, root)
    wanted = None if projects is None else set(projects)
    scopes = _scopes(conn, [rel for rel, _ in texts]) if wanted is not None else {}
    out: list[tuple[str, int]] = []
    for rel, text in texts:
        scope = scopes.get(rel)
        if wanted is not None and scope is not None and scope.isdisjoint(wanted):
            continue
        if private_to is not None and kind not in TYPE_KINDS and not is_xaml(rel) and _component(rel) != private_to:
            continue
        if is_xaml(rel) and kind not in TYPE_KINDS:
            out.extend((rel, number) for number in xaml.get(rel, {}).get(name, ()))
            continue
        pattern = xaml_type if is_xaml(rel) else razor
        out.extend((rel, number) for number, line in enumerate(text.splitlines(), start=1) if pattern.search(line))
    return out


def declaring_projects(conn: sqlite3.Connection, symbol_id: str) -> set[int]:
    """The projects declaring a symbol (a file several projects compile declares it in each)."""
    return {int(r[0]) for r in conn.execute("SELECT DISTINCT project_id FROM symbols WHERE symbol_id = ?"
                                            " AND project_id IS NOT NULL", (symbol_id,))}


_GENERATING_ATTRIBUTES = ("RelayCommand", "RelayCommandAttribute", "ObservableProperty", "ObservablePropertyAttribute")


def generated_names(conn: sqlite3.Connection, symbol_id: str, name: str, kind: str) -> list[str]:
    """The member CommunityToolkit.Mvvm generates from this one, which XAML binds instead: a `[RelayCommand]`
    method's command (`OnSave`, `SaveAsync` -> `SaveCommand`), an `[ObservableProperty]` field's property (`_isBusy`,
    `m_isBusy`, `isBusy` -> `IsBusy`). Told by the attribute's name, bound or not: unrestored (IfpaMaui, a MAUI app
    without its workload) the generator never runs, and `{Binding OpenReviewCommand}` was no trace of OpenReview."""
    attributes = {str(r[0]).removesuffix("Attribute") for r in conn.execute(
        "SELECT DISTINCT r.target_name FROM refs r JOIN ids i ON i.key = r.from_key WHERE i.symbol_id = ?"
        f" AND r.kind = 'TypeRef' AND r.target_name IN ({','.join('?' * len(_GENERATING_ATTRIBUTES))})",
        (symbol_id, *_GENERATING_ATTRIBUTES))}
    if kind == "Method" and "RelayCommand" in attributes:
        command = name[2:] if len(name) > 2 and name.startswith("On") and not name[2].islower() else name
        return [f"{command.removesuffix('Async') or command}Command"]
    if kind == "Field" and "ObservableProperty" in attributes:
        field_name = name.removeprefix("m_").lstrip("_")
        return [field_name[:1].upper() + field_name[1:]] if field_name else []
    return []


def generating(conn: sqlite3.Connection, member: str) -> list[tuple[str, str, str]]:
    """`(symbol_id, name, kind)` of the members CommunityToolkit.Mvvm generates `member` from (generated_names in
    reverse): asked for IfpaMaui's `IsBusy` or `OpenReviewCommand`, which no generator makes while unrestored."""
    if member.endswith("Command") and len(member) > len("Command"):
        base = member.removesuffix("Command")
        spellings, kind = [base, f"{base}Async", f"On{base}", f"On{base}Async"], "Method"
    elif member[:1].isupper():
        lower = member[:1].lower() + member[1:]
        spellings, kind = [lower, f"_{lower}", f"m_{lower}"], "Field"
    else:
        return []
    rows = conn.execute(f"SELECT DISTINCT symbol_id, name FROM symbols WHERE kind = ? AND name IN "
                        f"({','.join('?' * len(spellings))}) ORDER BY symbol_id", (kind, *spellings)).fetchall()
    return [(str(sid), str(name), kind) for sid, name in rows
            if generated_names(conn, str(sid), str(name), kind) == [member]]


def warning(conn: sqlite3.Connection, root: Path, name: str, kind: str, symbol_id: str | None = None,
            private_to: str | None = None, razor_bound: bool = False) -> str | None:
    """The warning refs_find and graph_callers add when markup names the symbol (with `symbol_id`: only markup of
    its projects and of those referencing them, and also by the name a source generator gives it; `private_to`:
    _mention_lines). `razor_bound`: the Razor generator's code was bound and names this very symbol (its uses are
    listed apart)."""
    projects = declaring_projects(conn, symbol_id) or None if symbol_id else None
    spelled = [name, *(generated_names(conn, symbol_id, name, kind) if symbol_id else [])]
    # A generated name (`Count` for a private `count` field) is public: any markup of the scope may name it.
    found = {n: lines for n in spelled
             if (lines := _mention_lines(conn, root, n, kind, projects, private_to if n == name else None))}
    lines = sorted({line for found_lines in found.values() for line in found_lines})
    if not lines:
        return None
    count, places = len(lines), [f"{rel}:{number}" for rel, number in lines[:3]]
    xaml = {is_xaml(rel) for rel, _ in lines}
    if razor_bound and xaml == {False}:
        # MudBlazor's MudButton.Color: 198 generated uses, and 1,670 lines naming some `Color` (MudIconButton's...).
        return (f"Razor markup names '{name}' on {count} line{'s' if count != 1 else ''} ({', '.join(places)}"
                f"{', ...' if count > len(places) else ''}), matched by name: the Razor generator's code using this "
                "symbol is listed in generated_uses; the other lines may name another member of that name, or use "
                "this one where the generator's code did not bind.")
    which, compiler = {
        frozenset({False}): ("Razor markup", "the Razor generator, which is"),
        frozenset({True}): ("XAML markup", "its UI framework's XAML build, which is"),
    }.get(frozenset(xaml), ("Razor and XAML markup", "the Razor generator and the XAML build, which are"))
    named = " and ".join(f"'{n}'" + ("" if n == name else f" (generated from {name})") for n in found)
    return (f"{which} names {named} on {count} line{'s' if count != 1 else ''} ({', '.join(places)}"
            f"{', ...' if count > len(places) else ''}): markup is compiled by {compiler} not "
            "indexed, so uses there are not listed; read those lines.")


@dataclass(frozen=True)
class ConfigRead:
    """A configuration key markup reads through an injected IConfiguration (`@Config["GoogleAppKey"]`)."""
    key: str
    file: str
    line: int
    pattern: str


_INJECTED_CONFIG = re.compile(r"@inject\s+(?:[\w.]+\.)?IConfiguration\s+(\w+)")
_KEY = r"\s*\"([^\"{}]+)\"\s*"


def config_reads(conn: sqlite3.Connection, root: Path) -> list[ConfigRead]:
    """Keys SimplCommerce's views read (`@inject IConfiguration Config`, then `@Config["GoogleAppKey"]`,
    `Config.GetValue<bool>("Global.AssetBundling")`, `GetSection`, `GetConnectionString`): constant keys only."""
    def compute() -> list[ConfigRead]:
        out = []
        for rel, text in _texts(conn, root):
            if is_xaml(rel):  # `@inject` is Razor's
                continue
            for name in set(_INJECTED_CONFIG.findall(text)):
                reads = re.compile(rf"(?<![\w.]){re.escape(name)}\s*(?:\[{_KEY}\]|\.(GetValue|GetSection|"
                                   rf"GetRequiredSection|GetConnectionString)\s*(?:<[^>()]*>)?\s*\({_KEY}[,)])")
                for number, line in enumerate(text.splitlines(), start=1):
                    for indexed, method, argument in reads.findall(line):
                        key = indexed or argument
                        if method == "GetConnectionString":
                            key = f"ConnectionStrings:{key}"
                        out.append(ConfigRead(key, rel, number, method or "indexer"))
        return out
    return list(memo(conn, f"markup_config:{root}", compute))


@dataclass(frozen=True)
class MarkupComponent:
    """A Blazor component only its `.razor` file declares (no C# part): the Razor generator's class, not indexed."""
    name: str
    file: str
    line: int  # its `@inherits` directive's
    inherits: str  # the base as written: `MudComponentBase`, `MudBaseInput<T>`

    def as_dict(self) -> dict[str, str | int]:
        return {"name": self.name, "file": self.file, "line": self.line, "inherits": self.inherits}


_INHERITS = re.compile(r"^[ \t]*@inherits[ \t]+([\w.]+(?:<[^>\n]*>)?)", re.M)


def markup_components(conn: sqlite3.Connection, root: Path, bases: set[str] | None = None,
                      named: str | None = None) -> list[MarkupComponent]:
    """Components whose `.razor` file `@inherits` one of `bases` (simple names; any when None), or the one `named`,
    and whose class no C# file of its folder declares: MudBlazor's MudTabPanel and MudContainer (`@inherits
    MudComponentBase`, all in `@code`) were missing from MudComponentBase's derived types, with nothing said (no
    indexed code declares them)."""
    declared = {(str(path).rpartition("/")[0], str(name)) for name, path in conn.execute(
        "SELECT s.name, f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.kind = 'Class'")}
    out = []
    for rel, text in _texts(conn, root):
        component = _component(rel)
        # `_Imports.razor`'s `@inherits` is every component's of its folder: not a component of its own.
        if component is None or component.startswith("_") or (rel.rpartition("/")[0], component) in declared \
                or (named is not None and component != named):
            continue
        for m in _INHERITS.finditer(text):
            if bases is None or m.group(1).split("<", 1)[0].rsplit(".", 1)[-1] in bases:
                out.append(MarkupComponent(component, rel, text.count("\n", 0, m.start(1)) + 1, m.group(1)))
    return out
