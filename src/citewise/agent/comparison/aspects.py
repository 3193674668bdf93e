"""The aspects a comparison, matrix or setup can ask for, and one entry point to find them.

`Paper` is what extraction needs of a library document (its sentences and tables);
`find_aspect` routes an aspect to its patterns, the gazetteer or the prose cues.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from citewise.agent.comparison.aspect_readers.baselines import baseline_findings
from citewise.agent.comparison.aspect_readers.data_facts import (
    DATA_FACT_ALIASES,
    DATA_FACTS,
    data_fact_findings,
)
from citewise.agent.comparison.aspect_readers.described_data import described_datasets
from citewise.agent.comparison.aspect_readers.matrix_cells import alternation, own_statements
from citewise.agent.comparison.aspect_readers.matrix_datasets import (
    dataset_findings,
    in_data_sections,
    kinds_of_data,
    long_forms,
    longer_names,
    named_data_first,
    shared_task_data,
)
from citewise.agent.comparison.aspect_readers.matrix_datasets_listed import listed_beside
from citewise.agent.comparison.aspect_readers.matrix_datasets_pretrained import (
    pretrained_data_out,
)
from citewise.agent.comparison.aspect_readers.matrix_datasets_used import others_results_out
from citewise.agent.comparison.aspect_readers.matrix_metrics import (
    caption_metrics,
    changed_metrics,
    listed_metrics,
    metric_long_forms,
    set_aside,
)
from citewise.agent.comparison.aspect_readers.method_name import method_name
from citewise.agent.comparison.aspect_readers.method_statements import prefer_means
from citewise.agent.comparison.aspect_readers.named_statement import named_method
from citewise.agent.comparison.aspect_readers.own_weaknesses import own_weaknesses
from citewise.agent.comparison.aspect_readers.phrases.columns import (
    is_free_phrase,
    phrase_findings,
    phrase_key,
)
from citewise.agent.comparison.aspect_readers.prose_aspects import (
    PROSE_CUES,
    prose_findings,
)
from citewise.agent.comparison.aspect_readers.prose_reader import fallback, fitted, fitted_findings
from citewise.agent.comparison.extraction import (
    Finding,
    Unit,
    best_distinct,
    extract,
    find_in_unit,
    units,
)
from citewise.agent.comparison.gazetteer import Gazetteer, name_findings
from citewise.agent.comparison.patterns import PATTERNS
from citewise.agent.comparison.settings.matrix_settings import settings_findings
from citewise.documents.model import Table
from citewise.documents.structure import tables
from citewise.errors import CitewiseError
from citewise.store.protocols import Store
from citewise.store.sqlite.library import StoredBlock, StoredDocument

NAMED = ("datasets", "model")
OWN_PATTERNED = ("metrics",)  # patterned aspects a paper also names when citing others
ALIASES = {
    "learning rate schedule": "schedule",
    "lr schedule": "schedule",
    "lr": "learning rate",
    "learning-rate": "learning rate",
    "clipping": "gradient clipping",
    "grad clipping": "gradient clipping",
    "gradient norm clipping": "gradient clipping",
    "batch": "batch size",
    "batch-size": "batch size",
    "steps": "epochs",
    "epochs/steps": "epochs",
    "training steps": "epochs",
    "dataset": "datasets",
    "data": "datasets",
    "metric": "metrics",
    "models": "model",
    "architecture": "model",
    "model/architecture": "model",
    "result": "main result",
    "results": "main result",
    "limitation": "limitations",
    "weaknesses": "limitations",
    "weakness": "limitations",
    "seed": "seeds",
    "code": "code availability",
    "code/data availability": "code availability",
    "availability": "code availability",
    "gpu": "hardware",
    "optimiser": "optimizer",
    "warm-up": "warmup",
    "baseline": "baselines",
    "baseline models": "baselines",
    "baseline methods": "baselines",
    "baseline systems": "baselines",
    "compared methods": "baselines",
    "compared systems": "baselines",
    **DATA_FACT_ALIASES,
}
# what the paper's experiments compare against (aspect_readers/baselines.py)
COMPARED = ("baselines",)
KNOWN = tuple(PATTERNS) + NAMED + tuple(PROSE_CUES) + COMPARED + DATA_FACTS


# a sentence that measures something (a metric named in passing, "as a result of", is not one)
_EVALUATES = re.compile(
    r"\b(?:evaluat\w*|measur\w*|report\w*|metrics?|scores?|scoring|achiev\w*|outperform\w*|"
    r"performance|obtain\w*|compute[sd]?|calculated|results (?:in|on|of)|assess\w*|rated?|"
    r"improv\w*|gains?|increas\w*|decreas\w*|drops?)\b|\d\s?%",
    re.I,
)
_NOT_A_MEASURE = re.compile(r"\s+bias\b", re.I)  # "recall bias" is a bias
# placeholders of papers converted from LaTeX, and architectures, name no dataset
_NOT_A_NAME = re.compile(
    r"^(?:BIBREF|TABREF|FIGREF|SECREF|EQREF|INLINEFORM|DISPLAYFORM|UID)\d+$|"
    r"^(?:CNN|RNN|LSTM|BiLSTM|GRU|MLP|Transformer|GAN|VAE)s?$"
)


def qualified(finding: Finding) -> Finding:
    """A metric with the qualifier the paper names it with: "average precision", "strict
    accuracy", "mean absolute error" (qualifiers in agent/data/matrix_cells.txt)."""
    start = finding.quote.find(finding.value)
    m = _QUALIFIER.search(finding.quote[:start])
    if start <= 0 or not m:
        return finding
    return replace(finding, value=finding.quote[m.start() : start + len(finding.value)])


