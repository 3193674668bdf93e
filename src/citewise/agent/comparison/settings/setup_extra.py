"""The phrasings agent/comparison/patterns.py leaves out, one list of regexes a setting (compute,
epochs, schedule, optimizer, seeds, hardware, warmup, dropout, weight decay, learning rate, batch
size, gradient clipping), read by agent/comparison/settings/matrix_settings.py below that module's
findings, so they fill only what it leaves empty."""

from __future__ import annotations

import re

from citewise.agent.comparison.extraction import Finding, Unit, section_bonus
from citewise.agent.comparison.patterns import NUM
from citewise.agent.comparison.settings.setup_phrasings import phrasings
from citewise.agent.comparison.settings.setup_reading import VALUE

# a verb saying the paper's own training uses a technique
_APPLIES = r"(?:appl(?:y|ies|ied)|us(?:e|es|ed|ing)|add(?:s|ed)?|employ(?:s|ed)?|adopt(?:s|ed)?)"
_OPTIMIZER = r"(?:adamw|adam|adagrad|adadelta|adamax|rms-?prop|nadam|sgd)"
# L2 as papers converted from LaTeX write it: "$L_2$", "$\mathcal {L}_2$", "$l_2$", "ℓ2"
_L2 = r"(?:\$\s*(?:\\mathcal\s*\{\s*L\s*\}|L|l|\\ell)\s*_\s*\{?2\}?\s*\$|\bL2\b|ℓ2)"
_DURATION = r"(?:h|hrs?|hours?|minutes?|mins?|days?|weeks?)"
_EXTRA: dict[str, list[re.Pattern[str]]] = {
    "compute": [
        # a duration beside the training it measures: "100 epochs (~14 h)", "each epoch takes 3 hrs"
        re.compile(
            r"\b(?:train\w*|epochs?|iterations?|took|takes)\b[^.;]{0,80}?(?<![\w.])"
            rf"(?<!\(\s)(?<!\()(?P<v>{NUM}(?:\s*[-–]\s*{NUM})?\s?{_DURATION})\b"
            # an amount of recorded data is no training time ("300 hours of speech")
            r"(?!\s*(?:of\b|subset|training|testing|test|data|speech|audio|recordings?|in\s+total))",
            re.I,
        ),
        re.compile(
            r"\b(?:training|running|total training|total)\s+time\b[^.;]{0,60}?\b(?:is|was|of|took)"
            r"\s+(?:only\s+|about\s+|approximately\s+|around\s+|roughly\s+)?"
            rf"(?P<v>{NUM}(?:\s*[-–]\s*{NUM})?\s+(?:days?|hours?|weeks?|minutes?))\b",
            re.I,
        ),
    ],
    "epochs": [
        # a count of epochs with a word between: "100 time epochs", "30 full epochs"
        re.compile(
            rf"(?P<v>\b{NUM}\s+(?!(?:more|additional|further|first|last|next)\b)[a-z]+\s+epochs)\b"
        ),
        # a training length in steps a run is given (the gold's definition counts it when no
        # epochs are stated): "trained for 100,000 optimizer steps", "it takes 30 hours to run
        # 23,000 steps", "the EM algorithm was run 20 iterations"
        re.compile(
            r"\b(?:run|runs|ran|trained|train|training)\s+(?:for\s+)?(?:about\s+|a\s+total\s+of\s+|"
            rf"up\s+to\s+)?(?P<v>{NUM}[kKM]?\s+(?:training\s+|optimi[sz]er\s+|update\s+)?"
            r"(?:steps|iterations|updates))\b",
            re.I,
        ),
    ],
    "schedule": [
        # a decay the learning rate's sentence names: "with a decay rate of 0.9 when ...",
        # "a decay factor of 0.5 when ...", "exponentially decayed during the training"
        re.compile(
            r"^(?=.*\blearning[- ]rate\b).*?(?P<v>\bdecay\s+(?:rate|factor)\s+(?:of\s+)?"
            rf"{NUM}(?:\s+(?:when|whenever|if|every|after)\b[^.;]{{0,60}})?)",
            re.I,
        ),
        re.compile(
            r"^(?=.*\blearning[- ]rate\b).*?(?P<v>\b(?:exponentially|linearly|gradually)\s+"
            r"(?:decayed|decays|decreased|reduced|annealed)\b[^.;]{0,40})",
            re.I,
        ),
        # a schedule named by its parts: "the same warmup and decay strategy for learning rate"
        re.compile(
            r"(?P<v>\b(?:warm-?up|decay|annealing)(?:\s+and\s+(?:warm-?up|decay|annealing))?\s+"
            r"(?:strategy|schedule|policy|scheme)\b(?:\s+for\s+(?:the\s+)?learning\s+rate)?)",
            re.I,
        ),
        # "the learning rate is set to 1 and reduced by half if ...": the change, then its condition
        re.compile(
            r"\blearning\s+rate\b(?:[^.;]|\.(?=\d)){0,40}?\band\s+(?P<v>(?:is\s+|was\s+)?(?:reduced|decayed|"
            r"halved|divided|multiplied|lowered|decreased|dropped)\b[^.;]{0,60})",
            re.I,
        ),
        re.compile(
            r"(?P<v>\b(?:multiply\w*|divid\w*|decay\w*|halv\w*|reduc\w*)\s+(?:by\s+)?"
            rf"(?:{NUM}\s+)?(?:to\s+|of\s+)?the\s+learning\s+rate\b[^.;]{{0,60}})",
            re.I,
        ),
    ],
    "optimizer": [
        # an optimizer's name in another case: "ADAM", "the adam optimizer", "use `adam'"
        re.compile(
            rf"(?<![\w-])(?P<v>{_OPTIMIZER})(?![\w-])"
            r"(?=[^.;]{0,80}\b(?:optimi[sz]\w*|train\w*|learning\s+rate|update\s+rule)\b)",
            re.I,
        ),
        re.compile(
            rf"\b(?:using|use[sd]?|with|via|employ\w*|select\w*|adopt\w*)\s+(?:the\s+)?[`'‘]?"
            rf"(?P<v>{_OPTIMIZER})(?![\w-])",
            re.I,
        ),
    ],
    "seeds": [
        # runs over seeds the paper does not print: "5 times with different random number seeds"
        re.compile(
            r"^(?=.*\b(?:runs?|times|retrain\w*|repeat\w*|averag\w*|trained)\b).*?"
            r"(?P<v>\b(?:(?:\d+|two|three|four|five|ten)\s+times\s+with\s+)?(?:different|various|"
            r"multiple|several)\s+(?:random\s+)?(?:number\s+)?(?:initiali[sz]ation\s+)?seeds)\b",
            re.I,
        ),
    ],
    "hardware": [
        # NVIDIA's Titan cards in their usual spellings: "GeForce GTX Titan X", "a TitanV GPU"
        re.compile(
            r"(?P<v>\b(?:(?:a\s+)?single\s+|\d+\s+)?(?:NVIDIA\s+)?(?:GeForce\s+)?(?:GTX\s+)?"
            r"(?i:titan)\s?(?:Xp|X|V|RTX|Black|Z)?(?:\s+GPUs?)?)(?![\w-])",
            re.I,
        ),
    ],
    "warmup": [re.compile(r"(?P<v>\bno\s+(?:learning[- ]rate\s+)?warm-?up)\b", re.I)],
    "dropout": [
        # dropout said to be used, in the passive: "dropout is applied to the embeddings"
        re.compile(
            r"(?P<v>\b(?:word\s+)?dropout)(?:\s+BIBREF\d+)?\s+(?:is|was|are|were)\s+(?:also\s+)?"
            r"(?:applied|used|employed|added)\b",
            re.I,
        ),
        re.compile(
            r"(?P<v>\b(?:embedding\s+)?dropout\s+(?:on|to|after|before|in)\s+(?:the\s+|all\s+|"
            r"each\s+)?[\w-]+(?:\s+[\w-]+){0,2}?\s+layers?)\b",
            re.I,
        ),
        # a rate written as a formula in papers converted from LaTeX: "$P_{dropout} = 0.1$"
        re.compile(r"\bdropout\s*\}?\s*=\s*(?P<v>0?\.\d+)", re.I),
        # dropout the paper uses without a rate: "we apply dropout to the input of each layer",
        # "we applied `dropout' regularization", "is followed by a drop-out layer"
        re.compile(
            rf"\b{_APPLIES}\s+(?:\w+\s+){{0,4}}?[`'‘\"“]?(?P<v>dropout(?:\s+regulari[sz]ation)?)\b",
            re.I,
        ),
        re.compile(
            r"\b(?:followed\s+by|with)\s+an?\s+(?P<v>drop-?out\s+layer)\b"
            r"(?!\s+(?:at|with|of)\s+(?:a\s+)?(?:rate|probability)\b)",  # its rate read by another
            re.I,
        ),
    ],
    "weight decay": [
        # weight decay the paper uses without a value, as dropout above: "we used L2
        # regularization whose coefficient was tuned", "trained using SGD with an L2 regularizer",
        # "L2 regularization is applied to the embedding matrix"
        re.compile(
            r"^(?=.*\b(?:we|us(?:e|es|ed|ing)|appl\w+|add\w*|employ\w*|adopt\w*|with)\b).*?"
            r"(?P<v>\b(?:L2|ℓ2)[- ](?:regulari[sz]ation|regulari[sz]er|penalty)(?:\s+term)?)\b",
            re.I,
        ),
        re.compile(rf"\b{_APPLIES}\s+(?:\w+\s+){{0,3}}?(?P<v>(?:L2\s+)?weight[- ]decay)\b", re.I),
        # L2 as converted LaTeX with its coefficient: "the weight $\lambda $ of $\mathcal
        # {L}_2$ regularization term is $10^{-4}$", "an $L_2$ regularization is added, for which
        # the coefficient $\lambda $ is set as 0.003"
        re.compile(
            rf"{_L2}\s*regulari[sz]\w*(?:\s+(?:item|term))?\s+(?:is|was)\s+(?:set\s+)?(?:to\s+|as\s+)?"
            rf"(?P<v>{VALUE})(?!\w|\.\d)",
            re.I,
        ),
        re.compile(
            rf"{_L2}\s*regulari[sz]\w*\b[^.;]{{0,40}}?\b(?:weight|coefficient|strength)\s*"
            rf"(?:\$\s*\\lambda\s*\$\s*|λ\s*)?(?:is|was)\s+(?:set\s+)?(?:to\s+|as\s+)?(?P<v>{VALUE})"
            r"(?!\w|\.\d)",
            re.I,
        ),
    ],
    "learning rate": [
        # the older name of the learning rate: "we fixed the training rate at 0.001"
        re.compile(
            rf"\btraining\s+rate\s+(?:is\s+|was\s+)?(?:set\s+)?(?:at|to|of|=|as)\s+(?P<v>{NUM})",
            re.I,
        ),
    ],
    "batch size": [
        # a batch counted in what it holds: "4096 tokens per batch", "tokens per batch to 4096"
        re.compile(
            rf"(?P<v>{NUM}(?:\s?[kK]\b)?\s+(?:tokens|sentences|sentence pairs|examples|samples|"
            r"sequences|images)"
            r"\s+(?:per|in each|in a)\s+(?:mini-?)?batch)\b",
            re.I,
        ),
        re.compile(
            r"\b(?:tokens|sentences|examples|samples|sequences)\s+per\s+(?:mini-?)?batch\s+"
            rf"(?:to|of|=|at|is|was)\s+(?P<v>{NUM})",
            re.I,
        ),
    ],
    "gradient clipping": [
        # a threshold stated as a condition: "we clipped the gradients if their norm exceeds 5"
        re.compile(
            r"\bclip\w*\s+(?:the\s+)?gradients?\s+(?:if|when|whenever)\s+(?:their|the|its)\s+"
            r"(?:\w+\s+)?norms?\s+(?:is\s+|was\s+)?(?:greater|larger|more|higher|exceeds?|above)"
            rf"(?:\s+than)?\s+(?P<v>{NUM})",
            re.I,
        ),
        # the threshold named after the clipping: "a clip value of 20", "step clipping at 0.05"
        re.compile(
            r"\bclip(?:ping|ped)?(?:\s+(?:value|threshold|norm|bound))?\s+(?:of|at|to|=)\s+"
            rf"(?:a\s+)?(?:max(?:imum)?\s+)?(?:norm\s+)?(?:of\s+)?(?P<v>{NUM})",
            re.I,
        ),
        # clipping used without a threshold: "we used gradient clipping and early stopping"
        re.compile(
            rf"\b{_APPLIES}\s+(?:\w+\s+){{0,3}}?(?P<v>gradient(?:\s+norm)?\s+clipping)\b",
            re.I,
        ),
    ],
}


# a reading the sentence denies: "we did not use dropout", "without gradient clipping"
_NOT_BEFORE = re.compile(r"\b(?:not|never|without|no|n't)\s+(?:\w+\s+){0,3}$", re.I)


def extra_findings(aspect: str, paper_units: list[Unit], known: list[Finding]) -> list[Finding]:
    """The phrasings agent/comparison/patterns.py leaves out, for compute, schedule, warmup,
    dropout;
    scored below that module's findings, so they fill only what it leaves empty."""
    found = []
    quoted = {f.quote for f in known}  # a sentence already read for the aspect stays as read
    for unit in paper_units:
        if unit.text in quoted:
            continue
        for pattern in (*_EXTRA.get(aspect, ()), *phrasings().get(aspect, ())):
            m = pattern.search(unit.text)
            if m and not _NOT_BEFORE.search(unit.text, 0, m.start("v")):
                value = m.group("v").strip(" ,")
                score = 0.5 + section_bonus(
                    aspect, unit
                )  # below agent/comparison/patterns.py's readings
                found.append(Finding(aspect, value, unit.text, unit.page, unit.block_id,
                                     unit.section, score))  # fmt: skip
                break
    return found
