"""How people write exercises, foods and activities -> the canonical term and its movement family.

One row per spelling as it appears in a log or a question: Korean with the
particles lifters attach (는, 도, 를, 에서, 은, 이), transliteration variants
(푸쉬/푸시, 렛/랫, 덤벨/덤밸), spacing variants, English abbreviations.
"""

from __future__ import annotations

import pytest

from engine.domains.registry import ActiveDomainContext, DomainRegistry, DomainSelector

SELECTOR = DomainSelector(DomainRegistry.load())


def ctx(domain: str) -> ActiveDomainContext:
    return SELECTOR.build_active_context([domain])


# (text, canonical, family)
STRENGTH = [
    # bench press family
    ("벤치프레스는 80키로", "bench press", "bench press"),
    ("벤치 프레스도", "bench press", "bench press"),
    ("밴치를 5세트", "bench press", "bench press"),
    ("bp 80x5", "bench press", "bench press"),
    ("flat bench를", "bench press", "bench press"),
    ("인클라인 벤치프레스를", "incline bench press", "bench press"),
    ("인클라인벤치는", "incline bench press", "bench press"),
    ("incline bench 60kg", "incline bench press", "bench press"),
    ("디클라인 벤치도", "decline bench press", "bench press"),
    ("덤벨 벤치프레스를", "dumbbell bench press", "bench press"),
    ("덤밸 프레스는", "dumbbell bench press", "bench press"),
    ("db bench 30s", "dumbbell bench press", "bench press"),
    ("인클라인 덤벨프레스는", "incline dumbbell press", "bench press"),
    ("인클라인덤벨프레스를", "incline dumbbell press", "bench press"),
    ("incline db press", "incline dumbbell press", "bench press"),
    ("클로즈그립 벤치를", "close-grip bench press", "bench press"),
    ("cgbp 70kg", "close-grip bench press", "bench press"),
    ("스미스 벤치는", "smith machine bench press", "bench press"),
    ("스미스머신 인클라인 벤치 프레스", "smith machine incline bench press", "bench press"),
    ("floor press", "floor press", "bench press"),
    ("체스트프레스도", "machine chest press", "machine chest press"),
    ("chest press machine", "machine chest press", "machine chest press"),
    ("펙덱 플라이는", "pec deck", "chest fly"),
    ("케이블 크로스오버를", "cable fly", "chest fly"),
    ("덤벨플라이", "chest fly", "chest fly"),
    ("푸시업 50개", "push-up", "push-up"),
    ("푸쉬업을", "push-up", "push-up"),
    ("팔굽혀펴기는", "push-up", "push-up"),
    ("다이아몬드 푸시업", "diamond push-up", "push-up"),
    ("딥스는", "dip", "dip"),
    ("중량 딥스", "weighted dip", "dip"),
    # overhead press family
    ("오버헤드프레스는", "overhead press", "overhead press"),
    ("오버헤드 프레스를", "overhead press", "overhead press"),
    ("밀리터리프레스도", "overhead press", "overhead press"),
    ("ohp 50kg", "overhead press", "overhead press"),
    ("OHP를", "overhead press", "overhead press"),
    ("military press", "overhead press", "overhead press"),
    ("숄더프레스는", "overhead press", "overhead press"),
    ("시티드 프레스는", "seated overhead press", "overhead press"),
    ("시티드프레스를", "seated overhead press", "overhead press"),
    ("seated overhead press", "seated overhead press", "overhead press"),
    ("푸쉬프레스는 60키로", "push press", "overhead press"),
    ("푸시프레스도", "push press", "overhead press"),
    ("푸쉬 프레스를", "push press", "overhead press"),
    ("push press 3x3", "push press", "overhead press"),
    ("덤벨 숄더프레스는", "dumbbell shoulder press", "overhead press"),
    ("덤밸 숄더 프레스", "dumbbell shoulder press", "overhead press"),
    ("db ohp", "dumbbell shoulder press", "overhead press"),
    ("아놀드프레스를", "arnold press", "overhead press"),
    ("머신 숄더프레스", "machine shoulder press", "overhead press"),
    ("비하인드 넥 프레스", "behind the neck press", "overhead press"),
    ("랜드마인 프레스는", "landmine press", "overhead press"),
    # shoulders
    ("사이드 레터럴 레이즈를", "lateral raise", "lateral raise"),
    ("사레레는", "lateral raise", "lateral raise"),
    ("래터럴레이즈", "lateral raise", "lateral raise"),
    ("케이블 사레레", "cable lateral raise", "lateral raise"),
    ("머신 레터럴 레이즈", "machine lateral raise", "lateral raise"),
    ("프론트 레이즈도", "front raise", "front raise"),
    ("리어델트 플라이", "rear delt fly", "rear delt fly"),
    ("리버스 펙덱은", "reverse pec deck", "rear delt fly"),
    ("페이스풀", "face pull", "face pull"),
    ("슈러그를", "shrug", "shrug"),
    ("덤벨 슈러그", "dumbbell shrug", "shrug"),
    ("업라이트 로우", "upright row", "upright row"),
    # squat family
    ("스쿼트는 100", "squat", "squat"),
    ("스쿼드를", "squat", "squat"),
    ("백스쿼트도", "squat", "squat"),
    ("back squat", "squat", "squat"),
    ("프론트 스쿼트를", "front squat", "squat"),
    ("프런트스쿼트", "front squat", "squat"),
    ("고블릿 스쿼트는", "goblet squat", "squat"),
    ("고블렛스쿼트", "goblet squat", "squat"),
    ("핵스쿼트를", "hack squat", "squat"),
    ("핵 스쿼트", "hack squat", "squat"),
    ("박스 스쿼트", "box squat", "squat"),
    ("스미스 스쿼트는", "smith machine squat", "squat"),
    ("맨몸 스쿼트", "bodyweight squat", "squat"),
    ("air squats", "bodyweight squat", "squat"),
    ("저처 스쿼트", "zercher squat", "squat"),
    ("오버헤드 스쿼트", "overhead squat", "squat"),
    ("레그프레스는", "leg press", "leg press"),
    ("래그 프레스", "leg press", "leg press"),
    ("싱글 레그 프레스", "single leg press", "leg press"),
    ("런지를", "lunge", "lunge"),
    ("워킹 런지", "walking lunge", "lunge"),
    ("불가리안 스플릿 스쿼트는", "bulgarian split squat", "lunge"),
    ("불가리안스플릿스쿼트", "bulgarian split squat", "lunge"),
    ("bss 3x10", "bulgarian split squat", "lunge"),
    ("스플릿 스쿼트", "split squat", "lunge"),
    ("스텝업", "step-up", "lunge"),
    ("레그 익스텐션은", "leg extension", "leg extension"),
    ("레그익스텐션", "leg extension", "leg extension"),
    ("레그컬을", "leg curl", "leg curl"),
    ("라잉 레그컬", "lying leg curl", "leg curl"),
    ("시티드 레그 컬", "seated leg curl", "leg curl"),
    ("노르딕 컬", "nordic curl", "leg curl"),
    ("카프레이즈", "calf raise", "calf raise"),
    ("시티드 카프 레이즈", "seated calf raise", "calf raise"),
    ("힙 어브덕션", "hip abduction", "hip abduction"),
    # hinge
    ("데드리프트도 140", "deadlift", "deadlift"),
    ("데드를", "deadlift", "deadlift"),
    ("데들리프트", "deadlift", "deadlift"),
    ("dl 180", "deadlift", "deadlift"),
    ("컨벤셔널 데드", "deadlift", "deadlift"),
    ("스모 데드리프트는", "sumo deadlift", "deadlift"),
    ("스모데드", "sumo deadlift", "deadlift"),
    ("루마니안 데드리프트를", "romanian deadlift", "deadlift"),
    ("루마니안데드", "romanian deadlift", "deadlift"),
    ("rdl 100kg", "romanian deadlift", "deadlift"),
    ("덤벨 루마니안 데드리프트", "dumbbell romanian deadlift", "deadlift"),
    ("스티프 데드", "stiff-leg deadlift", "deadlift"),
    ("sldl", "stiff-leg deadlift", "deadlift"),
    ("트랩바 데드리프트는", "trap bar deadlift", "deadlift"),
    ("헥스바 데드", "trap bar deadlift", "deadlift"),
    ("랙풀", "rack pull", "deadlift"),
    ("굿모닝", "good morning", "good morning"),
    ("힙쓰러스트를", "hip thrust", "hip thrust"),
    ("힙 스러스트", "hip thrust", "hip thrust"),
    ("글루트 브릿지", "glute bridge", "hip thrust"),
    ("백익스텐션", "back extension", "back extension"),
    ("하이퍼 익스텐션", "back extension", "back extension"),
    # pull
    ("바벨로우는", "barbell row", "row"),
    ("바벨 로우를", "barbell row", "row"),
    ("벤트오버 로우", "barbell row", "row"),
    ("펜들레이 로우", "pendlay row", "row"),
    ("덤벨로우는", "dumbbell row", "row"),
    ("덤벨 로우를", "dumbbell row", "row"),
    ("원암 덤벨로우", "dumbbell row", "row"),
    ("one arm row", "dumbbell row", "row"),
    ("시티드 로우는", "seated cable row", "row"),
    ("케이블로우", "seated cable row", "row"),
    ("티바로우", "t-bar row", "row"),
    ("머신 로우", "machine row", "row"),
    ("인버티드 로우", "inverted row", "row"),
    ("rows 3x10", "row", "row"),
    ("랫풀다운은", "lat pulldown", "lat pulldown"),
    ("렛풀다운을", "lat pulldown", "lat pulldown"),
    ("랫 풀 다운", "lat pulldown", "lat pulldown"),
    ("렛 풀다운도", "lat pulldown", "lat pulldown"),
    ("랫풀", "lat pulldown", "lat pulldown"),
    ("클로즈그립 랫풀다운", "close-grip lat pulldown", "lat pulldown"),
    ("언더그립 랫풀다운", "reverse-grip lat pulldown", "lat pulldown"),
    ("스트레이트 암 풀다운", "straight-arm pulldown", "lat pulldown"),
    ("풀업을", "pull-up", "pull-up"),
    ("턱걸이 10개", "pull-up", "pull-up"),
    ("중량 풀업", "weighted pull-up", "pull-up"),
    ("어시스트 풀업", "assisted pull-up", "pull-up"),
    ("친업", "chin-up", "pull-up"),
    ("머슬업", "muscle-up", "pull-up"),
    ("풀오버", "pullover", "pullover"),
    # arms
    ("바이셉스컬", "biceps curl", "biceps curl"),
    ("덤벨컬을", "biceps curl", "biceps curl"),
    ("이두컬", "biceps curl", "biceps curl"),
    ("바벨컬은", "barbell curl", "biceps curl"),
    ("이지바 컬", "ez bar curl", "biceps curl"),
    ("해머컬", "hammer curl", "biceps curl"),
    ("햄머 컬을", "hammer curl", "biceps curl"),
    ("프리처컬", "preacher curl", "biceps curl"),
    ("케이블 컬", "cable curl", "biceps curl"),
    ("트라이셉스 익스텐션", "triceps extension", "triceps extension"),
    ("오버헤드 익스텐션", "triceps extension", "triceps extension"),
    ("스컬크러셔", "skull crusher", "triceps extension"),
    ("푸시다운을", "triceps pushdown", "triceps pushdown"),
    ("푸쉬다운", "triceps pushdown", "triceps pushdown"),
    ("로프 푸시다운", "rope pushdown", "triceps pushdown"),
    ("킥백", "triceps kickback", "triceps pushdown"),
    # core and whole body
    ("플랭크는", "plank", "plank"),
    ("사이드 플랭크", "side plank", "plank"),
    ("크런치", "crunch", "crunch"),
    ("케이블 크런치", "cable crunch", "crunch"),
    ("행잉 레그레이즈", "hanging leg raise", "leg raise"),
    ("레그레이즈", "leg raise", "leg raise"),
    ("앱롤아웃", "ab wheel rollout", "ab wheel rollout"),
    ("러시안 트위스트", "russian twist", "russian twist"),
    ("케틀벨 스윙", "kettlebell swing", "kettlebell swing"),
    ("kb swings", "kettlebell swing", "kettlebell swing"),
    ("파워클린", "power clean", "squat clean"),
    ("클린앤저크", "clean and jerk", "clean and jerk"),
    ("스내치", "snatch", "snatch"),
    ("파머스 워크", "farmer's walk", "farmer's walk"),
    ("버피", "burpee", "box jump"),
    ("박스점프", "box jump", "box jump"),
]

