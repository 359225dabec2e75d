"""A real, scriptable HTTP server that speaks Ollama's wire format, for tests.

The fake runs a standard-library ``ThreadingHTTPServer`` on ``127.0.0.1`` in
a daemon thread, so the real ``ollama`` client (sync or async, on any event
loop) talks to it over a socket exactly as it would to a real Ollama. Every
connection gets its own handler thread and every delay sleeps in that thread,
so slow replies never serialize concurrent requests.

Replies to ``/api/chat`` are picked by the *title* of the JSON schema passed
as ``format`` (pydantic's ``Model.model_json_schema()`` puts the class name
there). Chats without a titled schema (no ``format``, ``"json"``, or a schema
without ``title``) use the title ``"_text"``.

Example::

    with FakeOllama() as fake:
        fake.script("Plan", {"steps": ["a"]}, "not json")  # FIFO, one per call
        fake.default("Plan", {"steps": []})                 # then forever
        client = ollama.Client(host=fake.url)
        client.chat(model="qwen2.5:7b-instruct", messages=[...],
                    format=Plan.model_json_schema())
        assert fake.unscripted == []
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol, TypeAlias, Union, cast, overload

__all__ = [
    "DEFAULT_MODEL",
    "EMBED_TITLE",
    "TEXT_TITLE",
    "Delay",
    "Fail",
    "FakeOllama",
    "Hang",
    "RecordedRequest",
    "Reply",
    "fake_embedding",
    "model_reply",
]

DEFAULT_MODEL = "qwen2.5:7b-instruct"
"""The model the fake serves unless told otherwise."""

TEXT_TITLE = "_text"
"""Title used for chats whose ``format`` is absent, ``"json"`` or untitled."""

EMBED_TITLE = "_embed"
"""Optional script title for ``/api/embed`` (see `FakeOllama.script`)."""

# Enough stream pieces to exercise reassembly without bloating responses.
_STREAM_CHUNKS = 4


@dataclass(frozen=True)
class Fail:
    """Reply with an HTTP error, as Ollama does: ``{"error": error}``.

    Attributes:
        status: HTTP status code, e.g. 500 or 503.
        error: The error message; the ollama client exposes it as
            ``ResponseError.error``.
    """

    status: int
    error: str = "fake ollama: scripted failure"


@dataclass(frozen=True)
class Delay:
    """Sleep (in the handler thread) before sending ``reply``.

    Attributes:
        seconds: How long to wait before answering.
        reply: What to answer with afterwards (any `Reply`).
    """

    seconds: float
    reply: Reply


@dataclass(frozen=True)
class Hang:
    """Never answer: hold the connection, then drop it without a response.

    The handler waits ``seconds`` or until `FakeOllama.stop`, whichever comes
    first, so client timeouts fire and ``stop()`` is never blocked by it.

    Attributes:
        seconds: Upper bound on how long the connection is held open.
    """

    seconds: float = 30.0


class _ModelLike(Protocol):
    """Anything with pydantic's ``model_dump_json`` (duck-typed, no import)."""

    def model_dump_json(self) -> str: ...


Reply: TypeAlias = Union[
    str,
    Fail,
    Delay,
    Hang,
    _ModelLike,
    Mapping[str, Any],
    Sequence[Any],
    int,
    float,
    None,
    Callable[[dict[str, Any]], "Reply"],
]
"""A scripted reply.

* ``str``: sent verbatim as the message content (use it for invalid JSON).
* ``dict``/``list``/scalars: sent as ``json.dumps(value, ensure_ascii=False)``.
* a pydantic model: the JSON of the fields it was given (``exclude_unset``), like a dict of them,
  whole numbers written without a fraction (`model_reply`).
* `Fail`, `Delay`, `Hang`: the behaviours described on those classes.
* a callable: called with the parsed request body, returns any of the above.
"""


