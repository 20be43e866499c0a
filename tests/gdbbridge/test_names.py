"""Short C++ names: the H200's PyTorch kernel name, templates, lambdas, plain C names."""

from __future__ import annotations

import json

import pytest

from cudatui.gdbbridge.names import is_shortened, short_name
from cudatui.gdbbridge.session.mi import parse_line
from tests.support import paths

RECORDED = paths.RECORDED / "own" / "torch_index.jsonl"


def recorded_kernel_name() -> str:
    for text in RECORDED.read_text().splitlines():
        line = json.loads(text).get("line", "")
        if line.startswith("*stopped"):
            return parse_line(line).payload["frame"]["func"]
    raise AssertionError("no stop recorded")


def test_pytorch_index_kernel_name_from_the_h200() -> None:
    name = recorded_kernel_name()
    assert len(name) > 900 and name.startswith("void at::native::index_elementwise_kernel<128, 4,")
    assert short_name(name) == "at::native::index_elementwise_kernel<128, 4, …>"
    assert is_shortened(name)


@pytest.mark.parametrize(("name", "short"), [
    ("reduce_racy", "reduce_racy"),
    ("void reduce_racy(float*, int)", "reduce_racy"),
    ("void f<128>(long)", "f<128>"),
    ("unsigned int helper(int)", "helper"),
    ("std::vector<int, std::allocator<int> >::push_back(int const&)", "std::vector<int, …>::push_back"),
    ("at::native::(anonymous namespace)::foo<float>(int)", "at::native::(anonymous namespace)::foo<float>"),
    ("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_16x5_nn_align4>(Params)", "cutlass::Kernel2<…>"),
    ("operator()(int) const", "operator()"),
    ("_Z3fooi", "_Z3fooi"),
    ("triton_poi_fused_add_0", "triton_poi_fused_add_0"),
    ("k<1, 2, 3>(int)", "k<1, 2, …>"),
    ("void k<(lambda(int)#1)>(x)", "k<…>"),
])
def test_short_names(name: str, short: str) -> None:
    assert short_name(name) == short


def test_unbalanced_names_end() -> None:
    assert short_name("void k<int, (float") == "k<int, …>"
    assert short_name("<" * 10_000) in ("<…>", "<>")
