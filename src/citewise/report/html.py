"""A research report as one self-contained HTML file with an evidence board.

Every claim carries numbered markers linking to its evidence cards; each card shows the
verbatim quote, the paper, the page and a link to the source (the PDF page, or the record's
URL). No scripts, fonts or images are fetched: the file opens offline.

Links come from source records nobody here wrote, so only http(s), DOI and the library's own
file links become clickable; anything else (javascript:, data:, ...) is shown as text.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any
from urllib.parse import urlsplit

from citewise.agent.research.chinese import after, fixed, glossed, heading
from citewise.agent.research.model import Claim, EvidenceItem, Report, Section
from citewise.agent.research.reading.voice import short_cite
from citewise.agent.research.statistics import SENTENCE_COUNTING, is_note
from citewise.report.markdown import NOTE_LABEL, reference_text

STYLE = """
body{font:16px/1.55 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d232a;
background:#fafafa}
main{max-width:60rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.7rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
.lead{font-weight:600}.note{font-style:italic;color:#555}
.unverified{background:#fff4d6}
sup a{text-decoration:none;color:#0b63b6;font-size:.75em;margin-left:1px}
blockquote{margin:.6rem 0;padding:.4rem .8rem;border-left:3px solid #bbb;background:#fff}
.board{display:grid;grid-template-columns:repeat(auto-fill,minmax(17rem,1fr));gap:.8rem}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.7rem;font-size:.9rem}
.card:target{border-color:#0b63b6;box-shadow:0 0 0 3px #cfe3f7}
.card header{display:flex;justify-content:space-between;color:#555;font-size:.8rem}
.card blockquote{font-size:.92rem}
table{border-collapse:collapse;font-size:.85rem;width:100%}
td,th{border:1px solid #ddd;padding:.3rem .4rem;vertical-align:top;text-align:left}
.meta{color:#555}
"""


LINK_SCHEMES = ("http", "https", "file")  # file: the PDFs of the user's own library
_CONTROL = re.compile(r"[\x00-\x20\x7f]")


def safe_url(url: str) -> str | None:
    """`url` if a browser may follow it (http, https, file), a `doi:` as its doi.org URL,
    else None: the caller shows it as text."""
    url = url.strip()
    if _CONTROL.search(url):  # browsers drop these, so "java\tscript:" would still run
        return None
    if url.lower().startswith("doi:"):
        return f"https://doi.org/{url[4:].lstrip('/')}"
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in LINK_SCHEMES or (
        parts.scheme.lower() != "file" and not parts.netloc
    ):
        return None
    return url


def _link(url: str, label: str) -> str:
    safe = safe_url(url)
    if safe is None:
        return f'<span class="meta">{escape(label)}: {escape(url)}</span>'
    return f'<a href="{escape(safe)}" rel="noopener noreferrer">{escape(label)}</a>'


class _Numbers:
    """Evidence numbered in order of first citation."""

    def __init__(self) -> None:
        self.order: dict[str, int] = {}

    def __call__(self, eid: str) -> int:
        return self.order.setdefault(eid, len(self.order) + 1)


def _claim(
    claim: Claim, evidence: dict[str, EvidenceItem], number: _Numbers, lang: str = ""
) -> str:
    if is_note(claim):
        return f'<span class="note">{escape(fixed(NOTE_LABEL, claim.text, lang))}</span>'
    marks = "".join(
        f'<sup><a href="#{escape(eid)}" title="{escape(evidence[eid].quote[:200])}">'
        f"[{number(eid)}]</a></sup>"
        for eid in claim.evidence
        if eid in evidence
    )
    css = ' class="unverified" title="weakly supported by its evidence"' if claim.flag else ""
    text = escape(claim.text)
    if claim.speaker:  # a paper's own words, marked as a quote after who says them
        kinds = [evidence[e].kind for e in claim.evidence if e in evidence]
        text = after(escape(claim.speaker), glossed(f"<q>{text}</q>", kinds, claim.text, lang))
    return f"<span{css}>{text}</span>{marks}"


def _section(
    section: Section,
    evidence: dict[str, EvidenceItem],
    number: _Numbers,
    label: str,
    lang: str = "",
) -> str:
    parts = [f'<section id="{escape(section.key)}"><h2>{label}{escape(section.title)}</h2>']
    if section.key == "disagreements":
        for p in section.paragraphs:
            claims = [_claim(c, evidence, number, lang) for c in p.claims]
            if len(claims) >= 2 and p.lead:
                # a statement, the quotes no section wrote, the likely reason
                quotes = "".join(f"<blockquote>{q}</blockquote>" for q in claims[1:-1])
                parts.append(
                    f"<h3>{escape(p.lead)}</h3><p>{claims[0]}</p>{quotes}<p>{claims[-1]}</p>"
                )
            else:
                parts.append(f"<p>{' '.join(claims)}</p>")
    else:
        listed = section.key in ("summary", "open")
        parts.append("<ul>" if listed else "")
        for p in section.paragraphs:
            lead = f'<span class="lead">{escape(p.lead)}.</span> ' if p.lead else ""
            body = " ".join(_claim(c, evidence, number, lang) for c in p.claims)
            parts.append(f"<li>{lead}{body}</li>" if listed else f"<p>{lead}{body}</p>")
        parts.append("</ul>" if listed else "")
    parts.append("</section>")
    return "".join(parts)


def _card(item: EvidenceItem, n: int, papers: dict[str, dict[str, Any]]) -> str:
    csl = papers.get(item.paper, {"id": item.paper, "title": item.title})
    where = f"p. {item.page}" if item.page else "abstract"
    section = f" · {escape(item.section)}" if item.section else ""
    link = _link(item.link, f"open source{', ' + where if item.page else ''}") if item.link else ""
    return (
        f'<article class="card" id="{escape(item.id)}"><header><span>[{n}] {escape(item.id)}</span>'
        f"<span>{escape(item.kind)}</span></header>"
        f"<blockquote>{escape(item.quote)}</blockquote>"
        f"<p><b>{escape(short_cite(csl))}</b> — {escape(item.title or str(csl.get('title', '')))}"
        f", {where}{section}</p><p>{link}</p></article>"
    )


def _says(text: str, lang: str) -> str:
    return escape(heading(text, lang))


def _head(lang: str, *labels: str) -> str:
    return "<tr>" + "".join(f"<th>{_says(x, lang)}</th>" for x in labels) + "</tr>"


def _appendix(report: Report, lang: str) -> str:
    """Verification statistics, coverage per sub-question and the screening log."""
    stats = "".join(
        f"<tr><td>{escape(k.replace('_', ' '))}</td><td>{escape(str(v))}</td></tr>"
        for k, v in report.verification.items()
    )
    coverage = "".join(
        f"<tr><td>Q{n}. {escape(row.question)}</td><td>{row.evidence}</td>"
        f"<td>{row.papers}</td></tr>"
        for n, row in enumerate(report.coverage, start=1)
    )
    screening = "".join(
        f"<tr><td>{escape(d.title or d.key)}<br><small>{escape(d.key)}</small></td>"
        f"<td>{d.round}</td><td>{d.score:.2f}</td>"
        f"<td>{_says('include' if d.included else 'exclude', lang)}</td>"
        f"<td>{escape(d.reason)}</td></tr>"
        for d in report.screening
    )
    return (
        f'<section id="appendix"><h2>{_says("Appendix A. Verification", lang)}</h2>'
        f"<table>{_head(lang, 'measure', 'value')}{stats}</table>"
        f"<p>{escape(SENTENCE_COUNTING)}</p>"
        f"<h2>{_says('Appendix B. Coverage', lang)}</h2>"
        f"<table>{_head(lang, 'sub-question', 'evidence items', 'papers')}{coverage}</table>"
        f"<h2>{_says('Appendix C. Screening log', lang)}</h2>"
        f"<table>{_head(lang, 'paper', 'round', 'score', 'decision', 'reason')}{screening}</table>"
        "</section>"
    )


def render_html(report: Report, evidence: list[EvidenceItem], task_id: str) -> str:
    """The whole report as one HTML document."""
    by_id = {e.id: e for e in evidence}
    number = _Numbers()
    sections = []
    q = 0
    for section in report.sections:
        label = ""
        if section.key.startswith("q") and section.key[1:].isdigit():
            q += 1
            label = f"Q{q}. "
        sections.append(_section(section, by_id, number, label, report.lang))
    papers = {str(ref.get("id")): ref for ref in report.references}
    references = "".join(
        f'<li id="ref-{escape(str(ref["id"]))}">{escape(reference_text(ref, markdown=False))}</li>'
        for ref in report.references
    )
    cards = "".join(_card(by_id[eid], n, papers) for eid, n in number.order.items() if eid in by_id)
    lang = report.lang or "en"
    title = fixed("Research report:", report.topic, report.lang)
    return (
        "<!doctype html>\n"
        f'<html lang="{escape(lang)}"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<style>{STYLE}</style></head><body><main>"
        f"<h1>{escape(title)}</h1>"
        f'<p class="meta">task {escape(task_id)} · {len(report.references)} papers cited · '
        f"{len(number.order)} evidence items</p>"
        + "".join(sections)
        + f'<section id="references"><h2>{_says("References", lang)}</h2>'
        f"<ol>{references}</ol></section>"
        + f'<section id="evidence"><h2>{_says("Evidence board", lang)}</h2>'
        f'<div class="board">{cards}</div></section>'
        + _appendix(report, lang)
        + "</main></body></html>\n"
    )
