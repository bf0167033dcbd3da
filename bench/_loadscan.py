"""Hidden-data checks for ``bench/load.py``: every frame a benchmark socket receives goes through here.

The benchmark's own clients picked both teams, so it knows the truth without asking the server:
for a viewer, the *secret* is every species the other side fielded (and every Mimic Fish copy
target it chose) that the viewer has not been shown by a successful assertion, less the species
the viewer fielded itself (its own frames name those). The same rules as ``tests/game/leaks.py``,
with the truth taken from the clients instead of the database:

- a species id of the secret must not appear in a frame, except in the viewer's own choice lists
  (``legal``, ``pick``, its own ``available``), which legitimately list every species, and except
  where the frame's own assertion events name it (a guess is public);
- field by field, a live view shows nothing of the other side but revealed species and public
  numbers: no ``atk`` (the enemy's attack), ``mimic_of``, ``shields``, ``effects``, picks or lists;
- events owned by the other side arrive redacted (no ``atk``/``avoid`` events, a ``pick`` without
  fish, an ``action`` without ``skill``, no ``by``/``how``).

Frames read after the match finished are projected for everyone (``audience: "all"``) and are not
checked; a catch-up batch belongs to the ``state`` that ends it, so the batch is judged with it.
"""
import json
import re

from game.games.aquawar.engine import SPECIES

MIMIC = "mimic_fish"
SPECIES_TOKEN = re.compile('"(' + "|".join(re.escape(s) for s in SPECIES) + ')"')
PUBLIC_EVENTS = ("round_start", "round_end", "match_end", "assert", "assert_skip")
OWNER_ONLY_FIELDS = ("atk", "mimic_of", "shields", "effects", "skill_uses")


class Truth:
    """Both teams of one match, as the benchmark's players picked them."""

    def __init__(self):
        self.picks = []  # (seat, species..., mimic target or None)

    def add(self, seat, fish, mimic):
        self.picks.append((seat, frozenset(fish) | ({mimic} if mimic else set())))

    def secret_for(self, seat, revealed):
        own, hidden = set(), set()
        for side, names in self.picks:
            (own if side == seat else hidden).update(names)
        return hidden - own - revealed


class Scanner:
    """The checks for one socket: ``seat`` 0/1 for a player, None for a spectator."""

    def __init__(self, truth, seat):
        self.truth = truth
        self.seat = seat
        self.revealed = set()
        self.batch = []
        self.scanned = 0
        self.findings = []

    def version(self, frame, text):
        self.batch.append((frame, text))

    def state(self, frame, text):
        batch, self.batch = self.batch, []
        if frame.get("audience") == "all":
            return
        for version, version_text in batch:
            self._scan(version, version_text, version["events"])
            for event in version["events"]:
                if event.get("type") == "assert" and event.get("success"):
                    self.revealed.add(event["fish"])
        self._scan(frame, text, ())

    def _scan(self, frame, text, events):
        self.scanned += 1
        problems = self._structure(frame)
        secret = self.truth.secret_for(self.seat, self.revealed)
        secret -= {e.get("fish") for e in events if e.get("type") == "assert"}
        # The raw text first: nearly every frame names no secret species at all, and only the
        # stripped copy is exact (the viewer's own choice lists name every species).
        if secret and secret & set(SPECIES_TOKEN.findall(text)):
            found = secret & set(SPECIES_TOKEN.findall(json.dumps(self._strip(frame))))
            if found:
                problems.append(f"names hidden species {sorted(found)}")
        if problems:
            self.findings.append({"seat": self.seat, "version": frame.get("version"), "problems": problems})

    def _strip(self, frame):
        frame = dict(frame)
        frame.pop("legal", None)
        frame.pop("pick", None)
        seen = frame.get("view")
        if seen and self.seat is not None:
            seen = dict(seen)
            available = list(seen["available"])
            available[self.seat] = None
            seen["available"] = available
            frame["view"] = seen
        return frame

    def _structure(self, frame):
        if frame["type"] == "version":
            return [f"unredacted event {e}" for e in frame["events"] if not self._event_ok(e)]
        seen = frame.get("view")
        if not seen:
            return []
        problems = []
        for side in (0, 1):
            if side == self.seat:
                continue
            if seen["available"][side] is not None or seen["picks"][side] is not None:
                problems.append(f"side {side}'s species lists or picks shown")
            if any(pair[side] is not None for pair in seen["past_picks"]):
                problems.append(f"side {side}'s past picks shown")
            for pos, fish in enumerate(seen["teams"][side]):
                shown = [name for name in OWNER_ONLY_FIELDS if fish[name] is not None]
                if shown:
                    problems.append(f"side {side} fish {pos} shows {shown}")
                if fish["fish"] is not None and not fish["revealed"]:
                    problems.append(f"side {side} fish {pos} is named unrevealed")
        return problems

    def _event_ok(self, event):
        owner = event.get("player", event.get("side"))
        if owner == self.seat or event.get("type") in PUBLIC_EVENTS:
            return True
        if event.get("type") in ("atk", "avoid"):
            return False
        if event.get("type") == "pick" and set(event) != {"type", "player"}:
            return False
        if event.get("type") == "action" and "skill" in event:
            return False
        return "by" not in event and "how" not in event
