"""Word gaps set without space characters get their spaces back."""

from __future__ import annotations

from citewise.documents.pdf.spacing import needs_respacing, respace


def _page(text: str, gaps: dict[int, float]) -> tuple[dict, dict]:
    x, chars = 10.0, []
    for i, ch in enumerate(text):
        x += gaps.get(i, 0.0)
        chars.append({"c": ch, "bbox": (x, 0.0, x + 4.0, 9.0)})
        x += 4.0
    box = (10.0, 0.0, x, 9.0)
    span = {"text": text, "size": 9.0, "bbox": box}
    raw = {"blocks": [{"lines": [{"spans": [span]}]}]}
    rawdict = {"blocks": [{"lines": [{"spans": [{**span, "chars": chars}]}]}]}
    return raw, rawdict


def test_gaps_become_spaces_and_kerning_does_not() -> None:
    text = "CompositionofthepretrainingdataforOLMo"
    raw, chars = _page(text, {11: 1.2, 13: 1.2, 16: 1.2, 27: 1.2, 31: 1.2, 34: 1.2, 5: 0.3})
    assert needs_respacing(raw)
    respace(raw, chars)
    assert raw["blocks"][0]["lines"][0]["spans"][0]["text"] == (
        "Composition of the pretraining data for OLMo"
    )


def test_ordinary_text_is_left_alone() -> None:
    raw, _ = _page("plain words", {})
    assert not needs_respacing(raw)
