"""Variables opened through gdb's variable objects (gdbbridge/debugger/varobj.py) against a real
GNU gdb: a C++ object's base class and members (its public/private groups opened in place), a
pointer to it, a member that does not exist, and every varobj deleted when the stop leaves the
frame; the MI goes through the Debugger, as the Locals tree sends it."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger, Step
from cudatui.gdbbridge.debugger.events import PhaseChanged
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.session.errors import MIError
from tests.support.paths import C_SOURCES
from tests.support.programs import marked_line, needs_gdb

pytestmark = needs_gdb

OBJECTS = C_SOURCES / "vars" / "objects.cpp"
LINE = marked_line(OBJECTS, "/* OBJECT */")


@pytest.fixture(scope="module")
def objects(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("objects") / "objects"
    subprocess.run(["g++", "-g", "-O0", "-o", str(out), str(OBJECTS)], check=True)
    return out


async def stopped(debugger: Debugger) -> None:
    settled = asyncio.Event()
    unsubscribe = debugger.subscribe(lambda e: isinstance(e, PhaseChanged) and e.status.phase in
                                     (Phase.STOPPED, Phase.EXITED, Phase.DEAD) and settled.set())
    try:
        while debugger.phase not in (Phase.STOPPED, Phase.EXITED, Phase.DEAD):
            await asyncio.wait_for(settled.wait(), 30)
            settled.clear()
    finally:
        unsubscribe()


async def test_a_cpp_object_and_a_pointer_to_it_open_member_by_member(objects: Path) -> None:
    debugger = Debugger(LaunchConfig(debugger=("gdb",), target=(str(objects),), breakpoints=(f"objects.cpp:{LINE}",),
                                     cwd=str(objects.parent)))
    await debugger.start()
    try:
        await stopped(debugger)
        assert debugger.phase is Phase.STOPPED
        shape = await debugger.children(("shape",))
        assert [(n.name, n.value, n.type, n.children) for n in shape] == [
            ("Base", "", "Base", 1), ("sides", "4", "int", 0), ("area", "2.5", "double", 0)]
        assert [(n.path, n.value) for n in await debugger.children(("shape", "Base"))] == [(("shape", "Base", "id"), "7")]
        assert [n.name for n in await debugger.children(("ptr",))] == ["Base", "sides", "area"]
        assert len(debugger.variables.roots) == 2
        with pytest.raises(MIError, match="has no member nothing"):
            await debugger.children(("shape", "nothing", "x"))
        with pytest.raises(MIError):
            await debugger.children(("no_such_variable",))

        await debugger.resume(Step.NEXT)  # the same frame: the varobjs are kept and updated
        await stopped(debugger)
        assert len(debugger.variables.roots) == 2
        await debugger.resume(Step.CONTINUE)  # the program exits: every varobj is deleted
        await stopped(debugger)
        assert debugger.phase is Phase.EXITED and debugger.variables.roots == ()
    finally:
        await debugger.close()
