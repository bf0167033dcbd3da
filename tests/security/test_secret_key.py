"""A site without DEBUG that was given no SECRET_KEY (issue #30 item 12): the embedded setup's
public key was used silently and ``check --deploy`` passed. Now every start says so, and the
deployment check fails — the same check .ci/run passes with a key of its own."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def check(*args, **env):
    base = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG", "DATABASE_URL", "REDIS_URL")}
    return subprocess.run(
        [sys.executable, "manage.py", "check", *args], cwd=ROOT, env={**base, **env},
        capture_output=True, text=True, timeout=120,
    )


def test_a_deploy_check_without_a_key_fails_and_names_it():
    done = check("--deploy")
    assert done.returncode != 0 and "aquawar.E001" in done.stderr and "SECRET_KEY is not set" in done.stderr


def test_a_plain_start_without_a_key_warns_but_starts():
    done = check()
    assert done.returncode == 0 and "aquawar.W001" in done.stderr


@pytest.mark.parametrize("env", [{"DEBUG": "1"}, {"SECRET_KEY": "k" * 20 + "0123456789abcdefghijklmnopqrstuvwxyz"}])
def test_a_key_or_debug_says_nothing(env):
    done = check("--deploy", **env)
    assert "aquawar.E001" not in done.stderr and "aquawar.W001" not in done.stderr

