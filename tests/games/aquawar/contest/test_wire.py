"""The wire between the bridge and a contest program, as the official SDK speaks it."""
import asyncio
import json
import struct
import sys

import pytest

from game.games.aquawar.contest import sdk
from game.games.aquawar.contest.bridge import Program

from .harness import SDK_PROGRAM

PICK = {"Action": "Pick", "RemainFishs": list(range(1, 13)), "FirstMover": 1}


async def read_answer(stdout):
    (length,) = struct.unpack(">I", await stdout.readexactly(4))
    return json.loads(await stdout.readexactly(length))


async def test_messages_go_unframed_and_back_to_back_and_answers_come_framed():
    program = Program([sys.executable, str(SDK_PROGRAM)])
    await program.start()
    try:
        # Two messages in one write, nothing between them: the SDK stops reading at the end of each.
        program.process.stdin.write(sdk.encode(PICK) + sdk.encode({"Action": "Finish", "Result": "Win"}))
        await program.process.stdin.drain()
        first, second = await read_answer(program.process.stdout), await read_answer(program.process.stdout)
        assert first["Action"] == "Pick" and len(set(first["ChooseFishs"])) == 4
        assert second == {"Action": "Finish"}
    finally:
        await program.stop()


async def test_at_the_end_of_its_input_an_sdk_program_spins_and_is_killed():
    program = Program([sys.executable, str(SDK_PROGRAM)])
    await program.start()
    program.process.stdin.close()
    await asyncio.sleep(0.5)
    assert program.process.returncode is None  # reading -1 for ever, as getchar() does
    await program.stop()
    assert program.process.returncode == -9


def test_an_answer_whose_length_ends_in_a_newline_byte_gets_the_sdks_space():
    answer = {"Action": "Null", "pad": ""}
    answer["pad"] = "x" * (266 - len(json.dumps(answer, separators=(",", ":"))))
    framed = sdk.frame_answer(answer)
    length = sdk.answer_length(framed[:4])
    assert length == 267 and framed[4:].endswith(b" ")
    assert sdk.decode_answer(framed[4:]) == answer


def test_an_answer_is_read_only_within_the_official_limit():
    assert sdk.answer_length(struct.pack(">I", sdk.MAX_ANSWER_BYTES)) == 1024
    with pytest.raises(sdk.AnswerError, match="announced 1025 bytes"):
        sdk.answer_length(struct.pack(">I", 1025))
