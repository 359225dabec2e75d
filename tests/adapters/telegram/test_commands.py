"""The command menu and the handlers agree: every command in the menu is one the adapter handles."""

from __future__ import annotations

from adapters.common import CONTROLS, MESSAGE_COMMANDS
from adapters.telegram import texts
from adapters.telegram.adapter import _COMMANDS


def test_every_menu_command_is_handled_and_every_control_is_in_the_menu() -> None:
    menu = [name for name, _ in texts.COMMANDS]
    assert set(menu) <= set(_COMMANDS)
    assert set(CONTROLS) | set(MESSAGE_COMMANDS) <= set(menu)
