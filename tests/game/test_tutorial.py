"""The tutorials (docs/tutorial.md): a match from the game's fixed start against its scripted bot,
never rated, whose page follows the lessons whatever the player does; left or started again at will."""
import pytest

from game import games, rematch, services
from game.live import frames, presenter
from game.models import Match
from game.programs import runner, seats
from game.programs.models import BotSeat
from ratings.models import Rating, RatingChange

GAMES = ["aquawar", "miracle"]


@pytest.fixture(autouse=True)
def bots_moved_by_the_test(monkeypatch):
    """The runner is not woken: each test makes the bot's moves itself (``runner.settle``)."""
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    monkeypatch.setattr(seats, "wake", lambda match_id: None)


def fresh(match):
    return Match.objects.get(pk=match.pk)


def tutorial_step(match, seat=0):
    match = frames.load_match(match.pk)
    game = games.get(match.game)
    return presenter.tutorial(game, frames.payload(match, seat))


def follow_lessons(match, user, choose, limit=400):
    """Play ``user``'s seat with ``choose(step, legal)`` and the bot through the runner until the
    match ends or ``limit`` commands; returns the lesson steps seen, in order, each once in a row."""
    game = games.get(match.game)
    seen = []
    for _ in range(limit):
        runner.settle(match.pk)
        current = fresh(match)
        if current.status != Match.Status.LIVE:
            break
        panel = tutorial_step(current)
        if not seen or seen[-1] != panel["step"].key:
            seen.append(panel["step"].key)
        state = game.load(current.state)
        legal = game.legal_commands(state, 0)
        services.apply_command(match.pk, user, f"c{current.version}", current.version, choose(panel["step"], legal))
    return seen


def first_legal(step, legal):
    return legal[0]


@pytest.mark.parametrize("name", GAMES)
def test_a_tutorial_starts_from_its_fixed_start_against_its_bot_and_is_unrated(host, name):
    game = games.get(name)
    match = fresh(seats.start_tutorial(host, name))
    assert (match.status, match.tutorial, match.rated, match.move_seconds, match.bank_seconds) == ("live", True, False, 0, 0)
    assert match.private, "a newcomer's tutorial is not listed for others to watch"
    assert (match.seed, match.first_mover, match.setup) == (game.tutorial.seed, game.tutorial.first_mover, game.tutorial.setup)
    assert BotSeat.objects.get(match=match).level == game.tutorial.level == "tutorial"
    assert "tutorial" not in game.levels, "the tutorial's bot is never offered, ranked or anchored as a level"
    # Two tutorials of one game start the same: the lessons can name what the bot will do.
    again = fresh(seats.start_tutorial(host, name))
    assert again.state == match.state


@pytest.mark.parametrize("name", GAMES)
def test_a_tutorial_played_to_its_end_changes_no_rating(host, client, name):
    match = seats.start_tutorial(host, name)
    follow_lessons(match, host, first_legal, limit=60)
    if fresh(match).status == Match.Status.LIVE:
        services.resign(match, host)  # the player gives up after some moves: the match is over all the same
    final = fresh(match)
    assert final.status == "finished" and not final.rated
    assert not Rating.objects.filter(user=host).exists()
    assert not RatingChange.objects.filter(match=final).exists()
    board = client.get(f"/leaderboard/{name}/people/").content.decode()
    assert host.username not in board
    # It stays in the player's own history (their first match, to replay); a tutorial is private.
    summary = f"/match/{final.pk}/summary/"
    assert summary not in client.get(f"/history/?player={host.username}").content.decode()
    client.force_login(host)
    assert summary in client.get(f"/history/?player={host.username}").content.decode()


def aquawar_lesson(step, legal):
    """What the Aquawar tutorial asks, as a person following it would do it."""
    if step.key == "pick":
        return {"pick": ["archerfish", "pufferfish", "electric_eel", "sunfish"]}
    if step.key in ("skip", "skip-again"):
        return {"assert": None}
    if step.key == "attack":
        return {"act": {"actor": 0, "kind": "attack", "enemy": 0}}
    if step.key == "assert":
        return {"assert": {"target": 0, "fish": "octopus"}}
    if step.key == "skill":
        return {"act": {"actor": 0, "kind": "skill"}}
    return legal[0]


