"""The job queue of a PostgreSQL library as MCP tools (offered only for such a library):
`queue_list` (read-only: every waiting or running job) and `queue_cancel` (job ids, files
or folders, or everything waiting), the same api/queue_cancel.py calls and results as
`citewise queue list/cancel --json` and GET /queue/jobs, POST /queue/cancel. Over HTTP
with users, a `read` user may list but not cancel (FORBIDDEN), as over HTTP; each cancel
is a line of the audit log (CitewiseMCP.call_tool) with the subject and jobs the HTTP
route logs (server/mcp_access.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from citewise.api.queue_cancel import cancel_files, cancel_jobs, cancel_waiting, open_jobs
from citewise.errors import CitewiseError
from citewise.server.limits import MAX_LIST_ITEMS

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
CANCELS = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)


def as_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def _request_error(message: str) -> ToolError:
    return ToolError(f"INVALID_REQUEST: {message}")


def queue_tools(server: MCPServer[Any], tools: Any) -> None:
    """Register the queue tools on `server` (`tools`: its LibraryTools) when its library
    is on PostgreSQL; a folder library has no queue and gets no queue tools."""
    settings = tools.library.settings
    if settings.database is None:
        return

    def run(work: Any) -> Any:
        try:
            return work()
        except CitewiseError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool(annotations=READ, structured_output=False)
    def queue_list() -> str:
        """The jobs waiting or running now in the library's queue: job id, kind (ingest,
        embedding, vocabulary, research), status (todo, doing) and what it works on."""
        return as_json([j.to_dict() for j in run(lambda: open_jobs(settings))])

    @server.tool(annotations=CANCELS, structured_output=False)
    def queue_cancel(
        jobs: list[int] | None = None,
        files: list[str] | None = None,
        all: bool = False,
        running: bool = False,
    ) -> str:
        """Cancel queued jobs, given exactly one of: `jobs` (ids), `files` (absolute
        paths; a folder: every file's jobs under it) or `all` waiting jobs (with
        `running`: running ones asked to abort too). Waiting jobs never run (`cancelled`),
        running ones stop at their next safe point (`aborting`); also `finished` and
        `kept` (the shared vocabulary job while it serves other files). QUEUE_JOB_NOT_FOUND
        for an unknown id or a file no job names, QUEUE_JOB_FINISHED when they all
        finished already."""
        given, paths = list(jobs or []), list(files or [])
        if sum((bool(given), bool(paths), all)) != 1:
            raise _request_error("give exactly one of jobs, files or all")
        if running and not all:
            raise _request_error("running goes with all")
        if len(given) > MAX_LIST_ITEMS or len(paths) > MAX_LIST_ITEMS:
            raise _request_error(f"at most {MAX_LIST_ITEMS} jobs or files")
        if any(not p.startswith("/") or len(p) > 4096 for p in paths):
            raise _request_error("files are absolute paths (at most 4096 characters)")
        if all:
            report = run(lambda: cancel_waiting(settings, running))
        elif given:
            report = run(lambda: cancel_jobs(settings, given))
        else:
            report = run(lambda: cancel_files(settings, [Path(p) for p in paths]))
        return as_json(report.to_dict())
