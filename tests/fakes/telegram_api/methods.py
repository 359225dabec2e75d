"""The Bot API methods the fake serves, as a mixin of `FakeTelegram` (called under its lock)."""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from tests.fakes.telegram_api.markup import html_to_text, utf16
from tests.fakes.telegram_api.model import BadRequest, BotMessage, Draft


class BotMethods:
    """``_api_<method>`` for each Bot API method served; `FakeTelegram._call` dispatches by name."""

    bot_id: int
    username: str
    commands: list[dict[str, Any]]
    webhook: tuple[str, str | None] | None
    _messages: dict[tuple[int, int], BotMessage]
    _open_queries: set[str]
    _chat_types: dict[int, str]
    _drafts: list[Draft]
    _draft_now: dict[int, Draft]
    _next_message_id: Callable[[int], int]

    def _text(self, params: dict[str, Any], key: str = "text") -> tuple[str, str | None]:
        raw = str(params.get(key) or "")
        if str(params.get("parse_mode") or "").upper() == "HTML":
            plain, source = html_to_text(raw), raw
        else:
            plain, source = raw, None
        if key == "text" and not plain.strip():
            raise BadRequest("message text is empty")
        if utf16(plain) > (4096 if key == "text" else 1024):
            raise BadRequest("message is too long" if key == "text" else "message caption is too long")
        return plain, source

    def _markup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if not isinstance(markup, dict):
            return None
        for row in markup.get("inline_keyboard") or []:
            for button in row:
                if len(str(button.get("callback_data", "")).encode()) > 64:
                    raise BadRequest("BUTTON_DATA_INVALID")
        return markup

    def _api_getMe(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "Almanac",
            "username": self.username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def _api_sendMessageDraft(self, params: dict[str, Any]) -> bool:
        """A draft streams a message being composed, in private chats only (Bot API 9.3; text optional
        since 10.0). Each call replaces the chat's draft; a message the bot then sends supersedes it,
        as a client shows it (`_api_sendMessage`)."""
        chat_id = int(params["chat_id"])
        if self._chat_types.get(chat_id, "private" if chat_id > 0 else "supergroup") != "private":
            raise BadRequest("TEXTDRAFT_PEER_INVALID")
        draft_id = int(params.get("draft_id") or 0)
        if not draft_id:
            raise BadRequest("TEXTDRAFT_ID_INVALID")
        plain, source = ("", None) if not params.get("text") else self._text(params)
        draft = Draft(chat_id, draft_id, plain, source, params.get("message_thread_id"))
        self._drafts.append(draft)
        self._draft_now[chat_id] = draft
        return True

    def _api_sendMessage(self, params: dict[str, Any]) -> BotMessage:
        chat_id = int(params["chat_id"])
        plain, source = self._text(params)
        self._draft_now.pop(chat_id, None)  # the message the draft was composing is out
        reply = params.get("reply_parameters")
        m = BotMessage(
            chat_id,
            self._next_message_id(chat_id),
            plain,
            html=source,
            reply_markup=self._markup(params),
            thread_id=params.get("message_thread_id"),
            reply_to=reply.get("message_id") if isinstance(reply, dict) else None,
        )
        self._messages[(chat_id, m.message_id)] = m
        return m

    def _api_sendDocument(self, params: dict[str, Any]) -> BotMessage:
        chat_id = int(params["chat_id"])
        doc = params.get("document")
        if not isinstance(doc, tuple):
            raise BadRequest("there is no document in the request")
        caption, _ = self._text(params, "caption")
        m = BotMessage(
            chat_id, self._next_message_id(chat_id), caption, document=doc, thread_id=params.get("message_thread_id")
        )
        self._messages[(chat_id, m.message_id)] = m
        return m

    def _api_sendPhoto(self, params: dict[str, Any]) -> BotMessage:
        """A picture uploaded as multipart (what python-telegram-bot sends for an `InputFile`).

        Only PNG is read (it is what Almanac draws): anything else is refused as the real API refuses
        a file it cannot decode, and so are dimensions it refuses (sum over 10000, ratio over 20).
        """
        chat_id = int(params["chat_id"])
        photo = params.get("photo")
        if not isinstance(photo, tuple):
            raise BadRequest("there is no photo in the request")
        size = png_size(photo[1])
        if size is None:
            raise BadRequest("IMAGE_PROCESS_FAILED")
        width, height = size
        if width + height > 10_000 or max(width, height) > 20 * min(width, height):
            raise BadRequest("PHOTO_INVALID_DIMENSIONS")
        caption, source = self._text(params, "caption")
        self._draft_now.pop(chat_id, None)
        reply = params.get("reply_parameters")
        m = BotMessage(
            chat_id,
            self._next_message_id(chat_id),
            caption,
            html=source,
            photo=photo,
            size=size,
            thread_id=params.get("message_thread_id"),
            reply_to=reply.get("message_id") if isinstance(reply, dict) else None,
        )
        self._messages[(chat_id, m.message_id)] = m
        return m

    def _edited(self, params: dict[str, Any]) -> BotMessage:
        key = (int(params["chat_id"]), int(params["message_id"]))
        m = self._messages.get(key)
        if m is None or m.deleted or not m.from_bot:
            raise BadRequest("message to edit not found")
        return m

    def _api_editMessageText(self, params: dict[str, Any]) -> BotMessage:
        m = self._edited(params)
        plain, source = self._text(params)
        markup = self._markup(params)
        if plain == m.text and markup == m.reply_markup:
            raise BadRequest(
                "message is not modified: specified new message content and reply markup are exactly the same"
            )
        m.text, m.html, m.reply_markup = plain, source, markup  # no reply_markup in the call: the keyboard goes
        m.edits += 1
        return m

    def _api_editMessageReplyMarkup(self, params: dict[str, Any]) -> BotMessage:
        m = self._edited(params)
        markup = self._markup(params)
        if markup == m.reply_markup:
            raise BadRequest("message is not modified")
        m.reply_markup = markup
        m.edits += 1
        return m

    def _api_deleteMessage(self, params: dict[str, Any]) -> bool:
        m = self._messages.get((int(params["chat_id"]), int(params["message_id"])))
        if m is None or m.deleted:
            raise BadRequest("message to delete not found")
        m.deleted = True
        return True

    def _api_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        query_id = str(params.get("callback_query_id"))
        if query_id not in self._open_queries:
            raise BadRequest("query is too old and response timeout expired or query ID is invalid")
        self._open_queries.discard(query_id)
        return True

    def _api_sendChatAction(self, params: dict[str, Any]) -> bool:
        return True

    def _api_setMyCommands(self, params: dict[str, Any]) -> bool:
        self.commands = list(params.get("commands") or [])
        return True

    def _api_deleteWebhook(self, params: dict[str, Any]) -> bool:
        self.webhook = None
        return True

    def _api_setWebhook(self, params: dict[str, Any]) -> bool:
        self.webhook = (str(params["url"]), params.get("secret_token"))
        return True

    def _api_getWebhookInfo(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "url": self.webhook[0] if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": 0,
        }


_PNG = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk; None for anything that is not a PNG."""
    if len(data) < 24 or not data.startswith(_PNG) or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return (width, height) if width and height else None


def photo_sizes(message_id: int, width: int, height: int, length: int) -> list[dict[str, Any]]:
    """The PhotoSize list the real API returns: smaller copies it made (longest side 90, 320, 800), then
    the picture itself (longest side at most 2560), smallest first."""
    longest = max(width, height)
    sides = [s for s in (90, 320, 800) if s < longest] + [min(longest, 2560)]
    sizes = []
    for i, side in enumerate(sides):
        scale = side / longest
        sizes.append(
            {
                "file_id": f"photo{message_id}_{i}",
                "file_unique_id": f"p{message_id}_{i}",
                "width": max(1, round(width * scale)),
                "height": max(1, round(height * scale)),
                "file_size": length if i == len(sides) - 1 else max(1, round(length * scale * scale)),
            }
        )
    return sizes
