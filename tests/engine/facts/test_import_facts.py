"""Numbers from code, checked by hand on an imported Strong export (tests/data/strong_en.csv)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from engine.domains.registry import DomainRegistry
from engine.facts import compute_facts
from engine.importers import store_imported
from engine.importers.strong import ExerciseNamer, decode, parse_strong_csv
from engine.query.grounding import check_text
from engine.query.references import build_table
from engine.query.render import render_text
from engine.store.entries import EntryStore
from tests.conftest import OpenDb
from tests.helpers.domains import BUILTIN

DATA = Path(__file__).resolve().parents[2] / "data" / "strong_en.csv"
USER = "tg:7"


async def test_facts_on_imported_csv_match_hand_computed_values(open_db: OpenDb) -> None:
    parsed = parse_strong_csv(
        decode(DATA.read_bytes()), user_key=USER, namer=ExerciseNamer.from_registry(DomainRegistry.load())
    )
    db = await open_db()
    try:
        await store_imported(db, USER, parsed.entries)
        entries = await EntryStore(db).between(USER, date(2024, 1, 1), date(2024, 12, 31))
    finally:
        await db.close()
    facts = {f.key: f for f in compute_facts(entries, domains=BUILTIN)}

    # Bench 2024-01-15: 60×10, 60×8, 62.5×6.
    assert facts["bench press.heaviest_set"].value == 62.5
    assert facts["bench press.best_e1rm"].display == "80 kg"  # 60 × (1 + 10/30) beats 62.5 × 1.2 = 75
    assert facts["bench press.best_e1rm"].dates == [date(2024, 1, 15)]
    assert facts["bench press.best_volume"].value == 60 * 10 + 60 * 8 + 62.5 * 6  # 1455
    # Squat 2024-01-17: 100×5, 105×5 (the row with weight "ten" is skipped, not guessed).
    assert facts["squat.heaviest_set"].value == 105
    assert round(facts["squat.best_e1rm"].value, 1) == 122.5  # 105 × (1 + 5/30)
    assert facts["squat.best_volume"].value == 1025
    # The 2024-01-19 run: 5 km in 25:30 -> 5:06/km.
    running = [f for k, f in facts.items() if k.startswith("running.") and "pace" in k]
    assert any(f.display.startswith("5:06") for f in running)

    table = build_table([facts["bench press.best_set"], facts["squat.heaviest_set"]])
    answer = "Your best bench set is {F1}; squat peaked at {F2}."
    assert check_text(answer, table).ok
    assert render_text(answer, table, "en") == (
        "Your best bench set is 60 kg × 10 (e1RM 80 kg) (2024-01-15); squat peaked at 105 kg × 5 (2024-01-17)."
    )
    invented = check_text("Your best bench was 65 kg.", table)
    assert not invented.ok and invented.numbers == ["65"]
