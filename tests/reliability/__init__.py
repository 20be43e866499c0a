"""Reliability: bad input, death of the debugger or the debuggee, files and sockets, hostile programs, quitting."""
