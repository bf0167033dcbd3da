"""What keeping a game part as bytes costs the fan-out (game/live/fanout.py, ``game_part``): the
encoding per part made, the decoding per part found, against ``json.dumps``.

    .venv/bin/python bench/parts_codec_bench.py

Parts of three random matches of each game played by the engine (every fifth position, both seats
and a spectator), each timed 20 times with the thread's CPU clock; medians in µs. No database.
"""
import json, marshal, os, random, statistics, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aquawar_site.settings")
django.setup()
from game import games


def timed(call):
    started = time.thread_time_ns()
    for _ in range(20):
        call()
    return (time.thread_time_ns() - started) / 20 / 1000


for name in ("aquawar", "miracle"):
    game = games.get(name)
    rng = random.Random(1)
    seen = {"json.dumps": [], "marshal.dumps": [], "marshal.loads": []}
    sizes = []
    for _ in range(3):
        state = game.new_match(rng.getrandbits(31))
        n = 0
        while game.outcome(state) is None:
            if n % 5 == 0:
                for audience, player in ((0, 0), (1, 1), ("spectator", None)):
                    part = (game.view(state, audience), game.choices(state, player))
                    kept = marshal.dumps(part)
                    sizes.append(len(kept))
                    seen["json.dumps"].append(timed(lambda: json.dumps(part, separators=(",", ":"))))
                    seen["marshal.dumps"].append(timed(lambda: marshal.dumps(part)))
                    seen["marshal.loads"].append(timed(lambda: marshal.loads(kept)))
            seat = game.to_move(state)[0]
            state, _ = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
            n += 1
    print(name, len(sizes), "parts, marshalled", statistics.median(sizes), "B;",
          "; ".join(f"{k} {statistics.median(v):.1f} µs" for k, v in seen.items()), "(medians)")
