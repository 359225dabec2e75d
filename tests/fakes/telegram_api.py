"""A real, scriptable HTTP server that speaks the Telegram Bot API, for tests.

Like `tests.fakes.ollama_server`, it is a standard-library
``ThreadingHTTPServer`` on ``127.0.0.1`` in a daemon thread, so the real
python-telegram-bot client talks to it over a socket through its own
``base_url``. It serves ``/bot<token>/<method>`` for getMe, getUpdates,
sendMessage, editMessageText, editMessageReplyMarkup, deleteMessage,
answerCallbackQuery, sendChatAction, sendDocument, setMyCommands,
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

from __future__ import annotations

import email.parser
import email.policy
import html
import itertools
import json
import re
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qsl

__all__ = ["BotMessage", "Call", "FakeTelegram", "html_to_text"]

TOKEN = "123456789:AAFakeTokenForTestsOnly_abcdefghijklmnop"
_ALLOWED_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre", "tg-spoiler", "blockquote", "span", "tg-emoji"}
_STRING_FIELDS = {"text", "caption", "parse_mode", "callback_query_id", "action", "url", "secret_token", "data", "description", "ip_address"}
_MARKUP = re.compile(
    r"<(/?)([A-Za-z][\w-]*)((?:\s[^>]*)?)>|&(#\d+|#x[0-9A-Fa-f]+|lt|gt|amp|quot);|[<&]"
)


class _ParseError(Exception):
    pass


def html_to_text(text: str) -> str:
    """What Telegram shows for HTML: tags removed, entities decoded; raises on bad markup."""
    out: list[str] = []
    stack: list[str] = []
    pos = 0
    for m in _MARKUP.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        offset = len(text[: m.start()].encode())
        if m.group(0) in ("<", "&"):
            raise _ParseError(f"can't parse entities: unexpected {m.group(0)!r} at byte offset {offset}")
        if m.group(4) is not None:
            out.append(html.unescape(m.group(0)))
            continue
        name = m.group(2).lower()
        if name not in _ALLOWED_TAGS:
            raise _ParseError(f'can\'t parse entities: Unsupported start tag "{name}" at byte offset {offset}')
        if not m.group(1):
            stack.append(name)
        elif not stack or stack[-1] != name:
            raise _ParseError(f'can\'t parse entities: Unmatched end tag at byte offset {offset}, expected "</{stack[-1] if stack else ""}>"')
        else:
            stack.pop()
    out.append(text[pos:])
    if stack:
        raise _ParseError(f'can\'t parse entities: Can\'t find end tag corresponding to start tag "{stack[-1]}"')
    return "".join(out)


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True)
class Call:
    """One Bot API request: method, parsed parameters, and ``time.monotonic()`` on arrival."""

    method: str
    params: dict[str, Any]
    at: float


@dataclass
class BotMessage:
    """A message in a chat as the fake holds it (the bot's, or a user's it built)."""

    chat_id: int
    message_id: int
    text: str
    """What the person sees (markup removed)."""
    html: str | None = None
    """The text as sent, when it was sent with ``parse_mode=HTML``."""
    from_bot: bool = True
    user_id: int | None = None
    reply_markup: dict[str, Any] | None = None
    thread_id: int | None = None
    reply_to: int | None = None
    deleted: bool = False
    edits: int = 0
    document: tuple[str, bytes] | None = None
    sent_at: float = field(default_factory=time.monotonic)

    def buttons(self) -> list[dict[str, Any]]:
        """The inline keyboard's buttons, row by row, flattened."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [b for row in rows for b in row]


@dataclass
class _Failure:
    method: str
    status: int
    description: str
    retry_after: int | None
    times: int
    when: Callable[[dict[str, Any]], bool] | None


