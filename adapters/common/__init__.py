"""What every chat platform needs, written once (not an adapter: it knows no platform).

- `ChatQueues`, `Recent` — per-conversation ordering and once-only delivery.
- `Budget` — the rate budget for optional calls (typing, status edits).
- `command_turn`, `control_action`, `CONTROLS` … — the command map.
- `decide`, `decide_plan`, `read_typed`, `closing_label`, `open_prompt` — what a
  press or a typed word answers (one reading for every platform), and how the decision reads.
- `read_command` — what a typed command asks for (a turn, or the adapter's own help, usage or confirmation).
- `SetupError` — the platform refused to start; the runner reports it in one line.
- `ReplyNotShown`, `after_the_turn`, `reply_not_shown` — a turn the engine handled whose reply was lost: never "try again".
- `charts` (imported as ``adapters.common.charts``) — a `Chart`'s bytes read off the loop, its caption cut
  to a platform's limit, and the words when its file is gone.
- `Intake` — recorded before confirmed: deliveries kept in the engine's inbox until handled, replayed after a crash.

See ``adapters/README.md`` for the adapter contract.
"""

from adapters.common.answers import (
    EDIT_HINT,
    REVISE_PROMPT,
    Decision,
    Pending,
    Pick,
    PlanPick,
    Reply,
    Typed,
    closing_label,
    decide,
    decide_plan,
    open_prompt,
    read_typed,
    visible,
)
from adapters.common.budget import Budget
from adapters.common.commands import (
    ALIASES,
    CONFIRM_FIRST,
    CONTROLS,
    MESSAGE_COMMANDS,
    NEEDS_ARGUMENT,
    USAGE,
    CommandRead,
    command_name,
    command_turn,
    control_action,
    read_command,
)
from adapters.common.errors import ReplyNotShown, SetupError, after_the_turn, reply_not_shown
from adapters.common.intake import DeliveryStore, Intake, MemoryDeliveries
from adapters.common.ordering import ChatQueues, Recent

__all__ = [
    "ALIASES",
    "CONFIRM_FIRST",
    "CONTROLS",
    "MESSAGE_COMMANDS",
    "NEEDS_ARGUMENT",
    "EDIT_HINT",
    "REVISE_PROMPT",
    "USAGE",
    "Budget",
    "ChatQueues",
    "CommandRead",
    "Decision",
    "DeliveryStore",
    "Intake",
    "MemoryDeliveries",
    "Pending",
    "Pick",
    "PlanPick",
    "Recent",
    "Reply",
    "ReplyNotShown",
    "SetupError",
    "Typed",
    "after_the_turn",
    "closing_label",
    "command_name",
    "command_turn",
    "control_action",
    "decide",
    "decide_plan",
    "open_prompt",
    "read_command",
    "read_typed",
    "reply_not_shown",
    "visible",
]
