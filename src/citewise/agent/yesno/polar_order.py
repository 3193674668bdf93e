"""Who does what to whom: a yes/no question's subject and object against the sentence that
would answer it (agent/yesno/polar.py).

"Does X cite Y?" is not answered by "Y cites X". A relation word (the verb) splits a clause
into the side that does and the side that is done to; a Yes or a No needs every word the
question and the sentence share to stand on the same side of the relation in both. The
passive voice moves the sides: "Y is cited by X" is read as "X cites Y" (the "by" phrase is
the doer, what stands before the verb is done to), and so is the question "Is Y cited by
X?"; for a verb whose doer is a text (cite, mention, describe, ...) an "in" phrase is the
doer when there is no "by" ("X is cited in Y" is "Y cites X"). A phrase fronted before a
comma is read at the end of its clause ("As the retriever, we use X" is "we use X as the
retriever"; "In contrast to X, Y uses Z" says nothing of what X uses). A question asked in
the passive without a doer ("Is X trained on Y?") is answered by "We train X on Y" as by "X
is trained on Y": in both, X and Y follow the verb once the passive is undone. The other way
round, "Did they train X on Y?" is answered by "X is trained on Y": a question's subject may
be a pronoun that is no word of the claim, and the verb after it is then the relation. A
hyphenated compound is one word here ("Was X fine-tuned on Y?" against "We fine-tune X on
Y": "fine" is part of the verb, not a word before it).

The relation is the question's participle after "is"/"was" ("Is X trained ..."), or the
question's word that the sentence writes as a verb: after a be-form as a participle, after a
pronoun, an auxiliary, "not" or "to", or inflected where the question has the base form
("uses" for "use"). When no such word is found, every shared word must keep the question's
order; when the sentence does not write the relation at all, the order is not established.
Either way a failed check means no lead, never the opposite lead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.agent.yesno.polar_words import words
from citewise.retrieval.terms import stem

WORD = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)*|[,;:()?]")
# a hyphenated compound ("fine-tuned", "pre-trained") is one word to the order check
_COMPOUND = re.compile(r"[A-Za-z0-9]+(?:[-‐][A-Za-z0-9]+)+")

_BE = words("be")
# words that end a clause: the passive's sides stay within it
CLAUSE_ENDS = words("clause_ends")
# common irregular participles (the rest end in -ed)
_IRREGULAR = words("irregular_participles")
_NOT_PARTICIPLES = words("not_participles")
# what stands right before a verb: a subject pronoun, an auxiliary or modal, a negation, "to"
_BEFORE_VERB = words("before_verb")
# a participle right before one of these has no object: "a model trained on Y", "cited by X"
_PREPOSITIONS = words("prepositions")
# between two words, these put them in different phrases, whose order English keeps
PHRASE_BREAKS = _PREPOSITIONS | words("phrase_breaks")
# verbs whose doer is a text: "X is cited in Y" is "Y cites X" (an "in" phrase is the doer
# when no "by" phrase is)
_TEXT_VERBS = sorted(words("text_verbs"))
# a phrase fronted before a comma ("As the retriever, we use X"): its place in the clause
# after the comma is the clause's end ("we use X as the retriever")
_FRONTED = words("fronted")
_SUBJECTS = words("subjects")
_PERFECT = words("perfect")  # "we trained X": active
_DETERMINERS = words("determiners")
_INFLECTIONS = tuple(sorted(words("inflections")))


def tokens(text: str) -> list[str]:
    """Lower-case words and the punctuation that ends a clause."""
    return [w.lower() for w in WORD.findall(text)]


def order_tokens(text: str) -> list[str]:
    """`tokens`, with a hyphenated compound written as one word without its hyphens
    ("fine-tuned" -> "finetuned", as "finetuned" is written): its first part ("fine") is
    part of the verb, not a word on one side of it."""
    return tokens(_COMPOUND.sub(lambda m: re.sub("[-‐]", "", m.group()), text))


def same_word(a: str, b: str) -> bool:
    """One word, perhaps inflected ("cite" / "cited", "use" / "uses")."""
    if stem(a) == stem(b):
        return True
    short, long = sorted((a, b), key=len)
    base = short[:-1] if short.endswith("e") else short
    return len(short) > 2 and any(long in (short + i, base + i) for i in _INFLECTIONS)


def _participle(word: str) -> bool:
    regular = len(word) > 3 and word.endswith("ed") and not word.endswith("eed")
    return (regular and word not in _NOT_PARTICIPLES) or word in _IRREGULAR


@dataclass(frozen=True)
class _Relation:
    at: int  # the relation word's index
    passive: bool


def clause(words: list[str], at: int) -> tuple[int, int]:
    """The clause around word `at`: [start, end) between CLAUSE_ENDS."""
    start = at
    while start > 0 and words[start - 1] not in CLAUSE_ENDS:
        start -= 1
    end = at + 1
    while end < len(words) and words[end] not in CLAUSE_ENDS:
        end += 1
    return start, end


def _is_passive(words: list[str], at: int) -> bool:
    """A participle after a be-form ("is not cited"), or one with no object that follows a
    noun ("a model trained on Y", "Y, cited by X")."""
    if not _participle(words[at]):
        return False
    for k in range(at - 1, max(-1, at - 4), -1):
        if words[k] in CLAUSE_ENDS:
            break
        if words[k] in _BE:
            return True
    after = words[at + 1] if at + 1 < len(words) else ""
    before = words[at - 1] if at > 0 else ""
    return after in _PREPOSITIONS and before not in _PERFECT and before not in _BE


def _canonical(words: list[str], relation: _Relation | None) -> list[str]:
    """The words in active order: doer, relation, what is done to, the rest. A passive
    clause is reordered ("Y is cited by X" -> "X cited Y is"); anything else is as written."""
    if relation is None or not relation.passive:
        return words
    at = relation.at
    start, end = clause(words, at)
    by = next((k for k in range(at + 1, end) if words[k] == "by"), None)
    if by is None and any(same_word(words[at], v) for v in _TEXT_VERBS):
        by = next((k for k in range(at + 1, end) if words[k] == "in"), None)
    by = end if by is None else by
    # the doer is the noun phrase after "by", up to the next phrase ("... on wet slabs")
    stop = next((k for k in range(by + 1, end) if words[k] in PHRASE_BREAKS), end)
    doer, done_to = words[by + 1 : stop], words[start:at]
    rest = words[at + 1 : by] + words[stop:end]
    return [*words[:start], *doer, words[at], *done_to, *rest, *words[end:]]


def fronted_last(words: list[str]) -> list[str]:
    """ "As the retriever, we use X on Y" -> "we use X on Y as the retriever": a phrase
    fronted before a comma moved to the end of the clause it belongs to (unchanged when the
    words before the comma are a clause of their own, "As we show, ...")."""
    if not words or words[0] not in _FRONTED or "," not in words:
        return words
    comma = words.index(",")
    if any(w in _SUBJECTS or w in _BE or w in CLAUSE_ENDS for w in words[1:comma]):
        return words
    end = next((k for k in range(comma + 1, len(words)) if words[k] in CLAUSE_ENDS), len(words))
    return [*words[comma + 1 : end], *words[:comma], *words[end:]]


def _question_relation(asked: list[str], claim: set[str]) -> _Relation | None:
    """ "Is X trained on Y?": the first participle after the subject, in the passive."""
    if not asked or asked[0] not in _BE:
        return None
    subject = False
    for n, word in enumerate(asked[1:], start=1):
        if subject and stem(word) in claim and _participle(word):
            return _Relation(n, passive=True)
        subject = subject or (stem(word) in claim and word not in _DETERMINERS)
    return None


def _verb_in(sentence: list[str], word: str) -> int | None:
    """Where the sentence writes `word` as a verb, or None."""
    for k, said in enumerate(sentence):
        if not same_word(said, word):
            continue
        before = sentence[k - 1] if k else ""
        if before in _BEFORE_VERB or before.endswith(("n't", "n’t")) or _is_passive(sentence, k):
            return k
        if said != word and said.startswith(word[:-1] if word.endswith("e") else word):
            return k  # "uses" where the question has "use"
    return None


def _sentence_relation(
    asked: list[str], sentence: list[str], claim: set[str], relation: _Relation | None
) -> tuple[_Relation | None, _Relation | None] | None:
    """The relation in the question and in the sentence (None, None: no relation word;
    None: the question's relation is not in the sentence)."""
    if relation is not None:
        word = asked[relation.at]
        at = next((k for k, w in enumerate(sentence) if same_word(w, word)), None)
        if at is None:
            return None
        return relation, _Relation(at, _is_passive(sentence, at))
    content = [n for n, w in enumerate(asked) if stem(w) in claim]
    # a relation word has the subject before it and the object after it in the question;
    # the subject may be a pronoun ("Did they train X on Y?"), which is no claim word
    pronoun = bool(content) and any(w in _SUBJECTS for w in asked[1 : content[0]])
    for n in content[0 if pronoun else 1 : -1]:
        at = _verb_in(sentence, asked[n])
        if at is not None:
            return _Relation(n, passive=False), _Relation(at, _is_passive(sentence, at))
    return None, None


def _first(words: list[str]) -> dict[str, int]:
    places: dict[str, int] = {}
    for n, word in enumerate(words):
        places.setdefault(stem(word), n)
    return places


def same_direction(asked: list[str], sentence: list[str], claim: set[str]) -> bool:
    """`in_direction` for the sentence with a fronted phrase in its place at the clause's
    end: "In contrast to X, Y uses Z" says that Y, not X, uses Z."""
    return in_direction(asked, fronted_last(sentence), claim)


def reversed_sides(asked: list[str], sentence: list[str], claim: set[str]) -> bool:
    """The sentence writes the question's relation word and puts a word they share on the
    other side of it, or swaps two phrases of a side ("Y cites X" for "Does X cite Y?");
    False when it writes no relation word, so the order is not established either way."""
    sentence = fronted_last(sentence)
    found = _sentence_relation(asked, sentence, claim, _question_relation(asked, claim))
    if found is None or found[0] is None or found[1] is None:
        return False
    return not in_direction(asked, sentence, claim)


def in_direction(asked: list[str], sentence: list[str], claim: set[str]) -> bool:
    """Every claim word the sentence shares with the question (`asked`: its asking clause
    from the auxiliary) stands on the question's side of the relation, and the phrases of a
    side keep their order ("trained X on Y" is not "trained Y on X"); without a relation
    word, every shared word keeps the question's order."""
    found = _sentence_relation(asked, sentence, claim, _question_relation(asked, claim))
    if found is None:
        return False
    in_question, in_sentence = found
    question = _canonical(asked, in_question)
    q, s = _first(question), _first(_canonical(sentence, in_sentence))
    shared = sorted((c for c in claim if c in q and c in s), key=lambda c: q[c])
    if in_question is None or in_sentence is None:
        return all(s[a] < s[b] for a, b in zip(shared, shared[1:], strict=False))
    q_at = q[stem(asked[in_question.at])]
    s_at = s[stem(sentence[in_sentence.at])]
    sides = [c for c in shared if q[c] != q_at and s[c] != s_at]
    if any((q[c] < q_at) != (s[c] < s_at) for c in sides):
        return False
    return all(
        s[a] < s[b]
        for n, a in enumerate(sides)
        for b in sides[n + 1 :]
        if (q[a] < q_at) == (q[b] < q_at) and PHRASE_BREAKS & set(question[q[a] : q[b]])
    )
