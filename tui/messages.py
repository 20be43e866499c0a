"""Every message the UI's widgets post, as dataclasses, in one place (posting's ``messages.py``).

Most are intents: a pane asks for something only the app can do (through its Debugger, or by
showing another pane) and the message bubbles up to the app. The handler of a message is named
after the widget that sends it, ``on_<widget>_<message>`` (its ``namespace``: ``Enable`` from the
breakpoints pane is handled by ``on_breakpoints_pane_enable``); the intents that several panes
send have no namespace (``on_focus_requested``, ``on_open_source``...). A few are a widget's
own business (a click in the source view, a sample from the NVML thread) and are handled by the
widget that posts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from cudatui.gdbbridge import ActionSuggestion, FindingGroup, SanitizerResult, SharedWindow, Snapshot

# -- intents several panes send ------------------------------------------------------------------


@dataclass
class FocusRequested(Message):
    """Switch the CUDA focus: ``request`` like "block (3,0,0) thread (200,0,0)" or "warp 2 lane 3"."""

    request: str


@dataclass
class BreakpointToggled(Message):
    """Toggle a breakpoint at ``path:line``."""

    path: str
    line: int


@dataclass
class SourceFolderChosen(Message):
    """Look for the program's source files in ``folder`` too."""

    folder: str


@dataclass
class FrameSelected(Message):
    """Select stack frame ``level`` (locals and source follow)."""

    level: int


@dataclass
class OpenSource(Message):
    """Show ``path`` at ``line`` in the source pane (a breakpoint's or a sanitizer finding's)."""

    path: str
    line: int | None


# -- the focus navigator ---------------------------------------------------------------------------


@dataclass
class RangesOpened(Message, namespace="focus_navigator"):
    """The Focus pane has a kernel open (``blocks``: it shows block ranges) and a block range open
    (``threads``: it shows thread ranges), or not; the app tells its Debugger while the pane is
    on the screen, and the stop is shown again with them."""

    blocks: bool
    threads: bool


# -- the breakpoints pane --------------------------------------------------------------------------


@dataclass
class Enable(Message, namespace="breakpoints_pane"):
    """Enable (``enabled``) or disable breakpoint ``number``."""

    number: int
    enabled: bool


@dataclass
class Delete(Message, namespace="breakpoints_pane"):
    """Delete breakpoint ``number``."""

    number: int


@dataclass
class Condition(Message, namespace="breakpoints_pane"):
    """Set breakpoint ``number``'s condition ("" removes it)."""

    number: int
    condition: str


# -- the shared memory pane ------------------------------------------------------------------------


@dataclass
class PagesShown(Message, namespace="shared_memory_pane"):
    """The pages of shared arrays the pane shows changed, or the state shown lacks them: the
    Debugger is to read them with the stop while the pane is on the screen."""

    windows: tuple[SharedWindow, ...]


# -- the warps pane --------------------------------------------------------------------------------


@dataclass
class LanesWatched(Message, namespace="warps_pane"):
    """Evaluate ``expression`` in every lane of the focused warp at each stop ("" stops the watch)."""

    expression: str


@dataclass
class CulpritAsked(Message, namespace="warps_pane"):
    """Find the culprit lane of the warp-wide exception, focus it and watch its expression."""


# -- the locals pane and the console ---------------------------------------------------------------


@dataclass
class WatchAdded(Message, namespace="locals_pane"):
    """Evaluate ``expression`` at every stop."""

    expression: str


@dataclass
class WatchRemoved(Message, namespace="locals_pane"):
    """Stop watching ``expression``."""

    expression: str


@dataclass
class VariablesOpened(Message, namespace="locals_pane"):
    """The lines open in the Locals tree at the frame shown are ``paths`` (each a local or watch
    expression, then child names): the Debugger reads their members with the stop."""

    paths: frozenset[tuple[str, ...]]


@dataclass
class ValueWanted(Message, namespace="locals_pane"):
    """Show the whole value of ``expression`` (of type ``type``), as gdb prints it."""

    expression: str
    type: str


@dataclass
class Command(Message, namespace="console_pane"):
    """Run ``command`` in gdb's CLI."""

    command: str


# -- the sanitizer pane ----------------------------------------------------------------------------


@dataclass
class DebugFinding(Message, namespace="sanitizer_pane"):
    """Relaunch under cuda-gdb, stopped on this group's thread and line (a race's ``side``: the
    index of the access chosen, whose thread and line; None: the finding's own)."""

    group: FindingGroup
    side: int | None = None


@dataclass
class PostMortem(Message, namespace="sanitizer_pane"):
    """Re-run with ``--generate-coredump`` and open the coredump for this group."""

    group: FindingGroup


@dataclass
class Finished(Message, namespace="sanitizer_pane"):
    """A run ended (normally, with an error, or cancelled)."""

    result: SanitizerResult


# -- the explanation of a CUDA error ---------------------------------------------------------------


@dataclass
class ActionChosen(Message, namespace="explain_panel"):
    """The user picked one of the diagnosis' actions."""

    action: ActionSuggestion


@dataclass
class Closed(Message, namespace="explain_panel"):
    """The user closed the explanation."""


@dataclass
class FilesWanted(Message, namespace="source_pane"):
    """Offer the program's source files to open one (the file finder)."""


# -- what a widget posts to itself ----------------------------------------------------------------


@dataclass
class GutterClicked(Message, namespace="source_pane"):
    """The gutter of ``line`` was clicked (the source pane toggles a breakpoint there)."""

    line: int


@dataclass
class Sampled(Message, bubble=False, namespace="gpu_stats_pane"):
    """A new snapshot was read (posted from the sampling thread); a newer one replaces it in the queue."""

    snapshot: Snapshot

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, Sampled)


@dataclass
class Unavailable(Message, bubble=False, namespace="gpu_stats_pane"):
    """NVML cannot be used (posted from the sampling thread)."""

    reason: str
