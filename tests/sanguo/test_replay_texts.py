"""The 三国 replay in words: each step's events as the game's page says them (``sanguo.texts``), to
each audience only what it saw then — checked step by step for every seat and a spectator of a game
played through the services, with private feedback marked so that a replay showing it to anyone
but its owner would be caught — and the
record and the starter file for the game master's co-GM as for the game master."""
import re

import pytest
from django.test import Client
from django.urls import reverse

from game.games.three_kingdoms import engine
from sanguo import records, services, texts
from tests.accounts import client_for

from .helpers import clock, deal_from, people, started_game  # noqa: F401
from .play import play_phases
from .test_pages import GM_ONLY, NAMED, SUBMITTED, shown_ids

pytestmark = pytest.mark.django_db

STEP = re.compile(r'<section id="sanguo-step">\s*<h2>([^<]*)</h2>\s*<ol>(.*?)</ol>', re.S)
LINE = re.compile(r"<li>([^<]*)</li>")
# "You learned: ID 5 is 曹操": a name paired with an ID in the replay's sentences.
LEARNED = re.compile(r"ID (\d+) is ([^\s.(<]+)")
# A Python literal of an event on the page (the replay's old key: value lines) is never shown.
RAW = ("{&#x27;", "[&#x27;", "&#x27;type&#x27;")


def step_of(client, row, audience, number):
    response = client.get(reverse("sanguo:replay", args=[row.pk]) + f"?as={audience}&step={number}")
    assert response.status_code == 200
    html = response.content.decode()
    title, items = STEP.search(html).groups()
    return html, title, LINE.findall(items)


def unescape(text):
    return text.replace("&#x27;", "'").replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">") \
        .replace("&amp;", "&")


def played_with_secrets(clock, monkeypatch):
    """A standard game a few phases in, a marked private feedback sent to a different ID at each step.
    Its seed is fixed: the checks need a game whose first phases have seats' own submissions, ballots
    and feedback to look at, and a fresh seed's game had none of the first about once in 25."""
    deal_from(monkeypatch, 1)
    row, gm, players = started_game()
    secrets = {}

    def each(current):
        current.refresh_from_db()
        if current.state["phase"] == "over":
            return
        ident = 1 + current.version % len(current.state["slots"])
        marker = f"SECRET{current.version}X"
        try:
            services.command(current.pk, gm, "", {"feedback": {"id": ident, "text": marker}})
        except services.ServiceError:
            return
        secrets[marker] = current.state["slots"][ident - 1]["controller"]

    play_phases(row, gm, players, clock, phases=5, each=each)
    row.refresh_from_db()
    assert secrets and row.state["night"] >= 1
    return row, gm, players, secrets


def test_each_seat_replays_its_own_steps_in_words_and_nothing_it_did_not_see(clock, monkeypatch):
    row, gm, players, secrets = played_with_secrets(clock, monkeypatch)
    learned = set()
    for seat, player in enumerate(players):
        client = client_for(player)
        steps = records.replay_steps(row, seat)
        own = {name for s in row.state["slots"] if s["controller"] == seat for name in s["chain"]}
        for number, (state, seen) in enumerate(steps, start=1):
            html, title, lines = step_of(client, row, seat, number)
            assert unescape(title) == texts.phase_title(state["night"], state["phase"])
            assert [unescape(line) for line in lines] == [texts.event(e, seat) for e in seen]
            known = {(name, int(i)) for i, names in state["known"][str(seat)].items() for name in names}
            assert shown_ids(html) <= known
            named = {(n, int(i)) for n, i in NAMED.findall(html)} | {(n, int(i)) for i, n in LEARNED.findall(html)}
            assert named <= known, (seat, number, named - known)
            learned |= {(seat, i) for i, _n in LEARNED.findall(html)}
            assert set(SUBMITTED.findall(html)) <= own
            for word in GM_ONLY + RAW:
                assert word not in html, (seat, number, word)
            for marker, owner in secrets.items():
                assert marker not in html or owner == seat, (seat, marker)
    # The name/ID checks had sentences to look at: the 杀手 learn each other's IDs at the start.
    assert learned


