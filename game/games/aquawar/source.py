"""How the pages name an Aquawar match imported from a file other than its record: an official
replay of the 2021 contest (``Match.source``, written by ``game.read_record``).

``contest.official.convert`` gives each place where the official program departed from the rules
as a note with a code and numbers; this turns one into a sentence, in the reader's language.
"""
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# ``Match.source`` of an imported official replay: {"kind": OFFICIAL_REPLAY, "notes": [...]}.
OFFICIAL_REPLAY = "saiblo-2021-official-replay"


def _error(note):
    """The official program's error code (its replay viewer's list) in words."""
    rules = {
        1: _("it gave a teammate to a skill that takes none"),
        2: _("it gave no teammate to a skill that needs one"),
        3: _("it gave an enemy to a skill that takes none"),
        4: _("it gave no enemy to a skill that needs one"),
        5: _("it gave a skill too many teammates"),
        6: _("it gave a skill too many enemies"),
        7: _("it made a fish hit itself"),
        8: _("it made a fish give its teammate-only effect to itself"),
        9: _("it aimed a shark at an enemy that does not have the lowest HP"),
    }
    errors = {
        0: _("the judge failed"),
        1: _("its message could not be read"),
        2: _("it crashed"),
        3: _("it ran out of time"),
        4: _("a value in its message had the wrong type"),
        5: _("its message lacked a key"),
        6: _("its message named no known action"),
        7: _("a number in its message was out of range"),
        8: _("a list in its message repeated an element"),
        9: _("it answered Finish twice"),
        10: _("it did not pick four fish"),
        11: _("it picked a fish it had used before"),
        12: _("it asserted a dead fish"),
        13: _("it asserted a fish already revealed"),
        14: _("its action involved a dead fish"),
    }
    if note.get("error") == 15:
        return rules.get(note.get("rule"), _("it used a skill against its rules"))
    return errors.get(note.get("error"), _("it broke the rules"))


def official_replay(notes):
    """The ``Record.source`` of an official replay whose conversion made ``notes``."""
    return {"kind": OFFICIAL_REPLAY, "notes": notes}


def describe_source(source, names):
    """The context of ``aquawar/_source.html`` for ``Match.source``; ``names`` are the players'."""
    if source.get("kind") != OFFICIAL_REPLAY:
        raise ValueError(f"no Aquawar match is imported from {source.get('kind')!r}")
    return {"label": gettext_lazy("official replay"), "notes": [describe(note, names) for note in source["notes"]]}


def describe(note, names):
    """One note of an official replay's source as a sentence; ``names`` are the two players'."""
    if note["code"] == "turn_limit":
        return _(
            "Step %(step)d, round %(round)d: the official program ended the round after %(turns)d turns, one "
            "short of the rules' 64, deciding it by the rules' tiebreak; the replay ends it there too."
        ) % note
    if note["code"] == "third_round":
        return _(
            "Step %(step)d: the official program went on to play round %(round)d although the match was "
            "already decided; under the rules the match ends there, so that round is not in the replay."
        ) % note
    return _(
        "Step %(step)d, round %(round)d: the official program ended the match there because %(name)s's "
        "program broke the rules (%(error)s): it loses."
    ) % {**note, "name": names[note["player"]], "error": _error(note)}
