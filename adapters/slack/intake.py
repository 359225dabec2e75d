"""An event loop of its own for receiving: Slack's acks must not wait behind the engine's work.

Slack gives the app 3 seconds to acknowledge a request, and the engine is
busy on the main loop: hundreds of turns at once, each a few milliseconds of
CPU between its model calls. On one loop an acknowledgement would queue
behind all of them at every ``await`` of its path (seconds under load). So
the bolt app — its HTTP server or Socket Mode connection, and the listeners
that record and queue — runs on this second loop, in its own thread. Python
switches threads every few milliseconds while the main loop computes, so
an acknowledgement waits milliseconds, not seconds.

The listeners reach the main loop only through ``call_soon_threadsafe``
(which keeps arrival order), and each loop has its own database connection
and HTTP session: neither may be shared across loops.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class Intake:
    """A daemon thread running an event loop until `close`."""

    def __init__(self, name: str = "slack-intake") -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()

    async def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the intake loop and wait for its result from the calling loop."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    def close(self) -> None:
        """Stop the loop and wait for the thread (what runs there should be finished first)."""
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)
