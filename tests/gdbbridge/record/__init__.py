"""gdbbridge/record: the replay stand-in, recordings written and read, following a recorded session."""
