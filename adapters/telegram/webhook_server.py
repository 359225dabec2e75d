"""Webhook mode's HTTP server: Telegram's POST in, the update recorded and queued, then the 200.

python-telegram-bot's own webhook server answers a body that is no Update
unevenly: ``{"foo": 1}`` gets 400 with a critical log line and a traceback,
text that is not JSON 500, ``{"update_id": "x"}`` 200 (and goes into the
inbox). This small tornado app (the server python-telegram-bot uses) takes
its place: without the secret, 403; a body that is no Update, 400 and one log
line; an update, 200 once `RecordingQueue.put` recorded it
(adapters/telegram/intake.py).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re

import structlog
import tornado.web
from telegram import Bot, Update
from tornado.httpserver import HTTPServer

log = structlog.get_logger("adapters.telegram")


def parse(body: bytes, bot: Bot) -> Update | str:
    """The update a webhook body holds, or why it holds none."""
    try:
        data = json.loads(body)
    except ValueError:  # UnicodeDecodeError included
        return "not JSON"
    if not isinstance(data, dict):
        return "not a JSON object"
    if type(data.get("update_id")) is not int:  # a bool is an int to isinstance
        return "no whole-number update_id"
    try:
        return Update.de_json(data, bot)
    except Exception as exc:  # de_json raises whatever a malformed field makes it raise
        return f"not an Update ({type(exc).__name__})"


class _Handler(tornado.web.RequestHandler):
    SUPPORTED_METHODS = ("POST",)

    def initialize(self, bot: Bot, update_queue: asyncio.Queue[object], secret: str) -> None:
        self.bot = bot
        self.update_queue = update_queue
        self.secret = secret

    async def post(self) -> None:
        given = self.request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
        if not hmac.compare_digest(given.encode(), self.secret.encode()):
            raise tornado.web.HTTPError(403)
        update = parse(self.request.body, self.bot)
        if isinstance(update, str):
            # Telegram sends only updates: this came from something else, or broke on the way.
            log.warning("telegram.bad_update", reason=update, remote=self.request.remote_ip)
            raise tornado.web.HTTPError(400)
        await self.update_queue.put(update)  # recorded before the 200 tells Telegram it arrived


def listen(
    bot: Bot, update_queue: asyncio.Queue[object], *, path: str, secret: str, host: str, port: int
) -> HTTPServer:
    """Serve the webhook at ``path`` on ``host:port`` (until `close`)."""
    app = tornado.web.Application(
        [(rf"/{re.escape(path.strip('/'))}/?", _Handler, {"bot": bot, "update_queue": update_queue, "secret": secret})],
        log_function=lambda handler: None,  # no access line per request; a bad body has its own
    )
    server = HTTPServer(app)
    server.listen(port, address=host)
    return server


async def close(server: HTTPServer) -> None:
    """Stop taking requests and close open connections."""
    server.stop()
    await server.close_all_connections()
