"""What a domain is: a data file, validated into these models.

Domains are data (ARCHITECTURE §5): adding one means adding a TOML file under
``engine/domains/data`` (or the directory named by ``DOMAINS_DIR``), never code.
A domain whose vocabulary outgrows one file keeps the rest in a folder of the
same name (``strength.toml`` + ``strength/*.toml``), one file per group of
movement families.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class LogField(BaseModel):
    """One field of a domain's log schema."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """Field name as it appears in a parsed entry (``weight``, ``distance_km``)."""
    type: Literal["string", "number", "integer", "duration", "date"]
    """Value type; durations are written ``HH:MM:SS`` or ``MM:SS``."""
    unit: str = ""
    """Canonical unit, when the field has one (``kg``, ``km``, ``kcal``)."""
    required: bool = False
    """Whether an entry cannot be stored without it (the Parser asks otherwise)."""
    description: str = ""
    """One line for the Parser: what the field means."""


class NotationRule(BaseModel):
    """How people write things in this domain, with one worked example."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """The written form, e.g. ``W x R x S`` or ``55kg 10x5``."""
    meaning: str
    """What it means, e.g. ``weight x reps x sets``."""
    example: str
    """A concrete input and its reading, e.g. ``80x5x5 -> 80 kg, 5 reps, 5 sets``."""


class ClarificationPattern(BaseModel):
    """A known ambiguity and the question that resolves it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    when: str
    """The situation, e.g. ``sets and reps given but no exercise``."""
    question: str
    """The question to ask the person."""
    options: list[str] = Field(default_factory=list)
    """Suggested answers shown as buttons (at most 5)."""

    @field_validator("options")
    @classmethod
    def _few_options(cls, v: list[str]) -> list[str]:
        if len(v) > 5:
            raise ValueError("at most 5 options")
        return v


PatchOpName = Literal["add_planned_session", "set_goal", "correct_entry"]


def _all_ops() -> list[PatchOpName]:
    return ["add_planned_session", "set_goal", "correct_entry"]


class ToolProfile(BaseModel):
    """Which changes a plan in this domain may make, and their limits."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    allowed_ops: list[PatchOpName] = Field(default_factory=_all_ops)
    """Patch operations this domain allows; any other is refused before approval is asked."""
    max_ops: int = Field(default=40, ge=1, le=200)
    """Most operations in one patch (e.g. 4 weeks × 3 sessions = 12)."""
    max_days_ahead: int = Field(default=180, ge=1, le=730)
    """How far ahead a planned session may be dated."""
    max_weight: float = Field(default=500.0, gt=0)
    """Upper bound on any weight in a patch (in the unit given), against typos like 5500."""


class RetrievalProfile(BaseModel):
    """How task formation investigates the person's entries, and how many articles a question reads."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    days: list[int] = Field(default_factory=lambda: [30, 90])
    """Look-back windows, one per investigation round."""
    max_entries: int = Field(default=200, ge=1, le=2000)
    knowledge_top_k: int | None = Field(default=None, ge=1, le=50)
    """Knowledge-base sections a search returns before link expansion; None: ``KNOWLEDGE_TOP_K``."""


class FormationPolicy(BaseModel):
    """When a plan may go to the person."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    confidence_threshold: float = Field(default=0.80, ge=0, le=1)
    task_sheet_for: list[PatchOpName] = Field(default_factory=_all_ops)
    """Operations that make a plan stateful (a TaskSheet + Patch that needs approval)."""


class AttemptBudget(BaseModel):
    """Bounds of the formation loop."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_attempts: int = Field(default=3, ge=1, le=10)
    max_time_ms: int = Field(default=90_000, ge=1_000)
    delta_min: float = Field(default=0.05, ge=0, le=1)
    """Stop early when confidence gains less than this for two rounds in a row."""


