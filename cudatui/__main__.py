"""``python -m cudatui``: the same as the ``cudatui`` command."""

from cudatui.tui.cli import main

raise SystemExit(main())
