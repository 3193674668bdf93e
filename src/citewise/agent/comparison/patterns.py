"""The patterns of experiment settings: one list of regexes per aspect, the value in group `v`.

Names here are vocabularies of a field (optimizers, schedules, accelerators, metrics), never
of a paper. Numbers are matched as printed ("3e-5", "3 × 10−5", "0.1", "10%").
"""

from __future__ import annotations

import re

from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists

_I = re.IGNORECASE
NUM = r"(?:\d+(?:[.,]\d+)*(?:\s*[×x*]\s*10\s*[-−–]\s*\d+|e[-−–]?\d+)?%?)"
NUMS = rf"{NUM}(?:\s*(?:,|,?\s*or|,?\s*and|to|–|-)\s*{NUM})*"
# A list of bare values ("1e-5, 2e-5 or 3e-5"): an item followed by a unit names another
# setting ("batch size 16, 2 epochs" is a batch size of 16).
_NEXT_SETTING = (
    r"(?!\s*(?:epochs?|steps?|iterations?|updates?|layers?|heads?|hours?|days?|minutes?|"
    r"GPUs?|TPUs?|units?|dimensions?|dims?|tokens?|warm-?up|runs?|seeds?|[kKM]\b))"
)
NUMS_ALONE = rf"{NUM}(?:\s*(?:,|,?\s*or|,?\s*and|to|–|-)\s*{NUM}{_NEXT_SETTING})*"
_IS = (
    r"(?:\s+(?:is|was|were|are|of|=|:|set to|set as|fixed to|fixed at|equal to|at|to|with|as))"
    r"{0,2}\s*"
)

OPTIMIZERS = (
    r"AdamW|Adam|AdaGrad|Adagrad|Adadelta|AdaDelta|RMSProp|RMSprop|Adafactor|LAMB|LARS|"
    r"Nadam|AMSGrad|L-BFGS|SGD|[Ss]tochastic [Gg]radient [Dd]escent|Nesterov"
)
_SCHEDULE_KIND = (
    r"linear(?:ly)?|cosine|exponential(?:ly)?|polynomial|step|inverse[- ]square[- ]root|"
    r"constant|cyclic(?:al)?|one[- ]cycle|triangular|warm-?up"
)
_ACCEL = (
    r"(?:NVIDIA\s+)?(?:Tesla\s+|GeForce\s+|Quadro\s+)?(?:RTX\s*)?"
    r"(?:[AHPVKT]\d{2,3}|TITAN\s?[A-Z]+|GTX\s?\d{3,4}|RTX\s?\d{4}|\d{4}\s?Ti)"
)
_COUNT = r"(?:\d+|a single|single|one|two|three|four|eight|sixteen)"
_SOFTWARE = (
    r"Python|PyTorch|TensorFlow|JAX|Keras|Perl|Java|MATLAB|Ubuntu(?: OS)?|CUDA|cuDNN|"
    r"scikit-learn|Transformers|fairseq|R|Julia|Stata|SPSS|SAS|GCC|Linux|Windows"
)


def _metric_names() -> str:
    """The metric names of agent/data/metric_names.txt as one alternation, in file order."""
    lists = sourced_lists(shipped_text(METRICS_FILE), METRICS_FILE, _METRIC_LISTS)
    return "|".join(entry for name in _METRIC_LISTS for entry in lists[name])


METRICS_FILE = "metric_names.txt"
_METRIC_LISTS = ("evaluation_metrics", "named_measures", "clinical_measures")
METRIC_NAMES = _metric_names()

