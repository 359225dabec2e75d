"""The Web API as the sending code sees it: a method's name and arguments in, the response's data out.

Two kinds, one behaviour:

- `LocalApi` makes the call with slack_sdk's client, here (in the gateway,
  which owns every connection to Slack: its retry handlers wait out 429s
  and dropped connections);
- `RemoteApi` asks the gateway to make it (in the engine's process): a line
  through the pipe instead of an HTTP request, so the interpreter that runs
  the engine spends almost nothing on Slack.

Slack's refusals arrive as `SlackApiError` either way, with the response's
data, so the sending code decides the same on both sides. A 429 that
outlasts the client's own retries arrives as `RateLimited`, with the wait
Slack asked for: replies are worth waiting longer for (`adapters.slack.send`).
"""

from __future__ import annotations

import base64
from typing import Any, Protocol

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from adapters.slack.link import Link
from adapters.slack.protocol import Api, Reply, Respond

Data = dict[str, Any]
METHODS = frozenset(
    {
        "assistant_threads_setStatus",
        "chat_delete",
        "chat_postMessage",
        "chat_postEphemeral",
        "chat_update",
        "conversations_open",
        "files_upload_v2",
        "reactions_add",
        "reactions_remove",
        "views_open",
        "views_publish",
    }
)
"""What the adapter calls (and all the gateway will make for the engine's process)."""


class RateLimited(SlackApiError):
    """Slack still answered 429 after the client's retries: call again in ``retry_after`` seconds."""

    def __init__(self, message: str, response: Any, retry_after: float) -> None:
        super().__init__(message, response)  # type: ignore[no-untyped-call]
        self.retry_after = retry_after
        """Seconds, from the last refusal's ``Retry-After``."""


def _retry_after(exc: SlackApiError) -> float | None:
    """The ``Retry-After`` of a 429 (1 second when the header is missing), else None."""
    if getattr(exc.response, "status_code", None) != 429:
        return None
    headers = getattr(exc.response, "headers", None) or {}
    value = next((v for k, v in headers.items() if k.lower() == "retry-after"), "1")
    try:
        return max(0.0, float(value[0] if isinstance(value, list) else value))
    except (TypeError, ValueError):
        return 1.0


class SlackApi(Protocol):
    """Web API calls and response URLs."""

    async def call(self, method: str, **args: Any) -> Data:
        """``method`` (slack_sdk's name, e.g. ``chat_postMessage``); the response's data.

        Raises:
            RateLimited: Slack still answered 429 after the client's retries (a `SlackApiError`).
            SlackApiError: Slack refused (``error`` in the response's data).
        """
        ...

    async def respond(self, url: str, **args: Any) -> None:
        """Post to a slash command's or a press's ``response_url``."""
        ...


class LocalApi:
    """Calls made here, with slack_sdk's client (its base URL and retry handlers set)."""

    def __init__(self, client: AsyncWebClient) -> None:
        self.client = client

    async def call(self, method: str, **args: Any) -> Data:
        if method not in METHODS:
            raise ValueError(f"not a method the adapter uses: {method}")
        if method == "files_upload_v2" and "content_base64" in args:
            # A picture crossed the pipe as base64 text (the pipe carries JSON); slack_sdk wants its bytes.
            args["content"] = base64.b64decode(args.pop("content_base64"))
        if method == "files_upload_v2" and isinstance(args.get("content"), str):
            args["content"] = args["content"].encode("utf-8")
        try:
            response = await getattr(self.client, method)(**args)
        except SlackApiError as exc:
            wait = _retry_after(exc)
            if wait is None:
                raise
            raise RateLimited(str(exc), exc.response, wait) from exc
        return dict(response.data) if isinstance(response.data, dict) else {}

    async def respond(self, url: str, **args: Any) -> None:
        await AsyncWebhookClient(url, retry_handlers=self.client.retry_handlers).send(**args)


class RemoteApi:
    """Calls the gateway makes on this process's behalf (over `Link`)."""

    def __init__(self, link: Link) -> None:
        self._link = link

    async def call(self, method: str, **args: Any) -> Data:
        reply = await self._link.call(Api(method=method, args=args))
        data: Data = reply.data or {}
        if reply.refused and reply.retry_after is not None:
            raise RateLimited(f"Slack refused {method}: rate limited", data, reply.retry_after)
        if reply.refused:
            raise SlackApiError(f"Slack refused {method}: {data.get('error')}", data)  # type: ignore[no-untyped-call]
        return data

    async def respond(self, url: str, **args: Any) -> None:
        await self._link.call(Respond(url=url, args=args))


async def answer(api: LocalApi, call: Api | Respond) -> Reply:
    """The gateway's side of `RemoteApi`: make the call, and return its data or Slack's refusal."""
    if isinstance(call, Respond):
        await api.respond(call.url, **call.args)
        return Reply()
    try:
        return Reply(data=await api.call(call.method, **call.args))
    except SlackApiError as exc:
        data = exc.response.data if hasattr(exc.response, "data") else exc.response
        return Reply(
            refused=True,
            data=dict(data) if isinstance(data, dict) else {"error": str(exc)},
            retry_after=exc.retry_after if isinstance(exc, RateLimited) else None,
        )
