"""A Strong file's header: which column is which, in English or a localized export."""

from __future__ import annotations

# Field -> header spellings (compared folded: NFC, casefolded, single spaces).
HEADERS: dict[str, tuple[str, ...]] = {
    "date": ("date", "날짜", "일자", "일시"),
    "workout": ("workout name", "워크아웃 이름", "워크아웃", "운동 세션 이름"),
    "exercise": ("exercise name", "운동 이름", "운동명", "exercise"),
    "set_order": ("set order", "세트 순서", "세트 번호"),
    "weight": ("weight", "체중", "무게", "중량"),
    "weight_unit": ("weight unit", "무게 단위", "체중 단위", "중량 단위"),
    "reps": ("reps", "렙", "반복", "반복 횟수", "횟수"),
    "distance": ("distance", "거리"),
    "distance_unit": ("distance unit", "거리 단위"),
    "seconds": ("seconds", "초"),
    "rpe": ("rpe",),
    "notes": ("notes", "exercise notes", "메모", "노트", "운동 메모"),
    "workout_notes": ("workout notes", "워크아웃 메모", "워크아웃 노트"),
    "duration": ("duration", "workout duration", "워크아웃 시간", "지속 시간", "운동 시간", "기간"),
}
LABELS = {
    "date": "Date (날짜)",
    "exercise": "Exercise Name (운동 이름)",
    "reps": "Reps (렙)",
    "seconds": "Seconds (초)",
}
