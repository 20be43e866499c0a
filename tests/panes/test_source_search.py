"""The source pane's search (smart case, next/previous with wrap), its titles' left-shortened
paths and the file finder's fuzzy ranking."""

from __future__ import annotations

from cudatui.tui.widgets.file_finder import fuzzy_score, rank
from cudatui.tui.widgets.source_search import Match, Search, find_matches, shorten_left

LINES = ["int acc = 0;", "ACC += leaf(i); // acc", "return acc;"]


def test_smart_case_and_every_match_of_a_line() -> None:
    assert find_matches(LINES, "acc") == (Match(1, 4, 7), Match(2, 0, 3), Match(2, 19, 22), Match(3, 7, 10))
    assert find_matches(LINES, "ACC") == (Match(2, 0, 3),)
    assert find_matches(LINES, "") == () and find_matches(LINES, "nothing") == ()


def test_next_and_previous_wrap_and_say_so() -> None:
    search = Search("acc", find_matches(LINES, "acc")).first_from(2)
    assert search.current == Match(2, 0, 3) and search.describe() == "/acc 2/4"
    search, wrapped = search.step(1)
    search, wrapped = search.step(1)
    assert search.current == Match(3, 7, 10) and not wrapped
    search, wrapped = search.step(1)
    assert search.current == Match(1, 4, 7) and wrapped
    search, wrapped = search.step(-1)
    assert search.current == Match(3, 7, 10) and wrapped
    assert Search("x", ()).describe() == "/x: not found" and Search("x", ()).step(1) == (Search("x", ()), False)


def test_paths_are_shortened_from_the_left_at_a_slash() -> None:
    path = "/tmp/venv/lib/python3.12/site-packages/kernels/foo.cu"
    assert shorten_left(path, 100) == path
    assert shorten_left(path, 32) == "…/site-packages/kernels/foo.cu"
    assert shorten_left(path, 12) == "…/foo.cu"
    assert shorten_left("a_very_long_file_name.cu", 10) == "…e_name.cu"


def test_the_finder_ranks_base_name_matches_first() -> None:
    files = ["/src/walk/nav.c", "/src/nav/nav_walk.c", "/src/nav/nav_main.c", "/usr/include/stdio.h"]
    assert [p for p, _ in rank("walk", files)][:2] == ["/src/nav/nav_walk.c", "/src/walk/nav.c"]
    assert fuzzy_score("zzz", files[0]) is None
    assert [p for p, _ in rank("", files)] == sorted(files)
