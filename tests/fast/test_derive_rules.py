"""The conservative rules of derived baselines (store/derive.py, workspace/baselines.py), without a worker."""

from __future__ import annotations

from roslynmap.store.derive import downstream, normalized, shape_rows
from roslynmap.workspace.baselines import _inert

# (symbol_id, stable_id, project, name, kind, fqn, signature, namespace, container, visibility, is_static, arity,
#  line, end_line)
PRICING = ("T:Ns.Pricing", "sym_1", 0, "Pricing", "Class", "Ns.Pricing", "class Pricing", "Ns", None, "public",
           False, 0, 3, 9)
CURRENCY = ("F:Ns.Pricing.Currency", "sym_2", 0, "Currency", "Constant", "Ns.Pricing.Currency",
            "const string Currency", "Ns", "T:Ns.Pricing", "public", True, 0, 5, 5)


def test_downstream_is_transitive_over_project_references() -> None:
    references = {0: [], 1: [0], 2: [1], 3: []}
    assert downstream({0}, references) == {0, 1, 2}
    assert downstream({1}, references) == {1, 2}
    assert downstream({3}, references) == {3}


def test_a_shape_ignores_positions_and_bodies_but_not_values_or_project_wide_text() -> None:
    text = "namespace Ns;\n\npublic class Pricing\n{\n    public const string Currency = \"EUR\";\n}\n"
    moved = dict(enumerate(PRICING))
    moved[12], moved[13] = 4, 10  # the class moved down a line
    base = shape_rows([PRICING, CURRENCY], [], [], text)
    assert normalized(shape_rows([tuple(moved.values()), CURRENCY], [], [], text)) == normalized(base)
    changed_value = text.replace('"EUR"', '"USD"')
    assert shape_rows([PRICING, CURRENCY], [], [], changed_value) != base  # a constant other files fold
    assert shape_rows([PRICING, CURRENCY], [], [], "global using System.Text;\n" + text) != base
    assert shape_rows([PRICING, CURRENCY], ["T:Ns.Pricing"], [], text) != base  # a partial part
    assert normalized(shape_rows([PRICING], [], [], None)) == normalized(shape_rows([PRICING], [], [], ""))


def test_which_changed_files_still_allow_a_derived_baseline() -> None:
    assert [p for p in ("src/A.cs", "README.md", "docs/x.png", ".github/ci.yml", "src/appsettings.Development.json",
                        "LICENSE") if not _inert(p)] == []
    assert [p for p in ("src/App.csproj", "Directory.Build.props", ".editorconfig", "src/Page.razor",
                        "global.json", "roslynmap.json", "src/Strings.resx", "notes.txt") if _inert(p)] == []