OTHER = [
    ("running", "러닝은", "run", "run"),
    ("running", "달리기를", "run", "run"),
    ("running", "조깅", "jog", "run"),
    ("running", "이지런", "easy run", "run"),
    ("running", "템포런을", "tempo run", "run"),
    ("running", "인터벌은", "interval", "run"),
    ("running", "롱런", "long run", "run"),
    ("running", "트레드밀에서", "treadmill", "run"),
    ("running", "러닝머신에서", "treadmill", "run"),
    ("running", "트레일러닝", "trail run", "run"),
    ("running", "하프마라톤", "half marathon", "race"),
    ("running", "풀코스", "marathon", "race"),
    ("running", "10k race", "10k race", "race"),
    ("swimming", "자유형은", "freestyle", "swim"),
    ("swimming", "평영을", "breaststroke", "swim"),
    ("swimming", "접영도", "butterfly", "swim"),
    ("swimming", "배영", "backstroke", "swim"),
    ("swimming", "자유수영", "lap swim", "swim"),
    ("swimming", "수영 강습", "swim lesson", "swim"),
    ("swimming", "킥판", "kick", "drill"),
    ("swimming", "돌핀킥", "dolphin kick", "drill"),
    ("general_fitness", "걷기", "walking", "walking"),
    ("general_fitness", "산책", "walking", "walking"),
    ("general_fitness", "등산을", "hiking", "hiking"),
    ("general_fitness", "자전거", "cycling", "cycling"),
    ("general_fitness", "스피닝", "indoor cycling", "cycling"),
    ("general_fitness", "요가", "yoga", "yoga"),
    ("general_fitness", "필라테스는", "pilates", "yoga"),
    ("general_fitness", "천국의 계단", "stair climber", "stair climber"),
    ("general_fitness", "줄넘기", "jump rope", "hiit"),
    ("general_fitness", "클라이밍", "climbing", "climbing"),
    ("general_fitness", "테니스", "tennis", "ball sports"),
    ("nutrition", "닭가슴살", "chicken breast", "chicken"),
    ("nutrition", "현미밥", "brown rice", "rice"),
    ("nutrition", "프로틴 쉐이크", "protein shake", "protein supplement"),
    ("nutrition", "라면", "ramen", "noodles"),
    ("nutrition", "짜장면", "jjajangmyeon", "noodles"),
    ("nutrition", "김치찌개", "kimchi stew", "stew"),
    ("nutrition", "맥주", "beer", "alcohol"),
    ("nutrition", "소맥", "soju", "alcohol"),
    ("nutrition", "그릭요거트", "greek yogurt", "dairy"),
    ("nutrition", "고구마", "sweet potato", "vegetables"),
]


