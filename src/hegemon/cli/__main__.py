"""``python -m hegemon.cli``: the hegemon command, where it is not on the PATH."""

from hegemon.cli import main

raise SystemExit(main())
