"""One module per pane: the pane alone over a replay, or in the app against a real GNU gdb."""
