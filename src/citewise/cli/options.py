"""Options several commands declare the same way (one spelling, one help text)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

LLM_HELP = "Language model as BACKEND:MODEL (llamacpp:FILE.gguf, ollama:qwen2.5:7b, openai:NAME)."
LlmOption = Annotated[str | None, typer.Option("--llm", metavar="BACKEND:MODEL", help=LLM_HELP)]
LlmUrlOption = Annotated[
    str | None,
    typer.Option("--llm-url", metavar="URL", help="Base URL of an OpenAI-compatible server (/v1)."),
]
NoCacheOption = Annotated[
    bool, typer.Option("--no-cache", help="Call the model even when a cached reply exists.")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
JsonSummaryOption = Annotated[bool, typer.Option("--json", help="Print a JSON summary.")]
SourcesConfigOption = Annotated[
    Path | None, typer.Option("--sources-config", help="sources.yaml overriding the defaults.")
]
