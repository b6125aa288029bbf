"""``python -m analytics``: the Concord command line (see :mod:`analytics.cli`)."""

from analytics.cli import main

raise SystemExit(main())
