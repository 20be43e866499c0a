"""The one object the UI drives a session through, the :class:`~.debugger.Debugger` (``debugger``):
one class composed of parts over a shared ``context`` (the session, the state, the lock):
``run_control`` (start, resume, interrupt, restart, close), ``session_events`` (the session's
events to the part whose job it is), ``stop_refresh`` (one immutable ``StopState`` per stop,
built by one refresh batch, ``state``), ``stop_queries`` (the queries a pane may make,
``queries``), ``breakpoint_edits``, ``viewpoint`` (frame, focus, watches), ``console_commands``,
``targets`` (attach, ranks) and ``follow``; serialised under one lock, told to subscribers as
typed events (``events``) with the run phase (``status``); what to launch (``config``); the
execution commands (``steps``); breakpoints, including CUDA-thread conditions that cuda-gdb can
only take once the kernel is loaded (``breakpoints``); the breakpoints and moves a recording
holds, to replay it (``recorded_path``).
"""