PATTERNS: dict[str, list[re.Pattern[str]]] = {
    "optimizer": [
        re.compile(
            rf"(?P<v>\b(?:{OPTIMIZERS})\b"
            rf"(?:\s+with\s+(?:a\s+)?(?:Nesterov\s+)?momentum(?:\s+of)?\s+{NUM})?)"
            r"(?!\s+[A-Z][a-z]+\b)"  # "Adam Smith" is a person
        ),
    ],
    "learning rate": [
        re.compile(
            rf"\blearning[- ]rates?(?:\s*\(\s*(?:lr|LR|η)\s*\))?{_IS}(?:a\s+)?(?P<v>{NUMS_ALONE})",
            _I,
        ),
        # "lr=3e-4", "LR: 2e-5", "η = 0.1" (the abbreviation in any case, '=' or ':')
        re.compile(rf"(?:\b(?i:lr)|η)\s*[=:]\s*(?P<v>{NUM})"),
        re.compile(rf"(?P<v>{NUM})\s+learning rate\b", _I),
    ],
    "schedule": [
        re.compile(
            rf"(?P<v>\b(?:{_SCHEDULE_KIND})\s+(?:learning[- ]rate\s+)?"
            r"(?:decay|schedul(?:e|er|ing)|annealing|warm-?up|reduction)\b)",
            _I,
        ),
        re.compile(
            r"(?P<v>learning rate (?:is |was )?(?:decayed|halved|reduced|divided|dropped|"
            r"multiplied|annealed|lowered)[^.;]{0,60})",
            _I,
        ),
        re.compile(r"(?P<v>\bReduceLROnPlateau\b|reduce[sd]? on plateau)", _I),
    ],
    "warmup": [
        re.compile(
            rf"(?P<v>{NUM})\s*(?:of\s+(?:the\s+)?(?:training\s+)?steps\s+)?(?:linear\s+)?"
            r"(?:learning[- ]rate\s+)?warm-?up",
            _I,
        ),
        re.compile(
            rf"warm-?up(?:\s+(?:period|phase|steps))?(?:\s+(?:of|for|over))\s+(?:the\s+first\s+)?"
            rf"(?P<v>{NUM}\s*(?:steps|epochs|iterations|updates|%))",
            _I,
        ),
    ],
    "batch size": [
        re.compile(rf"\b(?:mini-?)?batch(?:es)?[- ]sizes?{_IS}(?P<v>{NUMS_ALONE})", _I),
        re.compile(rf"\bmini-?batch(?:es)? of (?P<v>{NUM})", _I),
        re.compile(
            rf"(?P<v>{NUM})\s+(?:sequences|examples|sentences|images|samples|tokens)\s+"
            r"per\s+(?:batch|GPU|device)",
            _I,
        ),
    ],
    "epochs": [
        re.compile(rf"(?P<v>\b{NUMS}\s+(?:training\s+)?epochs)\b", _I),
        re.compile(
            rf"\b(?:train\w*|fine-?tun\w*|pre-?train\w*|for)\s+(?:\w+\s+){{0,3}}"
            rf"(?P<v>{NUM}[kKM]?\s+(?:training\s+|update\s+|gradient\s+)?(?:steps|iterations|updates))\b",
            _I,
        ),
    ],
    "weight decay": [
        re.compile(rf"\bweight[- ]decay(?:\s+(?:rate|coefficient))?{_IS}(?P<v>{NUM})", _I),
        re.compile(
            rf"\bL2 (?:regulari[sz]ation|penalty)(?:\s+(?:weight|coefficient))?{_IS}(?P<v>{NUM})"
        ),
    ],
    "gradient clipping": [
        re.compile(
            r"\bgradients?(?:\s+norms?)?(?:\s+(?:are|is|were|was))?\s+(?:clipping|clipped)(?:\s+(?:threshold|value|norm))?"
            rf"{_IS}(?:a\s+)?(?:max(?:imum)?\s+)?(?:norm\s+)?(?:of\s+)?(?P<v>{NUM})",
            _I,
        ),
        re.compile(
            r"\bclip(?:s|ped|ping)?\s+(?:the\s+)?(?:global\s+)?gradients?(?:\s+norms?)?\s+"
            rf"(?:at|to)\s+(?:a\s+)?(?:max(?:imum)?\s+)?(?:norm\s+)?(?:of\s+)?(?P<v>{NUM})",
            _I,
        ),
        re.compile(rf"\bmax(?:imum)?\s+gradient\s+norm{_IS}(?P<v>{NUM})", _I),
    ],
    "dropout": [
        re.compile(
            r"\bdropout(?:\s+(?:rate|probability|ratio|of|with))*"
            r"(?:\s+(?:is|was|=|:|set to|of|p\s*=)){0,2}\s*(?P<v>0?\.\d+|\d+%)",
            _I,
        ),
        re.compile(r"(?P<v>\b0?\.\d+)\s+dropout\b", _I),
    ],
    "seeds": [
        re.compile(
            r"(?P<v>\b(?:\d+|two|three|four|five|six|ten)\s+(?:independent\s+|random\s+)?"
            r"(?:runs|trials|restarts|repetitions)\s+with\s+different\s+(?:random\s+)?seeds)",
            _I,
        ),
        re.compile(rf"\b(?:random\s+)?seeds?{_IS}(?P<v>\d+(?:\s*(?:,|and)\s*\d+)*)", _I),
        re.compile(
            r"(?P<v>\b(?:\d+|two|three|four|five|six|ten)\s+(?:different\s+)?random\s+seeds)", _I
        ),
    ],
    "hardware": [
        re.compile(
            rf"(?P<v>\b(?:{_COUNT}\s*(?:[x×]\s*)?)?{_ACCEL}(?:\s+\d+\s?GB)?(?:\s+GPUs?)?)\b"
        ),
        re.compile(
            rf"(?P<v>\b(?:{_COUNT}\s+)?(?:Cloud\s+)?TPUs?(?:\s?v\d(?:-\d+)?)?(?:\s+pods?)?)"
        ),
        re.compile(
            r"(?P<v>\b(?:Intel|AMD)\s+(?:Xeon|Core|EPYC|Ryzen)(?:\s+(?:CPU|Gold|Silver|"
            r"Platinum|i\d))?(?:\s+[A-Z]?\d{3,5}\w*)?(?:\s*\(\s*[\d.]+\s*GHz\s*\))?)"
        ),
        re.compile(r"(?P<v>\b\d+\s?[GT]B\s+(?:of\s+)?(?:RAM|memory|GPU memory))"),
        re.compile(rf"(?P<v>\b{_COUNT}\s+(?:NVIDIA\s+)?GPUs?)\b"),
    ],
    "compute": [
        re.compile(rf"(?P<v>\b{NUM}\s+(?:CPU|GPU|TPU|core)[- ]hours)", _I),
        re.compile(
            r"\b(?:train\w*|pre-?train\w*|fine-?tun\w*)\b[^.;]{0,140}?\bfor\s+"
            r"(?P<v>(?:about\s+|approximately\s+)?(?:\d+|one|two|three|four|five|a)\s+"
            r"(?:weeks?|days?|hours?))\b",
            _I,
        ),
    ],
    "software": [
        re.compile(rf"(?P<v>\b(?:{_SOFTWARE})\s+(?:v(?:ersion)?\s*)?\d+(?:\.\d+)+)\b"),
        re.compile(r"(?P<v>\b[A-Z][A-Za-z]+\s+v\d+(?:\.\d+)+)\b"),
    ],
    "code availability": [
        # licences, DOIs and author IDs are links, not code or data
        re.compile(
            r"(?P<v>https?://(?!(?:www\.)?(?:creativecommons\.org|(?:dx\.)?doi\.org|orcid\.org))"
            r"[^\s,;)\]]+[^\s,;)\].])"
        ),
    ],
    "metrics": [re.compile(rf"(?P<v>\b(?:{METRIC_NAMES})(?![\w-]))")],
    "sample": [
        re.compile(
            r"(?P<v>\b(?:\d[\d,]*|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
            r"(?:-\w+)?|eleven|twelve|\w+teen|hundred)\s+(?:\w+\s+){0,2}(?:patients|participants|outpatients|inpatients|"
            r"respondents|stakeholders|subjects|volunteers|studies|trials|articles|interviewees|"
            r"children|adults|households))\b",
            re.I,
        ),
    ],
    "splits": [
        re.compile(
            r"(?P<v>\b(?:train(?:ing)?|dev(?:elopment)?|validation|held-out|test)"
            r"(?:\s*/\s*(?:dev|development|validation|test))*\s+(?:sets?|splits?)"
            rf"(?:\s+(?:of|with)\s+{NUM}\s+\w+)?)",
            _I,
        ),
        re.compile(rf"(?P<v>\b{NUM}\s*/\s*{NUM}(?:\s*/\s*{NUM})?\s+(?:train\w*/?)?\s*split)", _I),
    ],
}

