"""神迹之战 match page parts benchmark: the CPU one browser socket spends drawing the parts it
redraws on every change (status, board, controls), per part and in all (with the page context).

    .venv/bin/python bench/miracle_parts_bench.py                 # 3 matches, a position every 40 commands
    .venv/bin/python bench/miracle_parts_bench.py --repeat 20 --json FILE

Positions come from random matches played by the engine (tests/games/miracle/positions.py: both
seats and a spectator, English and Chinese, the deck choice and live positions, as a socket redraws
them). The measuring is bench/aquawar_parts_bench.py's: each position drawn ``--repeat`` times
through ``presenter.render_parts``, the socket's own path, timed with ``time.thread_time``; the
median and 90th percentile per part in µs, and one JSON line. No database, no network.
"""
import sys

from aquawar_parts_bench import arguments, measure, setup_django


def main(argv=None):
    args = arguments(argv, every=40, matches=3)
    setup_django()
    from tests.games.miracle.positions import positions

    return measure("miracle", positions, args)


if __name__ == "__main__":
    sys.exit(main())
