"""Where the time after a stop goes, read offline from a recording (no GPU, no debugger).

A recording (``kernels/recordings/*.jsonl.gz``, ``tests/fixtures/...``) holds every MI command
cudatui sent with its send and answer times, and marks the moment each StopState was published
(the virtual ``-cudatui-stop-state``) and each host stack read (``-cudatui-host-stack``). For
every published state this prints one line: what led to it (a ``*stopped`` after ``-exec-next``,
a focus switch, a console command), each query the Debugger sent to build it with cuda-gdb's own
time for it (answer minus when gdb could start it: its send or the previous answer, whichever is
later), and the critical path:

* ``gdb``: the sum of cuda-gdb's times (what one pipelined write costs at best);
* ``trips``: how many times gdb sat idle waiting for cudatui's next command (1: all pipelined),
  and ``idle``: how long it sat so, between the trigger and the publication;
* ``serial``: the sum of every query's own round trip (what sending them one after another
  would cost);
* ``host``: how long the publication waited for the Python stack after gdb's last answer, and
  ``read``: how long pystack's read itself took in its thread (recordings made since batch 39
  mark it), so a slow read is told from one that waited for its turn;
* ``publish``: from the trigger (``*stopped``, else the first command sent) to the publication.

Usage: ``python -m bench.stop_queries [RECORDING...]`` (default: every lesson recording), and
``--steps`` for the per-stop lines (else the per-recording summary only).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bench import ROOT

RECORDINGS = ROOT / "kernels" / "recordings"
VIRTUAL = "999999999"
COMMAND = re.compile(r"^(\d+)(-\S+)(.*)$")
ANSWER = re.compile(r"^(\d+)\^(done|error|running|connected|exit)")
MOVERS = ("-exec-",)


@dataclass
class Query:
    token: str
    op: str
    args: str
    sent: float
    answered: float | None = None


@dataclass
class Episode:
    """What led to one published state, and the queries sent to build it."""

    trigger: str
    start: float
    mover_sent: float | None = None
    queries: list[Query] = field(default_factory=list)
    host_at: float | None = None
    host_read: float | None = None
    """Seconds pystack's read took (the ``host-stack read=`` mark), when marked."""
    published: float | None = None

    @property
    def kind(self) -> str:
        first = self.trigger
        if first.startswith("-exec-"):
            return first.removeprefix("-exec-")
        if first == "-interpreter-exec":
            return "console"
        return first.lstrip("-*")

    def answered(self) -> list[Query]:
        return [q for q in self.queries if q.answered is not None]

    def gdb_times(self) -> list[tuple[Query, float]]:
        """Each answered query with cuda-gdb's own time for it (pipelined queries wait their turn)."""
        out, free = [], self.start
        for q in sorted(self.answered(), key=lambda q: q.answered or 0.0):
            assert q.answered is not None
            began = max(q.sent, free)
            out.append((q, q.answered - began))
            free = q.answered
        return out

    def idle(self) -> tuple[int, float]:
        """How often, and how long in all, gdb sat idle waiting for cudatui's next command."""
        trips, idle, free, last = 0, 0.0, self.start, None
        for q in sorted(self.queries, key=lambda q: q.sent):
            same_write = last is not None and q.sent - last <= 1e-4  # recorded at the same 0.1 ms: one write
            if q.sent >= free - 1e-4 and not same_write:  # gdb had answered everything before: a new round trip
                trips += 1
                idle += max(0.0, q.sent - free)
            free, last = max(free, q.answered or q.sent), q.sent
        return trips, idle

    def last_answer(self) -> float:
        return max((q.answered or q.sent for q in self.queries), default=self.start)


