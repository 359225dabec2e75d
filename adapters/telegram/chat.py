"""Where a Telegram message belongs (chat, forum topic) and whether it is meant for Almanac."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Bot, MaybeInaccessibleMessage, Message, MessageEntity, User
from telegram.constants import ChatType

from adapters.common import REVISE_PROMPT


@dataclass(frozen=True)
class Chat:
    """Where a turn happens and where its replies go: a chat, or a topic of a forum, and in groups whose exchange it is."""

    chat_id: int
    topic: int | None = None
    """The forum topic's ``message_thread_id``; ``None`` outside forum topics."""
    group: bool = False
    member: int | None = None
    """In a group, the member whose exchange with Almanac this is (ARCHITECTURE §2)."""

    @property
    def conversation(self) -> str:
        """The engine's conversation key: ``tg:<chat>[:<topic>]``, plus ``:<user id>`` in a group.

        In a group each member's exchange is its own conversation, so one
        member's open question or plan never blocks another, and only that
        member can answer, revise or cancel it.
        """
        key = f"tg:{self.chat_id}" + (f":{self.topic}" if self.topic is not None else "")
        return key + (f":{self.member}" if self.group and self.member is not None else "")

    @classmethod
    def from_key(cls, conversation: str) -> Chat:
        """The chat a conversation key names (the inverse of `conversation`): where a reminder goes.

        A group's key ends with its member (group ids are negative); a forum topic comes before it.
        """
        _, chat, *rest = conversation.split(":")
        chat_id = int(chat)
        if chat_id < 0:
            member = int(rest[-1]) if rest else None
            topic = int(rest[0]) if len(rest) == 2 else None
            return cls(chat_id, topic, True, member)
        return cls(chat_id, int(rest[0]) if rest else None)

    @classmethod
    def of(cls, message: MaybeInaccessibleMessage, sender: User | None = None) -> Chat:
        """The chat of a message and, in a group, its sender's exchange (a message older than 48 h has lost its topic)."""
        topic = message.message_thread_id if isinstance(message, Message) and message.is_topic_message else None
        group = message.chat.type != ChatType.PRIVATE
        return cls(message.chat.id, topic, group, sender.id if group and sender is not None else None)


def addressed(message: Message, bot: Bot) -> bool:
    """In groups Almanac hears only what is meant for it: replies to it and mentions of it."""
    if message.chat.type == ChatType.PRIVATE:
        return True
    reply = message.reply_to_message
    if reply is not None and reply.from_user is not None and reply.from_user.id == bot.id:
        if reply.forum_topic_created is None:  # in forums every message "replies" to its topic's first one
            return True
    name = f"@{bot.username}".lower()
    for entity, text in message.parse_entities([MessageEntity.MENTION, MessageEntity.TEXT_MENTION]).items():
        if entity.type == MessageEntity.MENTION and text.lower() == name:
            return True
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None and entity.user.id == bot.id:
            return True
    return False


def answers_revise_prompt(message: Message, bot: Bot) -> bool:
    """Whether the message replies to Almanac's "What should change?" after a Revise press."""
    reply = message.reply_to_message
    return (
        reply is not None
        and reply.from_user is not None
        and reply.from_user.id == bot.id
        and (reply.text or "").endswith(REVISE_PROMPT)
    )
