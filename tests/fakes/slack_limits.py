"""The Block Kit limits Slack enforces, checked by the fake Web API.

Written from Slack's reference, independently of the adapter's renderer, so a
renderer bug shows up as the error Slack itself would answer with
(``invalid_blocks``, ``msg_blocks_too_long``).
"""

from __future__ import annotations

from typing import Any

MAX_BLOCKS = 50
MARKDOWN_TOTAL = 12_000
"""Cumulative text of all ``markdown`` blocks in one payload."""
SECTION_TEXT = 3_000
CONTEXT_ELEMENTS = 10
ACTION_ELEMENTS = 25
BUTTON_TEXT = 75
BUTTON_VALUE = 2_000
ACTION_ID = 255
BLOCK_ID = 255
CONFIRM = {"title": 100, "text": 300, "confirm": 30, "deny": 30}


def block_errors(blocks: list[dict[str, Any]]) -> str | None:
    """``None`` when Slack would take these blocks, else the error it would answer with."""
    if len(blocks) > MAX_BLOCKS:
        return "invalid_blocks"
    markdown = 0
    action_ids: set[str] = set()
    for block in blocks:
        if len(str(block.get("block_id", ""))) > BLOCK_ID:
            return "invalid_blocks"
        kind = block.get("type")
        if kind == "markdown":
            markdown += len(str(block.get("text", "")))
        elif kind == "section":
            if not _text_ok(block.get("text"), SECTION_TEXT):
                return "invalid_blocks"
        elif kind == "context":
            elements = block.get("elements", [])
            if not 1 <= len(elements) <= CONTEXT_ELEMENTS or not all(_text_ok(e, SECTION_TEXT) for e in elements):
                return "invalid_blocks"
        elif kind == "actions":
            elements = block.get("elements", [])
            if not 1 <= len(elements) <= ACTION_ELEMENTS:
                return "invalid_blocks"
            for e in elements:
                problem = _button_errors(e, action_ids)
                if problem:
                    return problem
        elif kind not in ("divider", "header", "input"):
            return "invalid_blocks"
    if markdown > MARKDOWN_TOTAL:
        return "msg_blocks_too_long"
    return None


def _text_ok(obj: Any, limit: int) -> bool:
    if not isinstance(obj, dict) or obj.get("type") not in ("mrkdwn", "plain_text"):
        return False
    text = str(obj.get("text", ""))
    return 0 < len(text) <= limit


def _button_errors(e: dict[str, Any], seen: set[str]) -> str | None:
    action_id = str(e.get("action_id", ""))
    if e.get("type") != "button" or not action_id or len(action_id) > ACTION_ID or action_id in seen:
        return "invalid_blocks"
    seen.add(action_id)
    text = e.get("text", {})
    if text.get("type") != "plain_text" or not 0 < len(str(text.get("text", ""))) <= BUTTON_TEXT:
        return "invalid_blocks"
    if len(str(e.get("value", ""))) > BUTTON_VALUE or e.get("style") not in (None, "primary", "danger"):
        return "invalid_blocks"
    confirm = e.get("confirm")
    if confirm is not None:
        for key, limit in CONFIRM.items():
            if not _text_ok(confirm.get(key), limit):
                return "invalid_blocks"
    return None
