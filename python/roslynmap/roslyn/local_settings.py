"""App settings a function app defines for local runs, as `ConfigDefinition` facts (`local.settings.json`).

The Functions Core Tools (`func start`, and Visual Studio's F5) load `local.settings.json` beside a function app's
project: its `Values` are app settings (`Orders__Queue` is `Orders:Queue` to the configuration system) and its
`ConnectionStrings` are `ConnectionStrings:X`. Many sample repositories commit it; without these facts the settings
the bindings name (`[TimerTrigger("%CleanupSchedule%")]`, `Connection = "Bus"`) read `used_but_undefined`.
"""

from __future__ import annotations

import json
from pathlib import Path

from roslynmap.model.records import FactRecord
from roslynmap.roslyn import jsonc

# The file's sections that define settings, and the prefix each gives its keys.
_SECTIONS = {"Values": "", "ConnectionStrings": "ConnectionStrings:"}


def local_settings_facts(root: Path) -> list[FactRecord]:
    rows: list[FactRecord] = []
    for rel, text, data in jsonc.objects(root, ["local.settings.json"]):
        lines = text.splitlines()
        for section, prefix in _SECTIONS.items():
            values = data.get(section)
            start = next((n for n, t in enumerate(lines) if f'"{section}"' in t), 0)
            for name, value in (values.items() if isinstance(values, dict) else []):
                line = next((n for n in range(start, len(lines)) if f'"{name}"' in lines[n]), start) + 1
                rows.append(FactRecord("ConfigDefinition", None, None, rel, line, 1, "high",
                                       prefix + name.replace("__", ":"),
                                       json.dumps({"value": jsonc.shown(value), "source": "local_settings"})))
    return rows
