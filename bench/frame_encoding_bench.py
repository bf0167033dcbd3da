"""The sockets' state frames as text: the standard library's encoder (``json.dumps``, compact) against the
one the sockets use (``game.live.protocol.encode``, orjson), on the payloads of random matches of both
games (tests/games/*/positions.py: every seat and a spectator, both languages).

Each frame is encoded ``--repeat`` times with each encoder, interleaved, timed with ``time.thread_time``;
prints the median µs per frame per game and encoder, their ratio, the median frame size, and one JSON line.

    .venv/bin/python bench/frame_encoding_bench.py --repeat 20
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def frames_of(name):
    from tests.games.aquawar.positions import positions as aquawar_positions
    from tests.games.miracle.positions import positions as miracle_positions

    positions = aquawar_positions(1, 5) if name == "aquawar" else miracle_positions(1, 10)
    return [{"type": "state", **payload} for _language, payload, _marks, _seats in positions]


def timed(encode, frame, repeat):
    times = []
    for _ in range(repeat):
        start = time.thread_time()
        encode(frame)
        times.append(time.thread_time() - start)
    return statistics.median(times) * 1e6


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aquawar_site.settings")
    import django

    django.setup()
    from game.live.protocol import encode

    def standard(frame):
        return json.dumps(frame, separators=(",", ":"))

    result = {}
    for name in ("aquawar", "miracle"):
        frames = frames_of(name)
        old, new = [], []
        for frame in frames:
            old.append(timed(standard, frame, args.repeat))
            new.append(timed(encode, frame, args.repeat))
        result[name] = {
            "frames": len(frames),
            "bytes_median": statistics.median(len(standard(f)) for f in frames),
            "json_us_median": round(statistics.median(old), 1),
            "orjson_us_median": round(statistics.median(new), 1),
        }
        r = result[name]
        print(f"{name}: {r['frames']} frames of {r['bytes_median']:.0f} bytes (median): json.dumps {r['json_us_median']} µs, "
              f"encode {r['orjson_us_median']} µs ({r['orjson_us_median'] / r['json_us_median']:.2f}x)")
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
