"""A match knows its game: stored matches became Aquawar's, a new match is of the game chosen (and
only of a game the site has), and every list of matches says which game each is."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from game import games, services
from game.models import Match
from game.programs.seats import start_vs_computer
from tests.bots.helpers import program, take_seat
from tests.history.helpers import finish

BEFORE = [("game", "0006_socket_caps")]
AFTER = [("game", "0007_match_game")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_makes_every_stored_match_an_aquawar_match():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        old = migrate(BEFORE)
        user = old.get_model("auth", "User").objects.create(username="old-timer")
        stored = old.get_model("game", "Match").objects.create(host=user, invite_token="t0", seed=5)
        new = migrate(AFTER)
        match = new.get_model("game", "Match").objects.get(pk=stored.pk)
        assert match.game == "aquawar" and match.seed == 5 and match.host_id == user.pk
    finally:
        migrate(latest)


@pytest.mark.django_db
def test_a_new_match_is_of_the_default_game_unless_another_is_chosen(host, guest):
    assert services.create_match(host).game == games.DEFAULT == "aquawar"
    assert services.create_match(host, game="aquawar").game == "aquawar"
    assert start_vs_computer(host, "random", game="aquawar").game == "aquawar"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["chess", "", "AQUAWAR", "aquawar ", None, 7])
def test_a_game_the_site_does_not_have_is_refused(host, name):
    with pytest.raises(services.ServiceError) as refused:
        services.create_match(host, game=name)
    assert refused.value.code == "bad_game" and "Aquawar" in refused.value.message
    with pytest.raises(services.ServiceError) as refused:
        start_vs_computer(host, "random", game=name)
    assert refused.value.code == "bad_game"
    assert not Match.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("form", ["match_new", "match_vs_computer"])
def test_the_lobby_forms_refuse_a_game_not_on_offer(host_client, form):
    data = {"visibility": "open", "level": "random", "game": "chess"}
    page = host_client.post(reverse(form), data, follow=True).content.decode()
    assert "Choose a game." in page and not Match.objects.exists()


@pytest.mark.django_db
def test_the_lobby_forms_offer_every_game(host_client):
    page = host_client.get("/").content.decode()
    for select in ('id="id_game"', 'id="computer_game"'):
        options = page.split(select, 1)[1].split("</select>", 1)[0]
        assert all(f'value="{game.name}"' in options and str(game.title) in options for game in games.every())


@pytest.mark.django_db
def test_every_list_of_matches_names_the_game(host, guest, host_client, outsider_client):
    services.create_match(host)
    lobby = outsider_client.get("/").content.decode()
    assert '<span class="badge badge--game">Aquawar</span>' in lobby.split('id="open-matches-heading"', 1)[1]
    played = finish(host, guest, seed=3)
    for page in ("/history/", f"/users/{host.username}/history/", f"/users/{host.username}/"):
        html = host_client.get(page).content.decode()
        assert f'<td data-game="{played.game}">Aquawar</td>' in html, page


@pytest.mark.django_db(transaction=True)
async def test_the_bot_socket_refuses_a_game_the_site_does_not_have(host):
    socket = await program(host)
    try:
        for frame in ({"type": "create", "game": "chess"}, {"type": "play", "level": "random", "game": 3}):
            answer = await take_seat(socket, frame)
            assert answer["type"] == "error" and answer["code"] == "bad_field" and "aquawar" in answer["message"]
        answer = await take_seat(socket, {"type": "play", "level": "random", "game": "aquawar"})
        assert answer["type"] == "match"
    finally:
        await socket.disconnect()
