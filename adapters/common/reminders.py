"""A reminder's buttons as commands to type, for platforms that show them as text (the console)."""

from __future__ import annotations

from engine import ReminderCard


def typed_buttons(card: ReminderCard, command: str = "/") -> str:
    """``Done: /reminders done 3 1764129600 · Snooze 1h: /reminders snooze 3 1764129600`` — each typed line
    does what its button would (the same ``reminders`` control, refused when stale); empty without buttons.

    Args:
        command: what comes before ``reminders``: ``/`` in the console (``/almanac `` would suit Slack, which shows buttons).
    """
    return " · ".join(
        f"{label}: {command}reminders {card.command(action)}"
        for action, label in zip(card.actions, card.labels, strict=True)
    )
