"""A configuration key read in many places (bitwarden/server binds GlobalSettings in 29): a list shows each
key's first 5 places and their count; asked for by key_filter, one key shows all of them."""

from __future__ import annotations

from pathlib import Path

from roslynmap.mcp import api
from roslynmap.model.records import FactRecord

from tests.fast.batches import Sample, write_baseline

P = "src/App/Program.cs"
MAIN = "M:Program.<Main>$(System.String[])"


def test_a_list_shows_each_keys_first_places_and_one_key_shows_all(tmp_path: Path, home: Path) -> None:
    sample = Sample({P: "\n" * 20})
    sample.facts += [FactRecord("Config", MAIN, 0, P, line, 1, "high", "Features:Flag", '{"pattern": "GetValue"}')
                     for line in range(1, 8)]
    sample.facts.append(FactRecord("Config", MAIN, 0, P, 9, 1, "high", "Other:Key", '{"pattern": "indexer"}'))
    repo = write_baseline(tmp_path / "Places", sample)
    allowed = api.confinement([str(repo.root)])
    listed = api.call("surfaces_list_config_keys", {}, str(repo.root), allowed)
    flag = next(k for k in listed["data"]["keys"] if k["key"] == "Features:Flag")
    assert ([u["line"] for u in flag["usages"]], flag["usages_total"]) == ([1, 2, 3, 4, 5], 7)
    assert listed["warnings"][-1] == (
        "1 key is read or defined in more than 5 places: each shows its first 5 (usages_total, defined_in_total); "
        "key_filter=\"Features:Flag\" lists all of one.")
    one = api.call("surfaces_list_config_keys", {"key_filter": "Features:Flag"}, str(repo.root), allowed)
    assert [u["line"] for u in one["data"]["keys"][0]["usages"]] == [1, 2, 3, 4, 5, 6, 7]
    assert "usages_total" not in one["data"]["keys"][0]
