"""What the fuzzers share (bench/fuzz_mi.py, bench/fuzz_replay.py): a try of one input under an
alarm, where a hang or an exception is a failure said in one line, and the report of failures."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

Failures = list[tuple[str, str]]
"""What failed and where (the input, or the lines of a recording)."""


class Hang(BaseException):
    """Raised by the alarm; a BaseException so that the code fuzzed cannot hide it in ``except Exception``."""


@contextmanager
def hangs_raised() -> Iterator[None]:
    """While inside, SIGALRM raises :class:`Hang` (the handler before is put back after)."""

    def alarm(signum: int, frame: object) -> None:
        raise Hang()

    previous = signal.signal(signal.SIGALRM, alarm)
    try:
        yield
    finally:
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def guarded(seconds: int, where: str, failures: Failures) -> Iterator[None]:
    """Run the block with an alarm of ``seconds`` (inside :func:`hangs_raised`): a hang or an
    exception it raises is added to ``failures`` with ``where``, and the fuzzing goes on."""
    signal.alarm(seconds)
    try:
        yield
    except Hang:
        failures.append(("hang", where))
    except Exception as exc:  # the point of a fuzzer: report, do not stop
        failures.append((f"{type(exc).__name__}: {exc}"[:200], where))
    finally:
        signal.alarm(0)


def print_failures(failures: Failures) -> int:
    """Print the number of failures and the first ten; the exit status (1 when any)."""
    print(f"  failures {len(failures)}")
    for what, where in failures[:10]:
        print(f"    {what} ({where})")
    return 1 if failures else 0
