"""gdbbridge/debugger: the Debugger on real GNU gdb and on replays, breakpoints, the refresh batch, variable objects."""
