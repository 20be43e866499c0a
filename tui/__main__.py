"""``python -m tui``: the same as the ``cudatui`` command."""

import sys

from tui.cli import main

sys.exit(main())
