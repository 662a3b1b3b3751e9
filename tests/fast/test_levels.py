"""store/levels.py: the bridge's level rule (ProjectEntry.SemanticLevel / LevelReason) where Python recounts a
project's rows (a derived baseline, an overlay)."""

from __future__ import annotations

from roslynmap.store import levels


def test_unresolved_packages_make_a_project_partial_with_the_bridges_reason() -> None:
    assert levels.level_and_reason("full", None, 0, ["NSubstitute"]) == (
        "partial", "restore left 1 package unresolved (NSubstitute)")
    assert levels.level_and_reason("partial", None, 3, ["A", "B"]) == (
        "partial", "3 missing-reference errors; restore left 2 packages unresolved (A, B)")
    assert levels.level_and_reason("partial", "x", 0, []) == ("full", "compiled without missing-reference errors")
    # An overlay knows them only from its baseline's reason.
    assert levels.level_and_reason("partial", "2 missing-reference errors; restore left 1 package unresolved (A)",
                                   0, None) == ("partial", "restore left 1 package unresolved (A)")
    assert levels.level_and_reason("syntax_only", "no metadata references were loaded", 4, ["A"]) == (
        "syntax_only", "no metadata references were loaded")
