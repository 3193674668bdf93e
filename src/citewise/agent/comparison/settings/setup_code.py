"""Code availability in a setup: the paper's own repository first (a link under the authors'
e-mail organisation or named after the paper's system), code said to be available without a
link ("is available online"), links of other projects last; a link the paper took a checkpoint
or data set from ("We used the ... checkpoint from https://...") is no offer of its code.
"""

from __future__ import annotations

import re

from citewise.agent.comparison.aspect_readers.matrix_cells import word_list
from citewise.agent.comparison.extraction import Finding, Unit

# "our code and data are available", "the implementation ... is publicly available": the thing
# offered is code or data of the paper's (not "their implementation", not "our model and X ...")
_AVAILABLE = re.compile(
    r"\b(?:our\s+(?:[\w-]+\s+){0,2}?(?:code|codes|implementation|software|scripts|tools?|"
    r"toolkit|data|dataset|datasets|resources)\b[^.;]{0,60}?|(?<!their\s)(?<!Their\s)(?<!its\s)"
    r"(?:the\s+)?(?:source\s+)?(?:code|implementation|software|scripts)\b"
    r"[^.;]{0,60}?)\b(?:is|are|will be|has been|have been)\s+(?:made\s+)?"
    r"(?:publicly\s+|freely\s+|openly\s+)?(?P<v>available(?:\s+(?:online|on\s+GitHub|for\s+"
    r"download|upon\s+request|on\s+request))?)",
    re.I,
)
# code available inside another project: "The implementation is available in X BIBREF3"
_INSIDE_ANOTHER = re.compile(r"\s+(?:in|from|through|via)\s+(?:the\s+)?(?:[A-Z]|BIBREF)")
_NEGATED = re.compile(r"\b(?:no|not|never|nor)\b", re.I)
_RELEASE = re.compile(
    r"\b(?P<v>(?:we\s+)?(?:release|publish|open-source|make available)\s+(?:our|the|all)\s+"
    r"(?:\w+\s+){0,2}?(?:code|implementation|source code|software|data and code|code and data))\b",
    re.I,
)
_CODE_WORD = re.compile(r"\b(?:code|codes|implementation|software|scripts|repository)\b", re.I)
# code offered without a link, in other words than _AVAILABLE's and _RELEASE's
_OFFERS_CODE = (
    # "we have released all the code", "make all associated code and data publicly available"
    re.compile(
        r"(?P<v>\b(?:released|published|open-sourced|make|made)\s+(?:publicly\s+)?"
        r"(?:our|the|all)\s+(?:\w+\s+){0,3}?(?:code|codes|implementation|source\s+code|scripts)"
        r"(?:\s+and\s+data)?)\b",
        re.I,
    ),
    # "the source code will be released upon acceptance", "the source code is on Github"
    re.compile(
        r"(?P<v>\b(?:source\s+)?(?:code|codes|implementation|scripts)\b[^.;]{0,40}?\b(?:is|are|will\s+"
        r"be|has\s+been|have\s+been)\s+(?:publicly\s+)?(?:released|open-sourced|accessible|on\s+"
        r"GitHub)(?:\s+upon\s+(?:paper\s+)?acceptance)?)",
        re.I,
    ),
    # "our publicly available source code", "our github repository"
    re.compile(
        r"(?P<v>\bour\s+(?:publicly\s+available\s+(?:source\s+)?code|GitHub\s+repository))",
        re.I,
    ),
    # the paper's own data released (the gold's definition counts it): "We release a public
    # benchmark dataset", "we publicize a dataset named X"; only "we" say it (a passive "the
    # dataset is released" is as often another work's)
    re.compile(
        # (or will: "we will release this corpus to all", "we will publish our tagger and
        # datasets")
        r"\bwe\s+(?:will\s+|plan\s+to\s+|intend\s+to\s+)?(?:also\s+)?"
        r"(?P<v>(?:release|publish|publicize|publicise|open-source|share)\s+"
        r"(?:our|the|all|a|an|this|these)\s+(?:[\w-]+\s+){0,3}?(?:dataset|corpus|data|treebank|benchmark|"
        r"annotations|lexicon)s?)\b",
        re.I,
    ),
    # the paper's own data said available in the passive, as the sentence's subject: "The
    # dataset is freely available for the research community", "The annotated dataset for X is
    # available online"; a named or cited data set before the verb is another work's
    re.compile(
        r"(?:^|[.;]\s+)(?:The|This|Our)\s+(?:[a-z][\w-]*\s+){0,2}?(?:dataset|corpus|data\s+set|data|"
        r"annotations)\b(?:(?!BIBREF|\[\d)[^.;]){0,80}?\b(?:is|are|will\s+be|has\s+been|have\s+been)"
        r"\s+(?P<v>(?:made\s+)?(?:freely\s+|publicly\s+|openly\s+)?available(?:\s+online)?)\b"
    ),
    # the paper's own data or code made available by "we", the thing between the verb and
    # "available": "we make a new corpus of X available online", "we plan to make our data
    # freely available" (a data set of an earlier work is caught below)
    re.compile(
        r"\bwe\s+(?:\w+\s+){0,2}?(?:make|made)\s+(?:our|the|a|an|all)\s+(?:[\w-]+\s+){0,2}?"
        r"(?:dataset|corpus|corpora|data|code|implementation|annotations|lexicon|resources)s?\b"
        r"[^.;]{0,60}?\b(?P<v>(?:publicly\s+|freely\s+|openly\s+)?available(?:\s+online)?)\b",
        re.I,
    ),
    # the paper's own program offered as open source: "we introduce X, a lightweight ...
    # open-source tool for ...", "I created an open-source software implementation of ..."
    re.compile(
        r"\b(?:we|I)\s+(?:\w+\s+){0,3}?(?:introduce|present|propose|describe|create|created|develop|"
        r"developed|build|built)\b[^.;]{0,100}?\b(?P<v>open[- ]source[d]?\s+(?:[\w-]+\s+){0,2}?"
        r"(?:tool|toolkit|system|software|library|platform|framework|implementation|code|package)s?)\b",
        re.I,
    ),
)
# a sentence that offers the paper's code or data: "our code", "we release", "is available at"
_OFFERED = re.compile(
    r"\b(?:our|accessible|we\s+(?:release|make|provide|publish|share|open-source)|(?:is|are|will\s+be|"
    r"has\s+been|have\s+been)\s+(?:made\s+)?(?:publicly\s+|freely\s+)?available|can\s+be\s+"
    r"(?:found|downloaded|accessed|obtained)|download\w*)\b|^(?:Code|Data|Software|Source)\b",
    re.I,
)
_EMAIL_ORG = re.compile(r"@(?:[\w-]+\.)*?(?P<org>[\w-]+)\.(?:org|com|edu|ac\.\w+|\w{2})\b")
_REPO = re.compile(
    r"(?:github\.com|gitlab\.com|bitbucket\.org|huggingface\.co)/(?P<owner>[\w.-]+)/?\s?(?P<repo>[\w.-]*)",
    re.I,
)
_URL = re.compile(r"https?://\S+")


