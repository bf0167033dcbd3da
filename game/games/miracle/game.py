"""神迹之战 behind the platform's interface (``game.games.base.Game``): its engine's rules, its bots,
its records, and its web presentation."""

from pathlib import Path

from django.utils.translation import gettext_lazy as _

from ..base import EngineGame, Record, RecordError, measured_level_ratings
from . import bots, engine, winchance
from .engine import record as records
from .tutorial import TUTORIAL
from .web import MiracleWeb

# The contest's allowances for a program: the deck, then each whole turn.
DECK_SECONDS = 10.0
TURN_SECONDS = 3.0


class Miracle(EngineGame):
    name = "miracle"
    title = _("Miracle")
    IllegalCommand = engine.IllegalCommand
    record_format = records.FORMAT
    time_controls = (0, 60, 120, 300)
    bad_time_control = _("Choose a time control: none; 60, 120 or 300 seconds per turn; 1, 2, 3 or 7 days per turn; or a time bank.")
    too_late_to_cancel = _("Both decks are in: resign instead.")
    clock_counts = "turn"
    bank_presets = ((600, 30), (900, 30), (1200, 60))
    bank_limits = (60, 7200)
    increment_limits = (0, 120)
    levels = {
        "random": _("Random: any legal move"),
        "greedy": _("Greedy: the best move right now"),
        "expert": _("Expert: plans ahead"),
        "master": _("Master: searches a second or two before it moves"),
    }
    default_level = "greedy"
    level_ratings = measured_level_ratings(Path(bots.__file__).parent)
    engine = engine
    records = records
    winchance = winchance
    tutorial = TUTORIAL
    web = MiracleWeb()

    def new_match(self, seed, first_mover=None, setup=None):
        # Every Miracle match starts from its seed alone: no record of it carries a setup.
        return engine.new_match(seed, first_mover)

    def legal_commands(self, state, seat):
        # Without the surrender, legal at any time for either seat: the platform resigns for a person
        # (``resign``), and a random opponent choosing from this list must not give up.
        return [c for c in engine.legal_commands(state, seat) if "surrender" not in c]

    def to_move(self, state):
        return tuple(engine.to_move(state))

    def in_setup(self, state):
        # Until both decks are in, neither side has seen anything of the other.
        return state.phase == "deck"

    def blind(self, command):
        return isinstance(command, dict) and "deck" in command

    def choices(self, state, seat):
        # The compact options (per unit its moves and targets, per summon its cells) rather than the
        # full legal list: the board lights them up, and they say the same in far fewer bytes.
        if seat is None:
            return {"options": {}}
        return {"options": engine.options(state, seat)}

    def restarts_clock(self, command):
        # One period per turn; a deck opens a fresh one (for the first mover, its first turn).
        return isinstance(command, dict) and "deck" in command

    def picking(self, state):
        return state.phase == "deck"

    def program_seconds(self, state):
        if state is not None and state.phase == "deck":
            return DECK_SECONDS
        return TURN_SECONDS

    def choose(self, level, view, events, legal, seat, rng, **options):
        return bots.LEVELS[level](**options).choose(view, events, legal, seat, rng)

    def read_record(self, data):
        try:
            record = records.parse_record(data)
        except records.RecordError as error:
            raise RecordError(error.code, error.message, error.command_index) from None
        return Record(record.seed, record.commands, record.first_mover, record.players, record.forfeit, None, None)

    def claims_upload(self, data):
        return False


GAME = Miracle()
