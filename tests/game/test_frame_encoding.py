"""The sockets' frames as text (``protocol.encode``): the JSON the standard library's encoder would
send, compact, with integer keys as strings (a view's tables are keyed by seat) and text outside
ASCII as itself."""
import json

from game.live.protocol import encode
from tests.games.aquawar.positions import positions as aquawar_positions
from tests.games.miracle.positions import positions as miracle_positions


def test_a_frame_is_the_json_the_standard_encoder_gives():
    frame = {"type": "state", "version": 7, "seats": {0: "主机", 1: 'a "quoted" <b>'}, "ratio": 0.1, "none": None,
             "pair": (1, 2), "flags": [True, False]}
    text = encode(frame)
    assert json.loads(text) == json.loads(json.dumps(frame))
    assert text == json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


def test_an_integer_beyond_64_bits_is_encoded_too():
    frame = {"type": "error", "id": "c1", "big": 2**70, "small": -(2**70)}
    assert encode(frame) == json.dumps(frame, separators=(",", ":"))


def test_every_payload_of_random_matches_encodes_as_the_standard_encoder_does():
    count = 0
    for positions in (aquawar_positions(2, 6), miracle_positions(2, 15)):
        for _language, payload, _marks, _seats in positions:
            frame = {"type": "state", "version": payload["version"], **payload}
            assert encode(frame) == json.dumps(frame, separators=(",", ":"), ensure_ascii=False)
            count += 1
    assert count > 50
