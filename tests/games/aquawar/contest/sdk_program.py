"""A contest program for the tests, speaking the official C++ SDK's wire behaviour byte for byte.

Written from the SDK (``sdk/ai_client.hpp``, see shared/docs/saiblo/aquawar-protocol.md), with
nothing taken from the bridge:

- input is read one byte at a time until what has been read parses as one JSON value (jsoncpp's
  ``reader.parse`` in ``listen()``); no framing is expected;
- an answer is 4 bytes of big-endian length, then the JSON with newlines removed, plus one space
  when the length's low byte would be a newline or carriage return (``sendrecv_msg``);
- at end of input ``getchar()`` gives -1, which is appended and never parses: the loop spins.
  Here it spins for at most ``SPIN_SECONDS`` (a guard, should a test leave it running).

Its moves are random but legal from what it was told (the SDK's ``auto_valid_action`` in spirit).
``--fail KIND:MESSAGE`` makes it break the rules at the first message of that Action: ``crash``
(exit 3), ``silent`` (never answer), ``garbage`` (bytes that are no answer) or ``illegal`` (a
well-formed answer the rules refuse). ``--log FILE`` appends every message received, one per line.
"""
import argparse
import json
import os
import random
import struct
import sys
import time

SPIN_SECONDS = 60
MIMIC, AVATARS = 12, range(1, 12)
AOE_FISH, HARM_FISH, CRIT_FISH, BUFF_FISH = {1, 3}, {2, 4}, {5}, {6, 8}
TURTLE, SHARKS, CLOWNFISH = 7, {9, 10}, 11


def listen(stdin):
    received = b""
    spin_until = None
    while True:
        byte = stdin.read(1)
        if byte == b"":
            # getchar() == EOF: -1 is appended as a char and the parse fails for ever.
            spin_until = spin_until or time.monotonic() + SPIN_SECONDS
            if time.monotonic() > spin_until:
                sys.exit(0)
            byte = b"\xff"
        received += byte
        try:
            return json.loads(received.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            continue


def send(stdout, answer):
    body = json.dumps(answer, separators=(",", ":")).replace("\n", "").replace("\r", "").encode()
    if len(body) & 0xFF in (10, 13):
        body += b" "
    stdout.write(struct.pack(">I", len(body)) + body)
    stdout.flush()


class Player:
    def __init__(self, rng):
        self.rng = rng
        self.avatar = None
        self.skill_used = [0] * 4
        self.info = None

    def pick(self, message):
        fish = self.rng.sample(message["RemainFishs"], 4)
        self.skill_used = [0] * 4
        answer = {"Action": "Pick", "ChooseFishs": fish}
        self.avatar = None
        if MIMIC in fish:
            self.avatar = self.rng.choice(AVATARS)
            answer["ImitateFish"] = self.avatar
        return answer

    def assert_(self, message):
        self.info = message["GameInfo"]
        hidden = [i for i in range(4) if self.info["EnemyFish"][i] == -1 and self.info["EnemyHP"][i] > 0]
        if not hidden or self.rng.random() < 0.7:
            return {"Action": "Null"}
        return {"Action": "Assert", "Pos": self.rng.choice(hidden), "ID": self.rng.randint(1, 12)}

    def act(self, message):
        info = self.info = message["GameInfo"]
        mine = [i for i in range(4) if info["MyHP"][i] > 0]
        enemies = [i for i in range(4) if info["EnemyHP"][i] > 0]
        actor = self.rng.choice(mine)
        kind = abs(info["MyFish"][actor])
        kind = self.avatar if kind == MIMIC else kind
        mates = [i for i in mine if i != actor]
        attack = {"Action": "Action", "Type": 0, "MyPos": actor, "EnemyPos": self.rng.choice(enemies)}
        skill = {"Action": "Action", "Type": 1, "MyPos": actor, "MyList": [], "EnemyList": []}
        if self.rng.random() < 0.3:
            return attack
        if kind in AOE_FISH or (kind == CLOWNFISH and mates):
            skill["EnemyList"] = enemies if kind in AOE_FISH or self.skill_used[actor] < 3 else []
            skill["MyList"] = [self.rng.choice(mates)] if kind == CLOWNFISH else []
        elif kind in HARM_FISH and mates:
            skill["MyList"] = [self.rng.choice(mates)]
        elif kind in CRIT_FISH:
            skill["EnemyList"] = [self.rng.choice(enemies)]
        elif kind in BUFF_FISH:
            skill["MyList"] = [self.rng.choice(mine)]
        elif kind == TURTLE and mates:
            skill["MyList"] = [self.rng.choice(mates)]
            skill["EnemyList"] = [self.rng.choice(enemies)] if self.skill_used[actor] < 3 else []
        elif kind in SHARKS:
            lowest = min(info["EnemyHP"][j] for j in enemies)
            skill["EnemyList"] = [self.rng.choice([j for j in enemies if info["EnemyHP"][j] == lowest])]
        else:
            return attack
        self.skill_used[actor] += 1
        return skill

    def illegal(self, action):
        """A well-formed answer that breaks a rule, for each kind of message."""
        if action == "Pick":
            return {"Action": "Pick", "ChooseFishs": [1, 2, 3]}
        if action == "Assert":
            dead = [i for i in range(4) if self.info and self.info["EnemyHP"][i] == 0]
            return {"Action": "Assert", "Pos": dead[0] if dead else 9, "ID": 1}
        return {"Action": "Action", "Type": 0, "MyPos": 0, "EnemyPos": 7}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fail", default=None, help="crash|silent|garbage|illegal:Pick|Assert|Action|Finish")
    parser.add_argument("--log", default=None)
    parser.add_argument("--chatter", type=int, default=0, help="bytes of debug output per message, on stderr")
    args = parser.parse_args()
    failure, failing_at = args.fail.split(":") if args.fail else (None, None)
    player = Player(random.Random(args.seed))
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    handlers = {"Pick": player.pick, "Assert": player.assert_, "Action": player.act}
    while True:
        message = listen(stdin)
        action = message.get("Action")
        if args.log:
            with open(args.log, "a") as log:
                log.write(json.dumps(message) + "\n")
        if args.chatter:
            sys.stderr.write("x" * args.chatter + "\n")
            sys.stderr.flush()
        if action == failing_at:
            if failure == "crash":
                os._exit(3)
            if failure == "silent":
                time.sleep(SPIN_SECONDS)
            if failure == "garbage":
                stdout.write(b"I think I will attack fish 2\n")
                stdout.flush()
                continue
            if failure == "illegal":
                send(stdout, player.illegal(action))
                continue
        if action == "Finish":
            send(stdout, {"Action": "Finish"})
        elif action in handlers:
            send(stdout, handlers[action](message))
        else:
            # The SDK answers an Action it does not know with an empty message.
            stdout.write(struct.pack(">I", 0))
            stdout.flush()


if __name__ == "__main__":
    main()
