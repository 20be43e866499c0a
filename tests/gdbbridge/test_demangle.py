"""Mangled C++ symbols read as C++ (binutils' c++filt, cached), and stay as they are without it."""

from __future__ import annotations

import shutil

import pytest

from cudatui.gdbbridge.cuda.disassembly import parse_disassembly
from cudatui.gdbbridge.demangle import demangle, forget

needs_cxxfilt = pytest.mark.skipif(shutil.which("c++filt") is None, reason="binutils' c++filt is not installed")


@pytest.fixture(autouse=True)
def fresh():
    forget()
    yield
    forget()


@needs_cxxfilt
def test_a_kernel_symbol_reads_as_its_cpp_signature() -> None:
    assert demangle("_Z6box3x3PA18_fii") == "box3x3(float (*) [18], int, int)"
    assert demangle("_ZN2at6native3addEv") == "at::native::add()"


def test_a_plain_or_unknown_name_stays_as_it_is() -> None:
    assert demangle("reduce_racy") == "reduce_racy"
    assert demangle("") == ""
    assert demangle("_Znot a symbol") == "_Znot a symbol"


def test_without_cxxfilt_the_raw_name_is_shown(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no c++filt anywhere
    assert demangle("_Z6box3x3PA18_fii") == "_Z6box3x3PA18_fii"


@needs_cxxfilt
def test_sass_instructions_carry_the_demangled_function() -> None:
    payload = {"asm_insns": [{"address": "0x10", "func-name": "_Z6box3x3PA18_fii", "offset": "0", "inst": "NOP"}]}
    assert parse_disassembly(payload)[0].function == "box3x3(float (*) [18], int, int)"
