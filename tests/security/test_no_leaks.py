"""Property test: random full matches, and after every version everything each audience can get is
searched for what that audience may not know.

Design
======
Matches are played through ``game.services`` (the code the sockets call), by random legal commands
(``engine.randomplay``), several seeds, to the end. After every applied version, for each audience
— seat 0 (host), seat 1 (guest) and a spectator (``None``) — we build what it can receive:

1. **JSON** (match socket and bot socket alike): ``frames.payload`` (the body of ``state`` /
   ``snapshot``) and ``frames.versions`` from 0 (every ``version`` frame it was or will be sent).
2. **HTML fragments of the browser socket**: ``presenter.context`` + ``render_parts`` + the full
   ``render_log``, exactly what ``MatchConsumer.render_full`` sends, in English (and in Chinese
   whenever the pages below are fetched too).
3. **Pages** via the Django test client: the match page for host / guest / outsider, and while the
   match is live the replay (every ``?as=``), summary and record URLs (every few versions, and at
   every round boundary and the end: each replay re-simulates the whole match).

Checks, from the most precise to the broadest:

* **Structure** (JSON): for every side the audience does not own, ``atk``, ``mimic_of``,
  ``shields``, ``effects``, ``skill_uses`` are null, ``fish`` is null unless revealed, ``picks``,
  ``past_picks`` and ``available`` are null — past rounds' enemy picks included, until the match
  is over; no owner-only event (``atk``, ``avoid``, a pick's fish, an action's ``skill``, a
  counter's ``by``, a heal's / share's ``how``) of the other side; the ``legal`` list / ``pick``
  options only for the viewer's own seat, and assertion choices the same full species list for
  every target (so they say nothing about the target).
* **The hidden fish's card** (HTML): inside the enemy team's container (``data-side``), the card of
  each fish the view does not name (``data-pos``) holds no species at all — no id, English or Chinese
  name, no drawing but the generic "hidden"/"dead" ones. This one holds even when the viewer owns
  the same species on its own side, which a plain text search could not tell apart.
* **Words** (everything): the *secret* species of an audience are every species the other side(s)
  have locked in so far (all rounds, Mimic copy targets too), minus what it may legitimately know:
  its own fielded species (a name on its own side is fine) and every species an assertion
  successfully revealed. No secret may appear anywhere as id (drawings are ``<id>.svg``, so this
  covers file names too), English name or Chinese name. Three places legitimately print *any*
  species and are taken out before the search, each checked on its own: assertion guesses (public,
  right or wrong: the guessed name is removed from that one log line / event), the fixed catalogues
  (``data-catalogue``: the pick roster and the assertion's species list, which must be the full
  list or the viewer's own available list), and the viewer's own ``legal`` / ``pick`` lists.

The test also counts how many secret words it searched for, so a broken secret computation (an
empty set everywhere) fails instead of passing vacuously.
"""
import json
import random
import re

import pytest
from django.test import Client
from django.utils import translation

from game.games.aquawar import engine
from game.live import frames, presenter
from game import services
from game.games.aquawar.engine.randomplay import players_to_move, random_command
from game.games.aquawar.engine import SPECIES
from game.models import Match, MatchEvent
from game.games.aquawar.texts import NAMES
from tests.accounts import client_for
from tests.game.leaks import check_events, check_structure, check_win_chance_html_hidden, strip_html, strip_json
from tests.replay_data import replay_data

pytestmark = pytest.mark.django_db

SEEDS = (11, 57)
LANGUAGES = ("en", "zh-hans")
# Pages re-simulate the match; every version would make the test quadratic.
PAGE_EVERY = 12
AUDIENCES = (0, 1, None)


def names_of(species, language):
    with translation.override(language):
        return str(NAMES[species])


def words(species_ids):
    """Every spelling of each species: id, English and Chinese display name (lower case)."""
    out = set()
    for s in species_ids:
        out |= {s, names_of(s, "en").lower(), names_of(s, "zh-hans")}
    return out


ALL_WORDS = words(SPECIES)


