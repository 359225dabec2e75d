"""A fake Slack Web API over real HTTP, and a signer for requests *from* Slack.

`FakeSlack` is a standard-library ``ThreadingHTTPServer`` on ``127.0.0.1``
(an ephemeral port, a daemon thread), so slack_sdk's real ``AsyncWebClient``
talks to it over a socket exactly as to slack.com: point the client's
``base_url`` at `FakeSlack.api_url`. It keeps the channels' messages, so a
test reads what a person would see, records every call, checks the Block Kit
limits Slack enforces (a payload Slack would reject is rejected here too), and
answers ``429`` with ``Retry-After`` when told to (`FakeSlack.rate_limit`).
It also serves the upload URLs of ``files_upload_v2`` and ``response_url`` s.

Slack's side of HTTP mode (signed requests into the app) is in
``tests/fakes/slack_signing.py``; of Socket Mode, in ``tests/fakes/slack_socket.py``.
"""

from __future__ import annotations

import copy
import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

from tests.fakes.slack_limits import block_errors

TOKEN = "xoxb-fake-bot-token"
APP_TOKEN = "xapp-fake-app-token"
TEAM = "T0ALMANAC"
BOT_USER = "U0BOT"
BOT_ID = "B0BOT"


@dataclass(frozen=True)
class Call:
    """One request the fake received: the Web API method (or ``upload`` / ``respond``) and its parameters."""

    method: str
    params: dict[str, Any]
    at: float
    """``time.monotonic()`` on arrival."""


@dataclass
class Posted:
    """A message in a channel as Slack keeps it (edits replace text and blocks)."""

    channel: str
    ts: str
    text: str
    blocks: list[dict[str, Any]]
    thread_ts: str | None
    user: str = BOT_USER
    edits: int = 0

    def buttons(self) -> list[dict[str, Any]]:
        """Every button element of the message, in order."""
        return [e for b in self.blocks if b.get("type") == "actions" for e in b.get("elements", [])]

    def shown(self) -> str:
        """All the text a person sees: the blocks' texts (or the fallback text without blocks)."""
        if not self.blocks:
            return self.text
        return "\n".join(_block_text(b) for b in self.blocks)


def _block_text(block: dict[str, Any]) -> str:
    kind = block.get("type")
    if kind == "markdown":
        return str(block.get("text", ""))
    if kind in ("section", "header"):
        return str(block.get("text", {}).get("text", ""))
    if kind == "context":
        return " ".join(str(e.get("text", "")) for e in block.get("elements", []))
    if kind == "actions":
        return " ".join(f"[{e.get('text', {}).get('text', '')}]" for e in block.get("elements", []))
    return ""


@dataclass
class _Failing:
    status: int
    retry_after: int
    times: int


@dataclass
class _State:
    calls: list[Call] = field(default_factory=list)
    messages: dict[str, dict[str, Posted]] = field(default_factory=dict)
    ephemeral: list[dict[str, Any]] = field(default_factory=list)
    responses: list[dict[str, Any]] = field(default_factory=list)
    reactions: set[tuple[str, str, str]] = field(default_factory=set)
    views: dict[str, dict[str, Any]] = field(default_factory=dict)
    homes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    uploads: dict[str, dict[str, Any]] = field(default_factory=dict)
    failing: dict[str, _Failing] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    statuses: list[dict[str, Any]] = field(default_factory=list)
    status_now: dict[tuple[str, str], str] = field(default_factory=dict)