def episodes(path: Path) -> list[Episode]:
    """The published states of the recording's first session, each with what built it."""
    out: list[Episode] = []
    current: Episode | None = None
    pending: dict[str, Query] = {}
    mover: tuple[str, float] | None = None
    sessions = 0
    with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8") as f:
        for raw in f:
            entry = json.loads(raw)
            kind, line, t = entry.get("dir"), entry.get("line", ""), float(entry.get("t", 0.0))
            if kind == "meta":
                sessions += 1
                if sessions > 1:
                    break
                continue
            if kind == "mark" and line.startswith("host-stack read=") and current is not None:
                current.host_read = float(line.removeprefix("host-stack read="))
                continue
            if kind == "in":
                m = COMMAND.match(line)
                if not m:
                    continue
                token, op, args = m.groups()
                if token == VIRTUAL:
                    if op == "-cudatui-host-stack" and current is not None:
                        current.host_at = t
                    elif op == "-cudatui-stop-state" and current is not None:
                        current.published = t
                        out.append(current)
                        current = None
                    elif op == "-cudatui-path-step":
                        current = None
                    continue
                if op.startswith(MOVERS):
                    mover = (op, t)
                    current = None
                    continue
                query = Query(token, op, args.strip(), t)
                pending[token] = query
                if current is None:
                    current = Episode(op, t)
                current.queries.append(query)
            elif kind == "out":
                if line.startswith("*stopped"):
                    current = Episode(f"*stopped {mover[0] if mover else ''}".strip(), t,
                                      mover_sent=mover[1] if mover else None)
                    if mover:
                        current.trigger = mover[0]
                    mover = None
                    continue
                m = ANSWER.match(line)
                if m and m.group(1) in pending:
                    pending.pop(m.group(1)).answered = t
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def step_line(e: Episode) -> str:
    assert e.published is not None
    times = e.gdb_times()
    gdb = sum(t for _, t in times)
    serial = sum((q.answered or q.sent) - q.sent for q in e.answered())
    trips, idle = e.idle()
    host = max(0.0, (e.host_at or 0.0) - e.last_answer()) if e.host_at else 0.0
    mover = f" step {ms(e.start - e.mover_sent)}" if e.mover_sent is not None else ""
    read = f" (read {ms(e.host_read)})" if e.host_read is not None else ""
    each = " ".join(f"{q.op.removeprefix('-').removeprefix('cuda-info-').removeprefix('data-')}={ms(t)}"
                    for q, t in times)
    return (f"  {e.kind:<18}{mover} | {len(e.queries)} q, gdb {ms(gdb)}, trips {trips}, idle {ms(idle)}, "
            f"serial {ms(serial)}, host {ms(host)}{read}, publish {ms(e.published - e.start)} ms | {each}")


def reads(group: list[Episode]) -> str:
    """`` (read N)``: the median of pystack's own read times, where the recording marks them."""
    took = [e.host_read for e in group if e.host_read is not None]
    return f" (read {ms(statistics.median(took))})" if took else ""


def summary(path: Path, eps: list[Episode]) -> list[str]:
    lines = []
    by_kind: dict[str, list[Episode]] = defaultdict(list)
    for e in eps:
        by_kind[e.kind].append(e)
    for kind, group in sorted(by_kind.items()):
        def med(values: list[float]) -> str:
            return ms(statistics.median(values)) if values else "-"
        trips = statistics.median([e.idle()[0] for e in group])
        lines.append(
            f"  {kind:<18} x{len(group):<3} queries {statistics.median([len(e.queries) for e in group]):.0f}, "
            f"gdb {med([sum(t for _, t in e.gdb_times()) for e in group])}, trips {trips:.0f}, "
            f"idle {med([e.idle()[1] for e in group])}, "
            f"host wait {med([max(0.0, (e.host_at or 0) - e.last_answer()) if e.host_at else 0.0 for e in group])}"
            f"{reads(group)}, "
            f"publish {med([(e.published or e.start) - e.start for e in group])} ms (median)")
    per_op: dict[str, list[float]] = defaultdict(list)
    for e in eps:
        for q, t in e.gdb_times():
            per_op[q.op].append(t)
    ops = sorted(per_op.items(), key=lambda kv: -sum(kv[1]))
    lines.append("  cuda-gdb per query (median ms, count): " + ", ".join(
        f"{op.removeprefix('-')} {ms(statistics.median(v))} x{len(v)}" for op, v in ops))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stop_queries", description=__doc__.splitlines()[0])
    parser.add_argument("recordings", nargs="*", type=Path)
    parser.add_argument("--steps", action="store_true", help="one line per published state")
    args = parser.parse_args(argv)
    paths = args.recordings or sorted(RECORDINGS.glob("*.jsonl.gz"))
    for path in paths:
        try:
            eps = [e for e in episodes(path) if e.published is not None]
        except (OSError, ValueError, EOFError) as exc:
            print(f"bench.stop_queries: {path}: {exc}")
            return 1
        print(f"{path.name}: {len(eps)} states published")
        if args.steps:
            for e in eps:
                print(step_line(e))
        for line in summary(path, eps):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