# Aspects whose patterns are ambiguous on their own need a cue in the same sentence.
_CONTEXT = {
    "optimizer": re.compile(
        r"optimi[sz]|train|learning rate|fine-?tun|minimi[sz]|loss|momentum|gradient|β1|beta1|"
        rf"\b(?:use[sd]?|using|with|via)\s+(?:the\s+)?(?:{OPTIMIZERS})\b",
        re.I,
    ),
    "learning rate": None,
    "hardware": re.compile(
        r"\b(GPU|TPU|CPU|RAM|memory|machine|server|cluster|node|train\w*|run|ran|system|"
        r"hardware|processor|computer|GHz|took|hours)\b",
        re.I,
    ),
    # lower-case cues, or a capitalised one opening the sentence ("Code is at ..."), so a
    # journal's name ("Journal of Statistical Software http://...") is no cue
    "code availability": re.compile(
        r"\b(code|available|availability|release[sd]?|download|repository|website|"
        r"implementation|software|found at|access)\b|^(Code|Data|Software|Source)\b|GitHub"
    ),
    "schedule": re.compile(r"learning[- ]rate|\blr\b|optimi[sz]|train|warm-?up|schedul", re.I),
    # a metric named where something is measured, or beside a measured number ("86.9 F1")
    "metrics": re.compile(
        r"\b(report\w*|evaluat\w*|measur\w*|metrics?|scores?|statistics?|results?|"
        r"performances?|achiev\w*|outperform\w*|compar\w*)\b|\d\.\d|\d\s?%",
        re.I,
    ),
    "sample": re.compile(
        r"\b(interview\w*|survey\w*|recruit\w*|enrol\w*|sampl\w*|includ\w*|identified|"
        r"analy[sz]ed|participa\w*|questionnaire\w*|review\w*)\b",
        re.I,
    ),
    "splits": re.compile(r"\b(report|select|evaluat|held|split|results?|tune|use)\w*", re.I),
    "software": re.compile(
        r"\b(written|using|implemented|use[sd]?|system|run|software|version|process|OS|code)\b",
        re.I,
    ),
}


