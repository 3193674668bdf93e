"""Who holds a role, read from a report's list of contributors (issue 11).

"Which individual leads this program?" / "Who chaired the committee?": a report names the
role as a heading ("Lead Coordinator", "Chair") with the one person who holds it below. The
answer is that sole entry when exactly one such heading, with exactly one entry, names the
role; a heading over many people ("Lead Authors") names a group, not the one asked for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.question import Question
from citewise.retrieval.hybrid import Hit
from citewise.store.library import StoredBlock
from citewise.store.protocols import Store

_WHO = re.compile(r"\b(who|whom|which (?:individual|person|people|member))\b", re.I)
# The role verb or noun the question uses -> the start of the heading word that names it.
_ROLES = {
    "lead": "lead",
    "leads": "lead",
    "led": "lead",
    "leader": "lead",
    "chair": "chair",
    "chairs": "chair",
    "chaired": "chair",
    "coordinate": "coordinat",
    "coordinates": "coordinat",
    "coordinated": "coordinat",
    "coordinator": "coordinat",
    "direct": "direct",
    "directs": "direct",
    "directed": "direct",
    "director": "direct",
    "head": "head",
    "heads": "head",
    "headed": "head",
}
# One person's entry: a capitalised name, a comma, the organisation.
_ENTRY = re.compile(r"^[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){1,3}, [A-Z]")
MAX_ENTRY_WORDS = 15
# Each "First [M.] Last, " in a block is one person's entry.
_PEOPLE = re.compile(r"(?:^|(?<=\s))[A-Z][\w'-]+(?: [A-Z]\.)? [A-Z][\w'-]+, ")


@dataclass
class Holder:
    """The sole entry under the heading that names the role."""

    heading: str
    block: StoredBlock


def _role(question: str) -> str | None:
    if not _WHO.search(question):
        return None
    found = {_ROLES[w] for w in re.findall(r"[a-z]+", question.lower()) if w in _ROLES}
    return found.pop() if len(found) == 1 else None


def _one_entry(block: StoredBlock) -> bool:
    """One person's entry: "Name, Organisation", not a list of them."""
    text = block.text
    return (
        bool(_ENTRY.match(text))
        and len(_PEOPLE.findall(text)) == 1
        and len(text.split()) <= MAX_ENTRY_WORDS
    )


def role_holder(question: str, blocks: list[StoredBlock]) -> Holder | None:
    """The one entry listed under the one heading naming the question's role, or None."""
    role = _role(question)
    if role is None:
        return None
    sections: dict[str, list[StoredBlock]] = {}
    for block in blocks:
        heading = block.section_path.split(" > ")[-1] if block.section_path else ""
        named = any(w.startswith(role) for w in re.findall(r"[a-z]+", heading.lower()))
        if named and len(heading.split()) <= 4 and block.kind != "heading":
            sections.setdefault(heading, []).append(block)
    single = [(h, bs[0]) for h, bs in sections.items() if len(bs) == 1 and _one_entry(bs[0])]
    if len(single) != 1:
        return None
    heading, block = single[0]
    return Holder(heading, block)


def holder_for(text: str, question: Question, hits: list[Hit], store: Store) -> Holder | None:
    """The role holder in the paper the question is scoped to (else the top hit's)."""
    documents = list(question.scope) or ([hits[0].block.document_id] if hits else [])
    for doc in documents:
        holder = role_holder(text, store.blocks(doc))
        if holder is not None:
            return holder
    return None
