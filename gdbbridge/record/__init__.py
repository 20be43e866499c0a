"""Session transcripts: a live MI session recorded line by line (``recorder``), and a recorded
one served back as a stand-in debugger (``replay``, ``python -m cudatui.gdbbridge.record.replay
FILE``), so that replays go through the code path of a live session; what a recording holds
for a person replaying it (``path``: its breakpoints and the user's moves).
"""
