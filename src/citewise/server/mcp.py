"""`citewise mcp`: the library as an MCP server (official `mcp` SDK, stdio), for desktop
assistants, IDEs and scripts. Each tool is one call into `Library` (citewise.api); results
are the same JSON objects the HTTP API answers.

Over HTTP with `users` (`citewise mcp --http --users users.toml`), each user brings their
own token of `citewise serve --users`, and the role -> action table of HTTP decides what
they may call (server/permissions.py: a `read` user may ask, search, compare and build
matrices; start_research and queue_cancel answer FORBIDDEN); each call is written to a
shared library's audit log with the user's name. Every call, over stdio too, keeps the
HTTP API's limits (server/mcp_limits.py); over HTTP the connection and body limits of
`citewise serve` hold as well.

Read-only tools carry readOnlyHint; `search_literature` also openWorldHint (it goes to the
network). A failing tool answers an error result whose text starts with the citewise error
code and ends with its hint. Read-only tools run on readers of their own, so a long
comparison never holds up a document list; research runs in background threads
(server/mcp_library.py).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.server.mcpserver.utilities.types import Image
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import Resource, ToolAnnotations
from starlette.types import ASGIApp

from citewise.api import Library
from citewise.api.research import ResearchDesk, task_store
from citewise.config import Settings
from citewise.errors import CitewiseError
from citewise.server.guards import (
    BearerAuth,
    HostGuard,
    RequestLimits,
    allowed_hosts,
    require_token_off_loopback,
)
from citewise.server.mcp_access import audit_entry, coded, error_code, refusal, request_user
from citewise.server.mcp_library import LibraryTools
from citewise.server.mcp_limits import check_arguments
from citewise.server.mcp_queue import queue_tools
from citewise.server.nul_bytes import NulGuard
from citewise.server.tasks import TaskRequest, record_owner
from citewise.server.users import User

log = logging.getLogger(__name__)

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
NETWORK = ToolAnnotations(read_only_hint=True, open_world_hint=True)
STARTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DOCUMENT_URI = "citewise://documents/{document_id}"


def as_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


class CitewiseMCP(MCPServer[Any]):
    """MCPServer whose resource list is the library's documents as they are now; over
    HTTP with users, each tool call is checked against the caller's role and logged."""

    tools: LibraryTools
    roles: Mapping[str, str] = {}  # user name -> role, from `users` (empty: no users)
    actor = "local"  # who a call without a user is logged as

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        user = _request_user(context)
        tool = self._tool_manager.get_tool(name)
        read_only = tool is None or bool(tool.annotations and tool.annotations.read_only_hint)
        refused: CitewiseError | None = refusal(self.roles, user, name, read_only)
        if refused is None:
            try:
                check_arguments(name, arguments)
            except CitewiseError as exc:
                refused = exc
        if refused is not None:
            await self._audit(user, name, arguments, refused.code)
            raise ToolError(str(refused))
        try:
            result = await super().call_tool(name, arguments, context)
        except Exception as exc:
            await self._audit(user, name, arguments, error_code(exc))
            raise coded(exc) from exc
        await self._audit(user, name, arguments, None, _text(result))
        if name == "start_research" and user:  # listed as theirs by GET /tasks
            await anyio.to_thread.run_sync(lambda: self._own(_text(result), user))
        return result

    def _own(self, answer: str, user: str) -> None:
        try:
            task_id = str(json.loads(answer)["id"])
        except (ValueError, KeyError, TypeError):  # an error result names no task
            return
        self.tools.call(lambda lib: record_owner(task_store(lib), task_id, user))

    async def _audit(
        self,
        user: str | None,
        name: str,
        arguments: dict[str, Any],
        error: str | None,
        answer: str | None = None,
    ) -> None:
        """One line in a shared library's audit log: who called which tool on what."""
        action, subject, detail = audit_entry(name, arguments, error, answer)

        def record(library: Library) -> None:
            library.record_action(user or self.actor, action, subject, detail)

        try:
            await anyio.to_thread.run_sync(lambda: self.tools.read(record))
        except Exception:  # the answer is not lost for a log that could not be written
            log.exception("audit log: %s %s", user, name)

    async def list_resources(self) -> list[Resource]:
        listed = self.tools.read(lambda lib: lib.document_list())
        return [
            Resource(
                uri=DOCUMENT_URI.format(document_id=d["id"]),
                name=str(d["id"]),
                title=str(d["title"] or d["id"]),
                description=f"{d['pages']} pages: metadata, sections, tables, equations",
                mime_type="application/json",
            )
            for d in listed
        ]


def _text(result: object) -> str:
    """The text parts of a tool's result (a CallToolResult's content)."""
    parts = getattr(result, "content", None) or []
    return "".join(str(getattr(part, "text", "")) for part in parts)


