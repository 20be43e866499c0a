"""gdb's printed arrays decoded (gdbbridge/aggregates.py): repeats, nesting, strings, cuts; total."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cudatui.gdbbridge.aggregates import LIMIT, decode, flatten
from cudatui.gdbbridge.cuda.evaluation import parse_array_value

THRESHOLD = 10
"""gdb's ``print repeats``: a run of this many equal elements or more is printed compressed."""


def gdb_print(items: list) -> str:
    """``items`` (numbers or nested lists) printed the way gdb prints an array, repeats compressed."""
    parts: list[str] = []
    i = 0
    while i < len(items):
        run = 1
        while i + run < len(items) and items[i + run] == items[i]:
            run += 1
        text = gdb_print(items[i]) if isinstance(items[i], list) else str(items[i])
        if run >= THRESHOLD:
            parts.append(f"{text} <repeats {run} times>")
            i += run
        else:
            parts.append(text)
            i += 1
    return "{" + ", ".join(parts) + "}"


def as_tuples(items: list) -> tuple:
    return tuple(as_tuples(i) if isinstance(i, list) else str(i) for i in items)


def test_repeats_of_a_row_and_of_rows_as_gdb_prints_a_2d_array():
    assert decode("{0 <repeats 18 times>}").items == ("0",) * 18
    tile = decode("{{0, 1, 2}, {0 <repeats 3 times>} <repeats 2 times>}")
    assert tile.items == (("0", "1", "2"), ("0", "0", "0"), ("0", "0", "0")) and not tile.truncated
    whole = decode("{{0 <repeats 18 times>} <repeats 18 times>}")
    assert len(whole.items) == 18 and all(row == ("0",) * 18 for row in whole.items)


def test_char_arrays_strings_and_char_repeats():
    assert decode("\"ab\", '\\000' <repeats 15 times>").items == ("'a'", "'b'", *["'\\000'"] * 15)
    assert decode("'\\000' <repeats 15 times>").items == ("'\\000'",) * 15
    assert decode('"a,b\\"c\'"').items == ("'a'", "','", "'b'", "'\"'", "'c'", "'\\''")


def test_structs_stay_whole_and_scalars_keep_their_text():
    both = decode("{{x = 1, y = {1, 2}}, {x = 2, y = {3, 4}}}")
    assert both.items == ("{x = 1, y = {1, 2}}", "{x = 2, y = {3, 4}}")
    assert decode("{0x400 <reduce_sum+1024>, 97 'a', -inf, nan(0x400000)}").items == (
        "0x400 <reduce_sum+1024>", "97 'a'", "-inf", "nan(0x400000)")
    assert decode("3.5").items == ("3.5",)


def test_what_gdb_cut_is_said_to_be_cut():
    assert decode("{1, 2, 3...}") == decode("{1, 2, 3, ...}")
    assert decode("{1, 2, 3...}").truncated and decode("{1, 2, 3...}").items == ("1", "2", "3")
    assert decode('"abc"...').truncated
    cut = decode("{{1, 2}, {3")
    assert cut.truncated and cut.items == (("1", "2"), ("3",))
    assert not decode("{1, 2}").truncated


def test_huge_repeats_stop_at_the_limit():
    big = decode("{0 <repeats 4000000000 times>}")
    assert big.truncated and len(big.items) == LIMIT


def test_the_shared_reader_flattens_rows():
    assert parse_array_value("{{0, 1}, {2 <repeats 12 times>} <repeats 2 times>}") == ("0", "1", *["2"] * 24)


numbers = st.integers(min_value=-3, max_value=3)
rows = st.lists(numbers, min_size=1, max_size=40)


@given(st.lists(numbers, min_size=1, max_size=60))
def test_a_1d_array_printed_by_gdb_decodes_to_its_elements(items):
    assert decode(gdb_print(items)).items == as_tuples(items)


@given(st.integers(min_value=1, max_value=12).flatmap(
    lambda cols: st.lists(st.lists(numbers, min_size=cols, max_size=cols), min_size=1, max_size=30)))
def test_a_2d_array_printed_by_gdb_decodes_to_its_rows(grid):
    decoded = decode(gdb_print(grid))
    assert decoded.items == as_tuples(grid) and not decoded.truncated
    assert flatten(decoded.items) == tuple(str(v) for row in grid for v in row)


@settings(max_examples=300)
@given(st.lists(st.sampled_from(list("{},'\"\\ <>0a=.") + [" <repeats 3 times>", "...", "x = "]), max_size=60).map("".join))
def test_any_text_decodes_without_error(text):
    decoded = decode(text)
    assert isinstance(decoded.items, tuple)
    assert all(isinstance(v, str) for v in flatten(decoded.items))


@given(st.text(max_size=200))
def test_any_unicode_text_decodes_without_error(text):
    decode(text)


def test_deep_nesting_needs_no_recursion():
    deep = "{" * 50000 + "1" + "}" * 50000
    assert flatten(decode(deep).items) == ("1",)