@dataclass(frozen=True)
class RecordedRequest:
    """One request the fake received.

    Attributes:
        method: HTTP method, e.g. ``"POST"``.
        path: Request path, e.g. ``"/api/chat"``.
        body: The parsed JSON body (``{}`` for bodiless requests).
        title: The reply title for ``/api/chat``, else ``None``.
        received_at: ``time.monotonic()`` when the request arrived.
    """

    method: str
    path: str
    body: dict[str, Any]
    title: str | None
    received_at: float


@dataclass
class _Outcome:
    """A resolved reply: either content to send, an error, or a dropped line."""

    content: str | None = None
    status: int = 200
    error: str | None = None
    drop: bool = False
    embeddings: list[list[float]] | None = None


@dataclass
class _Pending:
    """A reply taken from the script at arrival time, resolved later."""

    reply: Reply = None
    found: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


def fake_embedding(text: str, dim: int = 64) -> list[float]:
    """Return the fake's deterministic embedding of ``text``.

    A signed, hashed bag of lowercase word tokens (weight 1) and their
    character trigrams (weight 0.5), L2-normalized. Texts sharing words or
    word fragments therefore have a higher cosine similarity than unrelated
    texts, which is all retrieval tests need.

    Args:
        text: The text to embed.
        dim: Vector dimension.

    Returns:
        A unit-length list of ``dim`` floats.
    """
    words = re.findall(r"\w+", text.lower())
    features: list[tuple[str, float]] = [("w:" + w, 1.0) for w in words]
    for w in words:
        padded = f"#{w}#"
        features.extend(("t:" + padded[i : i + 3], 0.5) for i in range(len(padded) - 2))
    if not features:
        # Real models never return a zero vector; keep cosine well-defined.
        features = [("<empty>", 1.0)]
    vec = [0.0] * dim
    for feature, weight in features:
        n = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
        # Signed hashing keeps collisions from always adding up positively.
        vec[n % dim] += weight if (n >> 32) & 1 else -weight
    norm = math.sqrt(sum(x * x for x in vec))
    if norm == 0.0:  # every feature cancelled out: astronomically rare
        vec[0], norm = 1.0, 1.0
    return [x / norm for x in vec]


def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


def _title_of(body: Mapping[str, Any]) -> str:
    fmt = body.get("format")
    if isinstance(fmt, Mapping):
        title = fmt.get("title")
        if isinstance(title, str) and title:
            return title
    return TEXT_TITLE


_NO_REPLY: Any = object()
"""`FakeOllama.default` was given a model instance alone."""


def _title_of_model(model: _ModelLike, others: Sequence[Reply]) -> str:
    """The schema title a model instance answers: its class name, the same for every model replied."""
    title = type(model).__name__
    odd = [type(r).__name__ for r in others if hasattr(r, "model_dump_json") and type(r).__name__ != title]
    if odd:
        raise TypeError(f"script({title}(...), ...) was given replies of another schema: {', '.join(odd)}")
    return title


def model_reply(model: Any) -> Any:
    """A model reply as the JSON value a model writes: the fields it was given (``exclude_unset``),
    whole numbers without a fraction (``55``, not the ``55.0`` of a float field), so a builder's model
    and the dict it replaced send the same bytes (replies' token counts stay as they were)."""
    return _whole_numbers(model.model_dump(mode="json", exclude_unset=True))


def _whole_numbers(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(v) for v in value]
    return value


