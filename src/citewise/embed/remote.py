"""Embedding servers: Ollama's `/api/embed` and any OpenAI-compatible `/embeddings`
(llama.cpp server, vLLM, LM Studio, cloud).

Vectors are stored under `BACKEND:MODEL` (e.g. `ollama:bge-m3`), so a library holds one set
per model and searches only the configured model's. The HTTP transport is injectable, so
tests replay a server's answers through the real client code.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from citewise.errors import CitewiseError

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)

EMBED_BACKENDS = ("ollama", "openai")
OLLAMA_URL = "http://127.0.0.1:11434"
OPENAI_URL = "http://127.0.0.1:8000/v1"  # python -m llama_cpp.server's default port
MAX_CHARS = 2000  # a block's first ~500 tokens: what embedding models read anyway
BATCH_SIZE = 32


class EmbeddingError(CitewiseError):
    code = "EMBED_ERROR"


class EmbeddingUnreachableError(EmbeddingError):
    code = "EMBED_UNREACHABLE"


class EmbeddingTimeoutError(EmbeddingError):
    code = "EMBED_TIMEOUT"


class UnknownEmbeddingModelError(EmbeddingError):
    code = "EMBED_UNKNOWN_MODEL"


class EmbeddingDimensionsError(EmbeddingError):
    code = "EMBED_DIMENSIONS"


class MalformedEmbeddingError(EmbeddingError):
    code = "EMBED_MALFORMED"


def start_hint(backend: str, url: str, model: str) -> str:
    if backend == "ollama":
        return f"start it with 'ollama serve' and 'ollama pull {model}', or pass --embed-url"
    return (
        f"start a server at {url}, e.g. 'python -m llama_cpp.server --model FILE.gguf "
        "--embedding true --port 8000', or pass --embed-url"
    )


def _vector(raw: object, where: str) -> list[float]:
    """One embedding as floats; a list of per-token vectors (llama.cpp's server for models
    without a pooling layer) is mean-pooled."""
    if isinstance(raw, list) and raw and all(isinstance(v, list) for v in raw):
        if len({len(v) for v in raw}) != 1:
            raise ValueError(f"{where}: per-token vectors of different lengths")
        raw = [sum(col) / len(raw) for col in zip(*raw, strict=True)]
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{where}: not a list of numbers")
    values = []
    for v in raw:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"{where}: {v!r} is not a finite number")
        values.append(float(v))
    return values


def parse_openai_embeddings(body: object, count: int) -> list[list[float]]:
    """Vectors from `{"data": [{"index": i, "embedding": [...]}, ...]}`, in input order."""
    if not isinstance(body, dict) or not isinstance(body.get("data"), list):
        raise ValueError("no 'data' list")
    items = body["data"]
    if len(items) != count:
        raise ValueError(f"{len(items)} embeddings for {count} inputs")
    if not all(isinstance(i, dict) and "embedding" in i for i in items):
        raise ValueError("an item has no 'embedding'")
    ordered = sorted(items, key=lambda i: i.get("index", 0)) if "index" in items[0] else items
    return [_vector(i["embedding"], f"data[{n}]") for n, i in enumerate(ordered)]


def parse_ollama_embeddings(body: object, count: int) -> list[list[float]]:
    """Vectors from Ollama's `{"embeddings": [[...], ...]}` (`/api/embed`)."""
    if not isinstance(body, dict) or not isinstance(body.get("embeddings"), list):
        raise ValueError("no 'embeddings' list")
    vectors = body["embeddings"]
    if len(vectors) != count:
        raise ValueError(f"{len(vectors)} embeddings for {count} inputs")
    return [_vector(v, f"embeddings[{n}]") for n, v in enumerate(vectors)]


def normalized(rows: list[list[float]]) -> np.ndarray:
    matrix = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    normalized: np.ndarray = matrix / np.maximum(norms, 1e-12)
    return normalized


