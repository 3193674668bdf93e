"""Research screening and repeats on hand-labelled topics.

    python benchmarks/research_topics.py --library LIB [--topics benchmarks/research_topics]

For each labelled topic (a YAML file: topic, relevant files, labelled from titles and abstracts
before any run), runs `citewise research` on a copy of LIB as a user would (local, no model)
and prints: seconds (wall and CPU), screening recall and precision against the labels (of the
papers the report reads, and of all screened in, --max-papers apart), report sentences, the
sentences that appear more than once, the share of facet-section sentences that name a paper
(overall and the lowest section's), and the facet sections citing one paper of several.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.store.factory import open_store  # noqa: E402

CITATION = re.compile(r"\s*\[@[^\]]*\]")
ROW = re.compile(r"^\| .*\((?P<key>[^()]+)\) \| \d+ \| [\d.]+ \| (?P<decision>include|exclude) \|")
# A sentence attributing its claim to a named paper: "Lo et al. (2020) write: …",
# "The authors of “Title…” write: …".
NAMED = re.compile(
    r"^(?:[A-Z][\w'-]+(?: et al\.| and [A-Z][\w'-]+)? \(\d{4}\)|The authors of “[^”]+”)"
    r"[^“]* writes?\b"
)


def body_claims(markdown: str) -> list[tuple[str, str]]:
    """(section title, claim text) for every cited claim from the first section to References."""
    body = markdown.split("\n## References", 1)[0]
    claims: list[tuple[str, str]] = []
    section = ""
    for line in body.splitlines():
        if line.startswith("## "):
            section = line[3:]
            continue
        if not CITATION.search(line) or line.startswith("|"):
            continue
        for piece in CITATION.split(line)[:-1]:
            text = piece.strip(" -").strip()
            if text:
                claims.append((section, text))
    return claims


def facet_sections(markdown: str) -> dict[str, tuple[float, int, int]]:
    """Per facet section ("Q3"): the share of its cited sentences that name a paper, the
    papers it cites, and the papers with evidence for it (the coverage appendix)."""
    body = markdown.split("\n## References", 1)[0]
    papers = {
        m[1]: int(m[2]) for m in re.finditer(r"^\| (Q\d+)\. .* \| \d+ \| (\d+) \|$", markdown, re.M)
    }
    found: dict[str, tuple[float, int, int]] = {}
    for chunk in re.split(r"^## ", body, flags=re.M):
        head = re.match(r"(Q\d+)\.", chunk)
        if not head:
            continue
        lines = [line for line in chunk.splitlines()[1:] if CITATION.search(line)]
        pieces = [p.strip(" -") for line in lines for p in CITATION.split(line)[:-1]]
        pieces = [p for p in pieces if p]
        share = round(sum(1 for p in pieces if NAMED.search(p)) / len(pieces), 2) if pieces else 1.0
        cited = len(set(re.findall(r"@([^,\];]+)", chunk)))
        found[head[1]] = (share, cited, papers.get(head[1], 0))
    return found


def quoted(text: str) -> str:
    """The sentence a claim states, without its attribution or bold lead."""
    text = re.sub(r"^\*\*[^*]+\.\*\*\s*", "", text)
    inner = re.findall(r"“([^”]+)”", text)
    return " ".join(inner) if inner else text


def score(library: Path, spec: dict, workdir: Path) -> dict:
    store = open_store(library)
    by_file = {Path(d.path).name: d.id for d in store.documents()}
    relevant = {by_file[r["file"]] for r in spec["relevant"] if r["file"] in by_file}
    out = workdir / "report.md"
    started = time.perf_counter()
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        ["citewise", "--library", str(library), "research", spec["topic"], "--out", str(out)],
        check=True,
        capture_output=True,
    )
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU seconds of the run: wall time on a machine shared with other work overstates it
    cpu_seconds = (after.ru_utime + after.ru_stime) - (cpu.ru_utime + cpu.ru_stime)
    markdown = out.read_text("utf-8")
    rows = [(m, line) for line in markdown.splitlines() if (m := ROW.match(line))]
    included = {m["key"] for m, _ in rows if m["decision"] == "include"}
    # Screened in but left out by --max-papers (the strongest papers are read first).
    capped = {m["key"] for m, line in rows if "beyond --max-papers" in line}
    claims = body_claims(markdown)
    counts = Counter(" ".join(quoted(t).split()) for _, t in claims)
    facet = [t for s, t in claims if re.match(r"Q\d+\.", s)]
    named = sum(1 for t in facet if NAMED.search(t))
    sections = facet_sections(markdown)
    hit = included & relevant
    return {
        "topic": spec["topic"],
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu_seconds, 1),
        "relevant": len(relevant),
        "included": len(included),
        "recall": round(len(hit) / len(relevant), 2) if relevant else None,
        "precision": round(len(hit) / len(included), 2) if included else None,
        "missed": sorted(relevant - included),
        "screened_in": len(included | capped),
        "screened_recall": round(len(relevant & (included | capped)) / len(relevant), 2)
        if relevant
        else None,
        "screened_precision": round(len(relevant & (included | capped)) / len(included | capped), 2)
        if included | capped
        else None,
        "extra": sorted(included - relevant),
        "claims": len(claims),
        "repeated": {t[:80]: n for t, n in counts.items() if n > 1},
        "facet_named_share": round(named / len(facet), 2) if facet else None,
        # the lowest share over the facet sections (floor: 0.80 in each)
        "lowest_section_named_share": min((v[0] for v in sections.values()), default=None),
        # sections whose evidence comes from two or more papers but that cite fewer
        "sections_citing_one_of_several": sorted(
            q for q, (_, cited, papers) in sections.items() if papers >= 2 and cited < 2
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--library", required=True, type=Path)
    parser.add_argument("--topics", type=Path, default=ROOT / "benchmarks" / "research_topics")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    for path in sorted(args.topics.glob("*.yaml")):
        if args.only and args.only not in path.name:
            continue
        spec = yaml.safe_load(path.read_text("utf-8"))
        with tempfile.TemporaryDirectory() as tmp:
            library = Path(tmp) / "lib"
            shutil.copytree(args.library, library)
            print(json.dumps(score(library, spec, Path(tmp)), ensure_ascii=False))


if __name__ == "__main__":
    main()