def own_organisations(paper_units: list[Unit]) -> set[str]:
    """The organisations of the authors' e-mail addresses on the first page ('allenai')."""
    orgs: set[str] = set()
    for unit in paper_units:
        if unit.page > 1:
            break
        orgs.update(m.group("org").lower() for m in _EMAIL_ORG.finditer(unit.text))
    return orgs - word_list("webmail_domains")


def code_findings(paper_units: list[Unit], title: str, found: list[Finding]) -> list[Finding]:
    """`found` (links in sentences about code) re-scored so the paper's own repository leads,
    plus the repositories under the authors' organisation wherever they stand (a footnote)
    and code said to be available without a link."""
    orgs = own_organisations(paper_units)
    system = {
        w.lower() for w in re.findall(r"[A-Za-z][\w-]*\d[\w-]*|[A-Z][A-Za-z]*[A-Z]\w*", title)
    }
    out = []
    for f in found:
        own = _own_link(f.value, orgs, system)
        if not own and not _OFFERED.search(_URL.sub(" ", f.quote)):
            continue  # another project's link in a sentence that offers no code of the paper's
        if _USED_FROM.search(f.quote) and not _under(f.value, orgs):
            continue  # a checkpoint or data set the paper took from another project's link
        out.append(Finding(f.aspect, f.value, f.quote, f.page, f.block_id, f.section,
                           f.score + own))  # fmt: skip
    seen = {f.value for f in found}
    for unit in paper_units:
        offers = _CODE_WORD.search(_URL.sub(" ", unit.text)) and _OFFERED.search(unit.text)
        for m in _URL.finditer(unit.text):
            link = m.group().rstrip(".,;)")
            own = _own_link(link, orgs, system)
            if link in seen or not (own or offers):
                continue
            if _USED_FROM.search(unit.text) and not _under(link, orgs):
                continue
            seen.add(link)  # the paper's repository, or a link a sentence offers its code at
            out.append(Finding("code availability", link, unit.text, unit.page, unit.block_id,
                               unit.section, 2.0 if own else 1.5))  # fmt: skip
        named = _IS_OPEN_SOURCE.search(unit.text)
        if named and named.group("n").lower() in system and not _NEGATED.search(unit.text):
            out.append(Finding("code availability", named.group("v"), unit.text, unit.page,
                               unit.block_id, unit.section, 0.8))  # fmt: skip
            continue  # the system the title names "is open source": the paper's own program
        for pattern in (_AVAILABLE, _RELEASE, *_OFFERS_CODE):
            said = pattern.search(unit.text)
            if said and _AMONG_OTHERS.search(unit.text, 0, said.end("v")):
                continue  # "the implementation methods that are available": others' code
            if said and _EARLIER_WORK.search(unit.text, 0, said.start("v")):
                continue  # "In previous work BIBREF0, we made X available": not this paper's
            if said and _INSIDE_ANOTHER.match(unit.text, said.end("v")):
                continue  # another project's code the paper used
            if said and not _URL.search(unit.text) and not _NEGATED.search(unit.text):
                out.append(Finding("code availability", said.group("v"), unit.text, unit.page,
                                   unit.block_id, unit.section, 0.8))  # fmt: skip
                break
    return out


