"""Links in the HTML report come from source records: only http(s), DOI and file links
become clickable; a javascript: (or data:, vbscript:, ...) URL is shown as text."""

from __future__ import annotations

import re

import pytest

from citewise.agent.research.model import Claim, EvidenceItem, Paragraph, Report, Section
from citewise.report.html import render_html

HOSTILE = [
    "javascript:alert(document.domain)",
    "JaVaScRiPt:alert(1)",
    "  javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    '" onmouseover="alert(1)',
    "//evil.example/x",
    "https:evil",
]
SAFE = {
    "https://arxiv.org/abs/2004.07180": "https://arxiv.org/abs/2004.07180",
    "http://example.org/paper.pdf": "http://example.org/paper.pdf",
    "doi:10.1000/xyz123": "https://doi.org/10.1000/xyz123",
    "file:///home/me/papers/granite.pdf#page=3": "file:///home/me/papers/granite.pdf#page=3",
}


def report_linking(links: list[str]) -> str:
    evidence = [
        EvidenceItem(
            id=f"ev-{n:010d}",
            sub_question="",
            kind="result",
            paper=f"p{n}",
            quote=f"Quote number {n}.",
            link=link,
            title=f"Paper {n}",
        )
        for n, link in enumerate(links)
    ]
    claims = [Claim(f"Claim {n}.", [e.id]) for n, e in enumerate(evidence)]
    section = Section("summary", "Executive summary", [Paragraph(claims)])
    return render_html(Report("links", [section], references=[]), evidence, "task-1")


@pytest.mark.parametrize("url", HOSTILE)
def test_a_hostile_url_is_never_an_href(url: str) -> None:
    html = report_linking([url])
    hrefs = re.findall(r'href="([^"]*)"', html)
    assert all(h.startswith("#") for h in hrefs), hrefs
    assert "<script" not in html and 'onmouseover="' not in html


def test_http_doi_and_file_links_stay_clickable() -> None:
    html = report_linking(list(SAFE))
    hrefs = [h for h in re.findall(r'href="([^"]*)"', html) if not h.startswith("#")]
    assert hrefs == [h.replace("&", "&amp;") for h in SAFE.values()]
