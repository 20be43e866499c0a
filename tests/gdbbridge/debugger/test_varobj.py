"""Variables opened through gdb's variable objects (gdbbridge/debugger/varobj.py) against a real
GNU gdb: a C++ object's base class and members (its public/private groups opened in place), a
pointer to it, a member that does not exist, and every varobj deleted when the stop leaves the
frame; the lines are opened through the Debugger, as the Locals tree opens them (their members
come with the stop: StopState.members)."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger, Step
from cudatui.gdbbridge.debugger.events import PhaseChanged
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.models.members import VarNode
from cudatui.gdbbridge.session.errors import MIError
from tests.support.paths import C_SOURCES
from tests.support.programs import marked_line, needs_gdb
from tests.support.wait import until

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


async def opened(debugger: Debugger, *paths: tuple[str, ...]) -> dict[tuple[str, ...], tuple[VarNode, ...]]:
    """Open ``paths`` in the Locals tree at the stop shown: the stop shown again with their
    children (StopState.members), by path."""
    debugger.open_variables(paths)
    await until(lambda: debugger.state is not None and set(paths) <= dict(debugger.state.members or ()).keys(),
                why=f"the members of {paths}")
    members = dict(debugger.state.members or ())
    assert all(not members[p].error for p in paths), members
    return {p: members[p].value for p in paths}


async def test_a_cpp_object_and_a_pointer_to_it_open_member_by_member(objects: Path) -> None:
    debugger = Debugger(LaunchConfig(debugger=("gdb",), target=(str(objects),), breakpoints=(f"objects.cpp:{LINE}",),
                                     cwd=str(objects.parent)))
    debugger.show_parts(registers=True, threads=True, members=True)  # the Locals pane is on the screen
    await debugger.start()
    try:
        await stopped(debugger)
        assert debugger.phase is Phase.STOPPED
        shape = (await opened(debugger, ("shape",)))[("shape",)]
        assert [(n.name, n.value, n.type, n.children) for n in shape] == [
            ("Base", "", "Base", 1), ("sides", "4", "int", 0), ("area", "2.5", "double", 0)]
        base = (await opened(debugger, ("shape",), ("shape", "Base")))[("shape", "Base")]
        assert [(n.path, n.value) for n in base] == [(("shape", "Base", "id"), "7")]
        ptr = (await opened(debugger, ("shape",), ("shape", "Base"), ("ptr",)))[("ptr",)]
        assert [n.name for n in ptr] == ["Base", "sides", "area"]
        assert len(debugger.variables.roots) == 2
        variables = debugger.variables  # what the Debugger reads them through, white-box
        with pytest.raises(MIError, match="has no member nothing"):
            await variables.children(("shape", "nothing", "x"))
        with pytest.raises(MIError):
            await variables.children(("no_such_variable",))

        await debugger.resume(Step.NEXT)  # the same frame: the varobjs are kept and updated
        await stopped(debugger)
        assert len(debugger.variables.roots) == 2
        assert [p for p, _ in debugger.state.members or ()] == [("shape",), ("shape", "Base"), ("ptr",)]
        await debugger.resume(Step.CONTINUE)  # the program exits: every varobj is deleted
        await stopped(debugger)
        assert debugger.phase is Phase.EXITED and debugger.variables.roots == ()
    finally:
        await debugger.close()
