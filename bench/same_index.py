"""Do two baselines hold the same index? (issue 16: a faster index must not change a row.)

    python bench/same_index.py A.db B.db [--ignore-meta KEY ...]

Compares every table twice: as store/derive.comparable_tables sees it (ids replaced by what they name,
rows sorted), and raw, row by row in rowid order (every column, row ids included, full-text shadow tables
too), with meta's per-build values left out. Prints the first differences; exit status 1 when any.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from roslynmap.store.derive import VOLATILE_META, comparable_tables


def raw_tables(path: Path, ignored: set[str]) -> dict[str, list[tuple[Any, ...]]]:
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        out: dict[str, list[tuple[Any, ...]]] = {}
        for name in names:
            try:
                rows = db.execute(f'SELECT rowid, * FROM "{name}" ORDER BY rowid').fetchall()
            except sqlite3.OperationalError:  # WITHOUT ROWID shadow tables
                rows = sorted(db.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr)
            if name == "meta":
                rows = [r for r in rows if r[1] not in VOLATILE_META | ignored]
            out[name] = rows
        return out
    finally:
        db.close()


def differences(a: dict[str, Any], b: dict[str, Any], label: str) -> list[str]:
    found: list[str] = []
    for name in sorted(set(a) | set(b)):
        x, y = a.get(name), b.get(name)
        if x == y:
            continue
        if isinstance(x, list) and isinstance(y, list):
            first = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
            found.append(f"{label} {name}: {len(x)} vs {len(y)} rows; first difference at {first}: "
                         f"{x[first] if first < len(x) else None!r} vs {y[first] if first < len(y) else None!r}")
        else:
            found.append(f"{label} {name}: {str(x)[:300]} vs {str(y)[:300]}")
    return found


def comparable(path: Path, ignored: set[str]) -> dict[str, Any]:
    tables = comparable_tables(path)
    tables["meta"] = {k: v for k, v in tables["meta"].items() if k not in ignored}
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--ignore-meta", nargs="*", default=[],
                        help="meta keys that differ for a known reason (commit: a fixture inside this checkout)")
    args = parser.parse_args()
    ignored = set(args.ignore_meta)
    a, b = args.a, args.b
    found = differences(comparable(a, ignored), comparable(b, ignored), "comparable")
    found += differences(raw_tables(a, ignored), raw_tables(b, ignored), "raw")
    sizes = {name: len(rows) for name, rows in raw_tables(a, ignored).items()}
    print(f"tables compared: {sizes}")
    for line in found:
        print(line[:1000])
    print("SAME" if not found else f"DIFFERENT ({len(found)} tables)")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