def _content_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    if callable(getattr(value, "model_dump", None)) and hasattr(value, "model_dump_json"):
        return json.dumps(model_reply(value), ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def _approx_tokens(text: str) -> int:
    # Ollama reports token counts; ~4 chars/token is close enough for stats.
    return max(1, len(text) // 4)


def _split(content: str, parts: int) -> list[str]:
    if not content:
        return []
    size = max(1, math.ceil(len(content) / parts))
    return [content[i : i + size] for i in range(0, len(content), size)]


class _Server(ThreadingHTTPServer):
    """ThreadingHTTPServer that can forcibly drop its open connections."""

    daemon_threads = True
    # The default joins every handler thread in server_close(), which would
    # block stop() on idle keep-alive connections and hanging replies.
    block_on_close = False
    # 200 simultaneous connects overflow the default backlog of 5, and
    # dropped SYNs are retried only after ~1 s, which would skew benchmarks.
    request_queue_size = 1024

    def __init__(self, address: tuple[str, int], fake: FakeOllama) -> None:
        self.fake = fake
        self.stopped = threading.Event()
        self._conns: set[socket.socket] = set()
        self._conns_lock = threading.Lock()
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._conns_lock:
            self._conns.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._conns_lock:
            self._conns.discard(request)
        super().shutdown_request(request)

    def drop_connections(self) -> None:
        """Shut down every open client connection (keep-alive ones included)."""
        with self._conns_lock:
            conns = list(self._conns)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed by its handler

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Stay quiet (no traceback on stderr) but keep the evidence.
        import traceback

        self.fake._record_error(traceback.format_exc())


class _Handler(BaseHTTPRequestHandler):
    """Per-connection request handler; all state lives on the FakeOllama."""

    # HTTP/1.1 so httpx keeps connections alive like it does with Ollama.
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without TCP_NODELAY the
    # second one can wait for a delayed ACK (~40 ms) and skew timings.
    disable_nagle_algorithm = True
    server_version = "FakeOllama/1.0"

    @property
    def _srv(self) -> _Server:
        return cast(_Server, self.server)

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default per-request logging to stderr."""

    # -- dispatch ---------------------------------------------------------

    def do_GET(self) -> None:
        """Serve ``GET`` endpoints."""
        self._dispatch("GET")

    def do_POST(self) -> None:
        """Serve ``POST`` endpoints."""
        self._dispatch("POST")

    def do_HEAD(self) -> None:
        """Answer ``HEAD`` like Ollama's health check (headers only)."""
        self._read_body()
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_DELETE(self) -> None:
        """Unsupported: 404, but keep the connection in sync."""
        self._dispatch("DELETE")

    def _dispatch(self, method: str) -> None:
        try:
            raw = self._read_body()
            path = self.path.split("?", 1)[0]
            try:
                body = json.loads(raw) if raw.strip() else {}
            except json.JSONDecodeError as exc:
                self._srv.fake._record(method, path, {}, None)
                self._send_json(400, {"error": f"invalid JSON body: {exc}"})
                return
            if not isinstance(body, dict):
                body = {"_body": body}
            route = (method, path)
            if route == ("POST", "/api/chat"):
                self._chat(body)
            elif route == ("POST", "/api/embed"):
                self._embed(body)
            elif route == ("POST", "/v1/chat/completions"):
                self._openai_chat(body)
            elif route == ("GET", "/v1/models"):
                self._srv.fake._record(method, path, body, None)
                self._send_json(200, self._srv.fake._openai_models())
            elif route == ("GET", "/api/tags"):
                self._srv.fake._record(method, path, body, None)
                self._send_json(200, self._srv.fake._tags())
            elif route == ("GET", "/api/version"):
                self._srv.fake._record(method, path, body, None)
                self._send_json(200, {"version": self._srv.fake.version})
            elif route == ("POST", "/api/show"):
                self._srv.fake._record(method, path, body, None)
                self._send_json(*self._srv.fake._show(body.get("model")))
            elif route == ("GET", "/api/ps"):
                self._srv.fake._record(method, path, body, None)
                self._send_json(200, self._srv.fake._ps())
            elif route == ("GET", "/"):
                self._srv.fake._record(method, path, body, None)
                self._send_bytes(200, b"Ollama is running", "text/plain; charset=utf-8")
            else:
                self._srv.fake._record(method, path, body, None)
                self._send_json(404, {"error": f"fake ollama: no route for {method} {path}"})
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            # The client gave up (timeout) or stop() cut the line: not an error.
            self.close_connection = True

    # -- endpoints --------------------------------------------------------

    def _chat(self, body: dict[str, Any]) -> None:
        fake = self._srv.fake
        fake._enter()
        try:
            self._answer_chat(body)
        finally:
            fake._leave()

    def _answer_chat(self, body: dict[str, Any]) -> None:
        fake = self._srv.fake
        title = _title_of(body)
        pending = fake._arrive("/api/chat", body, title)
        refuse = fake.refuse
        if refuse is not None:
            # Before the model check and the delay: a full queue answers at once, as Ollama's does.
            self._send_json(refuse.status, {"error": refuse.error})
            return
        if not self._model_ok(body):
            return
        if not self._sleep(fake.delay_s):
            return
        if not pending.found:
            self._send_json(500, {"error": f"fake ollama: no reply scripted for title {title}"})
            return
        outcome = self._resolve(pending.reply, body, embed=False)
        if outcome is None:
            return
        if outcome.error is not None:
            self._send_json(outcome.status, {"error": outcome.error})
            return
        content = outcome.content or ""
        model = str(body.get("model"))
        prompt_tokens = sum(
            _approx_tokens(str(m.get("content") or "")) for m in body.get("messages") or [] if isinstance(m, Mapping)
        )
        stats = {
            "done_reason": "stop",
            "total_duration": 1_000_000,
            "load_duration": 100_000,
            "prompt_eval_count": prompt_tokens,
            "prompt_eval_duration": 200_000,
            "eval_count": _approx_tokens(content),
            "eval_duration": 700_000,
            **fake.chat_stats,
        }
        fake._load(model, body.get("options"))
        if body.get("stream") is False:
            self._send_json(
                200,
                {
                    "model": model,
                    "created_at": _now_iso(),
                    "message": {"role": "assistant", "content": content},
                    "done": True,
                    **stats,
                },
            )
            return
        # Ollama streams unless told otherwise (the client always says).
        parts: list[dict[str, Any]] = [
            {
                "model": model,
                "created_at": _now_iso(),
                "message": {"role": "assistant", "content": piece},
                "done": False,
            }
            for piece in _split(content, _STREAM_CHUNKS)
        ]
        parts.append(
            {
                "model": model,
                "created_at": _now_iso(),
                "message": {"role": "assistant", "content": ""},
                "done": True,
                **stats,
            }
        )
        self._send_ndjson(parts)

    def _openai_chat(self, body: dict[str, Any]) -> None:
        """The OpenAI-compatible route (Ollama, vLLM and llama-server all serve it): the reply is picked
        by the title of ``response_format.json_schema.schema``, from the same scripts as ``/api/chat``."""
        fake = self._srv.fake
        fmt = body.get("response_format")
        spec = fmt.get("json_schema") if isinstance(fmt, Mapping) else None
        schema = spec.get("schema") if isinstance(spec, Mapping) else None
        title = str(schema["title"]) if isinstance(schema, Mapping) and schema.get("title") else TEXT_TITLE
        pending = fake._arrive("/v1/chat/completions", body, title)
        fake.authorization = self.headers.get("Authorization")
        model = str(body.get("model"))
        if not fake._has_model(model):
            # vLLM's shape and wording.
            error = {"message": f"The model `{model}` does not exist.", "type": "NotFoundError", "code": 404}
            self._send_json(404, {"error": error})
            return
        if not self._sleep(fake.delay_s):
            return
        outcome = self._resolve(pending.reply, body, embed=False) if pending.found else None
        if outcome is None or outcome.error is not None:
            status = outcome.status if outcome is not None else 500
            message = outcome.error if outcome is not None else f"fake: no reply scripted for title {title}"
            self._send_json(status, {"error": {"message": message, "code": status}})
            return
        self._send_json(
            200,
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": outcome.content or ""},
                        "finish_reason": "stop",
                    }
                ],
            },
        )

    def _embed(self, body: dict[str, Any]) -> None:
        fake = self._srv.fake
        pending = fake._arrive("/api/embed", body, None)
        if not self._model_ok(body):
            return
        if not self._sleep(fake.delay_s):
            return
        raw_input = body.get("input", "")
        texts = [raw_input] if isinstance(raw_input, str) else [str(t) for t in raw_input]
        embeddings: list[list[float]] | None = None
        if pending.found:  # an EMBED_TITLE script overrides the hashed vectors
            outcome = self._resolve(pending.reply, body, embed=True)
            if outcome is None:
                return
            if outcome.error is not None:
                self._send_json(outcome.status, {"error": outcome.error})
                return
            embeddings = outcome.embeddings
        if embeddings is None:
            dim = fake.embed_dim
            requested = body.get("dimensions")
            vectors = [fake_embedding(t, dim) for t in texts]
            if isinstance(requested, int) and 0 < requested < dim:
                # Ollama truncates then renormalizes (Matryoshka style).
                vectors = [_normalize(v[:requested]) for v in vectors]
            embeddings = vectors
        self._send_json(
            200,
            {
                "model": str(body.get("model")),
                "embeddings": embeddings,
                "total_duration": 500_000,
                "load_duration": 50_000,
                "prompt_eval_count": sum(_approx_tokens(t) for t in texts),
            },
        )

    # -- helpers ----------------------------------------------------------

    def _model_ok(self, body: Mapping[str, Any]) -> bool:
        name = body.get("model")
        if not isinstance(name, str) or not name:
            self._send_json(400, {"error": "model is required"})
            return False
        if not self._srv.fake._has_model(name):
            # Ollama's exact wording; the client turns it into ResponseError.
            self._send_json(404, {"error": f'model "{name}" not found, try pulling it first'})
            return False
        return True

    def _sleep(self, seconds: float) -> bool:
        """Sleep in this handler thread; False if the server stopped meanwhile."""
        if seconds > 0 and self._srv.stopped.wait(seconds):
            self.close_connection = True
            return False
        return not self._srv.stopped.is_set()

    def _resolve(self, reply: Reply, body: dict[str, Any], *, embed: bool) -> _Outcome | None:
        """Turn a scripted reply into an outcome; None means drop the line."""
        fake = self._srv.fake
        # Bounded so a callable returning itself cannot spin forever.
        for _ in range(100):
            if isinstance(reply, Fail):
                return _Outcome(status=reply.status, error=reply.error)
            if isinstance(reply, Hang):
                self._srv.stopped.wait(reply.seconds)
                self.close_connection = True
                return None
            if isinstance(reply, Delay):
                if not self._sleep(reply.seconds):
                    return None
                reply = reply.reply
                continue
            if callable(reply) and not hasattr(reply, "model_dump_json"):
                try:
                    reply = reply(body)
                except Exception as exc:  # surface test bugs as a 500, loudly
                    fake._record_error(f"reply callable raised {exc!r}")
                    return _Outcome(status=500, error=f"fake ollama: reply callable raised {exc!r}")
                continue
            try:
                if not embed:
                    return _Outcome(content=_content_of(reply))
                if reply is None:
                    return _Outcome()
                return _Outcome(embeddings=[[float(x) for x in v] for v in cast(Any, reply)])
            except (TypeError, ValueError) as exc:
                # A test scripted something unusable: say so instead of crashing.
                fake._record_error(f"unusable scripted reply {reply!r}: {exc!r}")
                return _Outcome(status=500, error=f"fake ollama: unusable scripted reply: {exc}")
        return _Outcome(status=500, error="fake ollama: reply callables nested too deeply")

    def _read_body(self) -> bytes:
        # Always drain the body, even for errors, so keep-alive stays in sync.
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _send_json(self, status: int, obj: Any) -> None:
        data = json.dumps(obj, ensure_ascii=False).encode()
        self._send_bytes(status, data, "application/json; charset=utf-8")

    def _send_bytes(self, status: int, data: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_ndjson(self, parts: Iterable[Mapping[str, Any]]) -> None:
        # Chunked encoding, one JSON line per chunk, as Ollama streams.
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for part in parts:
            line = json.dumps(part, ensure_ascii=False).encode() + b"\n"
            self.wfile.write(f"{len(line):x}\r\n".encode() + line + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")


def _normalize(vec: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vec)) or 1.0
    return [x / norm for x in vec]


class FakeOllama:
    """A scriptable fake Ollama server listening on ``127.0.0.1``.

    Use it as a context manager (or call `start`/`stop`) and point the real
    client at `url`. Replies are scripted per schema title with `script`
    (FIFO, one per call) and `default` (when the queue is empty). Every
    request is recorded. All public methods are thread-safe.

    Attributes:
        models: Model names the server "has"; others get a 404. Mutable.
        embed_dim: Dimension of `/api/embed` vectors.
        delay_s: Extra latency applied to every chat/embed call. Mutable.
    """

    def __init__(
        self,
        models: Iterable[str] = (DEFAULT_MODEL,),
        embed_dim: int = 64,
        delay_s: float = 0.0,
        port: int = 0,
    ) -> None:
        """Configure the fake; nothing listens until `start`.

        Args:
            models: Model names to serve.
            embed_dim: Dimension of embedding vectors.
            delay_s: Latency added to every chat/embed call, in seconds.
            port: Port to bind; 0 picks a free one (kept across restarts).
        """
        self.models: set[str] = set(models)
        self.embed_dim = embed_dim
        self.delay_s = delay_s
        self._port = port
        self._lock = threading.Lock()
        self._queues: dict[str, deque[Reply]] = {}
        self._defaults: dict[str, Reply] = {}
        self._requests: list[RecordedRequest] = []
        self._unscripted: list[str] = []
        self._errors: list[str] = []
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        # What `python -m bot doctor` looks at; each can be changed to play a failure.
        self.version = "0.0.0-fake"  # what /api/version reports
        self.context_length = 32_768  # each model's trained context (/api/show); a bigger num_ctx is cut to it
        self.granted_ctx: int | None = None  # set: the context every load gets, whatever was asked (num_ctx dropped)
        self.ps_context = True  # False: /api/ps without context_length, as Ollama before mid-2025
        self.chat_stats: dict[str, int] = {}  # overrides of chat replies' token counts and durations (a slow machine)
        self._loaded: dict[str, int] = {}  # model -> context granted at its last load
        # A pool of model servers (engine/agents/pool.py) is tested against several fakes:
        self.refuse: Fail | None = None  # set: every chat gets this answer, e.g. Fail(503) as a full queue gives
        self.in_flight = 0  # chats being answered now
        self.authorization: str | None = None  # the Authorization header of the last /v1 chat (an API key)
        self.max_in_flight = 0  # the most chats answered at once since the start (or `reset`)

    # -- lifecycle --------------------------------------------------------

    def start(self) -> FakeOllama:
        """Start listening (again, on the same port after a `stop`).

        Returns:
            ``self``, for chaining.

        Raises:
            RuntimeError: If the server is already running.
        """
        if self._server is not None:
            raise RuntimeError("FakeOllama is already running")
        server = _Server(("127.0.0.1", self._port), self)
        self._port = server.server_address[1]
        # A short poll interval keeps stop() fast (shutdown waits one poll).
        thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.02},
            name=f"fake-ollama-{self._port}",
            daemon=True,
        )
        thread.start()
        self._server, self._thread = server, thread
        return self

    def stop(self) -> None:
        """Stop listening and drop open connections; the port then refuses.

        In-flight requests (delayed or hanging) are cut off without a reply,
        like a crashed server. Scripts and recordings are kept. Idempotent.
        """
        server, thread = self._server, self._thread
        if server is None:
            return
        self._server = self._thread = None
        server.stopped.set()  # wake sleeping handlers first
        server.shutdown()
        server.server_close()
        server.drop_connections()
        if thread is not None:
            thread.join(timeout=5)

    def restart(self) -> None:
        """Stop (if running) and start again on the same port and `url`."""
        self.stop()
        self.start()

    @property
    def running(self) -> bool:
        """Whether the server is currently listening."""
        return self._server is not None

    @property
    def port(self) -> int:
        """The bound port (0 before the first `start` with ``port=0``)."""
        return self._port

    @property
    def url(self) -> str:
        """Base URL for ``ollama.Client(host=...)``, e.g. ``http://127.0.0.1:54321``."""
        if self._port == 0:
            raise RuntimeError("FakeOllama has no port yet: call start() first")
        return f"http://127.0.0.1:{self._port}"

    def __enter__(self) -> FakeOllama:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- scripting --------------------------------------------------------

    @overload
    def script(self, title: str, *replies: Reply) -> None: ...

    @overload
    def script(self, title: _ModelLike, *replies: _ModelLike) -> None: ...

    def script(self, title: str | _ModelLike, *replies: Reply) -> None:
        """Enqueue replies for chats whose schema title is ``title``.

        Each chat call consumes one reply, first in first out, at the moment
        the request arrives. Use `TEXT_TITLE` for unstructured chats. Use
        `EMBED_TITLE` to override ``/api/embed``: a list of vectors, ``None``
        (compute the usual vectors), or `Fail`/`Delay`/`Hang`/a callable.

        ``fake.script(RouterOutput(...), RouterOutput(...))`` scripts model
        instances: the title is their class name (all of one class).

        Args:
            title: The JSON schema ``title`` (the pydantic class name), or the first reply, a model instance.
            *replies: Replies, see `Reply`.
        """
        if not isinstance(title, str):
            title, replies = _title_of_model(title, replies), (title, *replies)
        with self._lock:
            self._queues.setdefault(title, deque()).extend(replies)

    @overload
    def default(self, title: str, reply: Reply) -> None: ...

    @overload
    def default(self, title: _ModelLike) -> None: ...

    def default(self, title: str | _ModelLike, reply: Reply = _NO_REPLY) -> None:
        """Set the reply used whenever ``title``'s queue is empty.

        Args:
            title: The JSON schema ``title``, or the reply itself, a model instance (titled by its class).
            reply: A reply (see `Reply`); callables are called per request.
        """
        if not isinstance(title, str):
            if reply is not _NO_REPLY:
                raise TypeError("default(model) takes no second reply")
            title, reply = _title_of_model(title, ()), title
        elif reply is _NO_REPLY:
            raise TypeError(f"default({title!r}) needs a reply")
        with self._lock:
            self._defaults[title] = reply

    def reset(self) -> None:
        """Forget all scripts, defaults, recordings and errors."""
        with self._lock:
            self._queues.clear()
            self._defaults.clear()
            self._requests.clear()
            self._unscripted.clear()
            self._errors.clear()
            self.max_in_flight = self.in_flight

    def pending(self) -> dict[str, int]:
        """Return how many scripted replies are still queued, per title."""
        with self._lock:
            return {t: len(q) for t, q in self._queues.items() if q}

    # -- inspection -------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        """A snapshot of every request received, in arrival order."""
        with self._lock:
            return list(self._requests)

    @property
    def unscripted(self) -> list[str]:
        """Titles of chats that found neither a scripted nor a default reply."""
        with self._lock:
            return list(self._unscripted)

    @property
    def errors(self) -> list[str]:
        """Internal problems (raising reply callables, handler crashes)."""
        with self._lock:
            return list(self._errors)

    def calls(self, title: str) -> list[dict[str, Any]]:
        """Return the bodies of chat requests with schema title ``title``."""
        with self._lock:
            return [r.body for r in self._requests if r.path == "/api/chat" and r.title == title]

    def titles(self) -> list[str]:
        """Return the titles of all chat requests, in arrival order."""
        with self._lock:
            return [r.title for r in self._requests if r.title is not None]

    def embedding(self, text: str) -> list[float]:
        """Return the vector ``/api/embed`` would give for ``text``."""
        return fake_embedding(text, self.embed_dim)

    # -- used by the handler ----------------------------------------------

    def _record(self, method: str, path: str, body: dict[str, Any], title: str | None) -> None:
        with self._lock:
            self._requests.append(RecordedRequest(method, path, body, title, time.monotonic()))

    def _arrive(self, path: str, body: dict[str, Any], title: str | None) -> _Pending:
        """Record a chat/embed request and take its reply atomically.

        Taking the reply on arrival (not after ``delay_s``) keeps FIFO order
        equal to arrival order even when handler threads wake out of order.
        A request for an unknown model consumes nothing.
        """
        key = title if title is not None else EMBED_TITLE
        model = body.get("model")
        with self._lock:
            self._requests.append(RecordedRequest("POST", path, body, title, time.monotonic()))
            if not (isinstance(model, str) and self._has_model_locked(model)):
                return _Pending(found=False)
            queue = self._queues.get(key)
            if queue:
                return _Pending(reply=queue.popleft())
            if key in self._defaults:
                return _Pending(reply=self._defaults[key])
            if title is not None:
                self._unscripted.append(title)
            return _Pending(found=False)

    def _enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def chat_count(self) -> int:
        """How many chat requests arrived (answered or not)."""
        with self._lock:
            return sum(1 for r in self._requests if r.path == "/api/chat")

    def _has_model(self, name: str) -> bool:
        with self._lock:
            return self._has_model_locked(name)

    def _has_model_locked(self, name: str) -> bool:
        # Ollama resolves a bare name to its ":latest" tag.
        return name in self.models or (":" not in name and f"{name}:latest" in self.models)

    def _record_error(self, message: str) -> None:
        with self._lock:
            self._errors.append(message)

    def _tags(self) -> dict[str, Any]:
        with self._lock:
            names = sorted(self.models)
        return {
            "models": [
                {
                    "name": name,
                    "model": name,
                    "modified_at": "2025-01-01T00:00:00Z",
                    "size": 4_683_087_332,
                    "digest": hashlib.sha256(name.encode()).hexdigest(),
                    "details": {
                        "parent_model": "",
                        "format": "gguf",
                        "family": name.split(":", 1)[0],
                        "families": [name.split(":", 1)[0]],
                        "parameter_size": "7.6B",
                        "quantization_level": "Q4_K_M",
                    },
                }
                for name in names
            ]
        }

    def _load(self, model: str, options: Any) -> None:
        """Note ``model`` as loaded with the context Ollama would grant it."""
        asked = options.get("num_ctx") if isinstance(options, Mapping) else None
        with self._lock:
            name = model if model in self.models else f"{model}:latest"
            if self.granted_ctx is not None:
                self._loaded[name] = self.granted_ctx
            else:
                # Ollama's default (4k below 24 GiB of VRAM) when none is asked; never past the trained size.
                self._loaded[name] = min(asked if isinstance(asked, int) else 4096, self.context_length)

    def _openai_models(self) -> dict[str, Any]:
        """``/v1/models`` as vLLM answers it: each model with the context the server was started with."""
        with self._lock:
            names = sorted(self.models)
        return {
            "object": "list",
            "data": [
                {"id": name, "object": "model", "owned_by": "fake", "max_model_len": self.context_length}
                for name in names
            ],
        }

    def _show(self, name: object) -> tuple[int, dict[str, Any]]:
        """``/api/show``: the model's details and its trained context, or Ollama's 404."""
        if not (isinstance(name, str) and self._has_model(name)):
            return 404, {"error": f"model '{name}' not found"}
        return 200, {
            "modelfile": f"FROM {name}\n",
            "parameters": 'stop                           "<|im_end|>"',
            "template": "{{ .Prompt }}",
            "details": {"format": "gguf", "family": "qwen2", "parameter_size": "7.6B", "quantization_level": "Q4_K_M"},
            "model_info": {"general.architecture": "qwen2", "qwen2.context_length": self.context_length},
            "capabilities": ["completion"],
            "modified_at": "2025-01-01T00:00:00Z",
        }

    def _ps(self) -> dict[str, Any]:
        """``/api/ps``: the models loaded by chats, with the context each was given."""
        with self._lock:
            loaded, report = sorted(self._loaded.items()), self.ps_context
        return {
            "models": [
                {
                    "name": name,
                    "model": name,
                    "size": 5_400_000_000,
                    "digest": hashlib.sha256(name.encode()).hexdigest(),
                    "details": {"format": "gguf", "family": "qwen2"},
                    "expires_at": _now_iso(),
                    "size_vram": 5_400_000_000,
                    **({"context_length": ctx} if report else {}),
                }
                for name, ctx in loaded
            ]
        }
