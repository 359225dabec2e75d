"""``python -m bot doctor`` against the fake Ollama: one line per check with its fix, exit 0 or 1."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.doctor import DoctorProbe
from engine.agents.llm import LLM
from engine.config import LLMConfig
from engine.errors import ModelInvalid
from tests.fakes.ollama_server import DEFAULT_MODEL, FakeOllama, Hang, Reply

ROOT = Path(__file__).resolve().parents[2]
GOOD = {"exercise": "Squat", "sets": 3, "reps": 5}

Doctor = Callable[..., tuple[int, list[str]]]


@pytest.fixture
def doctor(
    fake: FakeOllama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Doctor:
    """``doctor(**env)`` runs ``python -m bot doctor`` in this process; returns the exit code and the lines."""
    fake.default("DoctorProbe", GOOD)
    monkeypatch.chdir(tmp_path)  # no .env here

    def _run(**env: str) -> tuple[int, list[str]]:
        settings = {
            "OLLAMA_HOST": fake.url,
            "OLLAMA_MODEL": DEFAULT_MODEL,
            "OLLAMA_AGENT_MODELS": "",
            "OLLAMA_TIMEOUT_S": "30",
            "OLLAMA_NUM_CTX": "8192",
            "EMBEDDING_BACKEND": "builtin",
            "XDG_DATA_HOME": str(tmp_path / "xdg"),
            **env,
        }
        for key, value in settings.items():
            monkeypatch.setenv(key, value)
        with pytest.raises(SystemExit) as stop:
            main(["doctor"])
        lines = capsys.readouterr().out.splitlines()
        # Every check is one line, marked; the last line sums up.
        assert all(line.startswith(("ok  ", "FAIL")) for line in lines[:-1]), lines
        return int(str(stop.value.code)), lines

    return _run


def only(lines: list[str], words: str) -> str:
    found = [line for line in lines if words in line]
    assert len(found) == 1, (words, lines)
    return found[0]


def test_all_good_passes_every_check(doctor: Doctor, fake: FakeOllama) -> None:
    code, lines = doctor()
    assert code == 0
    assert lines == [
        f"ok    Ollama 0.0.0-fake answers at {fake.url}",
        f"ok    {DEFAULT_MODEL} (OLLAMA_MODEL) is pulled",
        f"ok    {DEFAULT_MODEL} answers in the JSON schema it is sent",
        f"ok    {DEFAULT_MODEL} got 8,192 tokens of context (OLLAMA_NUM_CTX=8192; from /api/ps)",
        lines[4],
        "all checks passed",
    ]
    assert lines[4].startswith(f"ok    {DEFAULT_MODEL}: one call took ") and "2,500-token prompt" in lines[4]
    # The probe goes out as the engine's calls do: schema as format, num_ctx, temperature, seed.
    [call] = fake.calls("DoctorProbe")
    assert call["format"] == DoctorProbe.model_json_schema()
    assert call["options"] == {"temperature": 0.0, "seed": 42, "num_ctx": 8192}


def test_unreachable_is_one_line_and_the_rest_is_skipped(doctor: Doctor, fake: FakeOllama) -> None:
    url = fake.url
    fake.stop()
    code, lines = doctor()
    assert code == 1
    assert lines == [
        f"FAIL  Ollama does not answer at {url} (ConnectError) — start it (`ollama serve`), "
        "or set OLLAMA_HOST to where it runs",
        "1 check failed",
    ]


def test_too_old_an_ollama_says_update(doctor: Doctor, fake: FakeOllama) -> None:
    fake.version = "0.4.7"
    code, lines = doctor()
    assert code == 1
    assert "too old" in lines[0] and lines[0].endswith("— update Ollama") and len(lines) == 2


def test_missing_agent_model_says_pull_and_skips_its_calls(doctor: Doctor, fake: FakeOllama) -> None:
    code, lines = doctor(OLLAMA_AGENT_MODELS='{"parser": "qwen2.5:14b-instruct"}')
    assert code == 1
    assert only(lines, "14b") == (
        "FAIL  qwen2.5:14b-instruct (parser) is not pulled — run `ollama pull qwen2.5:14b-instruct` where Ollama runs"
    )
    assert only(lines, "JSON schema").startswith(f"ok    {DEFAULT_MODEL}")
    assert {c["model"] for c in fake.calls("DoctorProbe")} == {DEFAULT_MODEL}
    assert lines[-1] == "1 check failed"


def test_agent_model_gets_its_own_checks(doctor: Doctor, fake: FakeOllama) -> None:
    fake.models.add("qwen2.5:14b-instruct")
    code, lines = doctor(OLLAMA_AGENT_MODELS='{"parser": "qwen2.5:14b-instruct", "router": "qwen2.5:14b-instruct"}')
    assert code == 0
    assert "ok    qwen2.5:14b-instruct (parser, router) is pulled" in lines
    assert [c["model"] for c in fake.calls("DoctorProbe")] == [DEFAULT_MODEL, "qwen2.5:14b-instruct"]


@pytest.mark.parametrize("pulled", [False, True])
def test_embedding_model_is_checked_with_the_ollama_backend(doctor: Doctor, fake: FakeOllama, pulled: bool) -> None:
    if pulled:
        fake.models.add("bge-m3:latest")  # Ollama resolves a bare name to :latest
    code, lines = doctor(EMBEDDING_BACKEND="ollama", EMBEDDING_MODEL="bge-m3")
    line = only(lines, "bge-m3")
    assert (code, line) == (
        (0, "ok    bge-m3 (EMBEDDING_MODEL) is pulled")
        if pulled
        else (1, "FAIL  bge-m3 (EMBEDDING_MODEL) is not pulled — run `ollama pull bge-m3` where Ollama runs")
    )
    assert {c["model"] for c in fake.calls("DoctorProbe")} == {DEFAULT_MODEL}  # not asked to chat


def test_embedding_model_is_not_checked_with_the_builtin_backend(doctor: Doctor) -> None:
    code, lines = doctor(EMBEDDING_MODEL="bge-m3")
    assert code == 0 and not any("bge-m3" in line for line in lines)


@pytest.mark.parametrize(
    ("reply", "says"),
    [
        # format dropped: valid JSON, but none of the schema's fields
        (
            {"name": "Squat", "value": 5},
            "ignores format: valid JSON without the schema's fields (name, value instead of exercise, sets, reps)",
        ),
        # some fields, wrong types: constrained decoding would never allow it
        (
            {"exercise": "Squat", "sets": "three", "reps": 5},
            "ignores format: valid JSON that breaks the schema (sets: ",
        ),
        (
            "Sure! Squat, 3 sets of 5 reps.",
            "ignores format: it answered in plain text ('Sure! Squat, 3 sets of 5 reps.')",
        ),
        ("", "ignores format: an empty reply (a thinking model may have put it all in its thinking)"),
    ],
)
def test_format_ignored_fails_with_the_fix(doctor: Doctor, fake: FakeOllama, reply: Reply, says: str) -> None:
    fake.default("DoctorProbe", reply)
    code, lines = doctor()
    assert code == 1
    line = only(lines, "ignores format")
    assert line.startswith(f"FAIL  {DEFAULT_MODEL} {says}")
    assert "qwen2.5:7b-instruct, in OLLAMA_MODEL or OLLAMA_AGENT_MODELS" in line
    if reply:
        assert "— Ollama 0.0.0-fake did not hold this model to the schema: update Ollama" in line
    # The call was answered, so the context and the cost are still measured.
    assert only(lines, "tokens of context").startswith("ok  ") and only(lines, "one call took").startswith("ok  ")
    assert lines[-1] == "1 check failed"


def test_reasoning_object_is_named_as_such(doctor: Doctor, fake: FakeOllama) -> None:
    fake.version = "0.32.1"
    fake.default("DoctorProbe", {"reasoning": "The user logged a squat; 3x5 means 3 sets of 5.", "answer": "3x5"})
    code, lines = doctor()
    assert code == 1
    assert only(lines, "ignores format") == (
        f"FAIL  {DEFAULT_MODEL} ignores format: it sent a reasoning object (answer, reasoning) instead of the answer "
        "— a bug of some Ollama builds (this is 0.32.1): update Ollama, or use another model for it "
        "(e.g. qwen2.5:7b-instruct, in OLLAMA_MODEL or OLLAMA_AGENT_MODELS)"
    )


def test_small_context_granted_says_where_num_ctx_is_lost(doctor: Doctor, fake: FakeOllama) -> None:
    fake.granted_ctx = 4096  # num_ctx dropped on the way: Ollama's default below 24 GiB of VRAM
    code, lines = doctor()
    assert code == 1
    assert only(lines, "context") == (
        f"FAIL  {DEFAULT_MODEL} got 4,096 tokens of context (OLLAMA_NUM_CTX=8192; from /api/ps) — Ollama did not get "
        "num_ctx: OLLAMA_HOST must be Ollama itself, not a proxy; or set OLLAMA_CONTEXT_LENGTH=8192 where Ollama runs"
    )


def test_model_with_a_short_context_says_use_another(doctor: Doctor, fake: FakeOllama) -> None:
    fake.context_length = 4096  # Ollama cuts num_ctx to the trained size
    code, lines = doctor()
    assert code == 1
    assert only(lines, "context") == (
        f"FAIL  {DEFAULT_MODEL} got 4,096 tokens of context (OLLAMA_NUM_CTX=8192; from /api/ps): the model holds at "
        "most 4,096 — use a model that holds 8,192 tokens (Almanac's prompts are sized to OLLAMA_NUM_CTX)"
    )


@pytest.mark.parametrize(("trained", "code"), [(32_768, 0), (4096, 1)])
def test_without_ps_context_the_trained_size_is_used(doctor: Doctor, fake: FakeOllama, trained: int, code: int) -> None:
    fake.ps_context = False  # an Ollama from before /api/ps reported context_length
    fake.context_length = trained
    got, lines = doctor()
    line = only(lines, "context")
    assert got == code
    assert f"{DEFAULT_MODEL} holds up to {trained:,} tokens (OLLAMA_NUM_CTX=8192; /api/show:" in line
    assert line.startswith("ok  " if code == 0 else "FAIL")


# Published llama.cpp rates for a 7B model at 4 bits (MODEL-NOTES): a desktop CPU and a consumer GPU.
CPU = {"prompt_eval_count": 60, "prompt_eval_duration": 1_000_000_000, "eval_count": 9, "eval_duration": 1_000_000_000}
GPU = {
    "prompt_eval_count": 5000,
    "prompt_eval_duration": 1_000_000_000,
    "eval_count": 130,
    "eval_duration": 1_000_000_000,
}


def test_slow_machine_projects_past_the_timeout(doctor: Doctor, fake: FakeOllama) -> None:
    fake.chat_stats = CPU
    code, lines = doctor(OLLAMA_TIMEOUT_S="30")
    assert code == 1
    line = only(lines, "one call took")
    assert line.startswith(f"FAIL  {DEFAULT_MODEL}: one call took ")
    # 2,500 / 60 + 150 / 9 = 58 s
    assert line.endswith(
        "reads 60 tokens/s, writes 9 tokens/s: a 2,500-token prompt with a 150-token answer takes about 58 s "
        "— that is over OLLAMA_TIMEOUT_S=30, so calls would time out: run Ollama on a GPU or use a smaller model, "
        "or raise OLLAMA_TIMEOUT_S to 90"
    )


def test_fast_machine_projects_seconds(doctor: Doctor, fake: FakeOllama) -> None:
    fake.chat_stats = GPU
    code, lines = doctor()
    assert code == 0
    # 2,500 / 5,000 + 150 / 130 = 1.7 s
    assert only(lines, "one call took").endswith(
        "reads 5,000 tokens/s, writes 130 tokens/s: a 2,500-token prompt with a 150-token answer takes about 1.7 s"
    )


def test_no_answer_in_time_says_so(doctor: Doctor, fake: FakeOllama) -> None:
    fake.default("DoctorProbe", Hang(5))
    code, lines = doctor(OLLAMA_TIMEOUT_S="0.5")
    assert code == 1
    assert only(lines, "structured reply") == (
        f"FAIL  {DEFAULT_MODEL} structured reply: no answer within OLLAMA_TIMEOUT_S=0.5 s — the model may still be "
        "loading: run the doctor again; if it stays, raise OLLAMA_TIMEOUT_S"
    )
    assert not any("one call took" in line for line in lines)


def test_the_command_runs_as_a_process(fake: FakeOllama, tmp_path: Path) -> None:
    fake.default("DoctorProbe", GOOD)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OLLAMA_", "EMBEDDING_", "LOG_"))}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(ROOT), OLLAMA_HOST=fake.url)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "doctor"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "all checks passed"
    fake.default("DoctorProbe", {"name": "x"})
    again = subprocess.run(
        [sys.executable, "-m", "bot", "doctor"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert again.returncode == 1 and "ignores format" in again.stdout


async def test_model_invalid_points_to_the_doctor(fake: FakeOllama) -> None:
    fake.default("DoctorProbe", {"name": "x"})
    llm = LLM(LLMConfig(host=fake.url, timeout_s=5, max_retries=1))
    with pytest.raises(ModelInvalid, match=r"python -m bot doctor"):
        await llm.structured("router", DoctorProbe, "sys", "user")
    await llm.aclose()


def test_a_pool_lists_its_hosts_and_checks_each(doctor: Doctor, fake: FakeOllama) -> None:
    with FakeOllama() as second, FakeOllama() as gone:
        second.default("DoctorProbe", GOOD)
        gone.stop()  # a port nothing listens on
        code, lines = doctor(OLLAMA_HOSTS=f"{fake.url},{second.url}#4,{gone.url}", OLLAMA_MODEL_CONCURRENCY="2")
    assert code == 1
    assert lines[0] == (
        f"ok    a pool of 3 hosts: {fake.url} (cap 1), {second.url} (cap 4), {gone.url} (cap 1); at most 2 per model"
    )
    for url in (fake.url, second.url):
        only(lines, f"answers at {url}")
        only(lines, f"{url}: {DEFAULT_MODEL} answers in the JSON schema it is sent")
    assert only(lines, "does not answer").startswith(f"FAIL  Ollama does not answer at {gone.url} (ConnectError)")
    assert lines[-1] == "1 check failed"


def test_an_openai_server_is_checked_and_its_context_told(doctor: Doctor, fake: FakeOllama) -> None:
    with FakeOllama(models=("Qwen/Qwen2.5-7B-Instruct",)) as served:
        served.context_length = 8192
        code, lines = doctor(OPENAI_BASE_URL=f"{served.url}/v1", OPENAI_MODEL="Qwen/Qwen2.5-7B-Instruct")
        assert code == 0, lines
        assert f"ok    {served.url}/v1 serves Qwen/Qwen2.5-7B-Instruct (synthesizer)" in lines
        assert (
            f"ok    Qwen/Qwen2.5-7B-Instruct at {served.url}/v1 holds 8,192 tokens "
            "(OLLAMA_NUM_CTX=8192 is not sent on this route)"
        ) in lines
        served.context_length = 4096  # started with a shorter context than the prompts are sized to
        code, lines = doctor(
            OPENAI_BASE_URL=f"{served.url}/v1",
            OPENAI_MODEL="Qwen/Qwen2.5-7B-Instruct",
            OPENAI_AGENTS="synthesizer,chat",
        )
        assert code == 1
        assert only(lines, "holds 4,096 tokens").endswith(
            "— start the server with a context of at least 8192 (llama-server -c 8192, vLLM --max-model-len 8192)"
        )
        code, lines = doctor(OPENAI_BASE_URL=f"{served.url}/v1", OPENAI_MODEL="qwen-other")  # the agents stay set
        assert only(lines, "does not serve").startswith(
            f"FAIL  {served.url}/v1 does not serve qwen-other (synthesizer, chat); it serves Qwen/Qwen2.5-7B-Instruct"
        )
        served.stop()
        code, lines = doctor(OPENAI_BASE_URL=f"{served.url}/v1", OPENAI_MODEL="Qwen/Qwen2.5-7B-Instruct")
        assert code == 1 and "does not answer at" in lines[-2]


def test_a_shared_database_is_checked_first(doctor: Doctor, pg_url: str) -> None:
    """With DATABASE_URL: the server answers, and its schema is this release's (else: run migrate)."""
    code, lines = doctor(DATABASE_URL=pg_url)  # an empty database: nothing migrated yet
    assert code == 1
    assert lines[0].startswith("FAIL  storage: PostgreSQL 15") and "schema 0 of" in lines[0]
    assert lines[0].endswith("run `python -m bot migrate` (every process also migrates as it starts)")
    assert (
        subprocess.run(
            [sys.executable, "-m", "bot", "migrate"],
            env={"DATABASE_URL": pg_url, "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            timeout=120,
        ).returncode
        == 0
    )
    code, lines = doctor(DATABASE_URL=pg_url)
    assert code == 0 and lines[0].startswith("ok    storage: PostgreSQL 15") and lines[-1] == "all checks passed"


def test_an_unreachable_database_says_what_to_check(doctor: Doctor) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, lines = doctor(DATABASE_URL=f"postgresql://almanac:pw-not-shown@127.0.0.1:{port}/almanac")
    assert code == 1
    assert lines[0].startswith("FAIL  storage: cannot reach the database at DATABASE_URL")
    assert "pw-not-shown" not in "\n".join(lines)
