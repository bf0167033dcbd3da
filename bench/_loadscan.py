"""Hidden-data checks for ``bench/load.py``: every frame a benchmark socket receives goes through here.

Three scanners: ``Scanner`` (Aquawar's JSON frames), ``MiracleScanner`` (神迹之战's JSON frames)
and ``HtmlScanner`` (either game's browser fragments, ``?ui=html``). Aquawar's rules:

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
from game.games.aquawar.texts import NAMES
from game.games.miracle.engine.cards import ARTIFACTS, DECK_CREATURES
from game.games.miracle.forms import FORMS
from tests.game.leaks import CatalogueStripper

CARDS = (*DECK_CREATURES, *ARTIFACTS)

MIMIC = "mimic_fish"
SPECIES_TOKEN = re.compile('"(' + "|".join(re.escape(s) for s in SPECIES) + ')"')
PUBLIC_EVENTS = ("round_start", "round_end", "match_end", "assert", "assert_skip")
OWNER_ONLY_FIELDS = ("atk", "mimic_of", "shields", "effects", "skill_uses")


class Truth:
    """Both teams of one match, as the benchmark's players picked them."""

    def __init__(self):
        self.picks = []  # (seat, species..., mimic target or None)

        self.named = []  # (version, species) of every applied assertion: a guess is public

    def add(self, seat, fish, mimic):
        self.picks.append((seat, frozenset(fish) | ({mimic} if mimic else set())))

    def sent(self, seat, command):
        if "pick" in command:
            self.add(seat, command["pick"], command.get("mimic"))

    def applied(self, version, command, seat):
        if (command.get("assert") or {}).get("fish"):
            self.named.append((version, command["assert"]["fish"]))

    def html_words(self, seat, version):
        """What a browser fragment of ``version`` may not say: the secret species by id and by the
        English name the page uses, less every species an assertion up to then named (the log
        lists the guesses, right or wrong, and the board the revealed fish)."""
        named = {fish for at, fish in self.named if at <= version}
        return {word for s in self.secret_for(seat, named) for word in (s, str(NAMES[s]).lower())}

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


def card_spellings(cards):
    """A card's id and its names in the site's two languages, lower-cased: the conformance kit's
    rule, imported late because that module names the cards at import, which needs the settings
    (``bench/load.py`` imports this one before it sets Django up)."""
    from tests.conformance.adapters.miracle import _spellings

    return _spellings(cards)


class MiracleTruth:
    """Both decks of one 神迹之战 match, as the benchmark's players chose them. Each is its owner's
    alone until both are in (tests/conformance/adapters/miracle.py): ``public_from`` is the first
    version at which they were, once a frame has shown it."""

    def __init__(self):
        self.decks = [None, None]
        self.deck_versions = {}  # seat -> version its deck was applied at
        self.public_from = None

    def sent(self, seat, command):
        if "deck" in command:
            self.decks[seat] = {command["deck"]["artifact"], *command["deck"]["creatures"]}

    def applied(self, version, command, seat):
        if "deck" in command:
            self.deck_versions[seat] = version
            if len(self.deck_versions) == 2:
                self.made_public(max(self.deck_versions.values()))

    def made_public(self, version):
        if self.public_from is None or version < self.public_from:
            self.public_from = version

    def secret_for(self, seat, version):
        if self.public_from is not None and version >= self.public_from:
            return set()
        hidden = set().union(*(self.decks[side] or set() for side in (0, 1) if side != seat))
        own = self.decks[seat] or set() if seat is not None else set()
        return hidden - own

    def html_words(self, seat, version):
        return card_spellings(self.secret_for(seat, version))