def test_a_spectator_replays_the_public_steps_in_words_and_the_game_master_every_audience(clock, monkeypatch):
    row, gm, players, secrets = played_with_secrets(clock, monkeypatch)
    onlooker = Client()
    steps = records.replay_steps(row, "spectator")
    assert steps
    for number, (_state, seen) in enumerate(steps, start=1):
        html, _title, lines = step_of(onlooker, row, "spectator", number)
        assert [unescape(line) for line in lines] == [texts.event(e, "spectator") for e in seen]
        assert not shown_ids(html) and not NAMED.findall(html) and not LEARNED.findall(html)
        for word in GM_ONLY + RAW + tuple(secrets):
            assert word not in html, (number, word)
    gm_steps = records.replay_steps(row, "gm")
    html, _title, lines = step_of(client_for(gm), row, "gm", len(gm_steps))
    assert [unescape(line) for line in lines] == [texts.event(e, "gm") for e in gm_steps[-1][1]]
    # The game master reads whose each seat's own line was.
    everything = "".join(step_of(client_for(gm), row, "gm", n)[0] for n in range(1, len(gm_steps) + 1))
    assert "To seat " in everything and "You submitted for " in everything


def test_the_co_gm_downloads_the_record_and_the_starter_file_as_the_game_master(clock):
    row, gm, players = started_game()
    helper, stranger = people(2, "helper")
    record = reverse("sanguo:record", args=[row.pk])
    starter = reverse("sanguo:starter", args=[row.pk])
    assert client_for(helper).get(record).status_code == 404
    assert client_for(helper).get(starter).status_code == 404
    services.share_console(row.pk, gm, helper.username)
    for url in (record, starter):
        assert client_for(helper).get(url).status_code == 200
        assert client_for(gm).get(url).status_code == 200
        for other in (players[0], stranger):
            assert client_for(other).get(url).status_code == 404
        assert Client().get(url).status_code == 404
    replay = client_for(helper).get(reverse("sanguo:replay", args=[row.pk])).content.decode()
    assert record in replay
    services.share_console(row.pk, gm, "")
    assert client_for(helper).get(record).status_code == 404
    assert client_for(helper).get(starter).status_code == 404


FEEDBACK = re.compile(r'<section id="sanguo-replay-feedback">.*?<ul data-feedback>(.*?)</ul>', re.S)
BALLOTS = re.compile(r'<section id="sanguo-replay-ballots">.*?<ul data-ballot>(.*?)</ul>', re.S)
ANNOUNCED = re.compile(r'<section id="sanguo-announcements">(.*?)</section>', re.S)
BALLOT = re.compile(r"<li>([^:<]+): ([^<]*)</li>")


def sections(html):
    feedback, ballots, announced = FEEDBACK.search(html), BALLOTS.search(html), ANNOUNCED.search(html)
    return ([unescape(line) for line in LINE.findall(feedback.group(1))] if feedback else [],
            BALLOT.findall(ballots.group(1)) if ballots else [], unescape(announced.group(1)))


def test_each_replay_step_shows_that_audiences_feedback_ballots_and_announcements_as_they_were(clock, monkeypatch):
    row, gm, players, secrets = played_with_secrets(clock, monkeypatch)
    for _phase in range(10):
        if row.state["phase"] == "day_vote":
            break
        play_phases(row, gm, players, clock, phases=1)
        row.refresh_from_db()
    # Every seat that may vote casts a ballot, so the vote's steps have ballots to show.
    for seat, player in enumerate(players):
        row.refresh_from_db()
        for command in [c for c in engine.legal_commands(row.state, seat) if "vote" in c][:1]:
            services.command(row.pk, player, "", command)
    row.refresh_from_db()
    ballots_seen = feedback_seen = 0
    for seat, player in enumerate(players):
        client = client_for(player)
        own = {name for s in row.state["slots"] if s["controller"] == seat for name in s["chain"]}
        for number, (state, _seen) in enumerate(records.replay_steps(row, seat), start=1):
            html = step_of(client, row, seat, number)[0]
            feedback, ballots, announced = sections(html)
            # Its own feedback as received by then: a marker sent later is not there yet.
            assert feedback == [texts.feedback(f) for f in state["feedback"].get(str(seat), [])], (seat, number)
            assert {name for name, _b in ballots} <= own, (seat, number, ballots)
            if ballots:
                assert state["phase"] == "day_vote"
            for _night, lines in (( a["night"], texts.announcement(a)) for a in state["announcements"]):
                assert all(line in announced for line in lines)
            ballots_seen += len(ballots)
            feedback_seen += len(feedback)
    # The checks had something to look at: ballots cast and feedback sent during the game.
    assert ballots_seen and feedback_seen
    onlooker = Client()
    for number in range(1, len(records.replay_steps(row, "spectator")) + 1):
        feedback, ballots, _announced = sections(step_of(onlooker, row, "spectator", number)[0])
        assert not feedback and not ballots, number
    gm_steps = records.replay_steps(row, "gm")
    feedback = sections(step_of(client_for(gm), row, "gm", len(gm_steps))[0])[0]
    assert all(any(marker in line for line in feedback) for marker in secrets if secrets[marker] is not None)
