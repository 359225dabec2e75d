"""What the two Slack processes say to each other: typed messages, validated when read (`adapters.slack.link`).

The worker (the engine's process, `adapters.slack.worker`) starts the gateway
(`adapters.slack.gateway`) and *calls* it; each call waits for its `Reply`:

- `Start` — the set-up and token checks, with the whole `GatewayConfig`;
- `Listen` — start receiving (once the worker queued what a crash left);
- `Api` / `Respond` — a Web API call or a response URL, made by the gateway;
- `Settle` — wait for the notices the gateway sent itself;
- `Stop` — stop receiving.

The gateway *tells* (no reply, handled in the order sent):

- `Request` — an accepted post or slash command (`Post`, `Slash`: its stored
  form, the intake row of ``slack.db``) and its intake row's id;
- `Hand` — a press that took its buttons (`Pressed`), a Revise submission
  (`ReviseSubmitted`), a confirmed forget (`ForgetConfirmed`) or the Home tab opened (`HomeOpened`);

and the worker tells `Done` when a request was handled (the gateway deletes
its intake row). Every message is a pydantic model in a union discriminated by
``op`` (the calls and tells) or ``kind`` (what is handed over), so a new
interaction is one new variant and mypy points to every place that must handle
it. `Post` and `Slash` are also what ``slack.db`` keeps: their fields are the
stored JSON, and rows written before these models read back the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from adapters.slack.actions import Press
from adapters.slack.place import Place

Body = dict[str, Any]
EVENTS_PATH = "/slack/events"
"""Where HTTP mode's events endpoint listens."""


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True)


# ---------------------------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class Http:
    """HTTP mode: where the events endpoint listens, and the secret requests are signed with."""

    signing_secret: str
    host: str = "0.0.0.0"
    port: int = 3000


class Logging(_Message):
    """The worker's log format (``json`` or ``console``) and level, for the gateway's lines."""

    format: str = "json"
    level: str = "INFO"


class GatewayConfig(_Message):
    """Everything the gateway needs, sent in `Start`: it reads no settings of its own."""

    token: str
    base_url: str
    data_dir: Path
    app_token: str | None = None
    """Socket Mode's app-level token (``xapp-…``); None in HTTP mode."""
    http: Http | None = None
    """HTTP mode's endpoint; None = Socket Mode."""
    command: str = "/almanac"
    allowed_teams: list[str] = Field(default_factory=list)
    allowed_users: list[str] = Field(default_factory=list)
    log: Logging = Field(default_factory=Logging)
    database_url: str | None = None
    """Postgres, shared by every Slack replica (``DATABASE_URL``); None: ``slack.db`` in ``data_dir``."""

    def secrets(self) -> list[str]:
        """The tokens and the signing secret, for logging to mask."""
        password = urlsplit(self.database_url).password if self.database_url else None
        found = (self.token, self.app_token, self.http.signing_secret if self.http is not None else None, password)
        return [s for s in found if s]


# ---------------------------------------------------------------------------------------------- handed over


class Post(_Message):
    """A person's post in a DM, a mention, or a thread Almanac owns."""

    kind: Literal["post"] = "post"
    place: Place
    text: str
    ts: str
    at: float


class Slash(_Message):
    """A slash command (``name`` canonical: ``log``, ``status``, …), answered after its ack."""

    kind: Literal["slash"] = "slash"
    place: Place
    name: str
    arg: str
    at: float
    id: str
    """The command's ``trigger_id``: its message id for the engine."""


class Pressed(_Message):
    """A press that took its message's buttons (the compare-and-set in ``slack.db``)."""

    kind: Literal["press"] = "press"
    place: Place
    press: Press
    """What the button carries, parsed once, in the gateway."""
    channel: str
    ts: str
    blocks: list[Body] = Field(default_factory=list)
    """The pressed message's blocks (shown again with the decision)."""
    ephemeral: bool = False
    """An ephemeral message, replaced through the response URL."""
    label: str = ""
    """The pressed button's text (a reminder's shows on the message after the press)."""


class ReviseSubmitted(_Message):
    """The Revise modal's submission: its feedback on the plan (the message's blocks are in ``slack.db``)."""

    kind: Literal["revise"] = "revise"
    place: Place
    press: Press
    channel: str
    ts: str
    feedback: str
    ephemeral: bool = False


class ForgetConfirmed(_Message):
    """``/almanac forget``'s confirmation button."""

    kind: Literal["forget"] = "forget"
    place: Place


class HomeOpened(_Message):
    """The member opened Almanac's Home tab (``app_home_opened``): publish their weekly summary there."""

    kind: Literal["home"] = "home"
    place: Place
    """The member in their DM with Almanac (the event's channel): the queue it waits in."""


Accepted = Annotated[Post | Slash, Field(discriminator="kind")]
"""A request recorded in ``slack.db`` before its ack: what `Request` hands over and what a restart runs again."""
Handed = Annotated[Pressed | ReviseSubmitted | ForgetConfirmed | HomeOpened, Field(discriminator="kind")]
"""A press or the Home tab opened, handed over after its ack (never stored: a press lost in a crash is pressed
again, a Home tab opened again)."""
ACCEPTED: TypeAdapter[Post | Slash] = TypeAdapter(Accepted)

# ---------------------------------------------------------------------------------------------- calls


class Start(_Message):
    op: Literal["start"] = "start"
    config: GatewayConfig


class Listen(_Message):
    op: Literal["listen"] = "listen"


class Api(_Message):
    op: Literal["api"] = "api"
    method: str
    args: Body


class Respond(_Message):
    op: Literal["respond"] = "respond"
    url: str
    args: Body


class Settle(_Message):
    op: Literal["settle"] = "settle"


class Stop(_Message):
    op: Literal["stop"] = "stop"


Call = Annotated[Start | Listen | Api | Respond | Settle | Stop, Field(discriminator="op")]
CALL: TypeAdapter[Start | Listen | Api | Respond | Settle | Stop] = TypeAdapter(Call)


class Reply(_Message):
    """The answer to a call; only the fields that call answers are set."""

    failed: str | None = None
    """The other side raised (`adapters.slack.link.CallFailed`), or could not read the call."""
    setup_error: str | None = None
    """`Start` / `Listen`: what stopped start-up (`adapters.common.SetupError`)."""
    bot_user: str | None = None
    """`Start`: Almanac's member id."""
    port: int | None = None
    """`Listen`: the port HTTP mode listens on."""
    data: Body | None = None
    """`Api`: the response's data (Slack's refusal when ``refused``)."""
    refused: bool = False
    retry_after: float | None = None
    """`Api`, refused with 429: seconds to wait."""


# ---------------------------------------------------------------------------------------------- tells


class Request(_Message):
    """Gateway → worker: an accepted request, to queue behind ``queue``'s earlier work."""

    op: Literal["request"] = "request"
    queue: str
    intake: int
    spec: Accepted


class Hand(_Message):
    """Gateway → worker: a press, a Revise submission or a confirmed forget."""

    op: Literal["press"] = "press"
    spec: Handed


class Done(_Message):
    """Worker → gateway: intake row ``intake`` was handled."""

    op: Literal["done"] = "done"
    intake: int


Tell = Annotated[Request | Hand | Done, Field(discriminator="op")]
TELL: TypeAdapter[Request | Hand | Done] = TypeAdapter(Tell)
