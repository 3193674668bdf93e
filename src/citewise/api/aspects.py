"""What compare, matrix and setup take and show, for the faces: a comma-separated list of
aspects read into aspect names (aliases resolved, repeats dropped; ASPECT_EMPTY when the
list names none) and the words a cell shows when the paper does not state its aspect."""

from __future__ import annotations

from citewise.agent.comparison.aspects import parse_aspects
from citewise.agent.comparison.extraction import NOT_STATED

__all__ = ["NOT_STATED", "parse_aspects"]