def needs_context(aspect: str) -> re.Pattern[str] | None:
    return _CONTEXT.get(aspect)


_SETUP_SECTIONS = (
    r"experiment|setup|set-up|implementation|training|fine-?tun|pre-?train|hyper-?param|"
    r"appendix|evaluation|method|materials|details|configuration|result"
)
SECTION_HINTS: dict[str, re.Pattern[str]] = {
    "default": re.compile(_SETUP_SECTIONS, re.I),
    "code availability": re.compile(r"availab|code|data|software|abstract|introduction", re.I),
    "metrics": re.compile(_SETUP_SECTIONS + r"|result", re.I),
}


# A hyperparameter table's row: its first cell names the setting, the rest is the value
# ("Learning rate 2e-5", "Batch size 16 32" for two models).
_ROW_LABELS = {
    "optimizer": r"optimi[sz]er",
    "learning rate": r"(?:peak |initial |max(?:imum)? |base )?(?:learning[- ]rate|lr)",
    "schedule": r"(?:learning[- ]rate |lr )?(?:schedule|scheduler|decay)",
    "warmup": r"warm-?up(?: steps| ratio| proportion| epochs)?",
    "batch size": r"(?:global |per-device |train(?:ing)? )?batch[- ]size",
    "epochs": r"(?:training |max(?:imum)? |number of )?(?:epochs|steps|iterations|updates)",
    "weight decay": r"weight[- ]decay|l2(?: regulari[sz]ation)?",
    "gradient clipping": (
        r"(?:gradient |grad )(?:norm )?clip(?:ping)?|max(?:imum)? grad(?:ient)? norm"
    ),
    "dropout": r"dropout(?: rate| probability)?",
    "seeds": r"(?:random )?seeds?",
    "hardware": r"hardware|gpus?|accelerators?",
}
ROW_LABELS: dict[str, re.Pattern[str]] = {
    aspect: re.compile(rf"^(?:{label})\s*[:=]?\s+(?P<v>\S.{{0,60}})$", re.I)
    for aspect, label in _ROW_LABELS.items()
}
