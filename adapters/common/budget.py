"""The edit-rate budget: how many optional platform calls a busy bot may spend."""

from __future__ import annotations

import time


class Budget:
    """A token bucket shared by all conversations for calls that help but are not needed.

    Typing actions and status-line edits are shed when a busy bot runs out of
    tokens; replies never are. Without it, a few hundred slow turns at once
    would add thousands of platform API calls, against the platform's own
    rate limits (Telegram: ~30 messages per second; Slack: ~1 ``chat.update``
    per second per channel) and the bot's own CPU.

    Args:
        per_second: tokens added per second.
        burst: the most tokens the bucket holds (and starts with).
    """

    def __init__(self, per_second: float = 10.0, burst: float = 20.0) -> None:
        self._rate = per_second
        self._burst = burst
        self._tokens = burst
        self._at = time.monotonic()

    def take(self) -> bool:
        """Spend one token if there is one; False means: skip this optional call."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True
