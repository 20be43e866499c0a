"""Fuzz the replay path: hostile recordings read back and served, their answers parsed as MI.

``python bench/fuzz_replay.py [N] [SEED]`` (default 100000 lines; issue 36 asked for 1,000,000).
Recordings of :data:`PER_FILE` lines are made from the lines of the repository's real recordings
(tests/fixtures/transcripts, kernels/recordings), mutated at both levels: the JSON text (cut,
characters inserted, deleted or replaced, random bytes) and the fields (the MI line mutated as
bench/fuzz_mi.py does, ``t`` a string, a list, NaN, an integer of 400 digits, ``dir`` changed, a
header of another version, a nesting 100,000 deep). Each recording is read with
``transcript.load`` and, when it loads, served by the replay stand-in (``replay.Replayer``) to the
commands it holds (``-inferior-tty-set`` pointed at /dev/null); every line served is parsed
with ``mi.parse_line``. A recording may be refused, only with a one-line ``TranscriptError``;
anything else raised, a line that takes 2 s (SIGALRM) or a multi-line error is a failure.
tests/reliability/test_fuzz_replay.py runs it on fewer lines (``CUDATUI_FUZZ_LINES`` for more).
"""

from __future__ import annotations

import gzip
import io
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fuzz_mi import mutate  # noqa: E402
from bench.fuzzing import Failures, guarded, hangs_raised, print_failures  # noqa: E402
from cudatui.gdbbridge.record.replay import Replayer  # noqa: E402
from cudatui.gdbbridge.record.transcript import TranscriptError, load  # noqa: E402
from cudatui.gdbbridge.session.mi import parse_line  # noqa: E402

PER_FILE = 2_000
"""Lines in one fuzzed recording."""

JSON_ALPHABET = '{}[]",:\\ 0123456789.-eEtrufalsnIN\n\x00\x1b\u2028'
ODD_TIMES = ("1" + "0" * 400, '"soon"', "[1]", "NaN", "Infinity", "-Infinity", "1e999", "null", "{}", "-1")


def real_entries() -> list[dict]:
    """Every entry of the repository's recordings (header lines too)."""
    found = []
    paths = sorted((ROOT / "tests" / "fixtures" / "transcripts").glob("*.jsonl"))
    paths += sorted((ROOT / "kernels" / "recordings").glob("*.jsonl.gz"))
    for path in paths:
        text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
        found += [json.loads(line) for line in text.splitlines() if line.strip()]
    return found


def hostile(rng: random.Random, entry: dict, breaking: float) -> str:
    """One recording line made from ``entry``: its MI line mutated about one time in three (the
    recording still loads); with probability ``breaking``, its fields or its JSON text."""
    entry = dict(entry)
    if rng.random() >= breaking:
        if "line" in entry and rng.randrange(3) == 0:
            entry["line"] = mutate(rng, str(entry["line"]))
        return json.dumps(entry)
    choice = rng.randrange(7)
    if choice == 0:
        text = json.dumps(entry)
        return text.replace(f'"t": {json.dumps(entry.get("t", 0))}', f'"t": {rng.choice(ODD_TIMES)}', 1)
    if choice == 1:
        entry["dir"] = rng.choice(["in", "out", "err", "mark", "program", "meta", "", 5, None, ["in"]])
        return json.dumps(entry)
    if choice == 2:
        return json.dumps({"dir": "meta", "format": rng.choice(["cudatui-transcript", "other"]),
                           "version": rng.choice([1, 2, "1"])})
    if choice == 3:
        chars = list(json.dumps(entry))
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(chars) + 1)
            if rng.randrange(2) and pos < len(chars):
                del chars[pos]
            else:
                chars.insert(pos, rng.choice(JSON_ALPHABET))
        return "".join(chars).replace("\n", " ")
    if choice == 4:
        return json.dumps(entry)[: rng.randrange(1, 40)]
    if choice == 5 and rng.randrange(20) == 0:
        return "[" * 100_000 + "]" * 100_000
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 60))).decode("latin-1").replace("\n", " ")


def served(path: str) -> list[str]:
    """The replay stand-in's answers to the commands the recording holds; TranscriptError if
    it does not load."""
    transcript = load(path)
    out = io.StringIO()
    replayer = Replayer(transcript, out, 0.0, lambda: False, None)
    replayer.start()
    for exchange in transcript.exchanges:
        command = exchange.command
        if command.startswith("-inferior-tty-set"):
            command = '-inferior-tty-set "/dev/null"'
        if not replayer.handle(exchange.token + command):
            break
    return out.getvalue().splitlines()


def run(total: int, seed: int, directory: Path) -> tuple[Counter[str], Failures, float]:
    """Fuzz ``total`` lines: what came of the recordings, the failures (what, which lines), the
    slowest recording (seconds)."""
    rng = random.Random(seed)
    corpus = real_entries()
    outcomes: Counter[str] = Counter()
    failures: Failures = []
    slowest = 0.0
    done = 0
    while done < total:
        count = min(PER_FILE, total - done)
        start = rng.randrange(len(corpus))
        breaking = rng.choice((0.0, 0.0, 0.0005, 0.002, 0.05))  # most recordings load: their answers are served
        lines = [hostile(rng, corpus[(start + i) % len(corpus)], breaking) for i in range(count)]
        path = directory / f"fuzz-{done}.jsonl"
        path.write_text("\n".join(lines) + "\n", errors="surrogateescape")
        done += count
        began = time.perf_counter()
        with guarded(max(2, count // 100), f"lines {done - count + 1}-{done}", failures):
            try:
                for line in served(str(path)):
                    parse_line(line)
                outcomes["served"] += 1
            except TranscriptError as exc:
                outcomes["refused"] += 1
                if "\n" in str(exc) or not str(exc):
                    failures.append(("an error of more than one line", repr(exc)[:200]))
        slowest = max(slowest, time.perf_counter() - began)
        path.unlink()
    return outcomes, failures, slowest


def main(argv: list[str]) -> int:
    total = int(argv[1]) if len(argv) > 1 else 100_000
    seed = int(argv[2]) if len(argv) > 2 else 1

    started = time.monotonic()
    with hangs_raised(), tempfile.TemporaryDirectory() as directory:
        outcomes, failures, slowest = run(total, seed, Path(directory))
    elapsed = time.monotonic() - started
    print(f"{total} lines in {elapsed:.1f} s ({total / elapsed:.0f}/s), {sum(outcomes.values())} recordings: "
          f"{outcomes['served']} served, {outcomes['refused']} refused in one line; slowest {slowest:.2f} s")
    return print_failures(failures)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
