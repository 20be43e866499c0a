"""Programs cudatui did not start itself: a running process to attach to (``attach``: whether
the kernel lets gdb trace it, and why not in one line) and one rank of a distributed job
(``ranks``: the launcher runs every rank, rank N is handed to cudatui through ``relay``)."""
