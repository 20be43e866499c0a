"""The key bar (tui/widgets/footer.py) updates its key widgets in place when the keys it shows change:
the widgets it had are kept (those left over are hidden), new ones are added only when it has too few."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Button
from cudatui.tui.textual_compat import FooterKey

from cudatui.tui.widgets.footer import KeyBar


class Keyed(Button):
    BINDINGS = [Binding("x", "extra", "Extra key")]

    def action_extra(self) -> None:
        pass


class Host(App[None]):
    BINDINGS = [Binding("n", "noop", "Next")]

    def compose(self) -> ComposeResult:
        yield Button("plain", id="plain")
        yield Keyed("keyed", id="keyed")
        yield KeyBar(show_command_palette=False)

    def action_noop(self) -> None:
        pass


def keys(app: Host) -> list[FooterKey]:
    """The keys shown."""
    return [key for key in app.query_one(KeyBar).query(FooterKey) if key.display]


async def test_the_same_keys_keep_their_widgets_and_new_keys_are_shown() -> None:
    app = Host()
    async with app.run_test() as pilot:
        app.query_one("#plain").focus()
        await pilot.pause()
        before = keys(app)
        assert [k.description for k in before] == ["Next"]
        app.screen.refresh_bindings()  # what every focus change and dialog does
        await pilot.pause()
        assert keys(app) == before and all(a is b for a, b in zip(keys(app), before))
        app.query_one("#keyed").focus()
        await pilot.pause()
        assert sorted(k.description for k in keys(app)) == ["Extra key", "Next"]
        widgets = list(app.query_one(KeyBar).query(FooterKey))
        app.query_one("#plain").focus()
        await pilot.pause()
        assert [k.description for k in keys(app)] == ["Next"]
        assert list(app.query_one(KeyBar).query(FooterKey)) == widgets  # updated in place, one hidden
        app.query_one("#keyed").focus()
        await pilot.pause()
        assert sorted(k.description for k in keys(app)) == ["Extra key", "Next"]
        assert list(app.query_one(KeyBar).query(FooterKey)) == widgets
