"""A batch of MI commands reaches the debugger in one write (GdbSession.send_batch).

The debugger here is a small stand-in written by the test: it reads its stdin as the kernel hands
it over (``os.read``), notes the tokens of each read in a file and answers each command with the
number of the read that brought it, so the test sees how the commands crossed the pipe. Before,
each command was written on its own, after the recording and the MI-log line of the one before:
a listener that takes its time (the app's MI log on a loaded machine; a thread taking the GIL
meanwhile, such as the host stack's read) left gdb waiting for the rest of the batch. The test's
raw-line listener waits until the stand-in has read the line it is told about: with the lines
written one by one, the first line of a batch is read alone.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from cudatui.gdbbridge.session.events import RawLine
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.session.mi import Flag
from tests.support.wait import wait_until

READS = r'''
import os, sys
reads, rest, log = 0, b"", sys.argv[1]
while True:
    chunk = os.read(0, 1 << 16)
    if not chunk:
        break
    reads += 1
    *lines, rest = (rest + chunk).split(b"\n")
    with open(log, "a") as f:
        f.write(" ".join(line.split(b"-", 1)[0].decode() for line in lines) + "\n")
    for line in lines:
        token = line.split(b"-", 1)[0].decode()
        if b"-gdb-exit" in line:
            sys.exit(0)
        os.write(1, ('%s^done,read="%d"\n' % (token, reads)).encode())
'''


async def test_a_batch_is_one_write_and_is_recorded_in_order(tmp_path: Path) -> None:
    script = tmp_path / "reads.py"
    script.write_text(READS)
    record, reads = tmp_path / "session.jsonl", tmp_path / "reads.log"
    session = GdbSession([sys.executable, str(script), str(reads)], inferior_tty=False, record=record)

    def read_by_then(line: RawLine) -> None:
        """Told about a line written: wait until the stand-in has read it."""
        token = line.text[: len(line.text) - len(line.text.lstrip("0123456789"))]
        if line.direction == "in" and token:  # not -gdb-exit, which has none
            wait_until(lambda: reads.exists() and token in reads.read_text().split(), why=f"the read of {line.text}")

    session.subscribe_raw(read_by_then)
    await asyncio.wait_for(session.start(), 20)
    try:
        for _ in range(3):
            futures = session.send_batch([("-stack-list-frames", ()), ("-stack-list-variables", (Flag("--simple-values"),)),
                                          ("-data-list-register-values", (Flag("--skip-unavailable"), Flag("x"))),
                                          ("-break-list", ())])
            answers = await asyncio.wait_for(asyncio.gather(*futures), 20)
            assert len({a["read"] for a in answers}) == 1, answers
        alone = [await asyncio.wait_for(session.command("-gdb-version"), 20) for _ in range(2)]
        assert alone[0]["read"] != alone[1]["read"]  # one command, one write: the stand-in tells writes apart
        sent = [json.loads(line)["line"] for line in record.read_text().splitlines()
                if json.loads(line).get("dir") == "in"]
        assert [line.lstrip("0123456789").split(" ")[0] for line in sent[-6:]] == [
            "-stack-list-frames", "-stack-list-variables", "-data-list-register-values", "-break-list",
            "-gdb-version", "-gdb-version"]
        tokens = [int(line[: len(line) - len(line.lstrip("0123456789"))]) for line in sent]
        assert tokens == sorted(tokens) and len(set(tokens)) == len(tokens)
    finally:
        await session.close()