def _request_user(context: Context[Any, Any] | None) -> str | None:
    try:
        return request_user(context.request_context.request) if context is not None else None
    except ValueError:  # the SDK's: no request around this call
        return None


def create_mcp(
    directory: str | Path | None = None, settings: Settings | None = None
) -> CitewiseMCP:
    """The MCP server over the library at `directory` (default: the current library;
    `settings` as the face read them, e.g. a postgresql:// library)."""
    server = CitewiseMCP(
        "citewise",
        instructions="A local PDF library: search it, ask questions answered with verbatim "
        "cited passages (document, page, bbox), read tables and equations, compare papers "
        "(compare, matrix, setup), run research tasks.",
    )
    tools = server.tools = LibraryTools(directory, settings)
    _library_tools(server, tools)
    _compare_tools(server, tools)
    _research_tools(server, tools)
    queue_tools(server, tools)  # a PostgreSQL library only

    @server.resource(DOCUMENT_URI, mime_type="application/json")
    def document(document_id: str) -> str:
        """A document's metadata and structure (the `citewise show --json` object)."""
        try:
            return as_json(tools.read(lambda lib: lib.document_details(document_id).to_dict()))
        except ToolError as exc:
            raise ResourceNotFoundError(str(exc)) from exc

    return server


def http_app(
    server: CitewiseMCP,
    host: str = "127.0.0.1",
    token: str | None = None,
    allow_hosts: Iterable[str] = (),
    users: Mapping[str, User] | None = None,
) -> ASGIApp:
    """The server over streamable HTTP at /mcp, under the rules of `citewise serve`: a Host
    that is not loopback, `host` or `allow_hosts` gets 421; with `token` every request
    needs 'Authorization: Bearer TOKEN'; with `users` (token digest -> User) each user's
    own token instead, and their role decides which tools they may call; a host other than
    loopback requires a token or users."""
    require_token_off_loopback(host, token or ("users" if users else None))
    server.roles = {u.name: u.role for u in (users or {}).values()}
    server.actor = "token" if token else "local"
    # the SDK's own Host check is off: HostGuard applies the server's one rule instead
    # Answers as one JSON body, not an SSE stream: no tool here streams progress, and the
    # stream's tasks cost a call about 8 more turns of the event loop, each one slow while
    # the loop also serves a thousand idle sockets (benchmarks/idle_connections.py)
    inner = server.streamable_http_app(
        host=host,
        json_response=True,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    # serve's body caps and deadlines; NUL bytes in the path (a tool's text: mcp_limits.py)
    limited = RequestLimits(NulGuard(inner, bodies=False), server.tools.limits)
    guarded = BearerAuth(limited, token, users=users, readable=frozenset({"/mcp"}))
    return HostGuard(guarded, allowed_hosts(host, allow_hosts))


def _library_tools(server: MCPServer[Any], tools: LibraryTools) -> None:
    @server.tool(annotations=READ, structured_output=False)
    def list_documents() -> str:
        """Every document of the library: id, title, path, pages, blocks."""
        return as_json(tools.read(lambda lib: lib.document_list()))

    @server.tool(annotations=READ, structured_output=False)
    def get_document(document_id: str) -> str:
        """A document's metadata, section tree, tables, equations and references."""
        return as_json(tools.read(lambda lib: lib.document_details(document_id).to_dict()))

    @server.tool(annotations=READ, structured_output=False)
    def search_library(query: str, k: int = 8, documents: list[str] | None = None) -> str:
        """The k best passages of the local library for `query` (no answer): block id,
        document, page, bbox, section, text, score."""
        return as_json(tools.read(lambda lib: lib.search_records(query, k, documents)))

    @server.tool(annotations=READ, structured_output=False)
    def ask(question: str, documents: list[str] | None = None, k: int = 8) -> str:
        """Answer from the library with verbatim cited sentences (each citation a block id
        with its evidence: page, bbox, quote), or a refusal with the closest passages."""
        if tools.uses_model():  # one model instance: its calls take turns on the writer
            answer = tools.call(lambda lib: lib.ask_with_model(question, documents or [], k))
        else:
            answer = tools.read(lambda lib: lib.ask(question, documents or [], k))
        return as_json(answer.to_dict())

    @server.tool(annotations=READ, structured_output=False)
    def get_evidence(block_id: str, page_image: bool = False) -> list[str | Image]:
        """A cited block: verbatim quote, document, page, bbox (PDF points), section; with
        page_image, also the page as PNG with the block boxed."""
        evidence = tools.read(lambda lib: lib.evidence(block_id))
        if not page_image:
            return [as_json(evidence.to_dict())]
        return [as_json(evidence.to_dict()), tools.call(lambda _: tools.page_image(evidence))]

    @server.tool(annotations=READ, structured_output=False)
    def get_table(document_id: str, label: str) -> str:
        """A table ('Table 2' or 2) as cells with spans and as a grid of text."""
        return as_json(tools.read(lambda lib: lib.table(document_id, label).to_dict()))

    @server.tool(annotations=READ, structured_output=False)
    def get_formula(document_id: str, number: str) -> str:
        """A numbered display equation ('3', 'Eq. (3)') with its page and bbox."""
        return as_json(tools.read(lambda lib: lib.formula(document_id, number).to_dict()))

    @server.tool(annotations=NETWORK, structured_output=False)
    def search_literature(query: str, sources: list[str] | None = None, limit: int = 10) -> str:
        """NETWORK: search scholarly databases (arxiv, pubmed, semantic_scholar, openalex,
        crossref, core, doaj, europepmc; all when `sources` is empty) for records."""
        return as_json(tools.call(lambda lib: lib.search_literature(query, sources, limit)))


def _research_tools(server: MCPServer[Any], tools: LibraryTools) -> None:
    @server.tool(annotations=STARTS, structured_output=False)
    def start_research(
        topic: str, rounds: int = 3, sources: list[str] | None = None, max_papers: int = 12
    ) -> str:
        """Start a research task in the background ({"id", "state"}); sources default to
        the local library ("local"); follow it with get_task, read it with get_report."""
        try:
            request = TaskRequest.model_validate(
                {"topic": topic, "rounds": rounds, "sources": sources or ["local"]}
                | {"max_papers": max_papers}
            )
        except ValueError as exc:  # pydantic's ValidationError
            raise ToolError(f"INVALID_REQUEST: {exc}") from exc
        return as_json(tools.start_research(request))

    @server.tool(annotations=READ, structured_output=False)
    def get_task(task_id: str) -> str:
        """A research task: state, round, options, counts and its event log."""
        thread = tools.threads.get(task_id)
        running = thread is not None and thread.is_alive()  # before the state: see tasks.py
        shown = tools.call(lambda lib: ResearchDesk(lib).show(task_id).to_dict())
        return as_json({**shown, "running": running})

    @server.tool(annotations=READ, structured_output=False)
    def get_report(task_id: str, format: Literal["markdown", "html"] = "markdown") -> str:
        """The report of a completed task, as Markdown or self-contained HTML."""

        def render(lib: Library) -> str:
            task = task_store(lib).get(task_id)
            if task.state != "completed":
                raise CitewiseError(
                    f"task '{task_id}' is {task.state}, not completed",
                    hint="poll get_task until its state is completed",
                    code="REPORT_NOT_READY",
                )
            rendered = ResearchDesk(lib).render(task_id)
            return rendered.html if format == "html" else rendered.markdown

        return tools.call(render)


def _compare_tools(server: MCPServer[Any], tools: LibraryTools) -> None:
    """The tool registry's compare, matrix and setup actions (agent/actions/tools.py): the same
    parameter checks, postconditions and error codes as POST /tools/compare_methods,
    /tools/build_matrix and /tools/extract_setup, and the same results. Read-only: what
    they write is the library's extraction cache, not the user's data."""

    @server.tool(annotations=READ, structured_output=False)
    def compare(documents: list[str], aspects: list[str] | None = None) -> str:
        """Compare two or more papers aspect by aspect (default: task, method, datasets,
        metrics, main result, limitations; or e.g. optimizer, learning rate schedule,
        gradient clipping; or any phrase of one to six words, e.g. 'study design', 'loss
        function'): each cell a value with its verbatim quote and page, or 'not stated'; key
        differences built only from cited cells."""
        params = {"documents": documents, "aspects": aspects or []}
        return as_json(tools.call(lambda lib: lib.tool("compare_methods", params).to_dict()))

    @server.tool(annotations=READ, structured_output=False)
    def matrix(documents: list[str] | None = None, columns: list[str] | None = None) -> str:
        """The literature matrix: one row per paper (all by default), one cited cell per
        column (default: task, method, datasets, metrics, main result, limitations; any
        preset or any phrase of one to six words, e.g. 'sample size', 'beam size')."""
        params = {"documents": documents or [], "columns": columns or []}
        return as_json(tools.call(lambda lib: lib.tool("build_matrix", params).to_dict()))

    @server.tool(annotations=READ, structured_output=False)
    def setup(document: str) -> str:
        """Everything needed to rerun a paper's experiments (datasets, model, optimizer,
        learning rate and schedule, batch size, epochs, hardware, seeds, metrics, code),
        each cited, and what the paper does not state."""
        params = {"document": document}
        return as_json(tools.call(lambda lib: lib.tool("extract_setup", params).to_dict()))