def test_the_table_is_large_enough() -> None:
    assert len(STRENGTH) + len(OTHER) >= 150
    korean = [t for t, *_ in STRENGTH if not t.isascii()] + [t for _, t, *_ in OTHER if not t.isascii()]
    particles = [t for t in korean if t.split()[0][-1] in "는도를을은" or "에서" in t]
    assert len(korean) >= 100 and len(particles) >= 40


@pytest.mark.parametrize(("text", "canonical", "family"), STRENGTH, ids=[t for t, *_ in STRENGTH])
def test_strength_spelling(text: str, canonical: str, family: str) -> None:
    active = ctx("strength")
    assert active.vocabulary.terms(text) == [canonical]
    assert active.families.family_of(canonical) == family


@pytest.mark.parametrize(("domain", "text", "canonical", "family"), OTHER, ids=[t for _, t, *_ in OTHER])
def test_other_domain_spelling(domain: str, text: str, canonical: str, family: str) -> None:
    active = ctx(domain)
    assert active.vocabulary.terms(text) == [canonical]
    assert active.families.family_of(canonical) == family


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        # A Korean log line names several exercises; each is read on its own.
        ("오늘 푸쉬프레스 60키로 5x5, 시티드 프레스 40키로 10x3", ["push press", "seated overhead press"]),
        ("벤치 80x5 인클라인 덤벨 30x10 덤벨로우 32x10", ["bench press", "incline dumbbell press", "dumbbell row"]),
        ("데드 160 3회, 루마니안 100 8회", ["deadlift", "romanian deadlift"]),
        # Words that merely contain a short spelling are not exercises.
        ("바벨로 스쿼트 했다", ["squat"]),
        ("슬로우 템포로 스쿼트", ["squat"]),
    ],
)
def test_log_lines(text: str, terms: list[str]) -> None:
    assert ctx("strength").vocabulary.terms(text) == terms
