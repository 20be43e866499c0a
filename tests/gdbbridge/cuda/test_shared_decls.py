"""Shared array declarations read from kernel sources: the bundled lessons and the recorded bugs.cu."""

from __future__ import annotations

from cudatui.gdbbridge.cuda.shared_decls import SharedDecl, blank_comments, constants, evaluate, function_body, shared_arrays
from tests.support.paths import ROOT, TRANSCRIPTS

RACE = (ROOT / "kernels" / "race.cu").read_text()
TILE = (ROOT / "kernels" / "tile.cu").read_text()
BUGS = (TRANSCRIPTS / "bugs.cu").read_text()


def test_extern_array_of_the_race_lesson():
    # the race lesson's locals on the H200 were s, tid, idx, in, out, n: sdata only exists in the source
    assert shared_arrays(RACE, "reduce_racy") == (SharedDecl("sdata", "float", (None,), extern=True),)
    assert shared_arrays(RACE, "reduce_sum") == (SharedDecl("sdata", "float", (None,), extern=True),)


def test_sizes_from_defines_and_functions_without_shared_memory():
    assert constants(TILE)["SPAN"] == 18  # #define SPAN (TILE + 2 * HALO)
    assert shared_arrays(TILE, "blur_racy") == (SharedDecl("tile", "float", (18, 18)),)
    assert shared_arrays(BUGS, "read_uninit") == (SharedDecl("tile", "float", (64,)),)
    assert shared_arrays(BUGS, "add_kernel") == ()
    assert shared_arrays(BUGS, "no_such_kernel") == ()


def test_declarators_alignment_comments_and_unknown_sizes():
    source = """
    constexpr int N = 1 << 5;
    __device__ int helper(int x) { return x; }  // not the kernel
    __global__ void k(int n) {
        // __shared__ float commented[8];
        const char* s = "__shared__ int in_a_string[4];";
        __shared__ __align__(16) unsigned int a[N], b[2][M];
        extern __shared__ double buf[];
        if (n) { __shared__ int scalar; }
    }
    """
    assert shared_arrays(source, "k") == (
        SharedDecl("a", "unsigned int", (32,)),
        SharedDecl("b", "unsigned int", (2, None)),
        SharedDecl("buf", "double", (None,), extern=True),
    )


def test_helpers():
    assert blank_comments('a /* x\ny */ b "q;"') == "a     \n     b     "
    assert function_body("void f(int (*g)(int)) { return; }", "f") == " return; "
    assert function_body("void f(int);", "f") is None
    assert evaluate("(TILE + 2 * HALO)", {"TILE": 16, "HALO": 1}) == 18
    assert evaluate("256u", {}) == 256 and evaluate("N / 0", {"N": 1}) is None and evaluate("sizeof(int)", {}) is None
