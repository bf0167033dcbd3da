"""The sample program (examples/miracle_random_bot.py) plays whole 神迹之战 matches over the bot socket
against each built-in level, and sees nothing of the opponent's deck before both are in."""
import importlib.util
import io
import json
import random
from pathlib import Path

import pytest
from channels.db import database_sync_to_async

from game.models import Match
from tests.bot_levels import FAST_LEVELS
from tests.bots.helpers import BotSocket, token_for

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "miracle_random_bot.py"


def load_example():
    spec = importlib.util.spec_from_file_location("miracle_random_bot", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def bot_settings(settings):
    # Room for a busy test machine; the expert on a small budget (it is tested for playing, not strength).
    settings.BOT_MOVE_SECONDS = 30
    settings.BOT_SWEEP_SECONDS = 0
    settings.BOT_LEVEL_OPTIONS = {
        **FAST_LEVELS, "miracle": {**FAST_LEVELS["miracle"], "expert": {"budget": 300}},
    }


class Wire:
    """The example's view of a socket (``send``, ``recv``, ``async for``) over the test communicator."""

    def __init__(self, socket):
        self.socket = socket
        self.texts = []

    async def send(self, text):
        await self.socket.send(text)

    async def recv(self):
        text = await self.socket.receive_text()
        self.texts.append(text)
        return text

    def __aiter__(self):
        return self

    async def __anext__(self):
        return await self.recv()


@pytest.mark.parametrize("level", ["random", "greedy", "expert", "master"])
async def test_the_sample_program_plays_a_whole_match_against_a_built_in_level(host, level):
    example = load_example()
    socket = BotSocket(await token_for(host))
    assert await socket.connect()
    wire, out = Wire(socket), io.StringIO()
    try:
        code = await example.play(wire, {"type": "play", "level": level, "game": "miracle"}, random.Random(level), out)
    finally:
        await socket.disconnect()
    frames = [json.loads(text) for text in wire.texts]
    seated = next(f for f in frames if f["type"] == "match")
    match = await database_sync_to_async(Match.objects.get)(pk=seated["match"])
    assert match.game == "miracle" and match.status == Match.Status.FINISHED
    assert code == (0 if match.winner == seated["seat"] else 1)
    assert out.getvalue().splitlines()[-1].startswith("won" if code == 0 else "lost")
    # Its own commands were all accepted (an illegal one would have lost the match at once).
    assert match.end_reason in ("miracle_destroyed", "turn_limit")
    assert not [f for f in frames if f["type"] == "error"]
    # Nothing of the built-in bot's deck before both were in.
    for frame in frames:
        if frame["type"] in ("state", "snapshot") and frame["view"] and frame["view"]["phase"] == "deck":
            assert frame["view"]["decks"][1 - seated["seat"]] is None
        if frame["type"] == "version":
            for event in frame["events"]:
                if event["type"] == "deck" and event["player"] != seated["seat"]:
                    assert set(event) == {"type", "player"}
