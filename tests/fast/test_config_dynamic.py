"""A key read by a computed name (`GetConnectionString(serviceName)`, `configuration[$"{name}:Type"]`): a defined key
of the shape it may read is `read_dynamically`, never `defined_but_unused` (eShopSupport); keys of another shape
stay unused."""

from __future__ import annotations

from pathlib import Path

from roslynmap.mcp import api
from roslynmap.model.records import FactRecord
from roslynmap.query.surfaces import _may_read

from tests.fast.batches import Sample, write_baseline

P = "src/Shop/Program.cs"
SETTINGS = "src/Shop/appsettings.json"
HELPER = "M:Shop.Chat.Connect(System.String)"


def test_a_template_reads_what_its_shape_matches() -> None:
    assert _may_read("ConnectionStrings:*", "connectionstrings:chat")
    assert _may_read("ConnectionStrings:*", "connectionstrings")  # the section it reads under
    assert _may_read("*:Type", "chat:type") and _may_read("*:Type", "a:b:type")
    assert not _may_read("*:Type", "chat:model") and not _may_read("*:Type", ":type")
    assert _may_read("Limits:*_http", "limits:vectors_http") and not _may_read("Limits:*_http", "limits:vectors")
    assert not _may_read("Jobs:*", "jobsx:a")


def test_defined_keys_a_computed_read_may_reach_are_read_dynamically(tmp_path: Path, home: Path) -> None:
    sample = Sample({P: "\n" * 10, SETTINGS: "{}\n" + "\n" * 10})
    sample.facts += [
        FactRecord("Config", HELPER, 0, P, 3, 9, "high", "{serviceName}",
                   '{"pattern": "GetConnectionString", "dynamic": true, "template": "ConnectionStrings:*"}'),
        FactRecord("Config", HELPER, 0, P, 4, 9, "high", '{$"{serviceName}:Type"}',
                   '{"pattern": "indexer", "dynamic": true, "template": "*:Type"}'),
        FactRecord("Config", HELPER, 0, P, 5, 9, "high", "{key}", '{"pattern": "indexer", "dynamic": true}'),
    ]
    sample.facts += [FactRecord("ConfigDefinition", None, None, SETTINGS, line, 3, "high", key, "{}")
                     for line, key in [(2, "ConnectionStrings:Chat"), (3, "Chat:Type"), (4, "Chat:Model")]]
    repo = write_baseline(tmp_path / "Dynamic", sample)
    allowed = api.confinement([str(repo.root)])
    listed = api.call("surfaces_list_config_keys", {}, str(repo.root), allowed)
    status = {k["key"]: (k["status"], k.get("read_by")) for k in listed["data"]["keys"]}
    assert status == {
        "Chat:Model": ("defined_but_unused", None),  # `{key}` has no shape: it reaches nothing in particular
        "Chat:Type": ("read_dynamically", "indexer {$\"{serviceName}:Type\"} at src/Shop/Program.cs:4"),
        "ConnectionStrings:Chat": ("read_dynamically", "GetConnectionString {serviceName} at src/Shop/Program.cs:3"),
        '{$"{serviceName}:Type"}': ("dynamic", None), "{key}": ("dynamic", None), "{serviceName}": ("dynamic", None)}
