"""Fuzz ``cudatui.gdbbridge.session.mi.parse_line`` with many generated lines and print what happened.

Not a test: ``python bench/fuzz_mi.py [N] [SEED]`` (default 100000 lines). Lines are real
cuda-gdb records from tests/fixtures/transcripts, cut at random points, with characters
inserted/deleted/replaced, random MI-looking structures and random bytes. Every line must
return a Record within 2 s (a SIGALRM guard reports hangs) and never raise.
"""

from __future__ import annotations

import collections
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fuzzing import Failures, guarded, hangs_raised, print_failures  # noqa: E402
from cudatui.gdbbridge.session.mi import parse_line  # noqa: E402

ALPHABET = '^*=+~@&"\\{}[],=abcdefgnrt0123456789 ()\n\t\x00\x1b'


def real_lines() -> list[str]:
    lines = []
    for path in sorted((ROOT / "tests" / "fixtures" / "transcripts").glob("*.jsonl")):
        for text in path.read_text().splitlines():
            entry = json.loads(text)
            if entry.get("dir") == "out":
                lines.append(entry["line"])
    return lines


def mutate(rng: random.Random, line: str) -> str:
    choice = rng.randrange(5)
    if choice == 0 and line:
        return line[: rng.randrange(len(line))]
    if choice == 1:
        chars = list(line)
        for _ in range(rng.randint(1, 5)):
            pos = rng.randrange(len(chars) + 1)
            action = rng.randrange(3)
            if action == 0:
                chars.insert(pos, rng.choice(ALPHABET))
            elif chars and pos < len(chars):
                if action == 1:
                    del chars[pos]
                else:
                    chars[pos] = rng.choice(ALPHABET)
        return "".join(chars)
    if choice == 2:
        return rng.choice("^*=~@&") + "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 60)))
    if choice == 3:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 80))).decode("utf-8", "replace")
    return line


def main(argv: list[str]) -> int:
    total = int(argv[1]) if len(argv) > 1 else 100_000
    rng = random.Random(int(argv[2]) if len(argv) > 2 else 1)
    corpus = real_lines()
    kinds: collections.Counter[str] = collections.Counter()
    failures: Failures = []
    started = time.monotonic()
    slowest = (0.0, "")
    with hangs_raised():
        for _ in range(total):
            line = mutate(rng, rng.choice(corpus))
            with guarded(2, repr(line[:120]), failures):
                t0 = time.perf_counter()
                kinds[parse_line(line).kind] += 1
                spent = time.perf_counter() - t0
                if spent > slowest[0]:
                    slowest = (spent, line)
    elapsed = time.monotonic() - started
    print(f"{total} lines in {elapsed:.1f} s ({total / elapsed:.0f}/s) from {len(corpus)} real records")
    print(f"  slowest line {slowest[0] * 1000:.2f} ms ({len(slowest[1])} chars): {slowest[1][:80]!r}")
    for kind, count in sorted(kinds.items()):
        print(f"  {kind:8} {count}")
    return print_failures(failures)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