# qualifiers stack: "mean average precision", "weighted macro F1"
_QUALIFIER = re.compile(rf"(?<![\w-])(?:(?:{alternation('metric_qualifiers')})\s+){{1,2}}$", re.I)


class AspectError(CitewiseError):
    code = "ASPECT_EMPTY"


def normalise_aspect(name: str) -> str:
    """'Learning-rate schedule' -> 'schedule'; a phrase of one to six words that names no
    preset ('study design', 'annotators') is a free-phrase column
    (agent/comparison/aspect_readers/phrases/columns.py); a single word a typo away from a
    preset or alias ('metircs') is an error whose hint names it."""
    key = phrase_key(name)
    key = ALIASES.get(key, key)
    if key not in KNOWN and key.endswith("s") and key[:-1] in KNOWN:  # "methods"
        key = key[:-1]
    near = near_miss(key) if " " not in key and key not in KNOWN else None
    if near or (key not in KNOWN and not is_free_phrase(key)):
        hint = f"did you mean '{near}'? " if near else ""
        raise AspectError(
            f"unknown aspect '{name}'",
            hint=hint
            + "known aspects: "
            + ", ".join(sorted(KNOWN))
            + "; or a phrase of one to six words, e.g. 'study design'",
            code="UNKNOWN_ASPECT",
        )
    return key


NEAR_MISS_LETTERS = 6


def near_miss(word: str) -> str | None:
    """The preset or alias a single word misspells: one edit away (a letter added, dropped,
    changed or two swapped: 'datset', 'metircs'), two for a word of eight letters or more;
    a word under six letters is too close to too many ('speed', 'seed') to be called one."""
    if len(word) < NEAR_MISS_LETTERS:
        return None
    most = 2 if len(word) >= 8 else 1
    for known in sorted({*KNOWN, *ALIASES}):
        close = known != word and abs(len(known) - len(word)) <= most
        if close and _edits(word, known) <= most:
            return ALIASES.get(known, known)
    return None


