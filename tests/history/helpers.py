"""Matches played through the real services, and the engine's own answers to check pages against."""
import json
import random
import re


from game.games.aquawar import engine
from game import services
from game.games.aquawar.engine.randomplay import random_command
from game.games.aquawar.engine.record import parse_record
from game.models import Match, MatchEvent
from tests.replay_data import rebuilt

HOST_PICK = {"pick": ["mimic_fish", "archerfish", "sea_wolf", "sunfish"], "mimic": "octopus"}
GUEST_PICK = {"pick": ["manta_ray", "clownfish", "electric_eel", "pufferfish"]}
PERSPECTIVES = ("0", "1", "spectator", "all", "", "nonsense")




def state_of(match):
    return engine.MatchState.from_json(Match.objects.get(pk=match.pk).state)


def play(match, users, rng, *, until=None, guess_rate=1.0):
    """Random legal commands through ``services.apply_command`` until the match ends (or ``until``
    commands); with ``guess_rate`` below 1 some assertions are skipped, so more fish stay hidden."""
    done = 0
    while until is None or done < until:
        state = state_of(match)
        if state.phase == "over":
            break
        movers = [p for p in (0, 1) if state.phase != "pick" or state.picks[p] is None]
        seat = movers[0] if state.phase == "pick" else state.to_move
        if state.round == 1 and state.phase == "pick":
            command = (HOST_PICK, GUEST_PICK)[seat]
        elif state.phase == "assert" and rng.random() >= guess_rate:
            command = {"assert": None}
        else:
            command = random_command(state, seat, rng)
        version = Match.objects.get(pk=match.pk).version
        services.apply_command(match.pk, users[seat], f"c{version}", version, command)
        done += 1
    return Match.objects.get(pk=match.pk)


def finish(host, guest, seed, **options):
    match = services.join_match(services.create_match(host, **options), guest)
    return play(match, (host, guest), random.Random(seed))


def live_in_round_one(host, guest, *, private=False):
    match = services.join_match(services.create_match(host, private=private), guest)
    # Two picks and three whole turns: enough for damage, and still hidden fish on both sides.
    return play(match, (host, guest), random.Random(5), until=8, guess_rate=0.3)


def stored_commands(match):
    return list(MatchEvent.objects.filter(match=match).order_by("version").values_list("seat", "command"))


def engine_replay(match):
    """The engine's own states after 0, 1, 2, … commands and each command's events, from the seed
    and the stored commands: the independent truth pages are checked against."""
    state = engine.new_match(match.seed, match.first_mover)
    states, events = [state.copy()], []
    for seat, command in stored_commands(match):
        state, produced = engine.apply(state, seat, command)
        states.append(state)
        events.append(produced)
    return states, events


def embedded(response, element_id):
    """The JSON of a ``json_script`` element of a page."""
    html = response.content.decode()
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S)
    assert found, f"no {element_id} on the page"
    data = json.loads(found.group(1))
    # The replay's views come as changes from the frame before: whole again, as the page reads them.
    return rebuilt(data) if element_id == "replay-data" else data


def record_of(match):
    commands = [{"player": seat, **command} for seat, command in stored_commands(match)]
    return parse_record({"format": "aquawar-record/1", "seed": match.seed, "commands": commands})


def clone_finished(match, host, guest):
    """Another finished match with ``match``'s seed, commands and events but other players: history
    lists and filters need many finished matches, and playing each one out would be slow."""
    copy = Match.objects.create(
        host=host,
        guest=guest,
        status=Match.Status.FINISHED,
        seed=match.seed,
        version=match.version,
        state=match.state,
        winner=match.winner,
        end_reason=match.end_reason,
        finished=match.finished,
    )
    MatchEvent.objects.bulk_create(
        MatchEvent(match=copy, version=e.version, seat=e.seat, command=e.command, events=e.events)
        for e in MatchEvent.objects.filter(match=match)
    )
    return copy
