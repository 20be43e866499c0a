"""Hostile files given to `cudatui sanitize --read` and `cudatui replay`: each is one line on
stderr and exit 2, never a traceback, a hang or gigabytes read; a report that simply stops
early still reads as truncated with its complete records.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path
from collections.abc import Callable

import pytest

from tests.support.cli import cudatui, one_line
from tests.support.paths import FIXTURES, ROOT
from cudatui.gdbbridge.sanitizer import report_file
from cudatui.gdbbridge import ReportError, read_report
from cudatui.gdbbridge.sanitizer.report_file import open_report, report_lines

REPORTS = FIXTURES / "sanitizer"
MEMCHECK_XML = (REPORTS / "memcheck.xml").read_text()
WAIT = 60.0


def _laughs(levels: int = 9) -> str:
    entities = ['<!ENTITY lol0 "lol">'] + [f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, levels + 1)]
    return '<?xml version="1.0"?>\n<!DOCTYPE r [\n' + "\n".join(entities) + "\n]>\n"


def _record_with(text: str) -> str:
    return f"<ComputeSanitizerOutput><record><kind>Precise</kind><what><text>{text}</text></what></record></ComputeSanitizerOutput>"


def _write(text: str) -> Callable[[Path], Path]:
    def make(path: Path) -> Path:
        path.write_text(text)
        return path
    return make


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _sparse(size: int) -> Callable[[Path], Path]:
    def make(path: Path) -> Path:
        with open(path, "wb") as out:
            out.truncate(size)  # holes: no disk used, one line of NUL bytes to a reader
        return path
    return make


def _gzip_of_newlines(path: Path) -> Path:
    """1 GiB of newlines, gzipped to about 1 MB: one member of 16 MiB compressed once and written
    64 times (readers inflate a gzip's members one after another; compressing the whole GiB cost
    3.5 s of CPU, seconds more than the replay it tests)."""
    member = gzip.compress(b"\n" * (1 << 24), compresslevel=9)
    path.write_bytes(member * 64)
    assert path.stat().st_size < 2 << 20
    return path


DEEP = 100_000
HOSTILE_REPORTS: dict[str, tuple[Callable[[Path], Path], str]] = {
    "deep-nesting": (_write("<ComputeSanitizerOutput>" + "<a>" * DEEP + "</a>" * DEEP + "</ComputeSanitizerOutput>"),
                     "XML nested deeper than 64 elements"),
    "deep-nesting-in-a-record": (_write("<ComputeSanitizerOutput><record>" + "<a>" * DEEP + "</a>" * DEEP
                                        + "</record></ComputeSanitizerOutput>"), "XML nested deeper than 64 elements"),
    "billion-laughs-in-a-record": (_write(_laughs() + _record_with("&lol9;")), "amplification"),
    "billion-laughs-under-the-root": (_write(_laughs() + "<ComputeSanitizerOutput>&lol9;</ComputeSanitizerOutput>"),
                                      "amplification"),
    "quadratic-blowup": (_write('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "' + "x" * 50_000 + '">]>\n'
                                + _record_with("&a;" * 50_000)), "amplification"),
    "garbage-after-a-record": (_write(MEMCHECK_XML.replace("</record>", "</record>\x00\x01 <<<", 1)), "not valid XML"),
    "undefined-entity": (_write(_record_with("&nope;")), "undefined entity"),
    "dev-zero": (lambda _: Path("/dev/zero"), "not a regular file"),
    "dev-urandom": (lambda _: Path("/dev/urandom"), "not a regular file"),
    "fifo": (_fifo, "not a regular file"),
    "directory": (lambda path: path.parent, "Is a directory"),
    "sparse-6-GiB": (_sparse(6 << 30), "more than 256 MiB, too big for a sanitizer report"),
}
HOSTILE_RECORDINGS: dict[str, tuple[Callable[[Path], Path], str]] = {
    **{kind: (HOSTILE_REPORTS[kind][0], "not a regular file (a device or a FIFO)")
       for kind in ("dev-zero", "dev-urandom", "fifo")},
    "sparse-6-GiB": (_sparse(6 << 30), ":1: a line longer than 64 MiB"),
    "1-GiB-line": (_sparse(1 << 30), ":1: a line longer than 64 MiB"),
    "1-MB-gzip-of-newlines": (_gzip_of_newlines, "more than 256 MiB of text (not a recording, or a decompression bomb)"),
}


@pytest.mark.parametrize("kind", HOSTILE_REPORTS.keys())
def test_hostile_reports_are_one_line_and_exit_2(tmp_path: Path, kind: str) -> None:
    make, expected = HOSTILE_REPORTS[kind]
    path = make(tmp_path / "report.xml")
    message = one_line(cudatui("sanitize", "--read", str(path), "--json"))
    assert message.startswith(f"cudatui sanitize: {path}: ") and expected in message, message


XXE = {
    "general-entity": ('<!DOCTYPE r [<!ENTITY xxe SYSTEM "{url}">]>', "&xxe;"),
    "parameter-entity": ('<!DOCTYPE r [<!ENTITY % p SYSTEM "{url}"> %p;]>', "x"),
    "external-dtd": ('<!DOCTYPE r SYSTEM "{url}">', "x"),
}


@pytest.mark.parametrize("kind", XXE.keys())
def test_external_entities_are_never_read(tmp_path: Path, kind: str) -> None:
    """XXE: a report whose entities or DTD name a local file (a secret beside it) never shows the
    file: expat resolves no external entity; a reference to one is an undefined entity (one line,
    exit 2); a parameter entity or an external DTD is left unread and the records are read."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET-42 the content of a file the report names\n")
    doctype, text = XXE[kind]
    report = tmp_path / "report.xml"
    report.write_text('<?xml version="1.0"?>\n' + doctype.format(url=secret.as_uri()) + "\n" + _record_with(text))
    done = cudatui("sanitize", "--read", str(report), "--json")
    assert "TOPSECRET" not in done.stdout + done.stderr
    if kind == "general-entity":
        assert one_line(done) == f"cudatui sanitize: {report}: not valid XML (undefined entity &xxe;: line 3, column 64)\n"
    else:
        assert done.returncode == 1 and '"findings": 1' in done.stdout and not done.stderr, done.stderr