def _edits(a: str, b: str) -> int:
    """Optimal string alignment distance (Levenshtein with adjacent swaps)."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            row.append(min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb)))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def parse_aspects(text: str | None, default: tuple[str, ...]) -> list[str]:
    if not text:
        return list(default)
    wanted = [normalise_aspect(a) for a in text.split(",") if a.strip()]
    if not wanted:
        raise AspectError("no aspects given", hint=f"e.g. --aspects '{','.join(default[:3])}'")
    return list(dict.fromkeys(wanted))


# Words a question uses for aspects ("compare the optimizer configurations ..., especially
# learning-rate decay and gradient clipping"), longest match first.
_QUESTION_WORDS: dict[str, tuple[str, ...]] = {
    r"learning[- ]rate (?:decay|schedules?|warm-?ups?)|lr schedules?|decay|annealing": (
        "schedule",
    ),
    r"(?:gradient|grad)(?:[- ]norm)? clipping|clipping": ("gradient clipping",),
    r"learning[- ]rates?": ("learning rate",),
    r"optimi[sz]ers?|optimi[sz]ation": ("optimizer",),
    r"hyper-?parameters?|training (?:setups?|settings|configurations?|details)": (
        "optimizer", "learning rate", "schedule", "batch size", "epochs",
    ),
    r"batch[- ]sizes?": ("batch size",),
    r"epochs?|training steps": ("epochs",),
    r"warm-?ups?": ("warmup",),
    r"weight[- ]decay|regulari[sz]ation": ("weight decay",),
    r"dropout": ("dropout",),
    r"hardware|gpus?|tpus?|compute": ("hardware",),
    r"random seeds?|seeds?": ("seeds",),
    r"data ?sets?|corpora|benchmarks?": ("datasets",),
    r"metrics?|evaluation measures?": ("metrics",),
    r"models?|architectures?": ("model",),
    r"limitations?|weakness(?:es)?|shortcomings?": ("limitations",),
    r"results?|findings|performance": ("main result",),
    r"methods?|approach(?:es)?": ("method",),
    r"tasks?|goals?|aims?|objectives?": ("task",),
    r"code|implementation|availability": ("code availability",),
}  # fmt: skip


def aspects_in_question(question: str) -> list[str]:
    """The aspects a comparative question asks about, in the order it names them; []
    when it names none (the caller then uses the default aspects)."""
    matches = [
        (m.start(), m.end(), pattern)
        for pattern in _QUESTION_WORDS
        for m in re.finditer(rf"\b(?:{pattern})\b", question, re.I)
    ]
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    # the longest phrase wins where two overlap ("weight decay" over "decay")
    for start, end, pattern in sorted(matches, key=lambda m: m[0] - m[1]):
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        found.extend((start, a) for a in _QUESTION_WORDS[pattern])
    return list(dict.fromkeys(a for _, a in sorted(found, key=lambda t: t[0])))


@dataclass
class Paper:
    """A library document as extraction sees it; `title` is the block that prints its title."""

    document: StoredDocument
    units: list[Unit]
    tables: list[Table]
    title: Unit | None = None
    thanks: tuple[Unit, ...] = ()  # the acknowledgements' sentences (hardware a paper was given)


def load_paper(store: Store, document: StoredDocument) -> Paper:
    blocks = store.blocks(document.id)
    found = tables(store.blocks_with_data(document.id, ("table",)))
    thanks = tuple(units(blocks, thanks=True))
    return Paper(document, _untitled(units(blocks), document.title), found,
                 _title_unit(blocks, document.title), thanks)  # fmt: skip


def _untitled(paper_units: list[Unit], title: str) -> list[Unit]:
    """Units whose section path no longer starts at the paper's title: a Markdown paper's
    title heading tops every path, and its words ("... Based on Background Knowledge") are
    no section's."""
    want = " ".join(title.split()).lower()
    if not want:
        return paper_units
    out = []
    for u in paper_units:
        head, sep, rest = u.section.partition(" > ")
        if sep and " ".join(head.split()).lower() == want:
            u = replace(u, section=rest)
        out.append(u)
    return out


def _title_unit(blocks: list[StoredBlock], title: str) -> Unit | None:
    """The first-page block whose text is the document's title (a heading or a paragraph)."""
    want = " ".join(title.split()).lower()
    if len(want) < 8:
        return None
    for b in blocks:
        if b.page > 1:
            break
        text = " ".join(b.text.split())
        if text.lower() == want:
            return Unit(text, b.id, b.page, b.section_path, b.kind, b.ordinal)
    return None


# The title names what a paper is about; a stated aim ("the aim of this study is to ...")
# in the abstract or introduction outranks it, a weaker cue ("we investigate") does not.
TITLE_TASK_SCORE = 3.3


