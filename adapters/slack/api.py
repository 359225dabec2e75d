"""The Web API as the sending code sees it: a method's name and arguments in, the response's data out.

Two kinds, one behaviour:

- `LocalApi` makes the call with slack_sdk's client, here (in the gateway,
  which owns every connection to Slack: its retry handlers wait out 429s
  and dropped connections);
- `RemoteApi` asks the gateway to make it (in the engine's process): a line
  through the pipe instead of an HTTP request, so the interpreter that runs
  the engine spends almost nothing on Slack.

Slack's refusals arrive as `SlackApiError` either way, with the response's
data, so the sending code decides the same on both sides.
"""

from __future__ import annotations

from typing import Any, Protocol

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from adapters.slack.link import Link

Data = dict[str, Any]
METHODS = frozenset({
    "chat_postMessage", "chat_postEphemeral", "chat_update", "conversations_open", "files_upload_v2",
    "reactions_add", "reactions_remove", "views_open",
})
"""What the adapter calls (and all the gateway will make for the engine's process)."""


class SlackApi(Protocol):
    """Web API calls and response URLs."""

    async def call(self, method: str, **args: Any) -> Data:
        """``method`` (slack_sdk's name, e.g. ``chat_postMessage``); the response's data.

        Raises:
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
        if method == "files_upload_v2" and isinstance(args.get("content"), str):
            args["content"] = args["content"].encode("utf-8")
        response = await getattr(self.client, method)(**args)
        return dict(response.data) if isinstance(response.data, dict) else {}

    async def respond(self, url: str, **args: Any) -> None:
        await AsyncWebhookClient(url, retry_handlers=self.client.retry_handlers).send(**args)


class RemoteApi:
    """Calls the gateway makes on this process's behalf (over `Link`)."""

    def __init__(self, link: Link) -> None:
        self._link = link

    async def call(self, method: str, **args: Any) -> Data:
        reply = await self._link.call("api", method=method, args=args)
        data: Data = reply.get("data") or {}
        if reply.get("refused"):
            raise SlackApiError(f"Slack refused {method}: {data.get('error')}", data)  # type: ignore[no-untyped-call]
        return data

    async def respond(self, url: str, **args: Any) -> None:
        await self._link.call("respond", url=url, args=args)


async def answer(api: LocalApi, op: str, message: Data) -> Data:
    """The gateway's side of `RemoteApi`: make the call, and return its data or Slack's refusal."""
    if op == "respond":
        await api.respond(str(message["url"]), **message["args"])
        return {}
    try:
        return {"data": await api.call(str(message["method"]), **message["args"])}
    except SlackApiError as exc:
        data = exc.response.data if hasattr(exc.response, "data") else exc.response
        return {"refused": True, "data": dict(data) if isinstance(data, dict) else {"error": str(exc)}}
