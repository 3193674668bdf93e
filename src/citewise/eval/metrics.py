"""What `citewise eval` measures: `Metrics` over scored rows, and `EvalResult`, whose
`to_dict()` is the `eval --json` object (saved runs, `--compare`, `--fit` and the scripts
under evals/ read that shape)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

# One scored item, as `eval --json` lists it under "items" (see harness._row).
Row = dict[str, object]


@dataclass(frozen=True)
class Metrics:
    items: int
    accuracy: float
    citation_page_accuracy: float
    refusal_recall: float
    false_refusal_rate: float
    p50_ms: float
    p95_ms: float

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def _ms(row: Row) -> float:
    value = row["ms"]
    return float(value) if isinstance(value, int | float) else 0.0


def metrics(rows: list[Row]) -> Metrics:
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    answered = [r for r in answerable if not r["refused"]]
    latencies = [_ms(r) for r in rows]

    def share(part: list[Row], whole: list[Row]) -> float:
        return round(len(part) / len(whole), 3) if whole else 0.0

    return Metrics(
        items=len(rows),
        accuracy=share([r for r in answerable if r["correct"]], answerable),
        citation_page_accuracy=share([r for r in answered if r["page_hit"]], answered),
        refusal_recall=share([r for r in unanswerable if r["refused"]], unanswerable),
        false_refusal_rate=share([r for r in answerable if r["refused"]], answerable),
        p50_ms=round(_percentile(latencies, 0.5), 1),
        p95_ms=round(_percentile(latencies, 0.95), 1),
    )


@dataclass
class EvalResult:
    """Overall, per-type and per-evidence-kind metrics, the support calibration, the
    leave-one-document-out check, every scored item, and (with a model) its usage."""

    overall: Metrics
    by_type: dict[str, Metrics]
    calibration: list[dict[str, object]]
    lodo: dict[str, object]
    items: list[Row]
    # present only when the QA file says which kind of evidence each item needs
    by_evidence: dict[str, Metrics] | None = None
    models: dict[str, object] | None = field(default=None)  # with --llm (CitationAudit)

    def to_dict(self) -> dict[str, object]:
        result: dict[str, object] = {
            "overall": self.overall.to_dict(),
            "by_type": {k: m.to_dict() for k, m in self.by_type.items()},
        }
        if self.by_evidence is not None:
            result["by_evidence"] = {k: m.to_dict() for k, m in self.by_evidence.items()}
        result["calibration"] = self.calibration
        result["lodo"] = self.lodo
        result["items"] = self.items
        if self.models is not None:
            result["models"] = self.models
        return result
