"""Session transcripts: a recorded session read back (``transcript``) and served as a stand-in
debugger (``replay``, ``python -m cudatui.gdbbridge.record.replay FILE``), so that replays go
through the code path of a live session; a live one followed (``follow``) and its stop states
(``stop_state``). The recording itself is written by the session
(:mod:`cudatui.gdbbridge.session.recorder`); what a recording holds for a person replaying it is
read by the Debugger (:mod:`cudatui.gdbbridge.debugger.recorded_path`).
"""
