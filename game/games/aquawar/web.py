"""How the site draws Aquawar (``game.games.base.Presentation``): the match page's board, forms and
status, the log, the summary with its HP charts, the replay viewer's data, the deduction aid, and
what an official replay of the 2021 contest is labelled."""
from django.utils.translation import gettext_lazy as _

from ..base import Drawn, Presentation
from . import history, markup, presenter, source
from .aid import deduction_aid
from .engine import SPECIES, view
from .forms import form_command
from .log import MATCH_END_REASONS, LogBook, mark_rows
from .texts import image as fish_image
from .texts import name as species_name
from .texts import skill_text


class AquawarWeb(Presentation):
    templates = {
        # Redrawn for every socket on every change: drawn in Python (markup.py), not by templates.
        "status": Drawn(markup.status),
        "board": Drawn(markup.board),
        "controls": Drawn(markup.controls),
        "summary": "aquawar/_summary.html",
        "replay": "aquawar/_replay.html",
        "source": "aquawar/_source.html",
    }
    match_static = {"css": ("aquawar/aquawar.css",), "js": ("aquawar/pick.js", "aquawar/aid.js", "aquawar/board.js")}
    history_static = {"css": ("aquawar/aquawar.css",)}
    replay_script = "aquawar/replay.js"
    player_views = (("aid/", "aid", deduction_aid),)
    summary_link = _("Summary and HP chart")
    how_to_play = "aquawar/how_to_play.html"

    blurb = _("Best of three rounds.")
    import_note = _(
        "An official replay file of the 2021 Saiblo contest (the JSON its program wrote for each game) is "
        "imported the same way: it is played again here by the rules, with its dodges as they fell, and the "
        "summary says where the official program departed from the rules. Files of builds from before the "
        "final rules are refused, with the reason."
    )

    def how_to_play_context(self):
        species = []
        for key in SPECIES:
            passive, active = skill_text(key)
            species.append({"id": key, "name": species_name(key), "image": fish_image(key), "passive": passive, "active": active})
        return {"species": species}

    def page_context(self, payload, marks, seats):
        return presenter.page_context(payload, marks, seats)

    def log_book(self, audience, players):
        return LogBook(audience, players)

    def form_command(self, frame):
        return form_command(frame)

    def refusal_text(self, code):
        return presenter.REFUSALS.get(code)

    def end_reason(self, reason):
        return MATCH_END_REASONS.get(reason, reason)

    def history_facts(self, state):
        # A match resigned or lost on time mid-round has that round's turns in state.turn only
        # (state.rounds holds the rounds that ended); after the last round they are in both.
        unfinished = state.turn if state.end_reason != "rounds" else 0
        return {"score": state.score, "turns": sum(r["turns"] for r in state.rounds) + unfinished}

    def progress(self, state):
        # Score, round and turn are in every view of the match: nothing hidden is read.
        if state.phase == "pick":
            text = _("Round %(round)d · %(a)d–%(b)d · picking fish")
        else:
            text = _("Round %(round)d · %(a)d–%(b)d · turn %(turn)d")
        return text % {"round": state.round, "a": state.score[0], "b": state.score[1], "turn": state.turn}

    def summary(self, state, names, commands, plot):
        charts = [plot(series, history.FULL_HP) for series in history.hp_series(commands)]
        return {"rounds": history.round_rows(view(state, "all"), names, charts)}

    def describe_source(self, origin, names):
        return source.describe_source(origin, names)

    def replay_data(self, frames, audience):
        species = history.named_species(frames)
        data = {
            "species": {s: {"name": str(species_name(s)), "image": fish_image(s)} for s in species},
            "hidden_image": fish_image("hidden"),
            "dead_image": fish_image("dead"),
            # Per frame, per event: what it did to each fish, drawn on the replay's board as on the live one.
            "marks": [[mark_rows([event]) for event in frame["events"]] for frame in frames],
            "max_marks": presenter.MAX_MARKS,
        }
        return {"data": data, "rounds": range(1, frames[-1]["view"]["round"] + 1)}
