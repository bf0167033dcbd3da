"""The fault test, short: ``bench/chaos.py`` with 4 matches, 2 SIGKILLs of a server and 1 Redis restart.

It runs the real thing in a process of its own (two daphne processes, a PostgreSQL database and a
redis-server, all its own; see docs/faults.md) and fails unless every match finished and nothing
was lost, duplicated, leaked, skipped or stalled. It needs PostgreSQL on 127.0.0.1:5432 (user
``postgres``, allowed to create databases; ``CHAOS_PG_URL`` names another) and ``redis-server``
on the PATH, and skips only when one of them is missing. Whatever happens, it leaves nothing
behind: the run's process group is killed and its database dropped.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("CHAOS_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
# Well inside a CI leg; the run itself takes 20-40 s on an idle two-core machine.
RUN_LIMIT = 150

pytestmark = pytest.mark.faults


def missing_services():
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (the fault test starts and restarts one of its own)"
    import psycopg

    try:
        with psycopg.connect(PG_URL, connect_timeout=5) as conn:
            may_create = conn.execute(
                "SELECT rolsuper OR rolcreatedb FROM pg_roles WHERE rolname = current_user"
            ).fetchone()[0]
    except psycopg.Error as error:
        return f"PostgreSQL does not answer at {PG_URL}: {str(error).strip()}"
    if not may_create:
        return f"the PostgreSQL user of {PG_URL} may not create databases"
    return None


def drop_database(name):
    import psycopg

    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_matches_survive_killed_servers_and_a_redis_restart(tmp_path):
    reason = missing_services()
    if reason:
        pytest.skip(reason)
    database = f"aquawar_chaos_test_{os.getpid()}"
    report = tmp_path / "chaos.json"
    command = [
        sys.executable, "bench/chaos.py", "--matches", "4", "--parallel", "4", "--kills", "2",
        "--redis-restarts", "1", "--pg", PG_URL, "--database", database, "--json", str(report),
        "--timeout", str(RUN_LIMIT - 30), "--give-up", "45", "--verbose",
    ]
    # A session of its own: the daphne and redis-server processes it starts are in its process
    # group, so killing the group leaves none behind even if the run itself is killed.
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           start_new_session=True)
    try:
        output, _ = run.communicate(timeout=RUN_LIMIT)
    except subprocess.TimeoutExpired:
        output = "(no output: the run was killed)"
    finally:
        try:
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        run.wait()
        drop_database(database)
    assert report.exists(), output
    summary = json.loads(report.read_text())["summary"]
    assert run.returncode == 0, output
    assert summary["matches"] == 4 and summary["unfinished"] == 0, output
    assert summary["kills"] == 2 and summary["redis_restarts"] == 1, output
    assert summary["reconnects"] > 0, output
    for failure in ("lost", "duplicated", "leaked", "gaps", "mismatched", "phantom", "stalls"):
        assert summary[failure] == 0, f"{failure}: {output}"
