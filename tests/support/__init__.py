"""What the tests share, in one place; no test module imports another.

- :mod:`.paths`: the repository, the fixture folders and the recordings.
- :mod:`.wait`: the one ``wait_for`` (Pilot), ``until`` (asyncio) and ``wait_until`` (threads).
- :mod:`.app`: reading the debugger app in a Pilot test (phase, rows, notifications, stops).
- :mod:`.replay`: launch configs over recordings; the tours put back in command order.
- :mod:`.panes`: one pane hosted alone over a replayed session (the CUDA pane tests).
- :mod:`.programs`: C programs compiled by the tests (fixtures in tests/conftest.py).
- :mod:`.processes`: processes from /proc (descendants, gone, reaping).
- :mod:`.terminal`: the app in a real pseudo-terminal; :mod:`.tmux`: a private tmux server.
- :mod:`.cli`: ``run_main``; :mod:`.mi`: recorded MI lines, ``no_hang``; :mod:`.nvml`: the no-driver path.
- :mod:`.names`: names that write to the terminal, and a C program built with them.
"""
