"""`FakeTelegram`: the fake's state, the updates tests build, scripted failures and inspection."""

from __future__ import annotations

import itertools
import json
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable
from typing import Any

from tests.fakes.telegram_api.markup import ParseError, utf16
from tests.fakes.telegram_api.methods import BotMethods, photo_sizes
from tests.fakes.telegram_api.model import BadRequest, BotMessage, Call, Draft, Failure
from tests.fakes.telegram_api.server import Handler, Server

TOKEN = "123456789:AAFakeTokenForTestsOnly_abcdefghijklmnop"


class FakeTelegram(BotMethods):
    """A scriptable fake Telegram Bot API listening on ``127.0.0.1``.

    Attributes:
        token: the token the fake accepts; any other gets 401 Unauthorized.
        long_poll_s: the longest a ``getUpdates`` waits for updates (short, so
            tests and shutdowns stay fast whatever timeout the client asks for).
    """

    def __init__(
        self,
        token: str = TOKEN,
        username: str = "almanac_test_bot",
        long_poll_s: float = 0.1,
        port: int = 0,
    ) -> None:
        self.token = token
        self.username = username
        self.bot_id = int(token.split(":")[0])
        self.long_poll_s = long_poll_s
        self._port = port
        self._lock = threading.Condition()
        self._updates: deque[dict[str, Any]] = deque()
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._query_ids = itertools.count(1)
        self._open_queries: set[str] = set()
        self._calls: list[Call] = []
        self._messages: dict[tuple[int, int], BotMessage] = {}
        self._chat_types: dict[int, str] = {}
        self._drafts: list[Draft] = []
        self._draft_now: dict[int, Draft] = {}
        self._failures: list[Failure] = []
        self.delivered: dict[int, float] = {}
        """update_id → ``time.monotonic()`` when getUpdates handed it out."""
        self.webhook: tuple[str, str | None] | None = None
        """(url, secret_token) after setWebhook."""
        self.commands: list[dict[str, Any]] = []
        self.on_send: Callable[[BotMessage], None] | None = None
        """Called (in a server thread) after each message the bot sends."""
        self._server: Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------

    def start(self) -> FakeTelegram:
        server = Server(("127.0.0.1", self._port), Handler)
        server.fake = self
        self._port = server.server_address[1]
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self._thread.start()
        self._server = server
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        with self._lock:
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeTelegram:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def base_url(self) -> str:
        """What python-telegram-bot's ``base_url`` should be (it appends the token)."""
        return self.url + "/bot"

    # -- building updates -------------------------------------------------

    def _next_message_id(self, chat_id: int) -> int:
        return next(self._message_ids.setdefault(chat_id, itertools.count(1)))

    def _chat(self, chat_id: int) -> dict[str, Any]:
        kind = self._chat_types.get(chat_id, "private" if chat_id > 0 else "supergroup")
        chat: dict[str, Any] = {"id": chat_id, "type": kind}
        if kind == "private":
            chat["first_name"] = "Kim"
        else:
            chat["title"] = "Gym"
            if kind == "forum":
                chat.update(type="supergroup", is_forum=True)
        return chat

    def _user(self, user_id: int) -> dict[str, Any]:
        return {"id": user_id, "is_bot": False, "first_name": f"User{user_id}", "language_code": "en"}

    def _message_json(self, m: BotMessage) -> dict[str, Any]:
        out: dict[str, Any] = {
            "message_id": m.message_id,
            "date": m.date if m.date is not None else int(time.time()),
            "chat": self._chat(m.chat_id),
            "from": (
                {"id": self.bot_id, "is_bot": True, "first_name": "Almanac", "username": self.username}
                if m.from_bot
                else self._user(m.user_id or 0)
            ),
        }
        if m.document is not None:
            out["document"] = {
                "file_id": f"doc{m.message_id}",
                "file_unique_id": f"u{m.message_id}",
                "file_name": m.document[0],
            }
            if m.text:
                out["caption"] = m.text
        elif m.photo is not None and m.size is not None:
            out["photo"] = photo_sizes(m.message_id, *m.size, len(m.photo[1]))
            if m.text:
                out["caption"] = m.text
        else:
            out["text"] = m.text
        if m.reply_markup and "inline_keyboard" in m.reply_markup:  # force_reply is not echoed back
            out["reply_markup"] = m.reply_markup
        if m.thread_id is not None:
            out["message_thread_id"] = m.thread_id
            out["is_topic_message"] = True
        if m.reply_to is not None and (m.chat_id, m.reply_to) in self._messages:
            out["reply_to_message"] = self._message_json(self._messages[(m.chat_id, m.reply_to)])
        return out

    def set_chat_type(self, chat_id: int, kind: str) -> None:
        """``private``, ``group``, ``supergroup`` or ``forum`` (a supergroup with topics)."""
        self._chat_types[chat_id] = kind

    def message(
        self,
        chat_id: int,
        user_id: int,
        text: str,
        *,
        topic: int | None = None,
        reply_to: int | None = None,
        mention: bool = False,
        update_id: int | None = None,
        date: int | None = None,
    ) -> dict[str, Any]:
        """An update carrying a user's text message (not yet queued; see `enqueue`).

        ``mention`` prefixes ``@<bot username>`` with its entity; a text
        starting with ``/`` gets a ``bot_command`` entity, as Telegram does.
        ``date`` (Unix time) dates the message as if sent then; now by default.
        """
        with self._lock:
            entities = []
            if mention:
                text = f"@{self.username} {text}"
                entities.append({"type": "mention", "offset": 0, "length": utf16(self.username) + 1})
            elif text.startswith("/"):
                entities.append({"type": "bot_command", "offset": 0, "length": utf16(text.split()[0])})
            m = BotMessage(
                chat_id,
                self._next_message_id(chat_id),
                text,
                from_bot=False,
                user_id=user_id,
                thread_id=topic,
                reply_to=reply_to,
                date=date,
            )
            self._messages[(chat_id, m.message_id)] = m
            msg = self._message_json(m)
            if entities:
                msg["entities"] = entities
            return {"update_id": update_id if update_id is not None else next(self._update_ids), "message": msg}

    def press(self, chat_id: int, message_id: int, user_id: int, button: str, *, force: bool = False) -> dict[str, Any]:
        """An update for a press on a button (by its text or callback data) of a bot message.

        Without ``force`` the button must still be on the message, as in a real client.
        """
        with self._lock:
            m = self._messages[(chat_id, message_id)]
            found = [b for b in m.buttons() if button in (b.get("text"), b.get("callback_data"))]
            if not found and not force:
                raise AssertionError(
                    f"no button {button!r} on message {message_id}: {[b.get('text') for b in m.buttons()]}"
                )
            data = found[0]["callback_data"] if found else button
            query_id = str(next(self._query_ids))
            self._open_queries.add(query_id)
            query = {
                "id": query_id,
                "from": self._user(user_id),
                "message": self._message_json(m),
                "chat_instance": f"ci{chat_id}",
                "data": data,
            }
            return {"update_id": next(self._update_ids), "callback_query": query}

    def enqueue(self, *updates: dict[str, Any]) -> None:
        """Queue updates for getUpdates, in order."""
        with self._lock:
            self._updates.extend(updates)
            self._lock.notify_all()

    def queued(self) -> int:
        """Updates not yet confirmed by the bot (a getUpdates with a higher offset)."""
        with self._lock:
            return len(self._updates)

    # -- scripting failures -----------------------------------------------

    def fail(
        self,
        method: str,
        status: int,
        description: str,
        *,
        retry_after: int | None = None,
        times: int = 1,
        when: Callable[[dict[str, Any]], bool] | None = None,
    ) -> None:
        """Answer the next ``times`` calls of ``method`` (matching ``when``) with an error.

        ``fail("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)`` is flood
        control; ``fail("sendMessage", 400, "Bad Request: can't parse entities: …")`` a markup error.
        """
        with self._lock:
            self._failures.append(Failure(method, status, description, retry_after, times, when))

    # -- inspection -------------------------------------------------------

    def calls(self, method: str | None = None) -> list[Call]:
        with self._lock:
            return [c for c in self._calls if method is None or c.method == method]

    def methods(self) -> list[str]:
        with self._lock:
            return [c.method for c in self._calls]

    def sent(self, chat_id: int | None = None, *, deleted: bool = False) -> list[BotMessage]:
        """The bot's messages (in sending order), without deleted ones unless asked."""
        with self._lock:
            out = [m for m in self._messages.values() if m.from_bot and (deleted or not m.deleted)]
        return sorted(
            (m for m in out if chat_id is None or m.chat_id == chat_id), key=lambda m: (m.sent_at, m.message_id)
        )

    def drafts(self, chat_id: int | None = None) -> list[Draft]:
        """Every draft the bot sent (in a chat, when given), in order."""
        with self._lock:
            return [d for d in self._drafts if chat_id is None or d.chat_id == chat_id]

    def draft_shown(self, chat_id: int) -> Draft | None:
        """The draft a chat shows now: None once a message superseded it."""
        with self._lock:
            return self._draft_now.get(chat_id)

    def get(self, chat_id: int, message_id: int) -> BotMessage:
        with self._lock:
            return self._messages[(chat_id, message_id)]

    def answers(self) -> list[dict[str, Any]]:
        """Parameters of every answerCallbackQuery call."""
        return [c.params for c in self.calls("answerCallbackQuery")]

    def post_webhook(self, update: dict[str, Any], secret: str | None) -> int:
        """POST an update to the registered webhook, as Telegram does; returns the HTTP status.

        Blocking: from a test running the webhook server on its event loop, call it
        through ``asyncio.to_thread``.
        """
        assert self.webhook is not None, "setWebhook was not called"
        request = urllib.request.Request(self.webhook[0], data=json.dumps(update).encode(), method="POST")
        request.add_header("Content-Type", "application/json")
        if secret is not None:
            request.add_header("X-Telegram-Bot-Api-Secret-Token", secret)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return int(response.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)

    # -- the API ----------------------------------------------------------

    def _call(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self._calls.append(Call(method, params, time.monotonic()))
            for f in self._failures:
                if f.method == method and f.times > 0 and (f.when is None or f.when(params)):
                    f.times -= 1
                    body: dict[str, Any] = {"ok": False, "error_code": f.status, "description": f.description}
                    if f.retry_after is not None:
                        body["parameters"] = {"retry_after": f.retry_after}
                    return f.status, body
        if method == "getUpdates":
            return 200, {"ok": True, "result": self._get_updates(params)}
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            return 404, {"ok": False, "error_code": 404, "description": "Not Found: method not found"}
        try:
            with self._lock:
                result = handler(params)
        except ParseError as exc:
            return 400, {"ok": False, "error_code": 400, "description": f"Bad Request: {exc}"}
        except BadRequest as exc:
            return 400, {"ok": False, "error_code": 400, "description": f"Bad Request: {exc}"}
        if isinstance(result, BotMessage):
            if self.on_send is not None and method in ("sendMessage", "sendDocument", "sendPhoto"):
                self.on_send(result)
            with self._lock:
                return 200, {"ok": True, "result": self._message_json(result)}
        return 200, {"ok": True, "result": result}

    def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        # As Telegram does: an update stays until a getUpdates with a higher offset confirms it,
        # so a bot that dies before confirming gets the same updates again.
        limit = int(params.get("limit") or 100)
        offset = int(params.get("offset") or 0)
        wait = min(float(params.get("timeout") or 0), self.long_poll_s)
        deadline = time.monotonic() + wait
        with self._lock:
            while self._updates and int(self._updates[0]["update_id"]) < offset:
                self._updates.popleft()
            while not self._updates and self._server is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            out = list(itertools.islice(self._updates, limit))
            now = time.monotonic()
            for u in out:
                self.delivered.setdefault(int(u["update_id"]), now)
            return out
