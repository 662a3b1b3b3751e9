"""Declarations of one live C# file from a syntax-only parse (tree-sitter, no compiler, no CLR).

Used where the index may be stale or absent: symbols_resolve maps positions in the file as it is
now to declarations, and declarations back to indexed symbols.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import tree_sitter
import tree_sitter_c_sharp

KINDS = {
    "class_declaration": "Class", "struct_declaration": "Struct", "interface_declaration": "Interface",
    "record_declaration": "Record", "record_struct_declaration": "RecordStruct", "enum_declaration": "Enum",
    "delegate_declaration": "Delegate", "method_declaration": "Method", "constructor_declaration": "Constructor",
    "destructor_declaration": "Destructor", "property_declaration": "Property", "indexer_declaration": "Indexer",
    "event_declaration": "Event", "event_field_declaration": "Event", "field_declaration": "Field",
    "operator_declaration": "Operator", "conversion_operator_declaration": "Conversion",
    "enum_member_declaration": "EnumMember",
}
NAMESPACES = {"namespace_declaration", "file_scoped_namespace_declaration"}
TYPE_KINDS = {"Class", "Struct", "Interface", "Record", "RecordStruct", "Enum", "Delegate"}


@dataclass(frozen=True)
class Declaration:
    kind: str
    name: str
    namespace: str
    containers: tuple[str, ...]  # enclosing type names, outermost first
    line: int  # of the name, 1-based
    col: int  # of the name, 1-based UTF-16
    start_line: int
    end_line: int
    parameters: tuple[str, ...]
    arity: int

    @property
    def fqn(self) -> str:
        return ".".join(p for p in (self.namespace, *self.containers, self.name) if p)

    def approximate_id(self) -> str:
        """The doc id as far as syntax can tell: exact for types, fields, properties and events;
        methods carry parameter types as written (the compiler would fully qualify them)."""
        scope = ".".join(p for p in (self.namespace, *self.containers) if p)
        name = self.name + (f"`{self.arity}" if self.kind in TYPE_KINDS and self.arity else "")
        full = f"{scope}.{name}" if scope else name
        if self.kind in TYPE_KINDS:
            return f"T:{full}"
        prefix = {"Property": "P", "Indexer": "P", "Field": "F", "Event": "E", "EnumMember": "F"}.get(self.kind, "M")
        if prefix == "M" and self.kind == "Constructor":
            full = f"{scope}.#ctor"
        if prefix == "M" or self.kind == "Indexer":
            arity = f"``{self.arity}" if self.kind == "Method" and self.arity else ""
            return f"{prefix}:{full}{arity}" + (f"({','.join(self.parameters)})" if self.parameters else "")
        return f"{prefix}:{full}"


@lru_cache(maxsize=1)
def _parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_c_sharp.language()))


def _utf16_col(line_bytes: bytes, byte_col: int) -> int:
    return len(line_bytes[:byte_col].decode("utf-8", errors="replace").encode("utf-16-le")) // 2 + 1


def _text(node: tree_sitter.Node | None) -> str:
    return node.text.decode("utf-8", errors="replace") if node is not None and node.text is not None else ""


def _names(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The name tokens a declaration introduces (fields and event fields declare several)."""
    if node.type in {"field_declaration", "event_field_declaration"}:
        out: list[tree_sitter.Node] = []
        for child in node.named_children:
            if child.type == "variable_declaration":
                out.extend(d.child_by_field_name("name") or d.named_children[0]
                           for d in child.named_children if d.type == "variable_declarator")
        return out
    if node.type == "indexer_declaration":
        keyword = next((c for c in node.children if c.type == "this"), None)
        return [keyword] if keyword is not None else []
    if node.type in {"operator_declaration", "conversion_operator_declaration"}:
        keyword = next((c for c in node.children if c.type == "operator"), None)
        return [keyword] if keyword is not None else []
    name = node.child_by_field_name("name")
    return [name] if name is not None else []


def _parameters(node: tree_sitter.Node) -> tuple[str, ...]:
    params = node.child_by_field_name("parameters")
    if params is None:
        return ()
    return tuple(" ".join(_text(p.child_by_field_name("type")).split()) for p in params.named_children
                 if p.type == "parameter")


def _arity(node: tree_sitter.Node) -> int:
    tps = node.child_by_field_name("type_parameters")
    return len([c for c in tps.named_children if c.type == "type_parameter"]) if tps is not None else 0


def declarations(source: bytes) -> list[Declaration]:
    tree = _parser().parse(source)
    lines = source.split(b"\n")
    out: list[Declaration] = []

    def visit(node: tree_sitter.Node, namespace: str, containers: tuple[str, ...]) -> None:
        for child in node.named_children:
            kind = KINDS.get(child.type)
            if child.type == "record_declaration" and any(c.type == "struct" for c in child.children):
                kind = "RecordStruct"
            if child.type in NAMESPACES:
                name = _text(child.child_by_field_name("name"))
                visit(child, f"{namespace}.{name}" if namespace else name, containers)
                if child.type == "file_scoped_namespace_declaration":
                    namespace = f"{namespace}.{name}" if namespace else name
                continue
            if kind is None:
                if child.type in {"declaration_list", "compilation_unit", "global_statement"}:
                    visit(child, namespace, containers)
                continue
            for name_node in _names(child):
                row, byte_col = name_node.start_point
                name = {"this": "this[]", "operator": ""}.get(name_node.type, _text(name_node))
                if kind == "Constructor":
                    name = containers[-1] if containers else name
                out.append(Declaration(
                    kind, name, namespace, containers, row + 1, _utf16_col(lines[row], byte_col),
                    child.start_point[0] + 1, child.end_point[0] + 1, _parameters(child), _arity(child)))
            if kind in TYPE_KINDS:
                own = _text(child.child_by_field_name("name"))
                visit(child, namespace, (*containers, own))

    visit(tree.root_node, "", ())
    return out


def enclosing(decls: list[Declaration], line: int) -> list[Declaration]:
    """Declarations whose span contains `line`, outermost first."""
    chain = [d for d in decls if d.start_line <= line <= d.end_line]
    return sorted(chain, key=lambda d: (d.start_line - d.end_line, -d.start_line))
