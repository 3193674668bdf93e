"""How often papers write each setting's usual phrasings, and how often `setup` reads the setting.

    python benchmarks/setup_forms.py --library LIB [--corpus DIR] [--json]

Counts over the QASPER pool's papers (DIR, default ../shared/qa/external/qasper/corpus) that LIB
holds, leaving out the held-out parts of benchmarks/matrix_gold.yaml (only their file names are
read). For each form: the papers whose prose writes it (share of the pool), and of those the
papers where `citewise setup` reads the setting at all. A form written by fewer than 1% of the
papers is not worth a reader of its own (docs/benchmarks.md, fifth session).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.agent.comparison.aspects import load_paper  # noqa: E402
from citewise.agent.comparison.matrix import cached_gazetteer  # noqa: E402
from citewise.agent.comparison.setup import extract_setup  # noqa: E402
from citewise.store.factory import open_store  # noqa: E402

GOLD = ROOT / "benchmarks" / "matrix_gold.yaml"
# ../shared beside the repository (or beside the folder of worktrees)
CORPUS = next(
    (c for up in (ROOT.parent, ROOT.parent.parent)
     if (c := up / "shared" / "qa" / "external" / "qasper" / "corpus").is_dir()),
    ROOT.parent / "shared" / "qa" / "external" / "qasper" / "corpus",
)  # fmt: skip
_N = r"(?:\d+(?:[.,]\d+)*(?:e-?\d+)?|\.\d+)"
_W = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred)"
# (setting, form): the phrasing as a pattern over a sentence (case-insensitive)
FORMS: dict[tuple[str, str], str] = {
    ("epochs", "N epochs"): rf"\b{_N}\s+(?:training\s+)?epochs?\b",
    ("epochs", "epochs in words"): rf"\b{_W}\s+(?:training\s+|full\s+)?epochs?\b",
    ("epochs", "number of epochs ... N"): rf"number of (?:training\s+)?epochs?\b[^.;]{{0,30}}?\b"
    rf"(?:is|was|to|of|as|=|:)\s+{_N}",
    ("epochs", "converges in/within N epochs"): rf"\bconverge[sd]?\w*\s+(?:in|after|within)\s+"
    rf"(?:about\s+|around\s+|roughly\s+)?(?:{_N}|{_W})\s+epochs?\b",
    ("epochs", "N training steps/iterations"): rf"\b{_N}\s*[kKM]?\s+(?:training\s+|update\s+)?"
    r"(?:steps|iterations|updates)\b",
    ("batch size", "batch size ... N"): rf"batch[- ]size\b[^.;]{{0,40}}?\b{_N}",
    ("batch size", "mini-batch(es) of N"): rf"\b(?:mini-?\s?)?batch(?:es)?\s+of\s+(?:size\s+)?{_N}",
    ("batch size", "batches contain N"): rf"\bbatch(?:es)?\s+(?:contain|has|have|consist)\w*\s+"
    rf"(?:of\s+)?(?:about\s+)?{_N}",
    ("learning rate", "learning rate ... N"): rf"learning[- ]rate\b[^.;]{{0,40}}?\b{_N}",
    ("learning rate", "lr = N"): rf"\blr\b\s*[=:]\s*{_N}",
    ("learning rate", "LaTeX value beside a setting"): r"(?:learning[- ]rate|dropout|weight decay|"
    r"batch)[^.;]{0,40}\$[^$]{0,30}\d[^$]{0,30}\$",
    ("learning rate", "set the <setting> to N"): r"\bset\b[^.;]{0,60}(?:learning[- ]rate|batch[- ]"
    rf"size|dropout|epochs)\s+(?:to|as|at)\s+(?:be\s+)?(?:{_N}|\$)",
    ("optimizer", "Adam(W)"): r"\badamw?\b",
    ("optimizer", "Adagrad/Adadelta/RMSProp"): r"\bada-?grad\b|\badadelta\b|\brms-?prop\b",
    ("optimizer", "SGD / stochastic gradient descent"): r"\bSGD\b|stochastic gradient descent",
    ("optimizer", "with momentum"): r"\bmomentum\b",
    ("warmup", "warm-up"): r"\bwarm[- ]?up",
    ("warmup", "warm(s) up for/over N steps"): rf"warm(?:-?up|s?\s+up)\b\s+(?:\w+\s+)?(?:of|for|"
    rf"over)\s+(?:the\s+first\s+)?{_N}\s*[kK]?\s+(?:steps|updates|iterations)",
    ("warmup", "N steps of warmup"): rf"{_N}\s*[kK]?\s+steps\s+of\s+(?:\w+\s+)?warm[- ]?up",
    ("hardware", "NVIDIA <model>"): r"\bnvidia\s+(?:\w+\s+){0,2}?(?:[A-Z]{1,4}[\s-]?\d{2,4}|titan)",
    ("hardware", "Tesla/GTX/Titan/K80/V100..."): r"\b(?:Tesla|GTX|Titan|[KPVMT]\d{2,3})\b",
    ("hardware", "N GPUs"): rf"\b(?:\d+|{_W}|single|a)\s+(?:\w+\s+){{0,3}}GPUs?\b",
    ("hardware", "TPU"): r"\bTPUs?\b",
    ("software", "implemented in/using/with X"): r"\bimplement\w*\s+(?:\w+\s+){0,3}?(?:in|using|"
    r"with|on)\s+[A-Z]",
    ("software", "PyTorch/TensorFlow/Keras/DyNet/Theano"): r"\b(?:pytorch|tensorflow|keras|dynet|"
    r"theano)\b",
    ("dropout", "dropout (rate|probability) of N"): rf"dropout\s+(?:rate|probability|ratio)?\s*of"
    rf"\s+{_N}",
    ("dropout", "dropout ... N"): rf"dropout\b[^.;]{{0,40}}?\b{_N}",
    ("dropout", "dropout at a rate of N"): rf"dropout\b(?:\s+\w+){{0,3}}?\s+(?:at|with)\s+a\s+rate"
    rf"\s+of\s+{_N}",
    ("gradient clipping", "clip(ped) ... norm / gradient clipping"): r"\bclip\w*\b[^.;]{0,40}\b"
    r"norm|gradient[- ]clipping",
    ("seeds", "random seeds"): r"random seeds?",
    ("seeds", "averaged over N runs"): rf"\b(?:averag\w*|mean|median)\b[^.;]{{0,40}}?\b(?:over|of|"
    rf"across)\s+(?:the\s+)?(?:\d+|{_W})\s+(?:\w+\s+)?(?:runs|trials|repetitions|restarts|seeds)\b",
    ("compute", "training took N hours/days"): rf"\b(?:took|takes|lasted)\s+(?:\w+\s+)?(?:{_N}|"
    rf"{_W}|an?)\s+(?:hours?|days?|weeks?)\b",
    ("software", "<Name> tagger/parser/aligner/tokenizer"): r"\b(?-i:[A-Z][\w+.-]*)\s+(?:(?-i:[A-Z]"
    r"[\w+.-]*)\s+){0,2}(?:POS[- ])?(?:tagger|parser|aligner|tokeni[sz]er|lemmati[sz]er|stemmer|"
    r"segmenter)s?\b",
    ("software", "Hugging Face"): r"\bhugging\s?face\b",
    ("software", "<Name> API"): r"\b(?-i:[A-Z]\w+)(?:\s+(?-i:[A-Z]\w+)){0,3}\s+(?-i:API)\b",
    ("schedule", "exponential/linear/cosine decay"): r"\b(?:exponential|linear|cosine|polynomial|"
    r"inverse[- ]square[- ]root|step)\w*\s+(?:learning[- ]rate\s+)?(?:decay|annealing|schedule)",
    ("hardware", "an ACL Anthology ID like a card (P15-1137)"): r"\b(?-i:[KPVMT]\d{2,3})-\d{4}\b",
    ("code availability", "code is available at"): r"\bcode\b[^.;]{0,40}\bavailable",
    ("code availability", "github link"): r"github\.com/",
}


def count(library: Path, corpus: Path) -> dict[str, object]:
    gold = yaml.safe_load(GOLD.read_text())
    held_out = {p["file"] for p in gold["papers"] if p["part"] != "dev"}
    pool = {p.name for p in corpus.glob("*.md")} - held_out
    store = open_store(library, library)
    gazetteer = cached_gazetteer(store)
    patterns = {key: re.compile(p, re.I) for key, p in FORMS.items()}
    writes: dict[tuple[str, str], int] = dict.fromkeys(FORMS, 0)
    read: dict[tuple[str, str], int] = dict.fromkeys(FORMS, 0)
    papers = 0
    for doc in store.documents():
        if Path(doc.path).name not in pool:
            continue
        papers += 1
        paper = load_paper(store, doc)
        prose = [u.text for u in paper.units if u.kind != "table"]
        settings = extract_setup(paper, gazetteer)
        for (aspect, form), pattern in patterns.items():
            if any(pattern.search(t) for t in prose):
                writes[(aspect, form)] += 1
                read[(aspect, form)] += settings.item(aspect).stated
    store.close()
    rows = [
        {"setting": a, "form": f, "papers": writes[(a, f)],
         "share": round(writes[(a, f)] / papers, 3) if papers else None,
         "setting_read": read[(a, f)]}
        for a, f in FORMS
    ]  # fmt: skip
    return {"papers": papers, "forms": rows}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = count(args.library, args.corpus)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"papers: {result['papers']}")
    print(f"{'setting':18} {'form':42} papers  share  setting read")
    for r in result["forms"]:  # type: ignore[attr-defined]
        share = f"{r['share']:.1%}"
        print(f"{r['setting']:18} {r['form']:42} {r['papers']:6} {share:>6} {r['setting_read']:6}")


if __name__ == "__main__":
    main()
