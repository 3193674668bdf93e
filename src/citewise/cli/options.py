"""Options several commands declare the same way (one spelling, one help text)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from citewise.cli import parsing as cli

LLM_HELP = "Language model as BACKEND:MODEL (llamacpp:FILE.gguf, ollama:qwen2.5:7b, openai:NAME)."
LlmOption = Annotated[str | None, cli.Option("--llm", metavar="BACKEND:MODEL", help=LLM_HELP)]
LlmUrlOption = Annotated[
    str | None,
    cli.Option("--llm-url", metavar="URL", help="Base URL of an OpenAI-compatible server (/v1)."),
]
NoCacheOption = Annotated[
    bool, cli.Option("--no-cache", help="Call the model even when a cached reply exists.")
]
JsonOption = Annotated[bool, cli.Option("--json", help="Print the result as JSON.")]
JsonSummaryOption = Annotated[bool, cli.Option("--json", help="Print a JSON summary.")]
SourcesConfigOption = Annotated[
    Path | None, cli.Option("--sources-config", help="sources.yaml overriding the defaults.")
]