@pytest.mark.parametrize("kind", HOSTILE_RECORDINGS.keys())
def test_replay_of_devices_fifos_and_huge_files_is_one_line(tmp_path: Path, kind: str) -> None:
    """Each ends with its one line (the gzip was read to the 256 MiB bound: 6 GB before)."""
    make, expected = HOSTILE_RECORDINGS[kind]
    path = make(tmp_path / "x.jsonl.gz")
    message = one_line(cudatui("replay", str(path)))
    assert message.startswith("cudatui: ") and str(path) in message and expected in message, message


def test_a_report_cut_short_is_still_truncated_not_an_error(tmp_path: Path) -> None:
    """A sanitizer killed mid-write: every cut point keeps the complete records before it."""
    whole = (REPORTS / "memcheck.xml").read_bytes()
    first_end = whole.index(b"</record>") + len(b"</record>")
    root_end = whole.rindex(b"</ComputeSanitizerOutput>")
    for cut in (first_end + 1, first_end + 20, root_end - 30, root_end + 3):
        path = tmp_path / f"cut{cut}.xml"
        path.write_bytes(whole[:cut])
        report = read_report(str(path))
        assert report.truncated and report.finding_count >= 1, cut


def test_a_cut_in_the_middle_of_a_character_is_a_cut(tmp_path: Path) -> None:
    whole = (REPORTS / "memcheck.xml").read_bytes().replace(b"</record>", "<text>é</text></record>".encode(), 1)
    path = tmp_path / "cut.xml"
    path.write_bytes(whole[: whole.index("é".encode()) + 1])
    report = read_report(str(path))
    assert report.truncated and report.finding_count == 0


