"""Aquawar's part of the conformance kit: a random legal player, a few illegal commands, and what
each audience may not be told at a moment (with the places that may name any species taken out)."""
import json
import re

from django.utils import translation

from game.games.aquawar.engine import SPECIES
from game.games.aquawar.engine.randomplay import random_command as _random_command
from game.games.aquawar.texts import NAMES
from tests.game.leaks import check_events, check_structure, strip_html, strip_json

# Words no platform file may hold: the species, by id and by English name.
VOCABULARY = set(SPECIES) | {str(name) for name in NAMES.values()}
# Secret words a random match searches at the least (hidden species stay hidden for most of a match).
MIN_SECRET_WORDS = 500


def random_command(state, seat, rng):
    return _random_command(state, seat, rng)


def illegal_commands(state, seat):
    """Commands of the right shape that the rules refuse now, whatever the seat may do."""
    return [
        {"pick": ["archerfish", "archerfish", "sunfish", "octopus"]},
        {"pick": list(SPECIES[:3])},
        {"assert": {"target": 7, "fish": "octopus"}},
        {"act": {"actor": 9, "kind": "attack", "enemy": 0}},
    ]


def _spellings(species):
    out = set()
    for s in species:
        out.add(s)
        for language in ("en", "zh-hans"):
            with translation.override(language):
                out.add(str(NAMES[s]).lower())
    return out


class Secrets:
    """What was really picked up to a version (from the stored, unredacted events), and so what each
    audience must not find in anything it is sent at that version."""

    def __init__(self, events):
        self.picked = [set(), set()]
        self.revealed = set()
        # version → the species its assertion named: a guess is public, right or wrong.
        self.guesses = {}
        for version, event in events:
            if event["type"] == "pick":
                self.picked[event["player"]].update(event["fish"] + ([event["mimic"]] if event["mimic"] else []))
            elif event["type"] == "assert":
                self.guesses[version] = event["fish"]
                if event["success"]:
                    self.revealed.add(event["fish"])

    def words(self, seat):
        hidden = set().union(*(self.picked[side] for side in (0, 1) if side != seat))
        known = self.revealed | (self.picked[seat] if seat is not None else set())
        return _spellings(hidden - known)

    def json_text(self, frame, seat):
        """The frame with the viewer's own choice lists (every species, by design) and the public
        guesses taken out; the structure checked field by field on the way."""
        if frame["type"] in ("state", "snapshot"):
            check_structure(frame, seat)
            frame = strip_json(frame, seat)
        elif frame["type"] == "version":
            check_events(frame["events"], seat)
            frame = {**frame, "events": _scrub_events(frame["events"])}
        return json.dumps(frame, ensure_ascii=False)

    def html_text(self, html, seat, own_view):
        """Fragments or a page, with the fixed catalogues (the pick roster, the assertion's list) and
        the guesses of the log's assertion lines taken out."""
        available = None if seat is None or own_view is None else own_view["available"][seat]
        return strip_html(self._scrub_assert_lines(html), available)

    def replay_text(self, html):
        """The replay page: its data (frames' events and log lines with the guesses out) and the rest."""
        found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S)
        data = json.loads(found.group(1))
        for frame in data["frames"]:
            frame["lines"] = ["" if e["type"] == "assert" else line for e, line in zip(frame["events"], frame["lines"])]
            frame["events"] = _scrub_events(frame["events"])
        rest = re.sub(r"<noscript>.*?</noscript>|<script id=\"replay-data\".*?</script>", "", html, flags=re.S)
        return json.dumps(data, ensure_ascii=False) + rest

    def _scrub_assert_lines(self, html):
        def scrub(found):
            guess = self.guesses.get(int(found.group(1)))
            body = found.group(2)
            for word in _spellings([guess]) if guess else ():
                body = re.sub(re.escape(word), "<guess>", body, flags=re.I)
            return found.group(0)[: found.start(2) - found.start(0)] + body + "</li>"

        # A line may carry more attributes after its version (data-own on the viewer's own guess).
        pattern = r'<li class="log-entry log-entry--assert" data-version="(\d+)"[^>]*>(.*?)</li>'
        return re.sub(pattern, scrub, html, flags=re.S)


def _scrub_events(events):
    return [{**e, "fish": "<guess>"} if e["type"] == "assert" else e for e in events]
