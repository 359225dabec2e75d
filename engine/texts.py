"""Every sentence the engine says to a person, in one place (planning's own, about plans and
their evidence, are in :mod:`engine.tasks.texts`; the records a log sets and the next session's
targets in :mod:`engine.progress_texts`).

Adapters render these as they are; nothing here knows a chat platform. Keeping
them together keeps the voice consistent and makes translation a two-file job.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

# --------------------------------------------------------------------------- admission

EMPTY_MESSAGE = "That message was empty. Tell me what you did, e.g. “bench 55kg 10x5”."
STALE = "That question is no longer open (already answered or replaced)."
NOT_YOURS = "Only the person who was asked can answer that."
WRONG_BUTTON = "That button does not belong to what is pending."


def choose_hint(count: int) -> str:
    """A typed number that is not among a question's ``count`` choices (`engine.conversation.typed`)."""
    return f"Pick a number from 1 to {count}, type your own answer, or type skip."


def too_long(length: int, limit: int) -> str:
    return f"That message is {length:,} characters long; I take at most {limit:,}. Please send it in shorter parts. Nothing was stored."


def already_logged(summaries: Sequence[str], text: str) -> str:
    """A log sent again soon after it was stored (`engine.runtime.repeats`): kept once, and how to log it twice."""
    return (
        f"Already logged: {'; '.join(summaries)}. I kept it once, not twice. "
        f"If you did it a second time, say so: “{text} again”."
    )


# --------------------------------------------------------------------------- failures

INTERNAL_ERROR = "Something went wrong on my side (it is logged). Your message is kept; send /retry to try again."
DISK_FULL = "The disk where I keep your data is full, so I could not save this. Free some space, then send it again."
STORAGE_READ_ONLY = (
    "My data directory is read-only, so I could not save this. Make DATA_DIR writable, then send it again."
)


def storage_failed(reason: str) -> str:
    return f"I could not read or write my data ({reason}). Nothing was lost; send it again in a moment."


# --------------------------------------------------------------------------- conversation controls

HELD_FOR_PLAN = (
    "Noted — I'll handle this right after you decide on the plan above "
    "(approve, revise or cancel it; /status shows it again)."
)
HELD_FOR_OTHERS_QUESTION = "Noted — I'll handle this once the question I asked someone here is answered or cancelled."
_WILL = {"log": "log it", "question": "answer it"}


def held_not_an_answer(taken: str) -> str:
    """A log or a question sent while a question of ours was open (`engine.conversation.admission.taken_as`)."""
    return (
        f"Taken as a new {taken}, not as your answer: I'll {_WILL[taken]} right after you answer "
        "the question above (or skip it; /status shows it again)."
    )


def held_not_a_change(taken: str) -> str:
    """A log or a question sent as the change to a plan after Revise."""
    return (
        f"Taken as a new {taken}, not as the change to the plan: I'll {_WILL[taken]} right after you decide "
        "on the plan (approve or cancel it, or say “revise” and what should change; /status shows it again)."
    )


ANSWER_TOO_LATE = "That answer came after its question was answered or replaced, so I left it."


def answer_kept(answer: str) -> str:
    return f"Your answer “{answer}” is kept: send /retry to send it again, or just answer again."


def waiting_for_retry(count: int) -> str:
    return f"{count} {'message' if count == 1 else 'messages'} did not complete and {'is' if count == 1 else 'are'} kept: send /retry to run {'it' if count == 1 else 'them'}."


def held_until_decided(count: int) -> str:
    return (
        f"{count} {'message waits' if count == 1 else 'messages wait'} for your decision on the open question or plan."
    )


def retry_paused(count: int) -> str:
    return (
        f"{count} more {'message is' if count == 1 else 'messages are'} kept; answer the question above, then /retry."
    )


RESET = "Started a fresh conversation. Your logged entries are kept."
NOTHING_TO_CANCEL = "Nothing to cancel."
NOTHING_WAITING = "Nothing is waiting for you."
NOTHING_TO_RETRY = "Nothing to retry: every message so far was handled."

# --------------------------------------------------------------------------- data controls

NO_ENTRIES_TO_EXPORT = "You have no entries yet, so there is nothing to export."
NOTHING_TO_UNDO = "Nothing to undo: no log, approved plan or correction of yours is in effect."
NO_PLANNING_EVENTS = "No planning events in this conversation yet."


def bad_timezone(name: str) -> str:
    return f"“{name}” is not a time zone I know. Use a name like Asia/Seoul or Europe/Berlin."


def timezone_set(name: str) -> str:
    return f"Time zone set to {name}. “Yesterday” now means yesterday there."


def log_removed(summary: str, on: date) -> str:
    """What /undo took back when the latest change was a logged entry."""
    return f"Removed the last log: {summary} ({on.isoformat()})."


