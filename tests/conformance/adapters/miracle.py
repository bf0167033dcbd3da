"""神迹之战's part of the conformance kit: a random legal player that pushes to an end, a few illegal
commands, and what each audience may not be told: the other side's deck until both are in (with
the places that list every card by design taken out)."""
import json
import re

from django.utils import translation

from game.games.miracle.engine import board, legal_commands
from game.games.miracle.engine.cards import ARTIFACTS, DECK_CREATURES
from game.games.miracle.forms import FORMS
from game.games.miracle.texts import ARTIFACTS as ARTIFACT_NAMES
from game.games.miracle.texts import CREATURES as CREATURE_NAMES
from tests.game.leaks import CatalogueStripper

CARDS = (*DECK_CREATURES, *ARTIFACTS)
# Words no platform file may hold: the cards, by id and by English name.
VOCABULARY = set(CARDS) | {str(CREATURE_NAMES[c]) for c in DECK_CREATURES} | {str(ARTIFACT_NAMES[a]) for a in ARTIFACTS}
# Secret words a random match searches at the least: a deck is secret only between the first deck and
# the second (one version), so far fewer than Aquawar's, where species stay hidden all match.
MIN_SECRET_WORDS = 150


def _toward(state, seat, cell):
    """How far ``cell`` (x, y, z) is from the enemy miracle."""
    enemy = board.MIRACLE_CELL[state.side(1 - seat)]
    return board.DIST[board.CELL_OF[tuple(cell)]][enemy]


def random_command(state, seat, rng):
    """A random legal command, biased so that a match ends in a few dozen turns rather than a hundred:
    seat 0 marches on the enemy miracle (hits it when it can, else mostly attacks, advances, summons,
    now and then plays its artifact), seat 1 mostly summons and ends its turn. Never a surrender
    (the kit resigns on its own)."""
    legal = [c for c in legal_commands(state, seat) if "surrender" not in c]
    if state.phase == "deck":
        return rng.choice(legal)
    kinds = {}
    for command in legal:
        kinds.setdefault(next(iter(command)), []).append(command)
    on_miracle = [c for c in kinds.get("attack", []) if c["attack"]["target"] == "miracle"]
    if on_miracle:
        return rng.choice(on_miracle)
    roll = rng.random()
    if seat == 1:
        if kinds.get("summon") and roll < 0.3:
            return rng.choice(kinds["summon"])
        if kinds.get("attack") and roll < 0.5:
            return rng.choice(kinds["attack"])
        return {"end_turn": {}}
    if kinds.get("attack") and roll < 0.7:
        return rng.choice(kinds["attack"])
    if kinds.get("artifact") and roll < 0.1:
        return rng.choice(kinds["artifact"])
    if kinds.get("move"):
        unit = rng.choice(sorted({c["move"]["unit"] for c in kinds["move"]}))
        moves = [c for c in kinds["move"] if c["move"]["unit"] == unit]
        return min(moves, key=lambda c: (_toward(state, seat, c["move"]["to"]), rng.random()))
    if kinds.get("summon") and roll < 0.9:
        return max(kinds["summon"], key=lambda c: (c["summon"]["level"], rng.random()))
    return {"end_turn": {}}


def illegal_commands(state, seat):
    """Commands of the right shape that the rules refuse now, whatever the seat may do."""
    return [
        {"deck": {"artifact": "holy_light", "creatures": ["archer", "archer", "priest"]}},
        {"summon": {"type": "swordsman", "level": 4, "at": [0, 0, 0]}},
        {"move": {"unit": 999, "to": [0, 0, 0]}},
        {"attack": {"unit": 999, "target": "miracle"}},
        {"artifact": {"at": [99, 0, -99]}},
    ]


def _spellings(cards):
    out = set()
    names = {**CREATURE_NAMES, **ARTIFACT_NAMES}
    for card in cards:
        out.add(card)
        for language in ("en", "zh-hans"):
            with translation.override(language):
                out.add(str(names[card]).lower())
    return out


def _cards(deck):
    return {deck["artifact"], *deck["creatures"]}


class Secrets:
    """The decks submitted up to a version (from the stored, unredacted events): until both are in,
    each is its owner's alone."""

    def __init__(self, events):
        self.decks = [None, None]
        self.public = False
        for _version, event in events:
            if event["type"] == "deck":
                self.decks[event["player"]] = _cards(event)
            elif event["type"] == "decks":
                self.public = True

    def words(self, seat):
        if self.public:
            return set()
        hidden = set().union(*(self.decks[side] or set() for side in (0, 1) if side != seat))
        own = self.decks[seat] or set() if seat is not None else set()
        return _spellings(hidden - own)

    def json_text(self, frame, seat):
        """The frame without the viewer's own options (the deck choices list every card); the
        view checked field by field on the way."""
        if frame["type"] in ("state", "snapshot"):
            _check_view(frame, seat)
            frame = {k: v for k, v in frame.items() if k != "options"}
        elif frame["type"] == "version":
            _check_events(frame["events"], seat)
        return json.dumps(frame, ensure_ascii=False)

    def html_text(self, html, seat, own_view):
        return _strip_catalogues(html)

    def replay_text(self, html):
        found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S)
        rest = re.sub(r"<noscript>.*?</noscript>|<script id=\"replay-data\".*?</script>", "", html, flags=re.S)
        return (found.group(1) if found else "") + _strip_catalogues(rest)


def _check_view(frame, seat):
    seen = frame.get("view")
    if not seen or frame["audience"] == "all" or seen["phase"] != "deck":
        return
    for side in (0, 1):
        if side != seat:
            assert seen["decks"][side] is None and seen["pools"][side] is None and seen["artifacts"][side] is None


def _check_events(events, seat):
    for event in events:
        if event["type"] == "deck" and event["player"] != seat:
            assert set(event) == {"type", "player"}, event


def _strip_catalogues(html):
    """The page minus elements marked ``data-catalogue`` (every card, whoever looks), whose form
    values may only be cards or form names: a catalogue holds nothing of the match."""
    stripper = CatalogueStripper()
    stripper.feed(html)
    stripper.close()
    for values in stripper.catalogues:
        assert set(values) <= {*CARDS, *FORMS, ""}, values
    return "".join(stripper.kept)