class Bout(BaseModel):
    """A domain whose entries are bouts (a run, a swim): one distance, a time and an average pace.

    Code reads a bout's distance in one of two ways, chosen by ``distance_unit``:
    ``km`` (``distance_km``, else a ``distance`` with its unit) or ``m``
    (``distance_m``, else ``distance_km``, else ``lengths`` x ``pool_length_m``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    noun: str
    """One bout in English (``run``): fact labels say "longest run", "3 runs"."""
    distance_unit: Literal["km", "m"]
    pace_unit: str
    """The unit a pace is shown in (``min/km``, ``min/100m``)."""
    pace_per: int = Field(default=1, ge=1)
    """Pace is time per this many ``distance_unit`` (100 for a swim's pace per 100 m)."""
    pace_metric: str = "pace"
    """The metric a pace is logged in when no distance and time give it."""
    kind_metric: str = ""
    """The metric naming what kind of bout it was (``run_type``, ``stroke``)."""
    pace_by_kind: bool = False
    """Paces are compared within a kind only (freestyle is faster than breaststroke); kinds read case-blind."""
    read_in_code: Literal["", "run", "swim"] = ""
    """Which bout the log reader in code reads into this domain: ``run`` ("5k in 25:30", "러닝 5km"),
    ``swim`` ("수영 1500m"); empty: only the Parser reads this domain's logs."""

    @property
    def pace_suffix(self) -> str:
        """What a shown pace ends with: ``/km``, ``/100m``."""
        return f"/{self.pace_per if self.pace_per != 1 else ''}{self.distance_unit}"


ImportRole = Literal["", "lifts", "cardio", "activity"]
"""What an imported workout's exercises of this domain are.

``lifts``: sets of reps and loads (a workout with any is stored in this domain);
``cardio``: a bout of this domain (a workout of nothing else is stored here, with its pace);
``activity``: some other cardio or activity (stored in the fallback domain); empty: never imported.
"""


class RepRange(BaseModel):
    """Double progression: the lifts trained within a rep range."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    lifts: list[str]
    """Families or lifts (canonical terms) that follow this range; a family's variations follow it too."""
    low: int = Field(ge=1)
    """The bottom of the range: where the reps go back to after the weight goes up."""
    high: int = Field(ge=1)
    """The top of the range: reached on every set, the weight goes up."""

    @model_validator(mode="after")
    def _ordered(self) -> RepRange:
        if self.low > self.high:
            raise ValueError(f"rep range {self.low}-{self.high}: low is above high")
        return self


class Progression(BaseModel):
    """How code computes a lift's next-session target from its last session (``/next bench``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    increment: dict[str, float]
    """Unit -> the smallest plate jump (``kg`` 2.5, ``lb`` 5): every target weight is a multiple of it."""
    jump: dict[str, dict[str, float]]
    """Linear progression: body region (``upper``, ``lower``) -> unit -> the weight added after a session whose
    every work set was completed."""
    lower_body: list[str] = Field(default_factory=list)
    """Families or lifts that take the ``lower`` jump; every other lift takes ``upper``. Not checked against
    the vocabulary here: a domain file may be read without its vocabulary folder (a copy in ``DOMAINS_DIR``);
    ``tests/engine/domains`` checks the built-in names."""
    rep_ranges: list[RepRange] = Field(default_factory=list)
    """Double progression: lifts trained within a rep range; every other lift progresses linearly."""
    stall_sessions: int = Field(default=3, ge=2, le=20)
    """A lift has stalled when none of its last this many sessions set a new best estimated 1RM or a heavier
    work set than every session before them (``engine.facts.stalls``)."""
    trend_sessions: int = Field(default=4, ge=3, le=20)
    """The latest sessions whose estimated 1RM trend is fitted (least squares) to tell a decline."""
    decline_tolerance: float = Field(default=0.025, ge=0, le=0.5)
    """A decline is a fitted fall over ``trend_sessions`` larger than this fraction of their mean estimated 1RM
    (a day's noise is not a decline)."""
    deload_percent: float = Field(default=0.9, gt=0, lt=1)
    """A deload week's work weight, as a fraction of the last session's (snapped down to the increment)."""

    @model_validator(mode="after")
    def _complete(self) -> Progression:
        if set(self.jump) != {"upper", "lower"}:
            raise ValueError("progression.jump names exactly the regions upper and lower")
        for region, by_unit in self.jump.items():
            if set(by_unit) != set(self.increment):
                raise ValueError(f"progression.jump.{region} must name the units of progression.increment")
        if any(v <= 0 for v in self.increment.values()):
            raise ValueError("progression.increment must be positive")
        return self


class Domain(BaseModel):
    """One domain, exactly as its data file says."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """Identifier, lower_snake_case; equals the file name without ``.toml``."""
    description: str
    """One or two sentences the Router reads to pick domains."""
    activity_type: str
    """The ``activity_type`` a parsed entry of this domain carries."""
    label: dict[str, str] = Field(default_factory=dict)
    """Language code -> the domain's name in that language (``ko`` -> ``러닝``), for answers code writes."""
    precedence: int = 100
    """Where a clash of spellings between domains is settled: the lower number wins."""
    fallback: bool = False
    """The domain a log or question goes to when nothing names another (at most one domain)."""
    training: bool = True
    """Whether an entry of this domain is a training session (a meal is not)."""
    bout: Bout | None = None
    """Set when this domain's entries are bouts with a distance and a pace (runs, swims)."""
    import_role: ImportRole = ""
    """What this domain's exercises are in an imported workout (see :data:`ImportRole`)."""
    vocabulary: dict[str, list[str]]
    """Canonical term -> every spelling users write (any language, any case)."""
    families: dict[str, list[str]] = Field(default_factory=dict)
    """Movement family -> its member canonical terms, the family's own name first.

    The family's name is itself a member: the plain word (``bench press``)
    names the default variation in a log and the whole family in a question.
    In a data file a family lists its members with their spellings
    (``[families."bench press"]`` then ``"incline bench press" = [...]``);
    they join ``vocabulary`` when the file is read.
    """
    bodyweight: list[str] = Field(default_factory=list)
    """Exercises done without a load unless one is written (``pull-up``): reps and sets alone log them."""
    family_words: dict[str, list[str]] = Field(default_factory=dict)
    """Family -> words that name the whole family in a question (``presses``, ``프레스 종류``).

    A lift's own name means that lift; besides these, "<lift> variations",
    "all <lift>s" and "<lift> 종류" name its family (read in code).
    """
    generic_terms: dict[str, list[str]] = Field(default_factory=dict)
    """Language code -> words too general to search by (``workout``, ``운동``)."""
    units: dict[str, list[str]] = Field(default_factory=dict)
    """Canonical unit -> spellings (``kg`` <- ``키로``, ``kgs``, ``킬로``)."""
    log_schema: list[LogField]
    """Fields of a parsed entry in this domain."""
    notation: list[NotationRule] = Field(default_factory=list)
    """How logs are written, with examples (handed to the Parser)."""
    expertise: str
    """What an expert in this domain knows that matters for answers."""
    response_rules: list[str]
    """Rules every answer in this domain follows."""
    clarification_patterns: list[ClarificationPattern] = Field(default_factory=list)
    """Known ambiguities and how to ask about them."""
    query_keywords: dict[str, list[str]] = Field(default_factory=dict)
    """Intent words in every language, e.g. ``comparison`` <- ``better than``, ``비교``."""
    tool_profile: ToolProfile = Field(default_factory=ToolProfile)
    retrieval_profile: RetrievalProfile = Field(default_factory=RetrievalProfile)
    formation_policy: FormationPolicy = Field(default_factory=FormationPolicy)
    schema_contract: dict[str, list[str]] = Field(default_factory=dict)
    """Patch operation -> the fields it must carry (checked in code before approval)."""
    investigation_tools: list[str] = Field(default_factory=lambda: ["entries", "facts", "expertise"])
    """What task formation may consult while investigating."""
    interaction_tools: list[str] = Field(default_factory=lambda: ["ask_user"])
    """How task formation may involve the person."""
    attempt_budget: AttemptBudget = Field(default_factory=AttemptBudget)
    progression: Progression | None = None
    """How code computes a lift's next-session target (lifting domains only)."""

    @model_validator(mode="before")
    @classmethod
    def _families_join_vocabulary(cls, data: Any) -> Any:
        """Move each family's members (written with their spellings) into ``vocabulary``."""
        if not isinstance(data, dict) or not isinstance(data.get("families"), dict):
            return data
        vocabulary = dict(data.get("vocabulary") or {})
        families: dict[str, Any] = {}
        for family, members in data["families"].items():
            if not isinstance(members, dict):
                families[family] = members
                continue
            for canonical, spellings in members.items():
                if canonical in vocabulary:
                    raise ValueError(f"{canonical!r} of family {family!r} is defined twice")
                vocabulary[canonical] = spellings
            families[family] = list(members)
        return {**data, "vocabulary": vocabulary, "families": families}

    @model_validator(mode="after")
    def _families_are_consistent(self) -> Domain:
        owner: dict[str, str] = {}
        for family, members in self.families.items():
            if family not in members:
                raise ValueError(f"family {family!r} must list itself as a member")
            for canonical in members:
                if canonical not in self.vocabulary:
                    raise ValueError(f"family {family!r}: {canonical!r} is not in the vocabulary")
                if canonical in owner:
                    raise ValueError(f"{canonical!r} is in families {owner[canonical]!r} and {family!r}")
                owner[canonical] = family
        for family in self.family_words:
            if family not in self.families:
                raise ValueError(f"family_words: {family!r} is not a family")

        return self
