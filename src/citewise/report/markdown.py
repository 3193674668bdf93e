"""A research report as Markdown with Pandoc citations and a CSL-JSON bibliography.

Each claim ends with a citation such as `[@lo2020s2orc, p. 4, ev-3fa2b1c9d0]`: the paper's
citation key (its CSL item's id), the page, and the evidence ID, all attached by code.
`pandoc --citeproc report.md` renders it with the bibliography the front matter names.
"""

from __future__ import annotations

import json
import re
from typing import Any

from citewise.agent.research.chinese import after, fixed, glossed, heading
from citewise.agent.research.model import Claim, EvidenceItem, Report, Section
from citewise.agent.research.statistics import (
    SENTENCE_COUNTING,
    SentenceCount,
    count_sentences,
    is_note,
)

EVIDENCE_ID = re.compile(r"\bev-[0-9a-f]{10}\b")
# Coverage notes say what the evidence does not hold (a sub-question nothing answers, no
# disagreement found); they cite nothing, are labelled so, and are counted apart.
NOTE_LABEL = "Coverage note:"
_ESCAPE = re.compile(r"([\\`*_\[\]<>@#|])")


def escape(text: str) -> str:
    """Text Markdown shows as is: no emphasis, links, citations or tables by accident."""
    return _ESCAPE.sub(r"\\\1", " ".join(text.split()))


def csl_author_list(item: dict[str, Any]) -> str:
    names = []
    for author in item.get("author", []):
        family = author.get("family") or author.get("literal") or ""
        initials = " ".join(f"{p[0]}." for p in str(author.get("given", "")).split() if p)
        names.append(f"{family}, {initials}".strip(", "))
    if len(names) > 6:
        names = names[:6] + ["et al."]
    return ", ".join(names)


def reference_text(item: dict[str, Any], markdown: bool = True) -> str:
    """One bibliography entry, APA-like: authors (year). title. container. DOI or URL."""
    text = escape if markdown else (lambda t: " ".join(t.split()))
    year = ((item.get("issued") or {}).get("date-parts") or [[None]])[0][0]
    title = text(str(item.get("title", "")).rstrip("."))
    parts = [csl_author_list(item) or "Anonymous", f"({year or 'n.d.'}).", f"*{title}*."]
    if not markdown:
        parts[-1] = f"{title}."
    container = item.get("container-title")
    if container:
        parts.append(f"{text(str(container))}.")
    link = f"https://doi.org/{item['DOI']}" if item.get("DOI") else str(item.get("URL") or "")
    if link:
        parts.append(f"<{link}>" if markdown else link)
    return " ".join(parts)


def citation(evidence_ids: list[str], evidence: dict[str, EvidenceItem]) -> str:
    """`[@key, p. 4, ev-…; @other, p. 2, ev-…]` for a claim's evidence."""
    parts = []
    for eid in evidence_ids:
        item = evidence.get(eid)
        if item is None:
            continue
        page = f", p. {item.page}" if item.page else ""
        parts.append(f"@{item.paper}{page}, {eid}")
    return f"[{'; '.join(parts)}]" if parts else ""


def _claim(claim: Claim, evidence: dict[str, EvidenceItem], lang: str = "") -> str:
    if is_note(claim):
        return f"*{fixed(NOTE_LABEL, escape(claim.text), lang)}*"
    marker = " \\[unverified\\]" if claim.flag == "unverified" else ""
    text = escape(claim.text)
    if claim.speaker:  # a paper's own words, marked as a quote after who says them
        kinds = [evidence[e].kind for e in claim.evidence if e in evidence]
        text = after(escape(claim.speaker), glossed(f"“{text}”", kinds, claim.text, lang))
    return f"{text}{marker} {citation(claim.evidence, evidence)}"


def _section(
    section: Section, number: str, evidence: dict[str, EvidenceItem], lang: str = ""
) -> list[str]:
    lines = [f"## {number}{escape(section.title)}", ""]
    bullets = section.key in ("summary", "open")
    for paragraph in section.paragraphs:
        body = " ".join(_claim(c, evidence, lang) for c in paragraph.claims)
        lead = f"**{escape(paragraph.lead)}.** " if paragraph.lead else ""
        if section.key == "disagreements" and paragraph.lead and len(paragraph.claims) >= 2:
            # A statement, the quotes it rests on that no section wrote, the likely reason.
            rendered = [_claim(c, evidence, lang) for c in paragraph.claims]
            statement, quotes, reason = rendered[0], rendered[1:-1], rendered[-1]
            lines += [f"### {escape(paragraph.lead)}", "", statement, ""]
            for n, quote in enumerate(quotes):
                lines += [">"] if n else []
                lines += [f"> {quote}"]
            lines += [""] if quotes else []
            lines += [reason, ""]
            continue
        lines.append(f"- {lead}{body}" if bullets else f"{lead}{body}")
        if not bullets:
            lines.append("")
    if bullets:
        lines.append("")
    return lines


