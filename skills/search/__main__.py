"""``python -m skills.search ...`` (see :mod:`skills.search.cli`)."""

from skills.search.cli import main

raise SystemExit(main())
