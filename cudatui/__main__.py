"""``python -m cudatui``: the same as the ``cudatui`` command."""

from cudatui.tui.early_keys import main

raise SystemExit(main())
