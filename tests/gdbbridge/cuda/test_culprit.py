"""The culprit lane's rules: the faulting line's expressions (the cpp_extension gather measured on
the H200), the out-of-range and outlier tests, and the summary of lanes that differ."""

from __future__ import annotations

from cudatui.gdbbridge.cuda.culprit import find_culprit, line_expressions, out_of_range, size_of
from cudatui.gdbbridge.models.cuda import Lane
from cudatui.gdbbridge.models.culprit import Culprit, LaneValue, describe
from cudatui.gdbbridge.models import StopEvent, StopState, Variable

GATHER = ["__global__ void gather(const float *x, float *out, const long *idx, int n) {", "    int i = blockIdx.x * blockDim.x + threadIdx.x;", "    if (i < n) {", "        long j = idx[i];", "        out[i] = x[j];"]
"""scripts/own_programs/ext_oob.py's kernel up to its faulting line (cuda.cu:9 on the H200)."""
BIG = 1 << 34


def lanes(values: dict[int, str]) -> tuple[LaneValue, ...]:
    return tuple(LaneValue(lane, value) for lane, value in values.items())


def test_the_faulting_lines_index_comes_first_then_what_it_was_assigned() -> None:
    found = line_expressions(GATHER[-1], GATHER[:-1])
    assert found[:2] == ("i", "j")
    assert found.index("idx[i]") < found.index("out[i]") < found.index("x")  # j = idx[i]: it is on the line above
    assert "n" not in found and "threadIdx" not in found
    assert line_expressions("out[i] = x[idx[i]];  // idx[] may be bad")[:2] == ("i", "idx[i]")


def test_lane_24_is_out_of_range_of_n() -> None:
    idx = lanes({lane: str(BIG if lane == 24 else lane) for lane in range(32)})
    assert out_of_range(idx, 64) == (24, f"{BIG} is outside 0..63")
    assert out_of_range(idx, None) == (24, f"{BIG} is far from the other lanes' 0..31")
    assert out_of_range(lanes({lane: str(lane) for lane in range(32)}), 64) is None
    assert out_of_range(lanes(dict.fromkeys(range(32), "<optimized out>")), 64) is None  # j at the fault
    assert out_of_range(lanes({lane: str(100 + lane) for lane in range(32)}), 64) is None  # every lane: no one lane


def test_the_size_comes_from_the_focused_lanes_arguments() -> None:
    state = StopState(0, StopEvent("signal-received"), variables=(
        Variable("j", "<optimized out>", "@register long"), Variable("i", "0", "@register int"),
        Variable("n", "64", "@parameter int", is_arg=True)))
    assert size_of(state, ("i", "j")) == 64


def test_what_differs_between_lanes() -> None:
    idx = lanes({lane: str(BIG if lane == 24 else lane) for lane in range(32)})
    mixed = lanes({0: "<optimized out>", 1: "3"})
    culprit = Culprit((("j", lanes({0: "<optimized out>", 1: "<optimized out>"})), ("idx[i]", idx), ("q", mixed)),
                      24, "idx[i]", "")
    assert culprit.differing == (f"idx[i]: 0..{BIG} over lanes 0-31", "q: <optimized out> in 1 lanes; 3 in 1 lanes")
    assert describe("i", lanes({0: "0", 1: "1"})) == "i: 0..1 over lanes 0-1"


async def test_a_single_faulted_lane_is_the_culprit_without_a_walk() -> None:
    lanes_table = (Lane(3, "active", 0x10, (3, 0, 0), "Warp Illegal Address", False),
                   Lane(4, "active", 0x10, (4, 0, 0), None, True))
    state = StopState(0, StopEvent("signal-received"), lanes=lanes_table)
    found = await find_culprit(None, state, "out[i] = x[j];")  # type: ignore[arg-type]  # no command is sent
    assert (found.lane, found.reason, found.evaluated) == (3, "only lane 3 faulted", ())
