"""Convert DATC case files from the jDip/godip text format into the project's own copy.

The project's format is the same keywords (CASE, PRESTATE_SETPHASE, PRESTATE, ORDERS,
POSTSTATE, ...) with nothing else: no comments and no prose, one statement per line,
indented by two spaces inside a section. Run once per source file; the output names its
source in its first lines.

    python tools/import_datc.py ../shared/datc/datc_v2.4_06.txt tests/data/datc/datc_v2.4_06.txt
"""

from __future__ import annotations

import sys
from pathlib import Path

KEYWORDS = {
    "CASE",
    "END",
    "PRESTATE_SETPHASE",
    "PRESTATE",
    "PRESTATE_DISLODGED",
    "PRESTATE_RESULTS",
    "PRESTATE_SUPPLYCENTER_OWNERS",
    "ORDERS",
    "POSTSTATE",
    "POSTSTATE_DISLODGED",
    "POSTSTATE_SAME",
}


def convert(text: str, source: str) -> str:
    lines = [f"# Converted by tools/import_datc.py from {source}: statements only."]
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("VARIANT_ALL"):
            continue
        keyword = line.split()[0]
        if keyword == "CASE":
            lines.append("")
        lines.append(line if keyword in KEYWORDS else f"  {' '.join(line.split())}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    source, target = Path(argv[0]), Path(argv[1])
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(convert(source.read_text(encoding="utf-8"), source.name), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
