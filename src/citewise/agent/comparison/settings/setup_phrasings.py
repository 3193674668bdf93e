"""Setting phrasings counted over the QASPER pool (docs/benchmarks.md, "Fifth session: setup
phrasings from the whole pool"), beside patterns.py and matrix_settings.py: the forms papers
use in general that those leave out, each kept because at least 1% of the pool's papers write
it.

- a count in words: "trained for five epochs", "averaged over three runs", "training took four
  days";
- repeated runs a result is averaged over ("we report the mean over 5 runs") as the seeds;
- warmup counted in steps after it: "warm-up of 10K steps", "warms up for 8,000 steps";
- a dropout rate "at a rate of": "a dropout layer at a rate of 50%";
- training that converges in a count of epochs: "the model converges within 20 epochs";
- a batch said to hold a count: "each batch has 16 samples", "batches contain about 4K tokens";
- a card NVIDIA names, in any spelling of its model ("NVIDIA GTX1080Ti", "Nvidia M40");
- runs repeated from different initialisations ("ten different random initializations"), a
  learning rate kept fixed ("Adam with a constant learning rate of ..."), and dropout the paper
  says it does not use ("we did not use dropout") — seventh session, each in >= 1% of the pool.

Each reading is scored below patterns.py's, so it fills only what they leave empty. Number words
and the nouns of repetition are data (agent/data/setup_names.txt).
"""

from __future__ import annotations

import re
from functools import cache

from citewise.agent.comparison.patterns import NUM
from citewise.agent.fitted_data import shipped_text
from citewise.agent.sourced_lists import sourced_lists

NAMES_FILE = "setup_names.txt"


@cache
def word_alternation(name: str) -> str:
    """One list of agent/data/setup_names.txt as a regex alternation, longest first."""
    text = shipped_text(NAMES_FILE)
    words = sourced_lists(text, NAMES_FILE, (name,))[name]
    alts = sorted(words, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in alts)


@cache
def phrasings() -> dict[str, list[re.Pattern[str]]]:
    words = word_alternation("number words")
    found = {**_counts(words), **_times_and_names(words)}
    for aspect, patterns in _stated_without_a_number(words).items():
        found[aspect] = found.get(aspect, []) + patterns
    return found


def _counts(words: str) -> dict[str, list[re.Pattern[str]]]:
    """Epochs, batch sizes and repeated runs counted in words or digits."""
    count = rf"(?:\d+|{words})"
    return {
        "epochs": [
            # "we fine-tune both models for five epochs", "trained for one epoch"
            re.compile(
                r"^(?=.*\b(?:train\w*|fine-?tun\w*|optimi[sz]\w*|run|ran)\b).*?\bfor\s+"
                r"(?:only\s+|just\s+|about\s+|a\s+total\s+of\s+)?"
                rf"(?P<v>(?:{words})\s+(?:training\s+|full\s+)?epochs?)\b",
                re.I,
            ),
            # training that ends where it converges: "training usually converges within 20
            # epochs", "the model converged after two epochs" (the verb kept: "within 20 epochs"
            # alone reads as a countdown)
            re.compile(
                r"(?P<v>\bconverge[sd]?\s+(?:in|after|within)\s+(?:about\s+|around\s+|roughly\s+)?"
                rf"{count}\s+epochs?)\b",
                re.I,
            ),
        ],
        "batch size": [
            # "each batch has 16 samples", "training batches contain about 4K tokens"; not a
            # batch a speed is measured on
            re.compile(
                r"^(?!.*\b(?:throughput|speed|latency|runtime|seconds)\b).*?\bbatch(?:es)?\s+"
                r"(?:contain\w*|has|have|consist\w*\s+of)\s+(?:about\s+|around\s+|up\s+to\s+)?"
                rf"(?P<v>{NUM}(?:\s?[kK])?)(?=\s+[a-z])",
                re.I,
            ),
        ],
        "seeds": [
            # "we report the average over 5 runs", "results are averaged over three repetitions";
            # a speed measured over runs is no repeated training
            re.compile(
                r"^(?!.*\b(?:throughput|speed|latency|runtime|seconds)\b).*?"
                r"\b(?:averag\w*|mean|median|standard\s+deviations?)\b[^.;]{0,40}?"
                rf"\b(?:over|of|across|from)\s+(?:the\s+)?(?P<v>{count}\s+(?:random\s+|"
                rf"independent\s+|different\s+)?(?:{word_alternation('repetitions')}))\b",
                re.I,
            ),
        ],
    }


