"""Screen snapshots (pytest-textual-snapshot) at 80x24 and 160x48 over replayed real stops."""