# "X is an open-source, ... platform", X a name of the paper's title
_IS_OPEN_SOURCE = re.compile(
    r"\b(?P<n>[A-Z][\w-]*)\s+(?:is|are)\s+(?:an?\s+)?(?P<v>open[- ]sourced?)\b"
)
# a sentence about what the paper took from elsewhere: "We used the BERT-Base checkpoint from
# https://...", "We use publicly available datasets from BIBREF22 (http://...)"
_USED_FROM = re.compile(
    r"^\W*(?:we\s+(?:also\s+|first\s+)?(?:use[sd]?|employ(?:ed)?|adopt(?:ed)?|download(?:ed)?|"
    r"obtain(?:ed)?|borrow(?:ed)?|took|take)|using)\b",
    re.I,
)
# the authors' earlier paper, whose data or code is not this one's offer
_EARLIER_WORK = re.compile(
    r"\b(?:previous|earlier|prior|past)\s+(?:work|paper|study|studies)\b", re.I
)
# available as a relative clause of something general: "methods that are available"
_AMONG_OTHERS = re.compile(r"\b(?:that|which)\s+(?:is|are|were|was)\s+(?:\w+\s+)?available\b", re.I)


def _under(link: str, orgs: set[str]) -> bool:
    m = _REPO.search(link)
    return m is not None and m.group("owner").lower() in orgs


def _own_link(link: str, orgs: set[str], system: set[str]) -> float:
    m = _REPO.search(link)
    if not m:
        return 0.0
    owner, repo = m.group("owner").lower(), m.group("repo").lower()
    if owner in orgs or (repo and repo in system):
        return 2.0
    return 0.0
