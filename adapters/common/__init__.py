"""What every chat platform needs, written once (not an adapter: it knows no platform).

- `ChatQueues`, `Recent` — per-conversation ordering and once-only delivery.
- `Budget` — the rate budget for optional calls (typing, status edits).
- `command_turn`, `control_action`, `CONTROLS` … — the command map.
- `decide`, `decide_plan`, `typed_reply`, `closing_label`, `open_prompt` — what a
  press or a typed word answers, and how the decision reads.
- `SetupError` — the platform refused to start; the runner reports it in one line.

See ``adapters/README.md`` for the adapter contract.
"""

from adapters.common.answers import (
    REVISE_PROMPT,
    Decision,
    Pending,
    Pick,
    PlanPick,
    Reply,
    closing_label,
    decide,
    decide_plan,
    open_prompt,
    typed_reply,
)
from adapters.common.budget import Budget
from adapters.common.commands import (
    ALIASES,
    CONFIRM_FIRST,
    CONTROLS,
    MESSAGE_COMMANDS,
    NEEDS_ARGUMENT,
    command_name,
    command_turn,
    control_action,
)
from adapters.common.errors import SetupError
from adapters.common.ordering import ChatQueues, Recent

__all__ = [
    "ALIASES",
    "CONFIRM_FIRST",
    "CONTROLS",
    "MESSAGE_COMMANDS",
    "NEEDS_ARGUMENT",
    "REVISE_PROMPT",
    "Budget",
    "ChatQueues",
    "Decision",
    "Pending",
    "Pick",
    "PlanPick",
    "Recent",
    "Reply",
    "SetupError",
    "closing_label",
    "command_name",
    "command_turn",
    "control_action",
    "decide",
    "decide_plan",
    "open_prompt",
    "typed_reply",
]
