"""Golden check for parser speed work: another tree's parse and this tree's must be identical.

    python benchmarks/parse_golden.py REF_TREE [PDF_OR_DIR ...] [--keep DIR] [--no-ocr] [--pool]

Every PDF (default: ../shared/corpus and the FinanceBench dev filings beside the
repository) is parsed by REF_TREE's citewise (e.g. `git archive main src | tar -x -C /tmp/ref`)
and by this tree's, each in a process of its own, and the documents compared field by
field as ingest stores them (after bounds.bound_blocks): every block's text, kind, page,
bbox, section path, label, font, trust and data (table cells with their boxes, equations,
OCR), the references, the citations and the metadata. Exit status 1 on any difference,
naming the file and the first block that differs. `--pool`: both trees parse in worker
processes (documents/pool/parallel.ParsePool), as ingest does, instead of in the process.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def default_pdfs() -> list[Path]:
    shared = ROOT.parent / "shared"
    if not shared.is_dir():
        shared = Path("/work/shared")
    folders = [shared / "corpus", shared / "qa" / "external" / "financebench" / "corpus"]
    return [p for folder in folders for p in sorted(folder.glob("*.pdf"))]


def expand(items: list[str]) -> list[Path]:
    out: list[Path] = []
    for item in items:
        path = Path(item)
        out += sorted(path.glob("*.pdf")) if path.is_dir() else [path]
    return out


def dump(pdfs: list[Path], out: Path, ocr: bool, pool: bool = False) -> None:
    """Parse each PDF with the citewise on sys.path (in worker processes when `pool`);
    write <name>.json per file."""
    from citewise.documents.bounds import bound_blocks
    from citewise.documents.pdf.reader import read_pdf

    if pool:
        from citewise.documents.pdf import ocr as ocr_module
        from citewise.documents.pool.parallel import ParsePool

        if not ocr:  # tesseract hidden from the workers (forked: they inherit this)
            ocr_module.tesseract_command = lambda chosen=None: None
        with ParsePool(pdfs) as parsing:
            docs = dict(parsing.results())
    for pdf in pdfs:
        doc = docs[pdf] if pool else read_pdf(pdf, ocr=ocr)
        if isinstance(doc, Exception):
            raise doc
        bound_blocks(doc)
        record = dataclasses.asdict(doc)
        record["path"] = pdf.name
        record.pop("analysed", None)  # what an ingest derives, not the parse
        (out / f"{pdf.name}.json").write_text(json.dumps(record, sort_keys=True, default=str))


def run_tree(tree: Path, pdfs: list[Path], out: Path, ocr: bool, pool: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    command = [sys.executable, __file__, "--dump", str(out), *map(str, pdfs)]
    command += ([] if ocr else ["--no-ocr"]) + (["--pool"] if pool else [])
    subprocess.run(command, env=env, check=True)


def first_difference(ref: dict[str, Any], new: dict[str, Any]) -> str | None:
    """Where two dumped documents differ, in words; None when they are identical."""
    if ref == new:
        return None
    ref_blocks, new_blocks = ref.get("blocks", []), new.get("blocks", [])
    for i, (a, b) in enumerate(zip(ref_blocks, new_blocks, strict=False)):
        if a != b:
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            fields = "; ".join(f"{k}: {a.get(k)!r:.200} != {b.get(k)!r:.200}" for k in keys)
            return f"block {i} (page {a.get('page')}): {fields}"
    if len(ref_blocks) != len(new_blocks):
        return f"{len(ref_blocks)} blocks != {len(new_blocks)} blocks"
    keys = sorted(k for k in set(ref) | set(new) if ref.get(k) != new.get(k))
    return "fields differ: " + ", ".join(keys)


def compare(ref_dir: Path, new_dir: Path, pdfs: list[Path]) -> int:
    failures = 0
    for pdf in pdfs:
        ref = json.loads((ref_dir / f"{pdf.name}.json").read_text())
        new = json.loads((new_dir / f"{pdf.name}.json").read_text())
        where = first_difference(ref, new)
        status = "same" if where is None else f"DIFFERS: {where}"
        print(f"{pdf.name}: {len(new['blocks'])} blocks, {new['pages']} pages, {status}")
        failures += where is not None
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("ref_tree", nargs="?", type=Path)
    parser.add_argument("pdfs", nargs="*")
    parser.add_argument("--dump", type=Path, help=argparse.SUPPRESS)  # the child's mode
    parser.add_argument("--keep", type=Path, help="keep (and reuse) the reference dumps here")
    parser.add_argument("--no-ocr", action="store_true", help="parse without OCR")
    parser.add_argument("--pool", action="store_true", help="parse in worker processes")
    args = parser.parse_args()
    if args.dump:  # a child: the tree is on PYTHONPATH; ref_tree holds the first PDF
        items = [str(args.ref_tree), *args.pdfs] if args.ref_tree else args.pdfs
        dump(expand(items), args.dump, not args.no_ocr, args.pool)
        return
    if args.ref_tree is None:
        parser.error("give the reference tree (a checkout or an exported `src/` parent)")
    pdfs = expand(args.pdfs) if args.pdfs else default_pdfs()
    with tempfile.TemporaryDirectory() as tmp:
        ref_dir = args.keep or Path(tmp) / "ref"
        missing = [p for p in pdfs if not (ref_dir / f"{p.name}.json").exists()]
        if missing:
            run_tree(args.ref_tree.resolve(), missing, ref_dir, not args.no_ocr, args.pool)
        run_tree(ROOT, pdfs, Path(tmp) / "new", not args.no_ocr, args.pool)
        failures = compare(ref_dir, Path(tmp) / "new", pdfs)
    print(f"{len(pdfs) - failures} of {len(pdfs)} files parse identically")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