class MiracleScanner:
    """神迹之战's JSON frames for one socket: the other side's deck, pool and artifact never shown
    and its deck event redacted while decks are being chosen; no card of a hidden deck named
    anywhere but the viewer's own ``options`` (the deck choices list every card); no win chance
    in a player's frame."""

    def __init__(self, truth, seat):
        self.truth = truth
        self.seat = seat
        self.scanned = 0
        self.findings = []

    def version(self, frame, text):
        events = frame["events"]
        if any(e.get("type") == "decks" for e in events):
            self.truth.made_public(frame["version"])
        problems = [f"unredacted event {e}" for e in events
                    if e.get("type") == "deck" and e.get("player") != self.seat and set(e) != {"type", "player"}]
        self._scan(frame, text, problems)

    def state(self, frame, text):
        if frame.get("audience") == "all":
            return
        seen = frame.get("view") or {}
        problems = []
        if seen.get("phase") == "deck":
            problems = [f"side {side}'s deck shown" for side in (0, 1) if side != self.seat
                        and (seen["decks"][side], seen["pools"][side], seen["artifacts"][side]) != (None, None, None)]
        elif seen:
            self.truth.made_public(frame["version"])
        self._scan({k: v for k, v in frame.items() if k != "options"}, None, problems)

    def _scan(self, frame, text, problems):
        self.scanned += 1
        if self.seat is not None and "win_chance" in (text or json.dumps(frame)):
            problems.append("a player is sent the win chance")
        secret = self.truth.secret_for(self.seat, frame["version"])
        if secret:
            lowered = json.dumps(frame, ensure_ascii=False).lower()
            found = sorted(word for word in card_spellings(secret) if word in lowered)
            if found:
                problems.append(f"names hidden cards {found}")
        if problems:
            self.findings.append({"seat": self.seat, "version": frame.get("version"), "problems": problems})


STATUS = re.compile(r'<section id="match-status"[^>]*?data-status="([a-z]+)" data-version="(\d+)"')
LOG_LINE = re.compile(r'<li class="log-entry[^"]*" data-version="(\d+)"')
APPENDED_LOG = 'hx-swap-oob="beforeend:#match-log"'
CATALOGUE_VALUES = {*SPECIES, *CARDS, *FORMS, ""}


def html_status(text):
    """(status, version) of a fragment's ``#match-status``, or None when it has none (a presence
    count, a chat line, a notice)."""
    found = STATUS.search(text)
    return (found.group(1), int(found.group(2))) if found else None


def appended_log_versions(text):
    """The versions of the log lines a fragment appends (none for a whole redraw of the log)."""
    return [int(v) for v in LOG_LINE.findall(text)] if APPENDED_LOG in text else []


class HtmlScanner:
    """A browser socket's fragments, judged once every version up to theirs is known (the truth of a
    version, say what an assertion named, comes with its ack, which may come after the fragment):
    no hidden species or card by id or name, outside the catalogues (fixed lists of every species
    or card, whose values are checked to be nothing else); no win-chance bar for a player of a
    live match."""

    def __init__(self, truth, seat):
        self.truth = truth
        self.seat = seat
        self.scanned = 0
        self.findings = []
        self.waiting = []  # (version, live, text) until the versions up to it are known

    def fragment(self, version, status, text, known_through):
        """``status``: the fragment's ``#match-status`` (live, finished, …)."""
        self.waiting.append((version, status, text))
        self.judge(known_through)

    def judge(self, known_through):
        while self.waiting and self.waiting[0][0] <= known_through:
            self._scan(*self.waiting.pop(0))

    def _scan(self, version, status, text):
        self.scanned += 1
        problems = []
        if self.seat is not None and status == "live" and "win-chance" in text:
            problems.append("a player is shown the win chance")
        # A finished match is shown whole to everyone (its audience is "all": frames.audience_for),
        # as the JSON scanner skips a frame for that audience.
        words = self.truth.html_words(self.seat, version) if status != "finished" else set()
        if words:
            stripper = CatalogueStripper()
            stripper.feed(text)
            stripper.close()
            odd = {v for values in stripper.catalogues for v in values} - CATALOGUE_VALUES
            if odd:
                problems.append(f"a catalogue holds {sorted(odd)}")
            kept = "".join(stripper.kept).lower()
            found = sorted(word for word in words if word in kept)
            if found:
                problems.append(f"names hidden {found}")
        if problems:
            self.findings.append({"seat": self.seat, "version": version, "problems": problems})
