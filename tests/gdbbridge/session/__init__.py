"""gdbbridge/session: the MI builder and parser, GdbSession on real GNU gdb, the fast paths, fuzzing."""