class HttpEmbedder:
    """An embedding server. `dimensions` is the configured (or stored) width, else the
    server's, learnt from its first answer; a different width is an error, never stored."""

    def __init__(
        self,
        backend: str,
        model: str,
        url: str | None = None,
        dimensions: int | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        batch_size: int = BATCH_SIZE,
        max_chars: int = MAX_CHARS,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if backend not in EMBED_BACKENDS:
            raise EmbeddingError(
                f"unknown embedding backend '{backend}'",
                hint="use --embed ollama:MODEL or --embed openai:MODEL",
                code="BAD_EMBED_SPEC",
            )
        self.backend = backend
        self.model = model
        self.name = f"{backend}:{model}"
        default = OLLAMA_URL if backend == "ollama" else OPENAI_URL
        url = (url or default).rstrip("/")
        if backend == "ollama" and url.endswith("/v1"):
            url = url[: -len("/v1")]  # the native API lives beside Ollama's OpenAI one
        self.url = url
        self.endpoint = f"{url}/api/embed" if backend == "ollama" else f"{url}/embeddings"
        self._dimensions = dimensions
        self.batch_size = batch_size
        self.chunk = batch_size * 8  # blocks per ingest transaction
        self.max_chars = max_chars
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        import httpx  # only when a remote embedder is used: not on every start-up

        self._http = httpx.Client(headers=headers, timeout=timeout, transport=transport)

    @property
    def dimensions(self) -> int:
        if self._dimensions is None:
            self.encode(["dimension probe"])
        assert self._dimensions is not None
        return self._dimensions

    @dimensions.setter
    def dimensions(self, value: int) -> None:
        self._dimensions = value

    def close(self) -> None:
        self._http.close()

    def encode(self, texts: list[str], batch_size: int = BATCH_SIZE) -> np.ndarray:
        """L2-normalized float32 vectors, `self.batch_size` texts per request."""
        if not texts:
            return np.zeros((0, self._dimensions or 0), dtype=np.float32)
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = [(t[: self.max_chars] or " ") for t in texts[start : start + self.batch_size]]
            rows += self._check_width(self._request(batch))
        return normalized(rows)

    def _check_width(self, rows: list[list[float]]) -> list[list[float]]:
        widths = {len(r) for r in rows}
        if self._dimensions is None and len(widths) == 1:
            self._dimensions = widths.pop()
            return rows
        if widths != {self._dimensions}:
            raise EmbeddingDimensionsError(
                f"{self.endpoint} returned {', '.join(map(str, sorted(widths)))}-dimensional "
                f"vectors for '{self.model}'; {self._dimensions} expected",
                hint="the server serves another model under this name: fix 'dimensions' in "
                "the [embed] table of citewise.toml, or use a new model name (re-embeds)",
            )
        return rows

    def _request(self, batch: list[str]) -> list[list[float]]:
        import httpx

        payload: dict[str, Any] = {"model": self.model, "input": batch}
        if self.backend == "ollama":
            payload["truncate"] = True
        try:
            response = self._http.post(self.endpoint, json=payload)
        except httpx.TimeoutException as exc:
            raise EmbeddingTimeoutError(
                f"{self.endpoint} did not answer within {self._http.timeout.read} s",
                hint="raise 'timeout' or lower 'batch_size' in the [embed] table of citewise.toml",
            ) from exc
        except httpx.TransportError as exc:
            raise EmbeddingUnreachableError(
                f"cannot reach the embedding server at {self.url} ({type(exc).__name__})",
                hint=start_hint(self.backend, self.url, self.model),
            ) from exc
        if response.status_code >= 400:
            self._raise_for(response)
        parse = parse_ollama_embeddings if self.backend == "ollama" else parse_openai_embeddings
        try:
            return parse(response.json(), len(batch))
        except ValueError as exc:  # json.JSONDecodeError is a ValueError too
            raise MalformedEmbeddingError(
                f"{self.endpoint} sent a reply that is not an embedding response ({exc})",
                hint="check that --embed-url points at "
                + ("Ollama" if self.backend == "ollama" else "an OpenAI-compatible /v1 endpoint"),
            ) from exc

    def _raise_for(self, response: httpx.Response) -> None:
        detail = response.text[:300]
        lowered = detail.lower()
        if response.status_code == 404 or ("model" in lowered and "not found" in lowered):
            raise UnknownEmbeddingModelError(
                f"{self.endpoint} has no embedding model '{self.model}' "
                f"({response.status_code}: {detail})",
                hint=f"'ollama pull {self.model}'"
                if self.backend == "ollama"
                else "check the model name the server lists at /v1/models",
            )
        if response.status_code in (401, 403):
            raise EmbeddingError(
                f"{self.endpoint} refused the request ({response.status_code})",
                hint="set CITEWISE_EMBED_API_KEY for this server",
                code="EMBED_AUTH",
            )
        hint = ""
        if "embedding" in lowered and ("true" in lowered or "enable" in lowered):
            hint = "start the server with embeddings on ('--embedding true' for llama.cpp)"
        raise EmbeddingError(f"{self.endpoint} answered {response.status_code}: {detail}", hint)
