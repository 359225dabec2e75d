"""Where a Slack turn happens and where its replies go, and the engine keys that follow from it.

Keys (ARCHITECTURE §2):
- a thread in a channel is a conversation per member:
  ``slack:<team>:<channel>:<thread_ts>:<user>``, so one member's open question
  or plan never blocks another, and only they can answer it;
- a direct message is the member's own: ``slack:<team>:<channel>`` at the top
  level, ``slack:<team>:<channel>:<thread_ts>`` in a thread there;
- a slash command in a channel where Almanac cannot post uses the thread
  part ``-`` and answers through the command's ``response_url``;
- the user key is ``slack:<team>:<user>``: entries belong to the member,
  never to the channel.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

NO_THREAD = "-"


@dataclass(frozen=True)
class Place:
    """A member in a channel (and thread), as seen by one turn.

    Attributes:
        team: the workspace id.
        channel: the channel id (``D…`` for a direct message).
        thread_ts: the thread replies go to; None at a DM's top level or when Almanac cannot post here.
        user: the member's id.
        response_url: where to answer instead when Almanac cannot post in the channel.
    """

    team: str
    channel: str
    thread_ts: str | None
    user: str
    response_url: str | None = None

    @property
    def dm(self) -> bool:
        """A direct message with Almanac (Slack's DM channel ids start with D)."""
        return self.channel.startswith("D")

    @property
    def conversation(self) -> str:
        """The engine's conversation key."""
        if self.dm:
            return f"slack:{self.team}:{self.channel}" + (f":{self.thread_ts}" if self.thread_ts else "")
        return f"slack:{self.team}:{self.channel}:{self.thread_ts or NO_THREAD}:{self.user}"

    @property
    def user_key(self) -> str:
        """The engine's user key: the member owns the entries."""
        return f"slack:{self.team}:{self.user}"

    def in_thread(self, thread_ts: str) -> Place:
        """The same member in a thread of this channel."""
        return replace(self, thread_ts=thread_ts)

    @classmethod
    def of_conversation(cls, conversation: str, user: str, response_url: str | None = None) -> Place | None:
        """``user`` in the place a conversation key names (a button carries the key).

        None if it is not a Slack key, or if it is another member's: a channel
        key names its member, and a key read back from a button or a modal must
        never make one member act as another.
        """
        parts = conversation.split(":")
        if len(parts) < 3 or parts[0] != "slack" or not all(parts[1:]):
            return None
        team, channel = parts[1], parts[2]
        if channel.startswith("D"):
            if len(parts) > 4:
                return None
            return cls(team, channel, parts[3] if len(parts) > 3 else None, user, response_url)
        if len(parts) != 5 or parts[4] != user:
            return None
        thread = None if parts[3] == NO_THREAD else parts[3]
        return cls(team, channel, thread, user, response_url)

    @classmethod
    def of_press(
        cls, conversation: str, owner: str, *, team: str, channel: str, user: str, response_url: str | None = None
    ) -> Place | None:
        """Where a press acts: always as ``user``, the member Slack says pressed; None if it may not act.

        ``conversation`` and ``owner`` come back from the button's value (or the
        Revise modal's metadata), so they can only narrow: an owner refuses
        everyone else (never lets anyone through), and the conversation must be
        the presser's own, in the workspace and channel the press came from.
        """
        if owner and owner != user:
            return None
        place = cls.of_conversation(conversation, user, response_url)
        if place is None or place.team != team or place.channel != channel:
            return None
        return place

    def to_json(self) -> dict[str, Any]:
        """For the intake table."""
        return {
            "team": self.team,
            "channel": self.channel,
            "thread_ts": self.thread_ts,
            "user": self.user,
            "response_url": self.response_url,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Place:
        """Back from the intake table."""
        return cls(data["team"], data["channel"], data.get("thread_ts"), data["user"], data.get("response_url"))
