"""The scenario of docs/faults.md, "A cancelled receive that never ends", run in a process of its own
(a receive whose cancellation is lost polls Redis for as long as its process lives).

    python tests/faults/lost_cancellation.py LAYER_CLASS REDIS_URL

For each delay from 0 to ``DELAYS`` turns of the event loop: a fresh channel layer of
``LAYER_CLASS`` (its connection not made yet), a receive started on a new channel, cancelled after
that delay. A receive still running ``WAIT`` seconds later lost its cancellation. Prints a JSON
object: how many receives were cancelled, and at which delays one never ended.
"""
import asyncio
import importlib
import json
import os
import sys

DELAYS = 40
# The layer's blocking pop, shortened: a receive still running after three of them never ends.
POP_SECONDS = 1
WAIT = 3 * POP_SECONDS


def layer_class(path):
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


async def cancelled_receive_ends(make_layer, delay):
    layer = make_layer()
    task = asyncio.ensure_future(layer.receive(await layer.new_channel()))
    for _ in range(delay):
        await asyncio.sleep(0)
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=WAIT)
    return bool(done)


async def main(path, url):
    cls = layer_class(path)

    def make_layer():
        # The settings' connection options: socket_timeout is what makes redis-py use wait_for.
        hosts = [{"address": url, "socket_timeout": 30}]
        layer = cls(hosts=hosts, prefix=f"lost-cancellation-{os.getpid()}")
        layer.brpop_timeout = POP_SECONDS
        return layer

    never_ended = [delay for delay in range(DELAYS) if not await cancelled_receive_ends(make_layer, delay)]
    print(json.dumps({"cancelled": DELAYS, "never_ended": never_ended}), flush=True)
    # Receives that never ended would keep the process alive: it has said all it had to.
    os._exit(0)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
