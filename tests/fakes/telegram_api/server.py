"""The HTTP side: ``/bot<token>/<method>`` requests in, JSON out (standard library only)."""

from __future__ import annotations

import email.parser
import email.policy
import json
import re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import parse_qsl

if TYPE_CHECKING:
    from tests.fakes.telegram_api.fake import FakeTelegram

_STRING_FIELDS = {
    "text",
    "caption",
    "parse_mode",
    "callback_query_id",
    "action",
    "url",
    "secret_token",
    "data",
    "description",
    "ip_address",
}


class Server(ThreadingHTTPServer):
    """A threading server that knows its `FakeTelegram`."""

    daemon_threads = True
    block_on_close = False
    request_queue_size = 1024  # hundreds of simultaneous connects in the benchmark
    fake: FakeTelegram

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)  # a client hanging up is not an error


class Handler(BaseHTTPRequestHandler):
    """One request: check the token, parse the parameters (JSON, form or multipart), call the fake."""

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
        fake = cast(Server, self.server).fake
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
