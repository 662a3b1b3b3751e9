"""roslyn/yamlconf.py: the keys an appsettings*.yml defines, as the JSON reader names them."""

from __future__ import annotations

from roslynmap.roslyn.yamlconf import keys


def test_a_block_scalars_text_defines_no_keys() -> None:
    """A `|` or `>` value's lines are text, however much they look like `key: value` (review finding: an e-mail
    template's `Dear user: welcome` was key Email:Dear user, a certificate's `MIIB: abc` a root key)."""
    text = ("Email:\n  Template: |\n    Dear user: welcome\n    Regards: team\n  From: a@b.c\n"
            "Cert: >-\n  MIIB: abc\nNext: 1\n")
    assert [(k.key, k.line) for k in keys(text)] == [("Email:Template", 2), ("Email:From", 5), ("Cert", 6),
                                                     ("Next", 8)]


def test_nested_mappings_and_lists() -> None:
    text = "Apm:\n  ServiceName: api  # the name\n  Tags:\n    - a\n    - Name: b\n"
    assert [(k.key, k.value) for k in keys(text)] == [("Apm:ServiceName", "api"), ("Apm:Tags:0", "a"),
                                                      ("Apm:Tags:1:Name", "b")]