def test_text_report_lines_are_cut_and_the_rest_still_read(tmp_path: Path) -> None:
    """An 8 MiB line (a progress bar redrawn with CR would be many lines; this has none) does not
    end up in memory whole, and the findings after it are still read."""
    text = (REPORTS / "sanitizer_text.txt").read_bytes()
    path = tmp_path / "long-line.txt"
    with open(path, "wb") as out:
        out.write(b"========= COMPUTE-SANITIZER\n" + b"x" * (8 << 20) + b"\n" + text)
    expected = read_report(str(REPORTS / "sanitizer_text.txt"))
    report = read_report(str(path))
    assert report.finding_count == expected.finding_count > 0


def test_report_lines_universal_newlines_and_cut() -> None:
    import io

    stream = io.BufferedReader(io.BytesIO(b"a\r\nb\rc\n" + b"y" * 10 + b"\nlast\xff"))  # type: ignore[arg-type]
    assert list(report_lines(stream, max_line=8)) == ["a\n", "b\n", "c\n", "yyyyyyyy\n", "last\ufffd\n"]


def test_the_read_bound_holds_for_a_file_that_grows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The size checked at open can be outgrown while reading (a log still being written)."""
    path = tmp_path / "growing.txt"
    path.write_bytes(b"========= COMPUTE-SANITIZER\n")
    stream = open_report(str(path), limit=1 << 16)
    with open(path, "ab") as more:
        more.write(b"\n" * (1 << 17))
    with stream, pytest.raises(ReportError, match="more than 65536 bytes"):
        stream.read()


def test_the_xml_reader_is_bounded_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_file, "MAX_REPORT", 1 << 10)
    with pytest.raises(ReportError, match="more than 1024 bytes, too big for a sanitizer report"):
        read_report(str(REPORTS / "memcheck.xml"))


@pytest.mark.parametrize("kind", ["dev-zero", "dev-urandom", "fifo", "directory", "sparse-6-GiB"])
def test_stats_replay_of_devices_fifos_and_huge_files_is_one_line(tmp_path: Path, kind: str) -> None:
    """`cudatui stats --replay` read /dev/zero and a FIFO without end (and /dev/urandom as a codec error)."""
    path = HOSTILE_REPORTS[kind][0](tmp_path / "samples.jsonl")
    done = cudatui("stats", "--once", "--replay", str(path))
    expected = {"directory": "Is a directory", "sparse-6-GiB": "more than 256 MiB, too big for recorded GPU samples"}
    assert (done.returncode, done.stdout) == (1, "") and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stderr == f"cudatui stats: {path}: {expected.get(kind, 'not a regular file (a device or a FIFO)')}\n"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_explain_of_a_device_on_its_standard_input_is_one_line(device: str) -> None:
    """`cudatui explain < /dev/zero` read without end (and grew without bound)."""
    with open(device, "rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "cudatui", "explain"], cwd=ROOT, stdin=stdin,
                              capture_output=True, text=True, timeout=WAIT)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "cudatui explain: standard input is a device, not text (pipe or redirect the error text into it)\n"


def test_explain_reads_the_last_mib_of_a_long_log() -> None:
    """64 MiB of a log through a pipe, then the error: the tail is explained (the whole took minutes)."""
    error = b"RuntimeError: CUDA error: an illegal memory access was encountered\n"
    proc = subprocess.Popen([sys.executable, "-m", "cudatui", "explain"], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None
    line = b"step 1234 loss 0.5 \xff not utf-8, \x1b[31mcolour\x1b[0m\n"
    for _ in range((64 << 20) // (len(line) * 1024)):
        proc.stdin.write(line * 1024)
    proc.stdin.write(error)
    out, err = proc.communicate(timeout=WAIT)
    assert (proc.returncode, err) == (0, b"") and out.startswith(b"Illegal memory access in a kernel\n")