class Truth:
    """What really happened, from the stored (unredacted) events: the basis of the secrets."""

    def __init__(self, match):
        self.rows = list(MatchEvent.objects.filter(match=match).order_by("version").values_list("version", "events"))
        self.events = [e for _v, events in self.rows for e in events]
        # version → the species its assertion named (at most one assertion per command).
        self.guesses = {v: e["fish"] for v, events in self.rows for e in events if e["type"] == "assert"}

    def picked(self, side):
        found = set()
        for e in self.events:
            if e["type"] == "pick" and e["player"] == side:
                found.update(e["fish"] + ([e["mimic"]] if e["mimic"] else []))
        return found

    def revealed(self):
        return {e["fish"] for e in self.events if e["type"] == "assert" and e["success"]}

    def secrets(self, seat):
        known = self.revealed() | (self.picked(seat) if seat is not None else set())
        hidden = set()
        for side in (0, 1):
            if side != seat:
                hidden |= self.picked(side)
        return hidden - known


def scan(text, secret, where):
    lowered = text.lower()
    found = sorted(w for w in words(secret) if w in lowered)
    assert not found, (where, found, text[:3000])


def scrub_events(events):
    """Assertion guesses are public: blank the guessed species, keep the rest for the search."""
    return [{**e, "fish": "<guess>"} if e["type"] == "assert" else e for e in events]


def scrub_assert_lines(html, guesses):
    """In the log, the line of an assertion names the guess (in any language, and its drawing)."""

    def scrub(found):
        guess = guesses.get(int(found.group(1)))
        body = found.group(2)
        if guess:
            for word in (guess, names_of(guess, "en"), names_of(guess, "zh-hans")):
                body = body.replace(word, "<guess>", 1)
        return found.group(0)[: found.start(2) - found.start(0)] + body + "</li>"

    # (A line may carry more attributes after its version: data-own on the viewer's own guess.)
    return re.sub(r'<li class="log-entry log-entry--assert" data-version="(\d+)"[^>]*>(.*?)</li>', scrub, html, flags=re.S)


TEAM = re.compile(r'<div class="team[^"]*" data-side="(\d)">(.*?)</div>\s*(?=<div class="team|</section>)', re.S)
# The card's body and its other attributes (its spoken label too): all of them must name nothing.
CARD = re.compile(r'<li class="fish [^"]*" data-pos="(\d)"(.*?)</li>', re.S)
IMAGE = re.compile(r'<img[^>]*src="([^"]*)"')


def check_board_cards(html, view, seat, where):
    """A fish the view does not name has a card that names no species at all."""
    teams = dict((int(side), body) for side, body in TEAM.findall(html))
    if not view or not teams:
        return 0
    checked = 0
    for side in (0, 1):
        if side == seat or side not in teams:
            continue
        for pos, card in CARD.findall(teams[side]):
            fish = view["teams"][side][int(pos)]
            if fish["fish"] is not None:
                continue
            lowered = card.lower()
            named = sorted(w for w in ALL_WORDS if w in lowered)
            assert not named, (where, side, pos, named, card)
            for src in IMAGE.findall(card):
                assert src.rsplit("/", 1)[-1] in ("hidden.svg", "dead.svg"), (where, src)
            checked += 1
    return checked


def own_available(match, seat):
    if seat is None or match.state is None:
        return None
    return engine.view(engine.MatchState.from_json(match.state), seat)["available"][seat]