class FakeTelegram:
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
        self._failures: list[_Failure] = []
        self.delivered: dict[int, float] = {}
        """update_id → ``time.monotonic()`` when getUpdates handed it out."""
        self.webhook: tuple[str, str | None] | None = None
        """(url, secret_token) after setWebhook."""
        self.commands: list[dict[str, Any]] = []
        self.on_send: Callable[[BotMessage], None] | None = None
        """Called (in a server thread) after each message the bot sends."""
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------

    def start(self) -> FakeTelegram:
        server = _Server(("127.0.0.1", self._port), _Handler)
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
            "date": int(time.time()),
            "chat": self._chat(m.chat_id),
            "from": (
                {"id": self.bot_id, "is_bot": True, "first_name": "Almanac", "username": self.username}
                if m.from_bot
                else self._user(m.user_id or 0)
            ),
        }
        if m.document is not None:
            out["document"] = {"file_id": f"doc{m.message_id}", "file_unique_id": f"u{m.message_id}", "file_name": m.document[0]}
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
    ) -> dict[str, Any]:
        """An update carrying a user's text message (not yet queued; see `enqueue`).

        ``mention`` prefixes ``@<bot username>`` with its entity; a text
        starting with ``/`` gets a ``bot_command`` entity, as Telegram does.
        """
        with self._lock:
            entities = []
            if mention:
                text = f"@{self.username} {text}"
                entities.append({"type": "mention", "offset": 0, "length": _utf16(self.username) + 1})
            elif text.startswith("/"):
                entities.append({"type": "bot_command", "offset": 0, "length": _utf16(text.split()[0])})
            m = BotMessage(
                chat_id, self._next_message_id(chat_id), text, from_bot=False, user_id=user_id, thread_id=topic, reply_to=reply_to
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
                raise AssertionError(f"no button {button!r} on message {message_id}: {[b.get('text') for b in m.buttons()]}")
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
            self._failures.append(_Failure(method, status, description, retry_after, times, when))

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
        return sorted((m for m in out if chat_id is None or m.chat_id == chat_id), key=lambda m: (m.sent_at, m.message_id))

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
        except _ParseError as exc:
            return 400, {"ok": False, "error_code": 400, "description": f"Bad Request: {exc}"}
        except _BadRequest as exc:
            return 400, {"ok": False, "error_code": 400, "description": f"Bad Request: {exc}"}
        if isinstance(result, BotMessage):
            if self.on_send is not None and method in ("sendMessage", "sendDocument"):
                self.on_send(result)
            with self._lock:
                return 200, {"ok": True, "result": self._message_json(result)}
        return 200, {"ok": True, "result": result}

    def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        limit = int(params.get("limit") or 100)
        wait = min(float(params.get("timeout") or 0), self.long_poll_s)
        deadline = time.monotonic() + wait
        with self._lock:
            while not self._updates and self._server is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            out = [self._updates.popleft() for _ in range(min(limit, len(self._updates)))]
            now = time.monotonic()
            for u in out:
                self.delivered.setdefault(int(u["update_id"]), now)
            return out

    def _text(self, params: dict[str, Any], key: str = "text") -> tuple[str, str | None]:
        raw = str(params.get(key) or "")
        if str(params.get("parse_mode") or "").upper() == "HTML":
            plain, source = html_to_text(raw), raw
        else:
            plain, source = raw, None
        if key == "text" and not plain.strip():
            raise _BadRequest("message text is empty")
        if _utf16(plain) > (4096 if key == "text" else 1024):
            raise _BadRequest("message is too long" if key == "text" else "message caption is too long")
        return plain, source

    def _markup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if not isinstance(markup, dict):
            return None
        for row in markup.get("inline_keyboard") or []:
            for button in row:
                if len(str(button.get("callback_data", "")).encode()) > 64:
                    raise _BadRequest("BUTTON_DATA_INVALID")
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

    def _api_sendMessage(self, params: dict[str, Any]) -> BotMessage:
        chat_id = int(params["chat_id"])
        plain, source = self._text(params)
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
            raise _BadRequest("there is no document in the request")
        caption, _ = self._text(params, "caption")
        m = BotMessage(chat_id, self._next_message_id(chat_id), caption, document=doc, thread_id=params.get("message_thread_id"))
        self._messages[(chat_id, m.message_id)] = m
        return m

    def _edited(self, params: dict[str, Any]) -> BotMessage:
        key = (int(params["chat_id"]), int(params["message_id"]))
        m = self._messages.get(key)
        if m is None or m.deleted or not m.from_bot:
            raise _BadRequest("message to edit not found")
        return m

    def _api_editMessageText(self, params: dict[str, Any]) -> BotMessage:
        m = self._edited(params)
        plain, source = self._text(params)
        markup = self._markup(params)
        if plain == m.text and markup == m.reply_markup:
            raise _BadRequest("message is not modified: specified new message content and reply markup are exactly the same")
        m.text, m.html, m.reply_markup = plain, source, markup  # no reply_markup in the call: the keyboard goes
        m.edits += 1
        return m

    def _api_editMessageReplyMarkup(self, params: dict[str, Any]) -> BotMessage:
        m = self._edited(params)
        markup = self._markup(params)
        if markup == m.reply_markup:
            raise _BadRequest("message is not modified")
        m.reply_markup = markup
        m.edits += 1
        return m

    def _api_deleteMessage(self, params: dict[str, Any]) -> bool:
        m = self._messages.get((int(params["chat_id"]), int(params["message_id"])))
        if m is None or m.deleted:
            raise _BadRequest("message to delete not found")
        m.deleted = True
        return True

    def _api_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        query_id = str(params.get("callback_query_id"))
        if query_id not in self._open_queries:
            raise _BadRequest("query is too old and response timeout expired or query ID is invalid")
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
        return {"url": self.webhook[0] if self.webhook else "", "has_custom_certificate": False, "pending_update_count": 0}


class _BadRequest(Exception):
    pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 1024  # hundreds of simultaneous connects in the benchmark
    fake: FakeTelegram

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)  # a client hanging up is not an error


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as python-telegram-bot's httpx pool expects
    # Headers and body go out in two writes; with Nagle's algorithm the second one
    # waits for the client's delayed ACK (~40 ms) on every keep-alive response.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        """Silence per-request logging."""

    def do_GET(self) -> None:
        self._dispatch()

    def do_POST(self) -> None:
        self._dispatch()

    def _dispatch(self) -> None:
        fake = cast(_Server, self.server).fake
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        path = self.path.split("?", 1)[0]
        m = re.fullmatch(r"/bot([^/]+)/(\w+)", path)
        if m is None:
            self._send(404, {"ok": False, "error_code": 404, "description": "Not Found"})
            return
        if m.group(1) != fake.token:
            self._send(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
            return
        params = self._params(raw, self.headers.get("Content-Type") or "")
        status, body = fake._call(m.group(2), params)
        self._send(status, body)

    @staticmethod
    def _params(raw: bytes, content_type: str) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if content_type.startswith("multipart/form-data"):
            message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                f"Content-Type: {content_type}\r\n\r\n".encode() + raw
            )
            for part in message.iter_parts():
                name = part.get_param("name", header="content-disposition")
                payload = cast(bytes, part.get_payload(decode=True) or b"")
                filename = part.get_filename()
                if filename is not None:
                    fields[str(name)] = (filename, payload)
                else:
                    fields[str(name)] = payload.decode()
        elif content_type.startswith("application/json"):
            fields = json.loads(raw or b"{}")
            return fields
        else:
            fields = dict(parse_qsl(raw.decode(), keep_blank_values=True))
        out: dict[str, Any] = {}
        for key, value in fields.items():
            if isinstance(value, str) and key not in _STRING_FIELDS:
                try:
                    value = json.loads(value)
                except ValueError:
                    pass
            out[key] = value
        return out

    def _send(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