def _times_and_names(words: str) -> dict[str, list[re.Pattern[str]]]:
    """Warmup steps, training time, NVIDIA cards and a dropout rate "at a rate of"."""
    steps = rf"{NUM}\s*[kK]?\s+(?:training\s+)?(?:steps|updates|iterations|epochs)"
    # a share of the training: "the first 10% of steps", "the first $0.1$ fraction of the steps"
    share = (
        rf"(?:\$\s*)?{NUM}(?:\s*\$)?\s*(?:%|percent|fraction)\s+of\s+(?:the\s+)?"
        r"(?:training\s+)?(?:steps|updates|iterations|training)"
    )
    return {
        "warmup": [
            # "a warm-up of 10K steps", "warms up for 8,000 steps", "the learning rate is warmed up
            # for 20 epochs", "a linear warmup schedule for the first $0.1$ fraction of the steps"
            re.compile(
                r"\bwarm(?:-?up|s?\s+up|ed\s+up)\b(?:\s+(?:period|phase|stage|schedule))?\s+"
                rf"(?:of|for|over|during)\s+(?:the\s+first\s+)?(?P<v>{steps}|{share})(?!\w)",
                re.I,
            ),
        ],
        "compute": [
            # a training time in words: "training took four days", "which takes approximately
            # two days", "it took about a day to train"; not hours of data ("60 hours of ...")
            re.compile(
                r"^(?=.*\b(?:train\w*|epochs?)\b).*?\b(?:took|takes|take|taking|lasted|lasts)\s+"
                r"(?:only\s+|about\s+|approximately\s+|around\s+|roughly\s+|nearly\s+|almost\s+)?"
                rf"(?P<v>(?:an?|half\s+a|{words})\s+"
                r"(?:hours?|days?|weeks?|minutes?))\b(?!\s+of\b)",
                re.I,
            ),
        ],
        "hardware": [
            # a card NVIDIA names, however the model is spelled: "one NVIDIA GTX1080Ti GPU",
            # "8/1 NVIDIA M40 GPUs", "an NVIDIA Titan-X GPU", "4 Nvidia Telsa V100-16GB GPUs"
            re.compile(
                r"(?P<v>\b(?:(?<!/)(?:\d+|a\s+single|single|one|two|four|eight)\s+)?(?i:nvidia)\s+"
                r"(?:(?:Tesla|Telsa|GeForce|Quadro|GTX|RTX)\s+)*(?:[A-Z]{1,4}[\s-]?\d{2,4}\w*|"
                r"(?i:titan)[\s-]?\w+)(?:-\d+\s?GB)?(?:\s+GPUs?)?)(?![\w-])"
            ),
        ],
        "dropout": [
            re.compile(
                rf"\bdropout\b(?:\s+\w+){{0,3}}?\s+(?:at|with)\s+a\s+rate\s+of\s+(?P<v>{NUM})",
                re.I,
            ),
        ],
    }


def _stated_without_a_number(words: str) -> dict[str, list[re.Pattern[str]]]:
    """Settings a paper states by what it does rather than by a number: repeated runs from
    different initialisations, a learning rate kept fixed, dropout it does not use."""
    return {**_runs_and_schedules(words), **_named_without_a_value()}


