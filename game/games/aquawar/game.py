"""Aquawar behind the platform's interface (``game.games.base.Game``): its engine's rules, its bots,
its records, and its web presentation."""
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from ..base import EngineGame, Record, RecordError, measured_level_ratings
from . import bots, engine, source, winchance
from .tutorial import TUTORIAL
from .contest import official
from .engine import randomplay
from .engine import record as records
from .web import AquawarWeb

# The contest rule: a program has this long for each pick, assertion and action.
PROGRAM_SECONDS = 3.0


class Aquawar(EngineGame):
    name = "aquawar"
    title = _("Aquawar")
    IllegalCommand = engine.IllegalCommand
    record_format = records.FORMAT
    time_controls = (0, 30, 60, 120)
    bad_time_control = _("Choose a time control: none; 30, 60 or 120 seconds per decision; 1, 2, 3 or 7 days per decision; or a time bank.")
    too_late_to_cancel = _("Both teams are picked: resign instead.")
    clock_counts = "decision"
    bank_presets = ((180, 5), (300, 5), (600, 10))
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
    web = AquawarWeb()

    def new_match(self, seed, first_mover=None, setup=None):
        # ``setup`` is an imported record's (``records.Record.setup``): the engine's own arguments.
        return engine.new_match(seed, first_mover, **(setup or {}))

    def legal_commands(self, state, seat):
        return engine.legal_commands(state, seat)

    def to_move(self, state):
        # Picks are simultaneous and blind: whoever has not locked a team in owes one.
        return randomplay.players_to_move(state)

    def in_setup(self, state):
        # Until both teams of round 1 are locked in, nobody has seen anything of the other side.
        return state.round == 1 and state.phase == "pick"

    def blind(self, command):
        return isinstance(command, dict) and "pick" in command

    def choices(self, state, seat):
        if seat is None:
            return {"legal": [], "pick": None}
        if state.phase != "pick":
            return {"legal": engine.legal_commands(state, seat), "pick": None}
        # The full pick list is every team times every Mimic target (thousands); the options say the
        # same in a few lines.
        pick = engine.pick_options(state, seat) if state.picks[seat] is None else None
        return {"legal": [], "pick": pick}

    def restarts_clock(self, command):
        # Every pick, assertion and action gets the full time.
        return True

    def picking(self, state):
        return state.phase == "pick"

    def program_seconds(self, state):
        return PROGRAM_SECONDS

    def choose(self, level, view, events, legal, seat, rng, **options):
        return bots.make_bot(level, **options).choose(view, events, legal, seat, rng)

    def read_record(self, data):
        try:
            if self.claims_upload(data):
                # Converted by playing it through, its recorded dodges all checked.
                converted, notes = official.convert(data)
                record, origin = records.parse_record(converted), source.official_replay(notes)
            else:
                record, origin = records.parse_record(data), None
                if record.dodges is not None:
                    # Only playing the record tells whether each recorded dodge belongs to a roll.
                    records.replay(record)
        except records.RecordError as error:
            raise RecordError(error.code, error.message, error.command_index) from None
        return Record(
            record.seed, record.commands, record.first_mover, record.players, record.forfeit, record.setup, origin
        )

    def claims_upload(self, data):
        return isinstance(data, (bytes, str)) and official.is_replay(data)


GAME = Aquawar()
