"""JSON columns on PostgreSQL are written with orjson (aquawar_site/postgresql): what reads back is
what the standard library's encoder would have stored, for every kind of value a state or an event
holds, and for the ones orjson refuses."""
import json

import pytest
from django.db import connection

from game.models import Match

from .helpers import live_match

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the JSON columns' encoder is PostgreSQL's backend's"),
    pytest.mark.django_db,
]

VALUES = [
    {"teams": [[1, 2, 3, 4], [5, 6, 7, 8]], "hp": 400, "alive": True, "mimic": None},
    {"name": "水瓶座 ✓", "escaped": "\"quoted\" \\ back\nline", "empty": {}, "list": []},
    {"float": 0.1, "negative": -2.5e-12, "big": 2**63 - 1, "small": -(2**63)},
    {"beyond 64 bits": 2**70},
    {1: "an integer key", "nested": {2: [None, False]}},
]


@pytest.mark.parametrize("value", VALUES)
def test_a_state_reads_back_as_the_standard_encoder_would_have_stored_it(host, guest, value):
    match = live_match(host, guest)
    Match.objects.filter(pk=match.pk).update(state=value)
    assert Match.objects.get(pk=match.pk).state == json.loads(json.dumps(value))
    with connection.cursor() as cursor:
        cursor.execute("SELECT state = %s::jsonb FROM game_match WHERE id = %s", [json.dumps(value), match.pk])
        assert cursor.fetchone()[0] is True


def test_the_backend_encodes_with_orjson():
    """The standard encoder's text has spaces after its separators; orjson's has none."""
    adapted = connection.ops.adapt_json_value({"a": [1, 2]}, None)
    assert adapted.dumps(adapted.obj) == b'{"a":[1,2]}'
