"""The apps: the debugger (and its replay, demo and follow forms), the lesson picker, sanitize and stats; their bases, layout and launch."""