def title_task(paper: Paper) -> list[Finding]:
    t = paper.title
    if t is None:
        return []
    return [Finding("task", t.text, t.text, t.page, t.block_id, t.section, TITLE_TASK_SCORE)]


def _with_method_name(paper: Paper, gazetteer: Gazetteer, found: list[Finding]) -> list[Finding]:
    """Method findings with the one naming the paper's own method first
    (agent/comparison/aspect_readers/method_name.py), proposals in general words below
    statements of the means (agent/comparison/aspect_readers/method_statements.py)."""
    title = paper.document.title or ""
    name = method_name(paper.units, title, gazetteer.names.get("datasets", set()))
    found = prefer_means(found, paper.units)
    return named_method(found, paper.units, name) if name else found


def find_aspect(
    aspect: str, paper: Paper, gazetteer: Gazetteer, limit: int = 3, fitted_reader: bool = True
) -> list[Finding]:
    """The aspect's best values in the paper, best first; [] when the paper does not say.
    Names and prose aspects are the paper's own statements first
    (agent/comparison/aspect_readers/matrix_cells.py); a prose aspect with a fitted reader is chosen
    by it (agent/comparison/aspect_readers/prose_reader.py) unless `fitted_reader` is False."""
    if aspect in NAMED:
        own = name_findings(aspect, paper.units, paper.tables, gazetteer)
        if aspect == "datasets":
            # studies of people: the sample is the data ('interviews with 100 outpatients')
            own += extract("sample", paper.units, 2) + described_datasets(paper.units)
            named, counted = dataset_findings(paper.units)
            own += named + shared_task_data(paper.units)
            # a count beside a name ("MetaQA, which contains 29,000 questions") is no second value
            quoted = {f.quote for f in own}
            own += [f for f in counted if f.quote not in quoted]
            own += listed_beside(own, paper.units)  # "A and B datasets" beside a name read
            # "an SLU dataset": a kind of data, not a name; "word2vec is trained on X": not its data
            kinds = kinds_of_data(paper.units)
            own = pretrained_data_out([f for f in own if f.value not in kinds])
        own = own_statements(aspect, [f for f in own if not _NOT_A_NAME.match(f.value)])
        if aspect == "datasets":
            own = named_data_first(in_data_sections(others_results_out(own)))
            own = longer_names(long_forms(own))
        return best_distinct(own, limit)
    if aspect in DATA_FACTS:
        return best_distinct(data_fact_findings(aspect, paper.units), limit)
    if aspect in COMPARED:
        return best_distinct(baseline_findings(paper.units, paper.document.title), limit)
    if aspect in PROSE_CUES and fitted_reader and fitted(aspect):
        return best_distinct(fitted_findings(aspect, paper.units), limit)
    if aspect in PROSE_CUES:
        found = prose_findings(aspect, paper.units)
        found += title_task(paper) if aspect == "task" else []
        if not found and aspect == "limitations":  # its own weaknesses where it states none
            found = own_weaknesses(paper.units, paper.document.title or "", gazetteer)
        if aspect == "method":
            found = _with_method_name(paper, gazetteer, found)
        kept = best_distinct(own_statements(aspect, found), limit)
        if not kept and fitted_reader and fallback(aspect):
            return best_distinct(fitted_findings(aspect, paper.units), limit)
        return kept
    if aspect in OWN_PATTERNED:
        found = [f for u in paper.units if _EVALUATES.search(u.text) or u.kind == "table"
                 for f in find_in_unit(aspect, u)]  # fmt: skip
        found += listed_metrics(paper.units) + caption_metrics(paper.units)
        found = set_aside(found + changed_metrics(paper.units))
        found = [
            qualified(f)
            for f in found
            if not _NOT_A_MEASURE.match(f.quote[f.quote.find(f.value) + len(f.value) :])
        ]
        return best_distinct(own_statements(aspect, metric_long_forms(found, paper.units)), limit)
    if aspect not in KNOWN:
        return best_distinct(own_statements(aspect, phrase_findings(aspect, paper.units)), limit)
    found = [f for u in paper.units for f in find_in_unit(aspect, u)]
    software = gazetteer.names.get("software", set())
    found = settings_findings(aspect, paper.units, paper.document.title, software, found)
    return best_distinct(found, limit)
