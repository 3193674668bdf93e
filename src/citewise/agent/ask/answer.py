"""The answer `ask` returns: cited sentences, their evidence, or a refusal with its kind."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Evidence:
    id: str
    document: str
    title: str
    page: int
    bbox: list[float]
    section: str
    quote: str
    link: str
    # the table cell the citing sentence reads (x0, y0, x1, y1, PDF points, the page
    # coordinates of `bbox`); None when the sentence is not read from a cell with a box
    cell_bbox: list[float] | None = None
    # the Zotero item the document came from (zotero://select/...), when synced from Zotero
    zotero: str | None = None
    # sentences of the block addressed to an assistant ("ignore previous instructions"),
    # left out of what a model was shown (agent/ask/injection.py); None when there were none
    instructions: list[str] | None = None


@dataclass
class AnswerSentence:
    text: str
    citations: list[str]
    support: float
    # "quote", or "cell" / "computed" (agent/numeric/numeric_answer.py); the last two carry
    # the cell they read or every operand, quoted and cited
    kind: str = "quote"
    cell: dict[str, object] | None = None  # {"table", "row", "column", "value"}
    operands: list[dict[str, object]] | None = None
    # a computed sentence's arithmetic: {"expression": "a - b", "result": "15.7"}
    computation: dict[str, object] | None = None
    # "Yes" or "No" before a quote that settles a yes/no question (agent/yesno/polar.py); the
    # text stays the verbatim quote
    lead: str = ""


@dataclass
class Answer:
    question: str
    refused: bool
    answer: str
    sentences: list[AnswerSentence]
    evidence: list[Evidence]
    support_score: float
    backend: str = "extractive"
    timings_ms: dict[str, int] = field(default_factory=dict)
    # not_in_library | not_answered | in_figure (agent/ask/refusal.py); None when answered
    refusal_kind: str | None = None
    # the documents the question was scoped to, and why (agent/ask/scope.py)
    scope: list[dict[str, str]] = field(default_factory=list)
    # the measurements the refusal decision read (agent/ask/refusal.py)
    signals: dict[str, float] = field(default_factory=dict)
    # a refused answer's best draft: what it would have said, shown for review
    withheld: list[AnswerSentence] = field(default_factory=list)
    # the language of the labels ("zh" for a Chinese question or --lang zh), and the English
    # a Chinese question was searched as (agent/bridge/zh_answer.py); quotes are never translated
    lang: str = "en"
    translation: str = ""
    # what each answer shape proposed and which won (agent/ask/trace.py); only when
    # asked for (`ask --trace`), else None and left out of the JSON
    pipeline: dict[str, object] | None = None

    def to_dict(self) -> dict[str, object]:
        """The `ask --json` schema of ARCHITECTURE.md §5, plus refusal_kind, scope, signals,
        withheld and (traced) pipeline; a cell or computed sentence adds its `kind`, `cell`
        and `operands`."""
        out = asdict(self)
        if out["pipeline"] is None:
            del out["pipeline"]
        for sentence in [*out["sentences"], *out["withheld"]]:
            if sentence["computation"] is None:
                del sentence["computation"]
            if not sentence["lead"]:
                del sentence["lead"]
            if sentence["kind"] == "quote":
                del sentence["kind"], sentence["cell"], sentence["operands"]
        for item in out["evidence"]:
            if item.get("instructions") is None:  # flagged when quoted, on any path
                item["instructions"] = planted_in(str(item["quote"])) or None
            for key in ("cell_bbox", "zotero", "instructions"):
                if item.get(key) is None:
                    item.pop(key, None)
        return out


def planted_in(quote: str) -> list[str]:
    """The sentences of a quote addressed to an assistant (agent/ask/injection.py)."""
    from citewise.agent.ask.injection import instructions

    return instructions(quote)


def spoken(sentences: list[AnswerSentence]) -> str:
    """The answer's text: its sentences in order, each after its lead word ("Yes.")."""
    return " ".join(f"{s.lead}. {s.text}" if s.lead else s.text for s in sentences)


def zotero_link(csl: object) -> str | None:
    """The zotero://select/... link a document synced from Zotero keeps in its CSL."""
    link = csl.get("zotero_uri") if isinstance(csl, dict) else None
    return link if isinstance(link, str) and link.startswith("zotero://") else None
