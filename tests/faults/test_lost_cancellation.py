"""docs/faults.md, "A cancelled receive that never ends": against the real Redis, a channels_redis
receive cancelled as its first command is sent goes on polling for ever (Python 3.11's wait_for
drops the cancellation; redis-py sends inside it). The site's layer (aquawar_site/channel_layer.py)
ends every such receive. Each scenario runs in a process of its own, bounded: a receive that
never ends cannot hang the suite (tests/faults/lost_cancellation.py)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = Path(__file__).with_name("lost_cancellation.py")
REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/0"
SITE_LAYER = "aquawar_site.channel_layer.RedisChannelLayer"


def redis_answers():
    try:
        return redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError:
        return False


pytestmark = pytest.mark.skipif(not redis_answers(), reason=f"Redis does not answer at {REDIS_URL}")


def cancelled_receives(layer):
    run = subprocess.run(
        [sys.executable, str(SCENARIO), layer, REDIS_URL],
        capture_output=True, text=True, timeout=180, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1])


def test_channels_redis_alone_leaves_a_cancelled_receive_running():
    result = cancelled_receives("channels_redis.core.RedisChannelLayer")
    # When this fails, channels_redis, redis-py or Python no longer lose the cancellation: the
    # guard can go (check the versions in pyproject.toml and docs/faults.md).
    assert result["never_ended"], result


def test_the_sites_channel_layer_ends_every_cancelled_receive():
    result = cancelled_receives(SITE_LAYER)
    assert result == {"cancelled": result["cancelled"], "never_ended": []}


def test_the_site_runs_on_the_guarded_layer_with_redis():
    show = "from django.conf import settings; print(settings.CHANNEL_LAYERS['default']['BACKEND'])"
    run = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {show}"], capture_output=True, text=True, timeout=60,
        cwd=ROOT, env={"PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "aquawar_site.settings", "REDIS_URL": REDIS_URL,
                       "DEBUG": "1"},
    )
    assert run.stdout.strip() == SITE_LAYER, run.stderr
