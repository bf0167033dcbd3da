"""The 三国 pages for each audience: what they show, and that they show nobody what they may not
know — another seat's submissions or feedback, an ID the seat has not learned, the game master's
console or the engine's state — at every phase of a game played through the services."""
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from game.games.three_kingdoms import engine
from sanguo import services
from sanguo.models import Game
from tests.accounts import client_for

from .helpers import clock, people, started_game  # noqa: F401
from .play import play_phases
from .test_player_page import page_forms

pytestmark = pytest.mark.django_db

ROW = re.compile(r"<tr[^>]*><td>([^<]*)</td><td>[^<]*</td><td>[^<]*</td><td>([^<]*)</td>")
# The player's texts pair a name with an ID ("曹操 (ID 5)", "ID 5: 曹操") and name the character
# each of the seat's own submissions is for.
NAMED = re.compile(r"([^\s>(;:,]+) \(ID (\d+)\)")
KNOWN = re.compile(r'<li data-known-id="(\d+)">(.*?)</li>')
KNOWN_NAME = re.compile(r'data-known-name="([^"]*)"')
SUBMITTED = re.compile(r"You submitted for ([^:]+):")
# Words of the engine's full state and of the console, never on a page but the game master's.
GM_ONLY = ("sanguo-console", "hidden_recognition", "&#x27;controller&#x27;", "&#x27;chain&#x27;", "&#x27;rng&#x27;")


def page(client, row):
    response = client.get(reverse("sanguo:game", args=[row.pk]))
    assert response.status_code == 200
    return response.content.decode()


def shown_ids(html):
    return {(name, int(ident)) for name, ident in ROW.findall(html) if ident.strip() != "?"}


def check_pages(row, gm, players, secrets, onlooker):
    row.refresh_from_db()
    state = row.state
    html = page(client_for(gm), row)
    assert "sanguo-console" in html
    for seat, player in enumerate(players):
        html = page(client_for(player), row)
        known = {(name, int(i)) for i, names in state["known"][str(seat)].items() for name in names}
        assert shown_ids(html) <= known, (seat, shown_ids(html) - known)
        named = {(n, int(i)) for n, i in NAMED.findall(html)}
        named |= {(n, int(i)) for i, names in KNOWN.findall(html) for n in KNOWN_NAME.findall(names)}
        assert named <= known, (seat, named - known)
        own = {name for s in state["slots"] if s["controller"] == seat for name in s["chain"]}
        assert set(SUBMITTED.findall(html)) <= own, seat
        for word in GM_ONLY:
            assert word not in html, (seat, word)
        for marker, owner in secrets.items():
            assert (marker in html) == (owner == seat), (seat, marker)
    for client in (Client(), client_for(onlooker)):
        html = page(client, row)
        if row.status == Game.Status.FINISHED:
            # After the end, everyone sees everything (the replay's audience "all"), feedback too.
            assert {i for _name, i in shown_ids(html)} == {s["id"] for s in state["slots"]}
            continue
        assert not shown_ids(html) and not NAMED.findall(html) and not SUBMITTED.findall(html)
        for word in GM_ONLY + tuple(secrets):
            assert word not in html


def test_every_audience_sees_only_its_own_at_every_phase(clock):
    row, gm, players = started_game()
    secrets = {}
    onlooker, = people(1, "onlooker")

    def each(current):
        current.refresh_from_db()
        if current.status == Game.Status.LIVE and current.state["phase"] != "over":
            # A private feedback to one ID, marked, so the pages of the other seats can be searched for it.
            ident = 1 + current.version % len(current.state["slots"])
            owner = current.state["slots"][ident - 1]["controller"]
            marker = f"SECRET{current.version}X"
            try:
                services.command(current.pk, gm, "", {"feedback": {"id": ident, "text": marker}})
                secrets[marker] = owner
            except services.ServiceError:
                pass
        check_pages(current, gm, players, secrets, onlooker)

    play_phases(row, gm, players, clock, phases=8, each=each)
    row.refresh_from_db()
    assert row.state["night"] >= 2 or row.status == Game.Status.FINISHED
    assert secrets


