"""What a seat knows, with how it learnt it (``sanguo.known``): every ID the seat's view holds and
none other, each way of learning named, and the player's page listing them."""
import pytest
from django.urls import reverse

from game.games.three_kingdoms import engine
from game.games.three_kingdoms.engine.night import identify
from game.games.three_kingdoms.engine.records.randomplay import Player
from sanguo import known, services
from sanguo.models import Event
from tests.accounts import client_for

from .helpers import clock, started_game  # noqa: F401


def played(seed):
    """A random 33-character game to its end, with every applied command as a stored row holds it."""
    rows = []

    def on_apply(state, seat, command, in_place=False):
        after, events = engine.apply(state, seat, command, in_place=in_place)
        rows.append((seat if seat in ("gm", "server") else str(seat), command, events))
        return after, events

    game = Player(seed, "standard", 33, on_apply=on_apply)
    game.play()
    return game.state, rows


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_lists_exactly_the_ids_its_view_holds(seed):
    state, rows = played(seed)
    for seat in range(len(state["seat_names"])):
        listed = {}
        for entry in known.learnt(rows, seat):
            listed.setdefault(str(entry["id"]), []).append(entry["name"])
        assert listed == engine.view(state, seat)["known"], seat


def test_the_start_a_join_a_successor_and_the_reveal_are_told_apart():
    ways = {}
    for seed in (1, 2, 3, 4):
        state, rows = played(seed)
        for seat in range(len(state["seat_names"])):
            for entry in known.learnt(rows, seat):
                ways.setdefault(entry["how"], entry)
    assert {"start", "joined", "succession", "reveal"} <= set(ways), ways
    assert ways["start"]["night"] == 1
    assert ways["reveal"]["night"] == 3


def _feedback_step(night, seat, text, learnt_id, name):
    """The events the engine's 夜晚反馈公告 sends a seat: the phase, its feedback, then its learns."""
    return [{"type": "phase", "to": "public", "phase": "night_feedback", "night": night, "deadline": 0},
            {"type": "feedback", "to": [seat], "character": "荀彧", "text": text},
            {"type": "learn", "to": [seat], "id": learnt_id, "name": name}]


def test_an_identification_result_is_told_apart_from_mutual_recognition():
    found = _feedback_step(4, 0, identify._result(7, "曹操"), 7, "曹操")
    # The identified ID's seat learns the identifier back (a 非同国 hit is mutual), with no feedback naming it.
    back = [{"type": "phase", "to": "public", "phase": "night_feedback", "night": 4, "deadline": 0},
            {"type": "learn", "to": [1], "id": 3, "name": "荀彧"}]
    rows = [("server", {"at": 0, "close": {}}, found), ("server", {"at": 0, "close": {}}, back)]
    assert known.learnt(rows, 0) == [{"id": 7, "name": "曹操", "night": 4, "how": "identified"}]
    assert known.learnt(rows, 1) == [{"id": 3, "name": "荀彧", "night": 4, "how": "mutual"}]
    # A miss names the ID but not a character: what follows it is not the identification's.
    missed = _feedback_step(4, 0, identify._result(7, None), 9, "孙权")
    assert known.learnt([("server", {"at": 0, "close": {}}, missed)], 0)[0]["how"] == "mutual"


@pytest.mark.django_db
def test_the_game_masters_recognition_is_named_and_reaches_only_its_seat(clock):
    row, gm, players = started_game()
    own = next(s for s in row.state["slots"] if s["controller"] == 0)
    other = next(s for s in row.state["slots"] if s["controller"] == 1)
    before = {seat: known.learnt(_rows(row), seat) for seat in (0, 1, 2)}
    services.command(row.pk, gm, "", {"override": {"reason": "ruling", "effects": [
        {"recognise": [own["id"], other["id"]], "mutual": False}]}})
    after = {seat: known.learnt(_rows(row), seat) for seat in (0, 1, 2)}
    new = after[0][len(before[0]):]
    assert [(e["id"], e["how"]) for e in new] == [(other["id"], "gm")]
    assert after[1] == before[1] and after[2] == before[2]


def _rows(row):
    return list(Event.objects.filter(game=row).order_by("version").values_list("actor", "command", "events"))


@pytest.mark.django_db
def test_the_players_page_lists_known_ids_with_how_and_no_other(clock):
    row, gm, players = started_game()
    own = next(s for s in row.state["slots"] if s["controller"] == 0)
    other = next(s for s in row.state["slots"] if s["controller"] == 1)
    services.command(row.pk, gm, "", {"override": {"reason": "ruling", "effects": [
        {"recognise": [own["id"], other["id"]], "mutual": False}]}})
    url = reverse("sanguo:game", args=[row.pk])
    page = client_for(players[0]).get(url).content.decode()
    assert f'data-known-id="{other["id"]}"' in page
    assert "the game master&#x27;s ruling" in page or "the game master's ruling" in page
    seat1 = client_for(players[1]).get(url).content.decode()
    row.refresh_from_db()
    for ident in range(1, len(row.state["slots"]) + 1):
        assert (f'data-known-id="{ident}"' in seat1) == (str(ident) in row.state["known"]["1"])
