"""The debugger session: one cuda-gdb (or gdb) process spoken to over GDB/MI.

:class:`~cudatui.gdbbridge.session.gdb.GdbSession` starts, asks and stops it (``gdb``) and turns
its output into results and events (``output``, ``events``, ``errors``); ``mi`` is the one MI
command builder and line parser; ``pipes`` (gdb's streams, lines of bounded length), ``offloop``
(big lines parsed in a thread), ``processes`` (everything the session started, killed at its
close), ``pty`` and ``fanout`` are the plumbing under them; ``recorder`` writes every MI line of a session
to its recording.
"""
