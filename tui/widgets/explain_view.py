"""ExplainPanel: a CUDA error explained, with buttons for the actions that help.

The app shows it (inside :class:`~cudatui.tui.screens.explain_screen.ExplainScreen`) when the debuggee
dies with a CUDA error; the panel posts :class:`~cudatui.tui.messages.ActionChosen` with the
chosen :class:`~cudatui.gdbbridge.explain.diagnose.ActionSuggestion` and leaves running it to the app.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, Static

from cudatui.gdbbridge import Diagnosis, cells, tr
from cudatui.tui.messages import ActionChosen, Closed

SHOWN_FACTS = (
    ("source", "Source"),
    ("kernel", "Kernel"),
    ("block", "Block"),
    ("thread", "Thread"),
    ("assert_condition", "Condition"),
    ("cuda_error", "CUDA error"),
    ("api_call", "API call"),
    ("devices", "Devices"),
    ("tensor", "Tensor"),
    ("cudnn_status", "cuDNN"),
    ("nccl_error", "NCCL"),
    ("nccl_last_error", "Last error"),
    ("collective", "Collective"),
    ("collectives", "Collective"),
    ("ranks", "Ranks"),
    ("tried_to_allocate", "Requested"),
    ("gpu_free", "Free"),
    ("fragmentation", "Fragmented"),
    ("user_line", "Your line"),
)
"""Facts worth a line in the panel, in display order, with their labels."""


def _section(heading: str, body: str) -> Text:
    return Text.assemble((heading, "bold"), "\n", body)


def _facts(diagnosis: Diagnosis) -> Text:
    rows = [(label, diagnosis.facts[key]) for key, label in SHOWN_FACTS if key in diagnosis.facts]
    text = Text()
    for n, (label, value) in enumerate(rows):
        label = tr(label)
        text.append(("\n" if n else "") + label + " " * max(1, 11 - cells(label)), "dim")
        text.append(value)
    return text


def _steps(diagnosis: Diagnosis) -> Text:
    text = Text()
    text.append(tr("Next steps"), "bold")
    for number, step in enumerate(diagnosis.next_steps, 1):
        text.append(f"\n{number}. ", "bold")
        text.append(step)
    return text


class ExplainPanel(Widget, can_focus=True):
    """Explanation of one CUDA error: title, meaning, why the traceback misleads, next steps,
    and a button per suggested action (re-run with launch blocking, stop on API failures, run a
    sanitizer tool).

    | Key | Description |
    | :- | :- |
    | 1 | Choose the first action. |
    | 2 | Choose the second action. |
    | 3 | Choose the third action. |
    | escape | Close the explanation. |
    """

    BINDINGS = [
        Binding("1", "choose(0)", "Action 1", show=False),
        Binding("2", "choose(1)", "Action 2", show=False),
        Binding("3", "choose(2)", "Action 3", show=False),
        Binding("escape", "close", "Close"),
    ]

    DEFAULT_CSS = """
    ExplainPanel { height: 1fr; border: round $error; padding: 0 1; background: $surface; }
    ExplainPanel #title { text-style: bold; color: $text-error; height: auto; }
    ExplainPanel #body { height: 1fr; }
    ExplainPanel #body Static { margin-top: 1; }
    ExplainPanel #actions { height: auto; dock: bottom; }
    ExplainPanel #actions Button { margin-right: 1; }
    """

    diagnosis: reactive[Diagnosis | None] = reactive(None)
    """The diagnosis shown; None shows an empty panel."""

    def __init__(self, diagnosis: Diagnosis | None = None, *, stop: Text | None = None, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(ExplainPanel.diagnosis, diagnosis)
        self.stop = stop
        """What the debugger shows of the stop (the exception banner's whole text), or None."""

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with VerticalScroll(id="body"):
            if self.stop is not None:
                yield Static(Text.assemble((tr("At this stop"), "bold"), "\n", self.stop), id="stop")
            yield Static(id="meaning")
            yield Static(id="why")
            yield Static(id="facts")
            yield Static(id="steps")
        yield Horizontal(id="actions")

    async def on_mount(self) -> None:
        await self._show(self.diagnosis)

    async def watch_diagnosis(self, diagnosis: Diagnosis | None) -> None:
        if self.is_mounted:
            await self._show(diagnosis)

    async def _show(self, diagnosis: Diagnosis | None) -> None:
        """Fill the texts and rebuild the action buttons."""
        self.query_one("#title", Static).update(diagnosis.title if diagnosis else "")
        meaning = _section(tr("What it means"), diagnosis.meaning) if diagnosis else ""
        why = _section(tr("Why the traceback may point elsewhere"), diagnosis.why_wrong_line) \
            if diagnosis else ""
        self.query_one("#meaning", Static).update(meaning)
        self.query_one("#why", Static).update(why)
        facts = self.query_one("#facts", Static)
        facts.update(_facts(diagnosis) if diagnosis else "")
        facts.display = bool(diagnosis and any(k in diagnosis.facts for k, _ in SHOWN_FACTS))
        self.query_one("#steps", Static).update(_steps(diagnosis) if diagnosis else "")
        bar = self.query_one("#actions", Horizontal)
        await bar.remove_children()
        actions = diagnosis.actions if diagnosis else ()
        await bar.mount_all(
            [
                *(
                    Button(f"{n} {action.label}", id=f"action-{n}", compact=True,
                           variant="primary" if n == 1 else "default")
                    for n, action in enumerate(actions, 1)
                ),
                Button(tr("Close"), id="close", compact=True),
            ]
        )

    def action_choose(self, index: int) -> None:
        """Post :class:`ActionChosen` for the action at ``index`` (if there is one)."""
        if self.diagnosis is not None and 0 <= index < len(self.diagnosis.actions):
            self.post_message(ActionChosen(self.diagnosis.actions[index]))

    def action_close(self) -> None:
        """Post :class:`Closed`."""
        self.post_message(Closed())

    @on(Button.Pressed, "#actions Button")
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "close":
            self.action_close()
        elif event.button.id and event.button.id.startswith("action-"):
            self.action_choose(int(event.button.id.removeprefix("action-")) - 1)