def test_the_aquawar_lessons_come_in_order_when_followed(host):
    match = seats.start_tutorial(host, "aquawar")
    seen = follow_lessons(match, host, aquawar_lesson, limit=12)
    assert [key for key in seen if key != "wait"][:6] == ["pick", "skip", "attack", "assert", "skill", "play"]


def test_the_aquawar_tutorial_adapts_to_a_player_who_does_something_else(host):
    """An assertion instead of the skip, a skill instead of the attack: the page goes on to the
    lesson still to learn, and asks for the right assertion until it is made."""
    match = seats.start_tutorial(host, "aquawar")

    def contrary(step, legal):
        if step.key == "skip":
            return {"assert": {"target": 1, "fish": "clownfish"}}  # wrong: the bot's #2 is a Sea Wolf
        if step.key == "attack":
            return {"act": {"actor": 0, "kind": "skill"}}
        return aquawar_lesson(step, legal)

    seen = follow_lessons(match, host, contrary, limit=10)
    lessons = [key for key in seen if key != "wait"]
    assert lessons[:5] == ["pick", "skip", "attack", "assert", "play"], lessons


def test_a_spectator_sees_no_tutorial_panel(host, outsider):
    match = seats.start_tutorial(host, "aquawar")
    assert tutorial_step(match, seat=0)["step"].key == "pick"
    assert tutorial_step(match, seat=None) is None


def test_the_tutorial_is_offered_on_the_how_to_page_and_from_the_lobby(host_client, client):
    page = host_client.get("/games/miracle/how-to-play/").content.decode()
    assert 'action="/games/miracle/tutorial/"' in page
    assert "Log in to start the tutorial" in client.get("/games/aquawar/how-to-play/").content.decode()
    assert 'class="lobby-tutorial"' in host_client.get("/").content.decode()
    assert client.get("/games/aquawar/tutorial/").status_code == 302  # to the login, then back here
    assert host_client.get("/games/aquawar/tutorial/")["Location"] == "/games/aquawar/how-to-play/#tutorial"
    assert host_client.post("/games/nogame/tutorial/").status_code == 404


def test_starting_again_and_leaving_end_the_old_match_without_a_result(host, host_client, outsider):
    response = host_client.post("/games/aquawar/tutorial/")
    first = Match.objects.get(host=host, tutorial=True)
    assert response["Location"] == f"/match/{first.pk}/"
    # The button again, without a restart: back to the tutorial under way.
    assert host_client.post("/games/aquawar/tutorial/")["Location"] == f"/match/{first.pk}/"
    assert Match.objects.filter(host=host, tutorial=True).count() == 1
    page = host_client.get(f"/match/{first.pk}/").content.decode()
    assert 'id="match-tutorial"' in page and "Start the tutorial again" in page and "game/tutorial.js" in page
    host_client.post("/games/aquawar/tutorial/", {"restart": str(first.pk)})
    second = Match.objects.exclude(pk=first.pk).get(host=host, tutorial=True)
    assert (fresh(first).status, fresh(first).winner, second.status) == ("aborted", None, "live")
    # Someone else's match is never aborted by a restart naming it.
    other = seats.start_tutorial(outsider, "aquawar")
    host_client.post("/games/aquawar/tutorial/", {"restart": str(other.pk)})
    assert fresh(other).status == "live"
    response = host_client.post(f"/match/{second.pk}/tutorial/leave/")
    assert response["Location"] == "/games/aquawar/how-to-play/"
    assert fresh(second).status == "aborted"
    assert host_client.post(f"/match/{other.pk}/tutorial/leave/").status_code == 404
    assert fresh(other).status == "live"


def test_a_finished_tutorial_has_no_rematch(host):
    match = seats.start_tutorial(host, "aquawar")
    services.resign(match, host)
    with pytest.raises(services.ServiceError) as refused:
        rematch.answer(match.pk, host, "offer")
    assert refused.value.code == "tutorial_rematch"