class Audit:
    def __init__(self):
        self.secret_words_searched = 0
        self.hidden_cards = 0

    def json_for(self, match, truth, seat):
        payload = frames.payload(match, seat)
        frame = {"type": "state", **payload}
        live = match.status == Match.Status.LIVE
        if live:
            check_structure(frame, seat)
            # Choice lists only for the viewer's own seat, and only when it is live and seated.
            if seat is None:
                assert payload["legal"] == [] and payload["pick"] is None
            for command in payload["legal"]:
                if "act" in command:
                    assert command["act"]["actor"] in range(4)
        stripped = strip_json(frame, seat)
        versions = frames.versions(match, seat, 0)
        assert [v for v, _e in versions] == list(range(1, match.version + 1))
        if live:
            for _version, events in versions:
                check_events(events, seat)
                for e in events:
                    assert "atk" not in e or e.get("side") == seat
            secret = truth.secrets(seat)
            self.secret_words_searched += len(secret)
            text = json.dumps(stripped) + json.dumps([scrub_events(e) for _v, e in versions])
            scan(text, secret, ("json", seat, match.version))
        else:
            assert payload["audience"] == "all"

    def html_for(self, match, truth, seat, languages):
        if match.status != Match.Status.LIVE:
            return
        secret = truth.secrets(seat)
        available = own_available(match, seat)
        payload = frames.payload(match, seat)
        for language in languages:
            with translation.override(language):
                book, entries = presenter.full_log(match, seat)
                ctx = presenter.context(match.game_object, payload, 0, book.marks)
                html = presenter.render_parts(ctx) + presenter.render_log(entries, append=False)
            where = ("socket html", seat, language, match.version)
            check_win_chance_html_hidden(html, seat, live=True)
            self.hidden_cards += check_board_cards(html, payload["view"], seat, where)
            text = strip_html(scrub_assert_lines(html, truth.guesses), available)
            scan(text, secret, where)

    def pages_for(self, match, truth, clients):
        live = match.status == Match.Status.LIVE
        for seat, client in clients:
            response = client.get(f"/match/{match.pk}/")
            assert response.status_code == 200
            if not live:
                continue
            html = response.content.decode()
            check_win_chance_html_hidden(html, seat, live)
            payload = frames.payload(match, seat)
            where = ("page", seat, match.version)
            self.hidden_cards += check_board_cards(html, payload["view"], seat, where)
            text = strip_html(scrub_assert_lines(html, truth.guesses), own_available(match, seat))
            scan(text, truth.secrets(seat), where)
        if not live:
            return
        client = clients[0][1]
        secret = truth.secrets(None)
        for page in ("summary/", "record.json"):
            for who, viewer in clients:
                assert viewer.get(f"/match/{match.pk}/{page}").status_code == 404, (page, who)
        # Every perspective as the host; "all" (the most tempting) as everyone else too.
        asks = [(p, client) for p in ("0", "1", "spectator", "all")] + [("all", other) for _s, other in clients[1:]]
        for perspective, viewer in asks:
            response = viewer.get(f"/match/{match.pk}/replay/?as={perspective}")
            assert response.status_code == 200
            html = response.content.decode()
            data = replay_data(html)
            assert data["audience"] == "spectator"
            for frame in data["frames"]:
                check_structure({"view": frame["view"], "audience": "spectator"}, None)
                check_events(frame["events"], None)
                # The log lines of a frame follow its events one to one.
                assert len(frame["lines"]) == len(frame["events"])
                frame["lines"] = [
                    "" if e["type"] == "assert" else line for e, line in zip(frame["events"], frame["lines"])
                ]
                frame["events"] = scrub_events(frame["events"])
            scan(json.dumps(data, ensure_ascii=False), secret, ("replay data", perspective, match.version))
            # The rest of the page; the noscript log repeats the lines checked above.
            rest = re.sub(r"<noscript>.*?</noscript>|<script id=\"replay-data\".*?</script>", "", html, flags=re.S)
            scan(rest, secret, ("replay page", perspective, match.version))


def play(seed, host, guest, clients):
    rng = random.Random(seed)
    match = services.join_match(services.create_match(host), guest)
    users = (host, guest)
    audit = Audit()
    n = 0
    while True:
        match.refresh_from_db()
        truth = Truth(match)
        live = match.status == Match.Status.LIVE
        state = engine.MatchState.from_json(match.state)
        # Pages (and the fragments in Chinese too) every few versions, and always between rounds
        # (past picks!) and at the end; JSON and English fragments after every version.
        thorough = not live or state.phase == "pick" or match.version % PAGE_EVERY == 0
        for seat in AUDIENCES:
            audit.json_for(match, truth, seat)
            audit.html_for(match, truth, seat, LANGUAGES if thorough else LANGUAGES[:1])
        if thorough:
            audit.pages_for(match, truth, clients)
        if not live:
            return match, audit
        seat = players_to_move(state)[0]
        n += 1
        services.apply_command(match.pk, users[seat], f"c{n}", match.version, random_command(state, seat, rng))


@pytest.mark.parametrize("seed", SEEDS)
def test_it_never_shows_anyone_what_they_may_not_know(seed, host, guest, outsider):
    clients = [(0, client_for(host)), (1, client_for(guest)), (None, client_for(outsider)), (None, Client())]
    match, audit = play(seed, host, guest, clients)
    assert match.status == Match.Status.FINISHED
    # Not vacuous: there were secrets to look for, and hidden fish cards to inspect.
    assert audit.secret_words_searched > 100, audit.secret_words_searched
    assert audit.hidden_cards > 50, audit.hidden_cards
    # Once it is over, everything may be shown: the host's page now names the guest's whole team.
    final = Truth(match)
    page = clients[0][1].get(f"/match/{match.pk}/summary/").content.decode()
    assert all(names_of(s, "en") in page for s in final.picked(1) if s != "mimic_fish")