def render_markdown(
    report: Report,
    evidence: list[EvidenceItem],
    task_id: str,
    bibliography: str = "references.json",
) -> str:
    """The whole report: front matter, sections, references, appendices."""
    by_id = {e.id: e for e in evidence}
    title = fixed("Research report:", report.topic, report.lang)
    lines = [
        "---",
        f"title: {json.dumps(title, ensure_ascii=False)}",
        f"bibliography: {json.dumps(bibliography)}",
        "suppress-bibliography: true",
        "link-citations: true",
        f"citewise-task: {json.dumps(task_id)}",
        "---",
        "",
        f"# {escape(title)}",
        "",
    ]
    q = 0
    for section in report.sections:
        number = ""
        if section.key.startswith("q") and section.key[1:].isdigit():
            q += 1
            number = f"Q{q}. "
        lines += _section(section, number, by_id, report.lang)
    counted = count_sentences(report, set(by_id))
    lines += [f"## {heading('References', report.lang)}", ""]
    for n, item in enumerate(report.references, start=1):
        lines.append(f"{n}. \\[@{item['id']}\\] {reference_text(item)}")
    lines += ["", *appendix(report, evidence, counted)]
    return "\n".join(lines).rstrip() + "\n"


def appendix(
    report: Report, evidence: list[EvidenceItem], counted: SentenceCount | None = None
) -> list[str]:
    """Verification statistics (with how sentences are counted), coverage per sub-question,
    the screening log and the evidence cited."""
    lang = report.lang

    def row(*labels: str) -> list[str]:
        return [
            "| " + " | ".join(heading(x, lang) for x in labels) + " |",
            "|---" * len(labels) + "|",
        ]

    lines = [f"## {heading('Appendix A. Verification', lang)}", "", *row("measure", "value")]
    for key, value in report.verification.items():
        lines.append(f"| {key.replace('_', ' ')} | {value} |")
    if counted is not None:
        share = counted.share
        lines += [
            f"| {heading('report sentences', lang)} | {counted.sentences} |",
            f"| {heading('sentences citing evidence', lang)} | {counted.cited} |",
            f"| {heading('share citing evidence', lang)} | "
            f"{'n/a' if share is None else f'{share:.1%}'} |",
            f"| {heading('coverage notes (uncited, counted apart)', lang)} | {counted.notes} |",
            "",
            escape(SENTENCE_COUNTING),
        ]
    lines += ["", f"## {heading('Appendix B. Coverage', lang)}", ""]
    lines += row("sub-question", "evidence items", "papers")
    for n, cover in enumerate(report.coverage, start=1):
        lines.append(f"| Q{n}. {escape(cover.question)} | {cover.evidence} | {cover.papers} |")
    lines += ["", f"## {heading('Appendix C. Screening log', lang)}", ""]
    lines += row("paper", "round", "score", "decision", "reason")
    for d in report.screening:
        decision = heading("include" if d.included else "exclude", lang)
        lines.append(
            f"| {escape(d.title or d.key)} ({escape(d.key)}) | {d.round} | {d.score:.2f} | "
            f"{decision} | {escape(d.reason)} |"
        )
    cited = {i for c in report.claims() for i in c.evidence}
    lines += ["", f"## {heading('Appendix D. Evidence cited', lang)}", ""]
    lines += row("evidence", "paper", "page", "block", "quote")
    for item in evidence:
        if item.id in cited:
            lines.append(
                f"| {item.id} | {escape(item.paper)} | {item.page or ''} | "
                f"{item.block_id or 'abstract'} | {escape(item.quote)} |"
            )
    return lines


def csl_json(report: Report) -> str:
    """The CSL-JSON bibliography the Markdown's front matter names."""
    return json.dumps(report.references, ensure_ascii=False, indent=2) + "\n"