def _runs_and_schedules(words: str) -> dict[str, list[re.Pattern[str]]]:
    """Repeated runs (seeds) and a learning rate's schedule, said in words."""
    count = rf"(?:\d+|{words})"
    return {
        "seeds": [
            # "we run each experiment five times with different initializations and report the
            # mean", "experimented with 10 different random initializations"; not an ensemble of
            # models trained from different initialisations (no run or report of results)
            re.compile(
                r"^(?=.*\b(?:runs?|experiment\w*|repeat\w*|report\w*|averag\w*|mean)\b).*?"
                rf"(?P<v>\b(?:{count}\s+times\s+with\s+|{count}\s+)?(?:different|independent)\s+"
                r"(?:random\s+)?initiali[sz]ations)\b",
                re.I,
            ),
            # "each experiment is run five times, and the average ... is reported", "the average
            # result of 4 repeated experiments"; not folds of a cross-validation
            re.compile(
                r"^(?=.*\b(?:averag\w*|mean|median|standard\s+deviations?|confidence)\b)"
                r"(?!.*\b(?:folds?|cross-validat\w*)\b).*?"
                rf"(?P<v>\b(?:(?:is|was|are|were)\s+(?:run|trained|repeated)\s+(?:twice|{count}\s+times)|"
                rf"{count}\s+(?:repeated|independent)\s+(?:experiments|runs|trials)))\b",
                re.I,
            ),
        ],
        "schedule": [
            # a decay named after the rate it changes, in the learning rate's sentence: "a
            # learning rate of 0.1 with a learning rate decay", "... to a peak learning rate of
            # 1e-4 followed by decay", "the rate decreasing by a factor of 2 after every epoch"
            re.compile(
                r"^(?=.*\blearning[- ]rates?\b).*?(?P<v>\b(?:followed\s+by|with)\s+(?:an?\s+)?"
                r"(?:learning[- ]rate\s+)?decay\b|\bthe\s+rate\s+(?:is\s+|was\s+)?"
                r"(?:decreas|decay|halv|reduc|divid|lower)\w*\s+by\b[^.;]{0,50})",
                re.I,
            ),
            # "a linear decaying learning rate", "an exponentially decayed learning rate"
            re.compile(
                r"(?P<v>\b(?:linear(?:ly)?|exponential(?:ly)?|polynomial(?:ly)?|cosine|step)\s+"
                r"(?:decaying|decayed|decreasing)\s+learning[- ]rates?)\b",
                re.I,
            ),
            # "trained using Adam with a fixed learning rate of 0.0002", "we fine tune it with a
            # constant learning rate"
            re.compile(
                r"^(?=.*\b(?:we|us(?:e|es|ed|ing)|train\w*|fine[- ]?tun\w*)\b).*?"
                r"(?P<v>\b(?:fixed|constant)\s+learning[- ]rate)\b",
                re.I,
            ),
        ],
    }


def _named_without_a_value() -> dict[str, list[re.Pattern[str]]]:
    """A warmup given as a share or named without its length; dropout used without a rate, or
    not used."""
    return {
        "warmup": [
            # a warmup given as a share: "with a warmup rate ranging from 0.06 to 0.25", "we set
            # the learning rate warmup in X to 0.05 and 0.1 for ..."
            re.compile(
                r"\bwarm-?up\s+(?:rate|ratio|proportion)\s+(?:of\s+|is\s+|was\s+|=\s*|ranging\s+"
                rf"from\s+|from\s+|set\s+to\s+)?(?P<v>{NUM}(?:\s*(?:to|and|-|–)\s*{NUM})?)",
                re.I,
            ),
            re.compile(
                r"\bset\s+(?:the\s+)?(?:learning[- ]rate\s+)?warm-?up(?:\s+(?:rate|ratio|"
                r"proportion|steps))?(?:\s+(?:in|on|for)\s+\w+)?\s+to\s+"
                rf"(?P<v>{NUM}(?:\s+and\s+{NUM})?)",
                re.I,
            ),
            # a warmup named without its length: "a learning rate of X with learning rate warmup
            # during the first ..." (the length given by a symbol)
            re.compile(
                r"\bwith\s+(?:an?\s+)?(?:linear\s+)?(?P<v>learning[- ]rate\s+warm-?up)\b", re.I
            ),
        ],
        "dropout": [
            # dropout the paper's models use, named without a rate: "in all our models, besides
            # dropout regularization, ...", "it consists of two layers, dropout to regularize
            # the weights, and ..."
            re.compile(
                r"^(?=.*\b(?:we|our|consists?|applied|use[sd]?)\b)(?!.*\b(?:without|no)\s+dropout)"
                r".*?(?P<v>\bdropout\s+(?:regulari[sz]ation|to\s+regulari[sz]e(?:\s+the\s+\w+)?))\b",
                re.I,
            ),
            # "we did not use dropout", "layer normalization is used, but no dropout"
            re.compile(
                r"(?P<v>\b(?:did|do|does)\s+not\s+(?:use|apply|employ)\s+(?:any\s+)?dropout)\b",
                re.I,
            ),
            re.compile(
                r"^(?=.*\b(?:used|applied|use|apply)\b)(?!.*\b(?:without|remains?)\b).*?"
                r"(?P<v>\bno\s+dropout)\b",
                re.I,
            ),
        ],
    }
