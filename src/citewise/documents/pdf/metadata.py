"""First-page metadata: title, authors, abstract, DOI, year.

Works on the first page's blocks (already in reading order) plus the PDF's own metadata
dictionary; layout evidence wins, the PDF dictionary fills gaps when it looks sensible.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from citewise.documents.model import Block

DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+", re.I)
YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
AFFILIATION = re.compile(
    r"universit|institut|department|school|college|laborator|hospital|cent(?:er|re)|"
    r"@|\binc\b|\bltd\b|faculty|division|street|road|\bcorresponden",
    re.I,
)
MARKERS = re.compile(r"[\d*∗†‡§¶♯#]+|\band\b|[,;]|\s{2,}")
PARTICLES = {"van", "von", "de", "der", "den", "da", "di", "du", "del", "la", "le", "dos", "bin"}
# a running head that names a venue, not the paper
VENUE_HEAD = re.compile(
    r"journal|proceedings|transactions|conference|workshop|symposium|annals|letters|"
    r"bulletin|society|preprint|arxiv|\bvol\b|volume|published|accepted|review",
    re.I,
)
LETTERS = re.compile(r"[\W\d_]+")
HEAD_NAME = 8  # letters a running head's short title has at least, and a title has beyond it
# a title line ending on one of these runs on into the next line
JOINING = frozenset("a an and at by for from in into of on or the to with".split())
BAD_TITLE = re.compile(r"^(untitled|microsoft word|title)\b|\.(pdf|docx?|tex|dvi)$|^\S+$", re.I)


@dataclass
class Metadata:
    title: str = ""
    authors: list[str] = field(default_factory=list)
    abstract: str = ""
    doi: str | None = None
    year: int | None = None


def extract_metadata(
    blocks: list[Block],
    pdf_meta: dict[str, str],
    page_text: str = "",
    title_block: Block | None = None,
) -> Metadata:
    """Metadata from page 1 blocks (reading order), its raw text, the PDF info dictionary.

    `title_block` is the block `title_block_index` chose; None falls back to the PDF's title.
    """
    trusted = [b for b in blocks if b.trusted]
    text = page_text if trusted else ""
    if title_block is not None and not title_block.trusted:
        title_block = None
    meta = Metadata()
    title = _title_text(blocks, title_block) if title_block else ""
    title = title or _sensible_title(pdf_meta.get("title", ""))
    # a logo word lost before a colon ("OLMo: Accelerating ...") leaves the colon behind
    meta.title = title.lstrip(":;,.–—- ").strip()
    meta.authors = _authors(trusted, title_block) or _meta_authors(pdf_meta.get("author", ""))
    meta.abstract = _abstract(trusted)
    meta.doi = find_doi(text + "\n" + "\n".join(b.text for b in trusted)) or find_doi(
        " ".join(pdf_meta.get(k, "") or "" for k in ("subject", "keywords", "title"))
    )
    meta.year = find_year(text or "\n".join(b.text for b in trusted), pdf_meta)
    return meta


def title_block_index(
    blocks: list[Block], body_size: float, meta_title: str, heads: Sequence[str] = ()
) -> int | None:
    """The paper title: the PDF's own title if page 1 shows it, else the top text a running
    head names (`heads`: the texts of the running heads and feet), else the largest top text."""
    first = [(i, b) for i, b in enumerate(blocks) if b.page == 1 and b.bbox[1] < 420]
    first = [(i, b) for i, b in first if len(b.text) >= 8 and b.kind in ("paragraph", "heading")]
    want = _squash(meta_title)
    named = [(i, b) for i, b in first if len(want) >= 12 and want in _squash(b.text)]
    pool = named or _named_by_heads(first, body_size, heads)
    pool = pool or [(i, b) for i, b in first if b.font_size >= body_size + 1.5]
    # a journal banner can be as large as the title; the title is bold and longer
    best = max(
        pool, key=lambda ib: (round(ib[1].font_size), ib[1].bold, len(ib[1].text)), default=None
    )
    return best[0] if best else None


def _named_by_heads(
    first: list[tuple[int, Block]], body_size: float, heads: Sequence[str]
) -> list[tuple[int, Block]]:
    """Top text set larger than the body that holds a short title the running heads print
    on two pages or more ("BRECCIA-GASHES" over "On the Breccia-Gashes of the Durham
    Coast"), and more words than it; a head naming a journal or meeting names no paper."""
    seen = Counter(_letters(h) for h in heads if not VENUE_HEAD.search(h))
    names = [name for name, n in seen.items() if n >= 2 and len(name) >= HEAD_NAME]
    if not names:
        return []
    found = []
    for i, b in first:
        letters = _letters(b.text)
        if b.font_size >= body_size + 1 and any(
            name in letters and len(letters) >= len(name) + HEAD_NAME for name in names
        ):
            found.append((i, b))
    return found


def _letters(text: str) -> str:
    return LETTERS.sub("", text.lower())


def _title_text(blocks: list[Block], title: Block) -> str:
    """The title block's text, run on into the line below it, or from the line above, when
    the title breaks after a word no title ends on ("ON THE BRECCIA-GASHES OF THE DURHAM
    COAST AND" over "SOME RECENT EARTH-SHAKES AT SUNDERLAND", an OCR line each)."""
    at = next((k for k, b in enumerate(blocks) if b is title), None)
    if at is None:
        return title.text
    parts = [title.text]
    if at > 0 and _runs_into(blocks[at - 1], title):
        parts.insert(0, blocks[at - 1].text)
    if at + 1 < len(blocks) and _runs_into(title, blocks[at + 1]):
        parts.append(blocks[at + 1].text)
    return " ".join(parts)


def _runs_into(upper: Block, lower: Block) -> bool:
    """`upper` ends on a joining word and `lower` is the next line of the same type."""
    words = upper.text.split()
    return (
        bool(words)
        and words[-1].lower() in JOINING
        and upper.kind in ("paragraph", "heading")
        and lower.kind in ("paragraph", "heading")
        and upper.trusted
        and lower.trusted
        and len(lower.text) <= 200
        and 0 <= lower.bbox[1] - upper.bbox[3] < 1.5 * upper.font_size
        and upper.font_size > 0
        and 0.8 <= lower.font_size / upper.font_size <= 1.25
    )


def _squash(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


def _sensible_title(title: str) -> str:
    title = " ".join(title.split())
    if len(title) < 8 or BAD_TITLE.search(title) or sum(c.isdigit() for c in title) > 8:
        return ""
    return title


def find_doi(text: str) -> str | None:
    m = DOI.search(text)
    return m.group(0).rstrip(".,;:)]}'\"") if m else None


def find_year(text: str, pdf_meta: dict[str, str]) -> int | None:
    """The newest plausible year printed on page 1, else the PDF's creation year.

    Cited work is older than the paper and copyright lines can lag (an ACL 2018 paper
    printed "©2017"), so the newest year no later than the file's creation wins.
    """
    created = re.match(r"D:((?:19|20)\d{2})", pdf_meta.get("creationDate", "") or "")
    limit = int(created.group(1)) + 1 if created else 2100
    clean = DOI.sub(" ", text)  # DOIs hold digit runs that look like years
    years = [int(y) for y in YEAR.findall(clean) if 1900 <= int(y) <= limit]
    if years:
        return max(years)
    return int(created.group(1)) if created else None


def _authors(blocks: list[Block], title: Block | None) -> list[str]:
    """Names in the lines between the title and the abstract, affiliations skipped."""
    if title is None:
        return []
    start = next((i for i, b in enumerate(blocks) if b is title), len(blocks)) + 1
    names: list[str] = []
    for block in blocks[start : start + 6]:
        if block.kind == "heading" and block.section_path or len(block.text) > 300:
            break
        if block.text.lower().startswith("abstract"):
            break
        if block.font_size < title.font_size * 0.45:
            continue
        lines = block.text.split("\n") if block.kind == "table" else [block.text]
        for part in (
            p for line in lines if not AFFILIATION.search(line) for p in MARKERS.split(line)
        ):
            name = part.strip(" .")
            words = name.split()
            if ":" in name or "editor" in name.lower():
                continue
            if 2 <= len(words) <= 6 and all(w[:1].isupper() or w in PARTICLES for w in words):
                names.append(name)
    return names


def _meta_authors(author: str) -> list[str]:
    parts = re.split(r"\s*;\s*|\s*,\s*|\s+and\s+", author or "")
    return [p.strip() for p in parts if p.strip() and "{" not in p and "et al" not in p]


def _abstract(blocks: list[Block]) -> str:
    """Paragraphs under an 'Abstract' heading, else the first long paragraph."""
    for i, block in enumerate(blocks):
        if block.kind == "heading" and block.text.strip().rstrip(":.").lower() == "abstract":
            parts = []
            for b in blocks[i + 1 :]:
                if b.kind == "heading":
                    break
                if b.kind == "paragraph":
                    parts.append(b.text)
            if parts:
                return "\n\n".join(parts)
        if block.kind == "paragraph" and block.text.lower().startswith("abstract"):
            return re.sub(r"^abstract[\s:.—-]*", "", block.text, flags=re.I)
    for block in blocks:
        lowered = block.text.lower()
        if (
            block.kind == "paragraph"
            and len(block.text) >= 400
            and not lowered.startswith(("copyright", "©", "this is an open access"))
        ):
            return block.text
    return ""


# --- where the paper was published: from the first page, its headers and footers ---------

DASH = r"\s*[–—-]+\s*"
PROCEEDINGS = re.compile(
    r"(?P<venue>Proceedings of [^\n|]+?)(?:,\s*pages\s+(?P<pages>\d+" + DASH + r"\d+)|\n|$)", re.I
)
VOLUME = re.compile(r"\bVol(?:ume|\.)?\s*(?P<volume>\d+)", re.I)
ISSUE = re.compile(r"\b(?:Issue|No\.|Number)\s*(?P<issue>\d+)", re.I)
PAGES = re.compile(r"\b(?:pp?\.|pages)\s*(?P<pages>\d+" + DASH + r"\d+)", re.I)
ARTICLE_ID = re.compile(r"\bArticle (?:ID|No\.?|Number)\s*(?P<pages>[A-Za-z]?\d+)", re.I)
# "Datta et al. Journal of Trauma Management & Outcomes 2010, 4:1" (a running footer)
FOOTER_CITATION = re.compile(
    r"et al\.?\s+(?P<venue>[A-Z][^\n|]*?)\s+(?:19|20)\d{2},\s*(?P<volume>\d+):(?P<pages>[\w-]+)"
)
# "Webb et al. (2017), PeerJ Comput. Sci., DOI 10.7717/peerj-cs.118"
FOOTER_DOI = re.compile(
    r"et al\.?\s*\((?:19|20)\d{2}\),\s*(?P<venue>[A-Z][^,\n|]+?),\s*"
    r"(?:(?P<volume>\d+)(?::(?P<pages>[\w-]+))?,\s*)?DOI",
    re.I,
)
JOURNAL_LINE = re.compile(
    r"^(?:The\s+)?(?:[A-Z][\w&.-]*\s+){0,4}(?:Journal|Annals|Transactions|Letters|Review)\b"
    r"[\w&,.:\s-]{0,80}$"
)
ARXIV = re.compile(r"\barXiv:\s*(?P<id>\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?", re.I)


@dataclass
class Publication:
    """Where a paper appeared, as printed on it; `kind` is a CSL type."""

    venue: str | None = None
    kind: str | None = None  # "article-journal" or "paper-conference"
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    arxiv_id: str | None = None

    def csl(self) -> dict[str, object]:
        """The CSL-JSON fields this adds to a record."""
        fields = {
            "type": self.kind,
            "container-title": self.venue,
            "volume": self.volume,
            "issue": self.issue,
            "page": self.pages,
        }
        return {k: v for k, v in fields.items() if v}


def _clean_venue(text: str) -> str:
    return " ".join(text.split()).strip(" ,.;:")


def find_publication(first_page: str, margins: str = "") -> Publication:
    """Venue, volume, issue, pages and arXiv ID printed on the first page (`first_page`,
    its lines in reading order) or in the running heads and feet of the others (`margins`)."""
    pub = Publication()
    text = first_page + "\n" + margins
    arxiv = ARXIV.search(text)
    pub.arxiv_id = arxiv.group("id") if arxiv else None
    proceedings = PROCEEDINGS.search(first_page)
    if proceedings:
        venue = _clean_venue(proceedings.group("venue"))
        pages = proceedings.group("pages") or _group(PAGES.search(first_page), "pages")
        # a name cut short (a line break, OCR) is worse than none: keep the type and pages
        pub.venue = venue if len(venue) >= 20 and not venue.endswith(" the") else None
        pub.kind, pub.pages = "paper-conference", _pages(pages)
        return pub
    for pattern in (FOOTER_CITATION, FOOTER_DOI):
        footer = pattern.search(text)
        if footer:
            pub.venue, pub.kind = _clean_venue(footer.group("venue")), "article-journal"
            pub.volume = footer.group("volume")
            pub.pages = _pages(footer.group("pages"))
            break
    lines = [line.strip() for line in first_page.split("\n")[:15] if line.strip()]
    for i, line in enumerate(lines):
        volume = VOLUME.search(line)
        if not volume or len(line) > 120:
            continue
        pub.volume = pub.volume or volume.group("volume")
        issue = ISSUE.search(line)
        pub.issue = pub.issue or (issue.group("issue") if issue else None)
        pages = PAGES.search(line) or ARTICLE_ID.search(line)
        pub.pages = pub.pages or (_pages(pages.group("pages")) if pages else None)
        if pub.venue is None:
            named = [c for c in lines[max(0, i - 2) : i] if JOURNAL_LINE.match(c)]
            before = (
                lines[i - 1]
                if i and not re.search(r"\d{3}|publish|corporation", lines[i - 1], re.I)
                else None
            )
            masthead = named[-1] if named else before
            if masthead:
                pub.venue, pub.kind = _clean_venue(masthead), "article-journal"
        break
    return pub


def _group(match: re.Match[str] | None, name: str) -> str | None:
    return match.group(name) if match else None


def _pages(text: str | None) -> str | None:
    return re.sub(DASH, "-", text) if text else None
