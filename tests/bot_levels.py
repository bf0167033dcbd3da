"""The built-in levels' options in tests (``settings.BOT_LEVEL_OPTIONS``, per game and level): the
searching levels with a small fixed budget, so that a test's matches against them take moments and
decide the same way on a loaded machine as on an idle one."""
FAST_LEVELS = {
    "aquawar": {
        "expert": {"worlds": 2, "beam": 3, "time_cap": 0.5},
        "master": {"iterations": 2, "beam": 4, "plies": 2},
    },
    "miracle": {
        "master": {"width": 2, "answer_cap": 300, "turn_seconds": None},
    },
}
