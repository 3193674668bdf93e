"""A task outlives the server that started it: kill the server mid-task, `tasks resume`
finishes it, and a new server serves its report."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from tests.server.conftest import environment, make_library, start
from tests.server.test_tasks_api import TOPIC, wait_for


def test_task_of_a_killed_server_resumes_and_a_new_server_serves_it(tmp_path: Path) -> None:
    library = make_library(tmp_path)
    stalled = start(library, stall="screening")
    server = next(stalled)
    with server.client() as http:
        task_id = http.post("/tasks", json={"topic": TOPIC}).json()["id"]
        wait_for(http, task_id, lambda t: any(e["kind"] == "stall" for e in t["events"]))
    server.process.send_signal(signal.SIGKILL)
    server.process.wait()
    stalled.close()

    resumed = subprocess.run(
        [sys.executable, "-m", "citewise", "--library", str(library), "tasks", "resume"]
        + [task_id, "--json"],
        env=environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["state"] == "completed"

    restarted = start(library)
    server = next(restarted)
    try:
        with server.client() as http:
            shown = http.get(f"/tasks/{task_id}").json()
            report = http.get(f"/tasks/{task_id}/report")
    finally:
        restarted.close()
    assert shown["state"] == "completed" and not shown["running"]
    kinds = [(e["stage"], e["kind"]) for e in shown["events"]]
    assert ("screening", "stall") in kinds  # the killed server's run got this far
    assert report.status_code == 200 and "## Executive summary" in report.text
