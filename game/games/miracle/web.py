"""How the site draws 神迹之战 (``game.games.base.Presentation``): the hex board, the deck chooser and
the controls, the log, the summary with its charts, and the replay viewer's data."""
from django.utils.translation import gettext_lazy as _

from ..base import Drawn, Presentation
from . import cards, figures, history, markup, presenter, replay
from .engine.cards import ARTIFACTS, DECK_CREATURES
from .forms import form_command
from .log import LogBook
from .texts import END_REASONS, REFUSALS


class MiracleWeb(Presentation):
    templates = {
        # Redrawn for every socket on every change: drawn in Python (markup.py), not by templates.
        "status": Drawn(markup.status),
        "board": Drawn(markup.board),
        "controls": Drawn(markup.controls),
        "summary": "miracle/_summary.html",
        "replay": "miracle/_replay.html",
        "source": "miracle/_source.html",
    }
    match_static = {"css": ("miracle/css/miracle.css",), "js": ("miracle/js/mapzoom.js", "miracle/js/board.js")}
    history_static = {"css": ("miracle/css/miracle.css",)}
    replay_script = "miracle/js/replay.js"
    how_to_play = "miracle/how_to_play.html"
    summary_link = _("Summary and charts")
    blurb = _("A hex board: summon creatures, march on the enemy miracle, play your artifact.")
    import_note = ""

    def how_to_play_context(self):
        return {"creatures": [cards.creature_card(c) for c in DECK_CREATURES],
                "artifacts": [cards.artifact_card(a) for a in ARTIFACTS],
                "figures": figures.figures()}

    def page_context(self, payload, marks, seats):
        return presenter.page_context(payload, marks, seats)

    def log_book(self, audience, players):
        return LogBook(audience, players)

    def form_command(self, frame):
        return form_command(frame)

    def refusal_text(self, code):
        return REFUSALS.get(code)

    def end_reason(self, reason):
        return END_REASONS.get(reason, reason)

    def history_facts(self, state):
        return history.facts(state)

    def progress(self, state):
        facts = history.facts(state)
        a, b = facts["score"]
        return _("Turn %(turn)d · miracles %(a)d–%(b)d HP") % {"turn": facts["turns"], "a": a, "b": b}

    def summary(self, state, names, commands, plot):
        context = history.summary(state, names, commands, plot)
        for side in context["sides"]:
            if side["artifact"]:
                side["artifact"]["image"] = cards.artifact_image(side["artifact"]["id"])
            for creature in side["creatures"]:
                creature["symbol"] = cards.symbol(creature["id"])
        return context

    def describe_source(self, source, names):
        # Miracle reads only its own records: no match of it comes from another kind of file.
        return {"label": _("imported")}

    def replay_data(self, frames, audience):
        return replay.replay_data(frames, audience)
