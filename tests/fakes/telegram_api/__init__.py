"""A real, scriptable HTTP server that speaks the Telegram Bot API, for tests.

Like `tests.fakes.ollama_server`, it is a standard-library
``ThreadingHTTPServer`` on ``127.0.0.1`` in a daemon thread, so the real
python-telegram-bot client talks to it over a socket through its own
``base_url``. It serves ``/bot<token>/<method>`` for getMe, getUpdates,
sendMessage, sendMessageDraft (private chats; recorded, superseded by
the next message), editMessageText, editMessageReplyMarkup, deleteMessage,
answerCallbackQuery, sendChatAction, sendDocument, sendPhoto (a multipart
PNG upload, answered with its PhotoSize list), setMyCommands,
deleteWebhook, setWebhook and getWebhookInfo, and records every call.

It checks what the real API checks where tests care: HTML parse mode (allowed
tags, balanced, ``<`` and ``&`` escaped → 400 "can't parse entities"), the
4096-unit message limit, empty texts, 64-byte callback data, and one answer
per callback query. Failures can be scripted per method (a 429 with
``retry_after``, a 400 "can't parse entities").

Example::

    with FakeTelegram() as tg:
        app = Application.builder().token(tg.token).base_url(tg.base_url).build()
        tg.enqueue(tg.message(chat_id=42, user_id=42, text="bench 55kg 10x5"))
        ...                       # polling picks it up through getUpdates
        assert tg.sent(42)[-1].text.startswith("✓ Logged")
"""

from tests.fakes.telegram_api.fake import TOKEN, FakeTelegram
from tests.fakes.telegram_api.markup import html_to_text
from tests.fakes.telegram_api.model import BotMessage, Call, Draft

__all__ = ["TOKEN", "BotMessage", "Call", "Draft", "FakeTelegram", "html_to_text"]