class FakeSlack:
    """A scriptable fake of Slack's Web API on ``127.0.0.1``.

    Args:
        token: the bot token the fake accepts (others get ``invalid_auth``).
        team / bot_user / bot_id: what ``auth.test`` reports.
    """

    def __init__(self, token: str = TOKEN, team: str = TEAM, bot_user: str = BOT_USER, bot_id: str = BOT_ID) -> None:
        self.token, self.team, self.bot_user, self.bot_id = token, team, bot_user, bot_id
        self.not_in_channel: set[str] = set()
        """Channels the bot is not a member of: posting there fails with ``not_in_channel``."""
        self.on_call: Callable[[Call], None] | None = None
        """Called (in the server's thread) after each call is recorded: a benchmark's way to wait for replies."""
        self.socket_url: str | None = None
        """What ``apps.connections.open`` hands out (a Socket Mode server of the test's)."""
        self.refuse_status: str | None = None
        """When set, ``assistant.threads.setStatus`` answers this error (``not_allowed``, ``missing_scope``):
        an app that is not an assistant app."""
        self._lock = threading.Lock()
        self._state = _State()
        self._ids = itertools.count(1)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> FakeSlack:
        """Start listening on an ephemeral loopback port."""
        server = _Server(("127.0.0.1", 0), self)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        thread.start()
        self._server, self._thread = server, thread
        return self

    def stop(self) -> None:
        """Stop listening (idempotent); what was recorded stays readable."""
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeSlack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        assert self._server is not None, "start() first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def api_url(self) -> str:
        """The Web API base for ``AsyncWebClient(base_url=...)`` (with the trailing slash the SDK needs)."""
        return f"{self.url}/api/"

    def response_url(self, name: str) -> str:
        """A ``response_url`` this fake serves (what Slack puts in slash commands and actions)."""
        return f"{self.url}/respond/{name}"

    # ------------------------------------------------------------------ scripting

    def rate_limit(self, method: str, times: int = 1, retry_after: int = 0, status: int = 429) -> None:
        """Answer the next ``times`` calls of ``method`` with ``status`` (and ``Retry-After`` for 429)."""
        with self._lock:
            self._state.failing[method] = _Failing(status, retry_after, times)

    # ------------------------------------------------------------------ inspection

    def calls(self, method: str | None = None) -> list[Call]:
        """Recorded calls, in arrival order (only ``method``'s when given)."""
        with self._lock:
            return [c for c in self._state.calls if method is None or c.method == method]

    def messages(self, channel: str, thread_ts: str | None = None) -> list[Posted]:
        """Copies of the bot's messages in a channel (in one thread when ``thread_ts`` is given), oldest first.

        Copies, as a client holds them: a later ``chat.update`` does not change a copy taken before it.
        """
        with self._lock:
            found = copy.deepcopy(list(self._state.messages.get(channel, {}).values()))
        return [m for m in found if thread_ts is None or m.thread_ts == thread_ts or m.ts == thread_ts]

    def message(self, channel: str, ts: str) -> Posted:
        """A copy of one message, as it looks now."""
        with self._lock:
            return copy.deepcopy(self._state.messages[channel][ts])

    @property
    def ephemeral(self) -> list[dict[str, Any]]:
        """``chat.postEphemeral`` calls' parameters."""
        with self._lock:
            return list(self._state.ephemeral)

    @property
    def responses(self) -> list[dict[str, Any]]:
        """Bodies posted to ``response_url`` s, each with its ``_name``."""
        with self._lock:
            return list(self._state.responses)

    @property
    def reactions(self) -> set[tuple[str, str, str]]:
        """Reactions present now: ``(channel, ts, name)``."""
        with self._lock:
            return set(self._state.reactions)

    @property
    def statuses(self) -> list[dict[str, Any]]:
        """Accepted ``assistant.threads.setStatus`` calls, in order: channel_id, thread_ts, status."""
        with self._lock:
            return list(self._state.statuses)

    def status_shown(self, channel: str, thread_ts: str) -> str:
        """The status a thread shows now ("" when cleared, or once the app replied in the thread)."""
        with self._lock:
            return self._state.status_now.get((channel, thread_ts), "")

    @property
    def views(self) -> dict[str, dict[str, Any]]:
        """Opened views by id."""
        with self._lock:
            return dict(self._state.views)

    def homes(self, user: str) -> list[dict[str, Any]]:
        """The Home views published for a member (``views.publish``), oldest first; the last is shown."""
        with self._lock:
            return list(self._state.homes.get(user, []))

    @property
    def files(self) -> list[dict[str, Any]]:
        """Completed uploads, in order: filename, title, alt_txt, content (bytes), channel, thread_ts and
        comment (``initial_comment``, shown with the file)."""
        with self._lock:
            return [u for u in self._state.uploads.values() if u.get("channel")]

    @property
    def errors(self) -> list[str]:
        """Payloads the fake rejected, as ``method: error`` (a correct adapter causes none)."""
        with self._lock:
            return list(self._state.errors)

    # ------------------------------------------------------------------ serving (handler threads)

    def _serve(
        self, path: str, params: dict[str, Any], raw: bytes, auth: str
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        if path.startswith("/upload/"):
            return self._upload(path.removeprefix("/upload/"), raw)
        if path.startswith("/respond/"):
            with self._lock:
                self._state.calls.append(Call("respond", params, time.monotonic()))
                self._state.responses.append({"_name": path.removeprefix("/respond/"), **params})
            return 200, {"ok": True}, {}
        method = path.removeprefix("/api/")
        call = Call(method, params, time.monotonic())
        if self.on_call is not None:
            self.on_call(call)
        with self._lock:
            self._state.calls.append(call)
            failing = self._state.failing.get(method)
            if failing is not None and failing.times > 0:
                failing.times -= 1
                headers = {"Retry-After": str(failing.retry_after)} if failing.status == 429 else {}
                return failing.status, {"ok": False, "error": "ratelimited"}, headers
        expected = APP_TOKEN if method == "apps.connections.open" else self.token
        if auth != f"Bearer {expected}":
            return 200, {"ok": False, "error": "invalid_auth" if auth else "not_authed"}, {}
        handler = getattr(self, "_m_" + method.replace(".", "_"), None)
        if handler is None:
            return 200, {"ok": False, "error": "unknown_method"}, {}
        reply = cast(dict[str, Any], handler(params))
        if not reply.get("ok", True):
            with self._lock:
                self._state.errors.append(f"{method}: {reply.get('error')}")
        return 200, {"ok": True, **reply} if reply.get("ok", True) else reply, {}

    def _new_ts(self) -> str:
        return f"{1_700_000_000 + next(self._ids)}.000100"

    def _m_auth_test(self, p: dict[str, Any]) -> dict[str, Any]:
        return {
            "url": "https://almanac.example/",
            "team": "Almanac",
            "user": "almanac",
            "team_id": self.team,
            "user_id": self.bot_user,
            "bot_id": self.bot_id,
            "is_enterprise_install": False,
        }

    def _m_apps_connections_open(self, p: dict[str, Any]) -> dict[str, Any]:
        if self.socket_url is None:
            return {"ok": False, "error": "socket_mode_unavailable"}
        return {"url": self.socket_url}

    def _m_chat_postMessage(self, p: dict[str, Any]) -> dict[str, Any]:
        channel = str(p.get("channel", ""))
        if channel in self.not_in_channel:
            return {"ok": False, "error": "not_in_channel"}
        problem = _payload_errors(p)
        if problem:
            return {"ok": False, "error": problem}
        msg = Posted(channel, self._new_ts(), str(p.get("text", "")), list(p.get("blocks") or []), p.get("thread_ts"))
        with self._lock:
            self._state.messages.setdefault(channel, {})[msg.ts] = msg
            if msg.thread_ts:  # Slack clears a thread's assistant status when the app replies there
                self._state.status_now.pop((channel, msg.thread_ts), None)
        return {"channel": channel, "ts": msg.ts, "message": {"text": msg.text, "ts": msg.ts}}

    def _m_chat_update(self, p: dict[str, Any]) -> dict[str, Any]:
        channel, ts = str(p.get("channel", "")), str(p.get("ts", ""))
        problem = _payload_errors(p)
        if problem:
            return {"ok": False, "error": problem}
        with self._lock:
            msg = self._state.messages.get(channel, {}).get(ts)
            if msg is None:
                return {"ok": False, "error": "message_not_found"}
            msg.text, msg.blocks, msg.edits = str(p.get("text", msg.text)), list(p.get("blocks") or []), msg.edits + 1
        return {"channel": channel, "ts": ts}

    def _m_chat_delete(self, p: dict[str, Any]) -> dict[str, Any]:
        channel, ts = str(p.get("channel", "")), str(p.get("ts", ""))
        with self._lock:
            if self._state.messages.get(channel, {}).pop(ts, None) is None:
                return {"ok": False, "error": "message_not_found"}
        return {"channel": channel, "ts": ts}

    def _m_assistant_threads_setStatus(self, p: dict[str, Any]) -> dict[str, Any]:
        """The status under an assistant thread; ``""`` clears it. Refused as ``refuse_status`` says."""
        if self.refuse_status is not None:
            return {"ok": False, "error": self.refuse_status}
        channel, thread_ts = str(p.get("channel_id", "")), str(p.get("thread_ts", ""))
        if not channel or not thread_ts or "status" not in p:
            return {"ok": False, "error": "invalid_arguments"}
        with self._lock:
            self._state.statuses.append({"channel_id": channel, "thread_ts": thread_ts, "status": p["status"]})
            self._state.status_now[(channel, thread_ts)] = str(p["status"])
        return {}

    def _m_chat_postEphemeral(self, p: dict[str, Any]) -> dict[str, Any]:
        problem = _payload_errors(p)
        if problem:
            return {"ok": False, "error": problem}
        with self._lock:
            self._state.ephemeral.append(p)
        return {"message_ts": self._new_ts()}

    def _m_views_open(self, p: dict[str, Any]) -> dict[str, Any]:
        if not p.get("trigger_id"):
            return {"ok": False, "error": "invalid_trigger_id"}
        view = p["view"] if isinstance(p.get("view"), dict) else json.loads(str(p.get("view")))
        view_id = f"V{next(self._ids):05d}"
        with self._lock:
            self._state.views[view_id] = {"id": view_id, **view}
        return {"view": {"id": view_id, **view}}

    def _m_views_update(self, p: dict[str, Any]) -> dict[str, Any]:
        view = p["view"] if isinstance(p.get("view"), dict) else json.loads(str(p.get("view")))
        with self._lock:
            if p.get("view_id") not in self._state.views:
                return {"ok": False, "error": "not_found"}
            self._state.views[str(p["view_id"])] = {"id": p["view_id"], **view}
        return {"view": {"id": p["view_id"], **view}}

    def _m_views_publish(self, p: dict[str, Any]) -> dict[str, Any]:
        view = p["view"] if isinstance(p.get("view"), dict) else json.loads(str(p.get("view")))
        user = str(p.get("user_id") or "")
        if not user:
            return {"ok": False, "error": "invalid_arguments"}
        if view.get("type") != "home" or len(view.get("blocks", [])) > 100:
            return {"ok": False, "error": "invalid_arguments"}
        with self._lock:
            self._state.homes.setdefault(user, []).append(view)
        return {"view": {"id": f"V{next(self._ids):05d}", **view}}

    def _m_reactions_add(self, p: dict[str, Any]) -> dict[str, Any]:
        key = (str(p.get("channel")), str(p.get("timestamp")), str(p.get("name")))
        with self._lock:
            if key in self._state.reactions:
                return {"ok": False, "error": "already_reacted"}
            self._state.reactions.add(key)
        return {}

    def _m_reactions_remove(self, p: dict[str, Any]) -> dict[str, Any]:
        key = (str(p.get("channel")), str(p.get("timestamp")), str(p.get("name")))
        with self._lock:
            if key not in self._state.reactions:
                return {"ok": False, "error": "no_reaction"}
            self._state.reactions.discard(key)
        return {}

    def _m_users_info(self, p: dict[str, Any]) -> dict[str, Any]:
        user = str(p.get("user", ""))
        return {"user": {"id": user, "team_id": self.team, "name": user.lower(), "tz": "Asia/Seoul", "is_bot": False}}

    def _m_conversations_open(self, p: dict[str, Any]) -> dict[str, Any]:
        users = str(p.get("users", ""))
        return {"channel": {"id": "D" + users.split(",")[0].removeprefix("U")}}

    def _m_files_getUploadURLExternal(self, p: dict[str, Any]) -> dict[str, Any]:
        file_id = f"F{next(self._ids):05d}"
        with self._lock:
            self._state.uploads[file_id] = {
                "filename": p.get("filename"),
                "length": int(p.get("length", 0)),
                "alt_txt": p.get("alt_txt"),
            }
        return {"upload_url": f"{self.url}/upload/{file_id}", "file_id": file_id}

    def _upload(self, file_id: str, raw: bytes) -> tuple[int, dict[str, Any], dict[str, str]]:
        with self._lock:
            self._state.calls.append(Call("upload", {"file_id": file_id, "bytes": len(raw)}, time.monotonic()))
            upload = self._state.uploads.get(file_id)
            if upload is None:
                return 404, {"ok": False}, {}
            upload["content"] = raw
        return 200, {"ok": True}, {}

    def _m_files_completeUploadExternal(self, p: dict[str, Any]) -> dict[str, Any]:
        files = p["files"] if isinstance(p.get("files"), list) else json.loads(str(p.get("files", "[]")))
        if str(p.get("channel_id", "")) in self.not_in_channel:
            return {"ok": False, "error": "not_in_channel"}
        done = []
        with self._lock:
            for f in files:
                upload = self._state.uploads.get(f["id"])
                if upload is None or "content" not in upload or len(upload["content"]) != upload["length"]:
                    return {"ok": False, "error": "invalid_upload"}
                upload.update(
                    title=f.get("title"),
                    channel=p.get("channel_id"),
                    thread_ts=p.get("thread_ts"),
                    comment=p.get("initial_comment"),
                )
                done.append({"id": f["id"], "title": f.get("title"), "name": upload["filename"]})
        return {"files": done}


def _payload_errors(p: dict[str, Any]) -> str | None:
    blocks = p.get("blocks")
    if isinstance(blocks, str):
        blocks = json.loads(blocks)
    if not p.get("text") and not blocks:
        return "no_text"
    if len(str(p.get("text", ""))) > 40_000:
        return "msg_too_long"
    return block_errors(blocks or [])


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 1024  # hundreds of concurrent connects in the benchmark

    def __init__(self, address: tuple[str, int], fake: FakeSlack) -> None:
        self.fake = fake
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up (a closed keep-alive connection) is no error of the fake: stay quiet."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as aiohttp expects of slack.com
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests read the recorded calls instead."""

    def do_POST(self) -> None:
        """Every Web API method, upload and response URL is a POST."""
        self._dispatch()

    def do_GET(self) -> None:
        """``auth.test`` and friends also accept GET with a query string."""
        self._dispatch()

    def _dispatch(self) -> None:
        fake = cast(_Server, self.server).fake
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        url = urlsplit(self.path)
        params: dict[str, Any] = dict(parse_qsl(url.query))
        kind = self.headers.get("Content-Type", "")
        if "json" in kind and raw:
            params.update(json.loads(raw))
        elif "x-www-form-urlencoded" in kind:
            params.update(parse_qsl(raw.decode()))
        for key in ("blocks", "files", "view"):  # form-encoded JSON values, as the SDK sends some
            if isinstance(params.get(key), str):
                params[key] = json.loads(params[key])
        try:
            status, body, headers = fake._serve(url.path, params, raw, self.headers.get("Authorization", ""))
        except Exception as exc:  # a bug in the fake: answer, and keep the evidence
            with fake._lock:
                fake._state.errors.append(f"fake crashed: {exc!r}")
            status, body, headers = 500, {"ok": False, "error": "fake_crashed"}, {}
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