def test_a_player_sees_their_characters_and_may_submit_from_the_page(clock):
    row, gm, players = started_game()
    client = client_for(players[0])
    html = page(client, row)
    assert 'data-sanguo-form="assassinate"' in html and 'class="own"' in html
    # The 杀手 know each other's IDs from the start: the leak checks' name/ID pairs are on the page.
    assert NAMED.findall(html) and KNOWN.findall(html)
    form = next(f for f in page_forms(html) if f["key"].startswith("assassinate|"))
    response = client.post(reverse("sanguo:act", args=[row.pk]),
                           {"do": "play", "form": form["key"], "target0": form["fields"]["target0"][0]})
    assert response.status_code == 302
    row.refresh_from_db()
    assert engine.view(row.state, 0)["submissions"]


def test_a_refused_form_says_why_and_changes_nothing(clock):
    row, gm, players = started_game()
    version = row.version
    response = client_for(gm).post(reverse("sanguo:act", args=[row.pk]), {"do": "command", "command": "{nope"},
                                   follow=True)
    assert "A command is a JSON object." in response.content.decode()
    row.refresh_from_db()
    assert row.version == version


def test_a_seat_cannot_send_the_engine_a_command_its_page_did_not_offer(clock):
    """The console's raw box is the GM's: a seat answering a decision by its number would learn from
    the engine's refusal whose it is ("not yours") or that there is none, so it is never asked."""
    row, gm, players = started_game()
    version = row.version
    client = client_for(players[0])
    legal = next(c for c in engine.legal_commands(row.state, 0) if "assassinate" in c)
    for command in ({"answer": {"decision": 1, "choice": "yes"}}, legal):
        response = client.post(reverse("sanguo:act", args=[row.pk]),
                               {"do": "command", "command": json.dumps(command, ensure_ascii=False)}, follow=True)
        assert "Only the game master can do that." in response.content.decode()
    row.refresh_from_db()
    assert row.version == version


def test_recruiting_through_the_pages(clock):
    gm, = people(1, "gm")
    client = client_for(gm)
    response = client.post(reverse("sanguo:create"), {"mode": "standard", "characters": "27",
                                                      "minutes_night_action": "30"})
    row = Game.objects.get()
    assert response["Location"] == reverse("sanguo:game", args=[row.pk])
    assert row.state["data"]["durations"]["night_action"] == 1800
    for player in people(3):
        client_for(player).post(reverse("sanguo:act", args=[row.pk]), {"do": "sign_up"})
    starter = client.get(reverse("sanguo:starter", args=[row.pk]))
    assert starter.status_code == 200 and b"notes" in starter.content
    assert client_for(people(1, "other")[0]).get(reverse("sanguo:starter", args=[row.pk])).status_code == 404
    client.post(reverse("sanguo:act", args=[row.pk]), {"do": "start"})
    row.refresh_from_db()
    assert row.status == Game.Status.LIVE
    assert "sanguo" in Client().get(reverse("sanguo:lobby")).content.decode()


def test_an_invite_only_game_is_hidden_without_its_link(clock):
    gm, = people(1, "gm")
    row = services.create_game(gm, mode="standard", private=True)
    assert Client().get(reverse("sanguo:game", args=[row.pk])).status_code == 404
    url = reverse("sanguo:game", args=[row.pk]) + f"?invite={row.invite_token}"
    assert Client().get(url).status_code == 200
    assert reverse("sanguo:game", args=[row.pk]) not in Client().get(reverse("sanguo:lobby")).content.decode()



def test_the_hosting_forms_phase_lengths_are_named_as_the_pages_name_the_phases_with_the_rules_defaults():
    host, = people(1, "host")
    html = client_for(host, HTTP_ACCEPT_LANGUAGE="zh-hans").get(reverse("sanguo:lobby")).content.decode()
    found = re.findall(r'<label>([^<]+) <input name="minutes_(\w+)" inputmode="decimal" size="6" placeholder="(\d+)">', html)
    fields = {name: (label, minutes) for label, name, minutes in found}
    assert set(fields) == set(services.PHASES)
    assert fields["night_action"] == ("夜晚行动", "720")
    assert fields["day_vote"][1] == "480"
