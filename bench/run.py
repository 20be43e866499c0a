"""Run the CPU benchmark set and print one summary table of ratios and goals.

``python -m bench.run`` (about 3-4 minutes on 2 cores); ``--quick`` for a smoke run;
``--only NAME`` for one bench. The GPU set is separate: ``python -m bench.gpu`` on a GPU box.
"""

from __future__ import annotations

import argparse
import importlib
import time

from . import Result, fmt, print_results

BENCHES = ("mi_roundtrip", "parse_big", "stop_to_screen", "scale")


def table(results: list[Result]) -> str:
    """A fixed-width summary: bench, measurement, value, goal, verdict."""
    rows = [("bench", "measurement", "value", "goal", "verdict")]
    rows += [(r.bench, r.name, f"{fmt(r.value)}{r.unit}", r.goal_text, r.verdict) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny N everywhere (a smoke run)")
    parser.add_argument("--only", choices=BENCHES, action="append", help="run only this bench (repeatable)")
    args = parser.parse_args(argv)
    results: list[Result] = []
    started = time.perf_counter()
    for name in args.only or BENCHES:
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name}", flush=True)
        found = module.measure(args.quick)
        print_results(found)
        results += found
    print(f"\n== summary ({time.perf_counter() - started:.0f} s)")
    print(table(results))
    missed = [r for r in results if r.met is False]
    print(f"\n{len(missed)} goal(s) missed" + (": see WHY/FIX above" if missed else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
