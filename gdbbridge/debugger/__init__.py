"""The one object the UI drives a session through, the :class:`~.debugger.Debugger` (``debugger``,
``core``): run control, breakpoints, focus, console, watches and every pane query, serialised
under one lock, told to subscribers as typed events (``events``) with the run phase
(``status``); what to launch (``config``); the queries a pane may make (``queries``); one
immutable ``StopState`` per stop, built by one refresh batch (``state``); and breakpoints,
including CUDA-thread conditions that cuda-gdb can only take once the kernel is loaded
(``breakpoints``); the breakpoints and moves a recording holds, to replay it (``recorded_path``).
"""
