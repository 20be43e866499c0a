"""Names that write to the terminal, and a C program built with them (tests/fixtures/c/names/).

Each name holds an OSC 2 title, an OSC 52 clipboard write and some holds a CSI clear screen;
:data:`SHOWN` is what each must look like on the screen once cleaned. :func:`build` makes the
program, whose source file (``#line``), dlopen'ed library and one library function carry them.
"""

from __future__ import annotations

import base64
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .paths import C_SOURCES

NAMES = C_SOURCES / "names"


def title(text: str) -> str:
    """OSC 2 (set the window title to ``text``), ended by ST."""
    return f"\x1b]2;{text}\x1b\\"


def clipboard(text: str) -> str:
    """OSC 52 (put ``text`` on the clipboard), ended by BEL."""
    return f"\x1b]52;c;{base64.b64encode(text.encode()).decode()}\x07"


TITLES = ("SRC-TITLE", "LIB-TITLE", "FN-TITLE", "KERNEL-TITLE", "PROC-TITLE")
"""Every title a hostile name sets (none may become the terminal's)."""

SOURCE = title("SRC-TITLE") + "src" + clipboard("SRC-CLIP") + "\x1b[2J.c"
LIBRARY = "lib" + title("LIB-TITLE") + "evil" + clipboard("LIB-CLIP") + ".so"
FUNCTION = "evil" + title("FN-TITLE") + "fn" + clipboard("FN-CLIP")
KERNEL = "evil" + title("KERNEL-TITLE") + "kernel" + clipboard("KERNEL-CLIP")
PROCESS = "evil" + title("PROC-TITLE") + "proc" + clipboard("PROC-CLIP")
"""A process name (a program may name itself: prctl(PR_SET_NAME))."""
SHOWN = {SOURCE: "src.c", LIBRARY: "libevil.so", FUNCTION: "evilfn", KERNEL: "evilkernel", PROCESS: "evilproc"}
"""Each name as the UI shows it: the sequences removed, with their payloads."""


def c_string(text: str) -> str:
    """``text`` as a C string literal (control characters, quotes and backslashes in octal)."""
    return '"' + "".join(f"\\{ord(c):03o}" if ord(c) < 0x20 or c in '"\\' else c for c in text) + '"'


@dataclass(frozen=True)
class Built:
    program: Path
    library: Path
    wait_line: int
    """The ``pause()`` line of callback() as gdb numbers it (``#line 100`` moves it)."""


def build(directory: Path) -> Built:
    """names.c and its library in ``directory`` (where gdb finds the source file: it is not there);
    the library's function renamed :data:`FUNCTION`."""
    placeholder = "p" * len(FUNCTION.encode())
    built_library = directory / "hostile_lib.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O0", f"-DLIBRARY_FUNCTION={placeholder}", "-o", str(built_library),
                    str(NAMES / "hostile_lib.c")], check=True)
    data = built_library.read_bytes()
    assert placeholder.encode() in data
    library = directory / LIBRARY
    library.write_bytes(data.replace(placeholder.encode(), FUNCTION.encode()))
    program = directory / "names"
    subprocess.run(["gcc", "-g", "-O0", f"-DHOSTILE_FILE={c_string(SOURCE)}", f"-DHOSTILE_LIBRARY={c_string(str(library))}",
                    "-o", str(program), str(NAMES / "names.c"), "-ldl"], check=True, cwd=directory)
    lines = (NAMES / "names.c").read_text().splitlines()
    directive = next(i for i, line in enumerate(lines) if line.startswith("#line 100"))
    wait = next(i for i, line in enumerate(lines) if "/* WAIT */" in line)
    return Built(program, library, 100 + wait - directive - 1)