def undone(lines: Sequence[str]) -> str:
    """What /undo reverted, each change with what it went back to (``Reverted: … back to …``)."""
    if len(lines) == 1:
        return f"Reverted: {lines[0]}."
    body = "\n".join(f"- {line}" for line in lines[:10])
    more = f"\n- … and {len(lines) - 10} more" if len(lines) > 10 else ""
    return "Reverted:\n" + body + more if body else "Reverted the last change."


def forgotten(removed: int, with_conversation: bool) -> str:
    noun = "entry" if removed == 1 else "entries"
    what = f"{noun} and your conversations with me" if with_conversation else noun
    return f"Done: deleted {removed} {what}. Nothing of yours is kept."


_EVENT_WORDS = {
    "PLAN_PROGRESS": "planning", "PLAN_APPROVAL_REQUIRED": "plan ready for approval", "CLARIFY": "asked",
    "COMMITTED": "carried out", "UNDONE": "undone",
}  # fmt: skip
_DECISION_WORDS = {"approve": "approved", "revise": "asked to revise", "cancel": "cancelled"}
_DECISION = re.compile(r"(?P<decision>\w+) by \S+?(?:: (?P<feedback>.*))?$", re.S)
"""A decision as recorded: ``approve by tg:1``, ``revise by slack:T1:U2: lighter weeks``."""
_INTERNAL = re.compile(r"\bp[0-9a-f]{20}\b:?\s*|\s*\bby (?:tg|slack|console):\S+")


def history_line(at: str, kind: str, detail: str) -> str:
    """One planning event as a person reads it: the minute, what happened, no internal ids."""
    if kind == "DECISION" and (m := _DECISION.match(detail)):
        what = _DECISION_WORDS.get(m["decision"], m["decision"])
        return f"{at[:16].replace('T', ' ')} {what}" + (f": {m['feedback']}" if m["feedback"] else "")
    detail = _INTERNAL.sub("", detail).strip()
    words = _EVENT_WORDS.get(kind, kind.lower().replace("_", " "))
    return f"{at[:16].replace('T', ' ')} {words}" + (f": {detail}" if detail else "")


def unknown_export_format(asked: str, known: list[str]) -> str:
    return f"I can export {', '.join(known[:-1])} or {known[-1]}, not “{asked}”. Nothing was written."


def export_caption(count: int, left_out: int = 0) -> str:
    """The file's caption; ``left_out``: entries its format cannot hold (Strong: meals, notes, planned sessions)."""
    caption = f"{count} {'entry' if count == 1 else 'entries'}"
    if left_out:
        caption += f" ({left_out} more — meals, notes or planned sessions — Strong's format cannot hold)"
    return caption


# --------------------------------------------------------------------------- LOG flow

LOG_DECLINE_FALLBACK = "I'll keep your message as a note, unparsed."
CANCELLED_MESSAGE = "Cancelled. Nothing was stored from that message."


def date_not_placed(phrase: str, today: date) -> str:
    return f"“{phrase}” is not a date I can place, so I stored it for today ({today.isoformat()})."


def date_in_future(phrase: str, today: date) -> str:
    return f"“{phrase}” is in the future, so I stored it for today ({today.isoformat()})."


def date_read_as(phrase: str, on: date) -> str:
    """A bare ``10/5`` read as a date: say which, since it might have been two numbers."""
    return f"I read “{phrase}” as the date {on.isoformat()}. If it wasn't a date, tell me which day it was."


EMPTY_PARSE_WHY = "I couldn't find an exercise, an amount or a note in it, so I stored nothing yet."
WHICH_EXERCISE = "Which exercise was that?"
SETS_WITHOUT_EXERCISE_WHY = "I read the sets and reps, but not which exercise they were, so I stored nothing yet."
EMPTY_PARSE_DECLINED = "I'll keep your message as a note."


def what_was_meant(text: str) -> str:
    """The question after a message the parser found nothing in."""
    return f"What did you do? I couldn't read an exercise or an amount in “{text[:80]}”. For example: bench 55kg 10x5."


# --------------------------------------------------------------------------- QUERY flow

QUERY_DECLINE_FALLBACK = "I'll answer with what your entries show."


def not_on_calendar(phrase: str) -> str:
    return f"“{phrase}” is not a date on the calendar. Which day did you mean?"


def small_talk(kind: str, lang: str = "en") -> str:
    """The reply to a greeting or thanks alone: written here, so no model's example can be taken for data."""
    if kind == "thanks":
        return (
            "천만에요! 언제든 기록하거나 물어보세요."
            if lang == "ko"
            else "You're welcome! Log a session or ask me anything."
        )
    if lang == "ko":
        return "안녕하세요! 운동을 적어 주시면 기록하고, 기록에 대해 물어보시면 답해 드려요. (/help)"
    return "Hi! Tell me what you trained and I'll log it, or ask about your training. (/help)"


