"""The Redis channel layer alone: channels_redis's own against the site's (aquawar_site/channel_layer.py).

``--messages`` messages are group_sent to a group of ``--channels`` process-local channels spread
over two layer instances (two processes' worth of sockets, in this one process) and received on
every channel. Each repetition runs both layers, interleaved (stock first in odd repetitions, the
site's first in even ones), each under a key prefix of its own, and reports per message sent: the
Redis round trips this process made (a command, or a pipeline's whole batch; counted at redis-py's
asyncio client, so the connections' handshakes are not counted) and the CPU it spent (process
time: the sender's and both receivers' work; Redis's own CPU is not counted). Medians over the
repetitions. Two ways of receiving:

- ``burst``: all messages are sent, then received (a receive finds its message waiting);
- ``paced``: each message is sent once the previous one has reached every channel (a receive
  is waiting on Redis when its message comes, as a quiet socket's is).

    python bench/channel_layer_bench.py [--redis-db 9] [--messages 200] [--channels 8] [--repeat 5]
"""
import argparse
import asyncio
import collections
import json
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LAYERS = {"stock": "channels_redis.core.RedisChannelLayer", "site": "aquawar_site.channel_layer.RedisChannelLayer"}


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis-db", type=int, default=9)
    parser.add_argument("--messages", type=int, default=200, help="messages group_sent per run")
    parser.add_argument("--channels", type=int, default=8, help="the group's channels, over two layer instances")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", help="write the results here too")
    return parser.parse_args(argv)


class RoundTrips:
    """While entered, records every round trip redis-py's asyncio clients make: a command's name,
    or ``PIPELINE`` for a pipeline's batch (sent and answered at once)."""

    def __init__(self):
        self.commands = []

    def __enter__(self):
        from redis.asyncio.client import Pipeline, Redis

        self.originals = [(Redis, "execute_command", Redis.execute_command), (Pipeline, "execute", Pipeline.execute)]
        command, pipeline = Redis.execute_command, Pipeline.execute
        commands = self.commands

        async def execute_command(client, *args, **options):
            commands.append(str(args[0]).upper())
            return await command(client, *args, **options)

        async def execute(client, *args, **options):
            commands.append("PIPELINE")
            return await pipeline(client, *args, **options)

        Redis.execute_command, Pipeline.execute = execute_command, execute
        return self

    def __exit__(self, *exc_info):
        for owner, name, original in self.originals:
            setattr(owner, name, original)


def make_layer(path, url, prefix):
    module, name = path.rsplit(".", 1)
    cls = getattr(__import__(module, fromlist=[name]), name)
    # The settings' connection options (aquawar_site/settings.py).
    return cls(hosts=[{"address": url, "socket_timeout": 30, "max_connections": 1000}], prefix=prefix, capacity=5000)


class Received:
    """What each channel received, and for each message an event set once every channel has it."""

    def __init__(self, channels, messages):
        self.by_channel = collections.defaultdict(list)
        self.missing = [channels] * messages
        self.everywhere = [asyncio.Event() for _ in range(messages)]

    async def receive_all(self, layer, channel, count):
        for _ in range(count):
            n = (await layer.receive(channel))["n"]
            self.by_channel[channel].append(n)
            self.missing[n] -= 1
            if not self.missing[n]:
                self.everywhere[n].set()


async def run(path, url, messages, channels, mode):
    """(round trips per message, CPU µs per message, round trips by command) for one layer and mode."""
    prefix = f"bench-layer-{uuid.uuid4().hex[:8]}"
    layers = [make_layer(path, url, prefix), make_layer(path, url, prefix)]
    members = [(layers[i % 2], await layers[i % 2].new_channel()) for i in range(channels)]
    for layer, channel in members:
        await layer.group_add("bench", channel)
    try:
        # Connections made and scripts cached before the count.
        await layers[0].group_send("bench", {"type": "bench", "n": 0})
        warm = Received(channels, 1)
        await asyncio.gather(*(warm.receive_all(layer, channel, 1) for layer, channel in members))
        received = Received(channels, messages)
        with RoundTrips() as trips:
            started = time.process_time()
            if mode == "burst":
                for n in range(messages):
                    await layers[0].group_send("bench", {"type": "bench", "n": n})
                await asyncio.gather(*(received.receive_all(layer, channel, messages) for layer, channel in members))
            else:
                receivers = [asyncio.ensure_future(received.receive_all(layer, channel, messages))
                             for layer, channel in members]
                for n in range(messages):
                    await layers[0].group_send("bench", {"type": "bench", "n": n})
                    await received.everywhere[n].wait()
                await asyncio.gather(*receivers)
            for layer in layers:
                # channels_redis's cleaners, still running, are part of the cost.
                await layer.wait_received()
            cpu = time.process_time() - started
        expected = list(range(messages))
        assert all(received.by_channel[channel] == expected for _, channel in members), "a message lost, repeated or reordered"
        by_command = collections.Counter(trips.commands)
        return len(trips.commands) / messages, cpu / messages * 1e6, by_command
    finally:
        for layer in layers:
            await layer.flush()


def main(argv=None):
    args = parse_args(argv)
    url = f"redis://127.0.0.1:6379/{args.redis_db}"
    results = {(name, mode): [] for name in LAYERS for mode in ("burst", "paced")}
    commands = {}
    for repetition in range(args.repeat):
        order = list(LAYERS) if repetition % 2 == 0 else list(reversed(LAYERS))
        for mode in ("burst", "paced"):
            for name in order:
                trips, cpu, by_command = asyncio.run(run(LAYERS[name], url, args.messages, args.channels, mode))
                results[name, mode].append((trips, cpu))
                commands[name, mode] = {command: count / args.messages for command, count in by_command.items()}
    summary = []
    for mode in ("burst", "paced"):
        medians = {}
        for name in LAYERS:
            runs = results[name, mode]
            medians[name] = (statistics.median(t for t, _ in runs), statistics.median(c for _, c in runs))
            per_command = ", ".join(f"{command} {count:.2f}" for command, count in sorted(commands[name, mode].items()))
            print(f"{mode:5} {name:5}: {medians[name][0]:5.2f} round trips/message, {medians[name][1]:7.1f} µs CPU/message"
                  f"  (runs: {', '.join(f'{c:.0f}' for _, c in runs)} µs; {per_command})")
            summary.append({"mode": mode, "layer": name, "round_trips": medians[name][0], "cpu_us": medians[name][1],
                            "cpu_runs_us": [c for _, c in runs], "commands": commands[name, mode]})
        print(f"{mode:5} site ÷ stock: round trips {medians['site'][0] / medians['stock'][0]:.2f}, "
              f"CPU {medians['site'][1] / medians['stock'][1]:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "results": summary}, indent=1))


if __name__ == "__main__":
    main()
