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


# The source's typos in case names, corrected by the name's occurrence: datc_v2.4_06.txt
# names DATC 6.F.15 ("simple convoy paradox with additional convoy") 6.F.14 a second time.
RENAMED = {"6.F.14": ["6.F.14", "6.F.15"]}


def convert(text: str, source: str) -> str:
    lines = [f"# Converted by tools/import_datc.py from {source}: statements only."]
    seen: dict[str, int] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("VARIANT_ALL"):
            continue
        keyword = line.split()[0]
        if keyword == "CASE":
            name = line[4:].strip()
            seen[name] = seen.get(name, 0) + 1
            if name in RENAMED:
                line = f"CASE {RENAMED[name][seen[name] - 1]}"
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