def period_not_read(phrases: Sequence[str], lang: str = "en") -> str:
    """Said before an answer whose question had words that look like dates but were not read as any."""
    what = ", ".join(f"“{p}”" for p in phrases)
    if lang == "ko":
        return (
            f"{what}을(를) 날짜로 읽지 못해서, 아래 답은 전체 기록과 최근 기록으로 했어요. "
            "기간을 정확히 말해 주시면(예: “2026-10-01부터”, “지난 2주”) 그 기간으로 답할게요."
        )
    return (
        f"I couldn't read {what} as dates, so the answer below uses your whole history and recent entries. "
        "Name the dates (e.g. “since 2026-10-01”, “the last 2 weeks”) to narrow it."
    )


def no_entries_for(terms: Sequence[str], lang: str = "en") -> str:
    what = ", ".join(terms)
    if lang == "ko":
        return (
            f"아직 {what + '에 대한 ' if what else ''}기록이 없어 답할 수 없어요. 운동을 기록한 뒤 다시 물어봐 주세요."
        )
    return f"I have no entries for {what or 'that'} yet, so I can't answer from your logs. Log a session and ask again."


def by_code_header(lang: str) -> str:
    """Heads an answer code wrote from the facts because no checked answer came from the model."""
    if lang == "ko":
        return "확인된 답변을 쓰지 못해, 기록에서 코드로 계산한 값을 그대로 보여 드려요:"
    return "I couldn't write a checked answer, so here is what your entries show, computed by code:"


def articles_header(lang: str) -> str:
    """Heads the knowledge-base excerpts in an answer code wrote (quoted as the articles have them)."""
    if lang == "ko":
        return "지식 베이스 문서에서 (원문 그대로):"
    return "From the knowledge base (quoted as written):"


def articles_only_header(lang: str) -> str:
    """Heads an answer code wrote from articles alone (no entries were needed or found)."""
    if lang == "ko":
        return "확인된 답변을 쓰지 못해, 관련 문서를 그대로 보여 드려요:"
    return "I couldn't write a checked answer, so here is what the knowledge base says, quoted as written:"


# Said once, when an answer went without the knowledge base (engine.knowledge.library.Library.notice).
ARTICLES_IN_USE = (
    "I'm answering without my articles for now: another Almanac process (most likely "
    "`python -m bot ingest`) had the knowledge base open when I started. Restart me once it has finished."
)
ARTICLES_NOT_OPENED = (
    "I'm answering without my articles for now: the knowledge base could not be opened (the log says why)."
)
ARTICLES_SEARCH_FAILED = (
    "I answered without my articles: the knowledge base could not be searched just now (the log says why)."
)
ARTICLES_NOT_LOADED = (
    "Some of my articles could not be loaded (the log says why), so answers use only those already in."
)


# --------------------------------------------------------------------------- the model


def model_timeout(timeout_s: float) -> str:
    return (
        f"The language model did not answer within {timeout_s:g} s. "
        "It may still be loading; send /retry in a moment, or raise OLLAMA_TIMEOUT_S."
    )


def answered_without_model(lang: str) -> str:
    """Before an answer code wrote alone because the model did not answer (what was asked, computed by code)."""
    if lang == "ko":
        return "언어 모델이 응답하지 않아, 물어보신 값을 코드로 계산해 바로 드려요:"
    return "The language model did not answer, so here is what you asked, computed by code:"


def model_unreachable(host: str) -> str:
    return (
        f"I can't reach the language model at {host}. Start Ollama "
        f"(`ollama serve`), then send /retry — your message is kept."
    )


def model_pool_unreachable(hosts: list[str]) -> str:
    return (
        f"I can't reach the language model on any of its servers ({', '.join(hosts)}): each refused, "
        "dropped the call or answered that its queue is full. Start Ollama there (`ollama serve`), "
        "then send /retry — your message is kept."
    )


def openai_unreachable(url: str) -> str:
    return (
        f"I can't reach the model server at {url} (OPENAI_BASE_URL). Start it (vLLM, llama-server), "
        "then send /retry — your message is kept."
    )


def openai_model_missing(model: str, url: str) -> str:
    return (
        f"The model server at {url} does not serve {model}. Start it with that model (or set OPENAI_MODEL "
        "to the name it serves), then send /retry — your message is kept."
    )


def model_missing(model: str) -> str:
    return (
        f"The model {model} is not installed in Ollama. Run `ollama pull {model}` "
        "on the Ollama machine, then send /retry — your message is kept."
    )


def model_failed(status: int, error: str) -> str:
    return f"The language model failed ({status}: {error[:200]}). Send /retry to try again."


def model_connection_failed(host: str, error: str) -> str:
    return f"The connection to the language model at {host} failed ({error}). Send /retry once it is back — your message is kept."
