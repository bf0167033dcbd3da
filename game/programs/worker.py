"""The bot worker: Channels' worker on the ``bot-work`` channel, run by ``manage.py run_bots``.

It settles the matches the servers ask it to (``dispatch.request_settle``): a built-in bot's moves,
forfeits of clocks that ran out, and the timers for the clocks still running; it estimates their
win chances for spectators (``dispatch.request_win_chance``, ``winchances``); and, like every
process that settles matches, it sweeps now and then for work nobody asked for (a lost message, a
deadline that passed while every worker was down, a tournament's round falling due: the runner's
``swept`` signal). Any number of workers may run, on any machine that reaches the database and
Redis; they share no memory (``runner``: a decision's lease, command ids).
"""
import asyncio
import logging

from asgiref.sync import sync_to_async
from channels.worker import Worker

from . import dispatch, runner, winchances

logger = logging.getLogger(__name__)

# What a message's type asks for: a match settled, or its win chance estimated for spectators.
JOBS = {"settle": runner.settle_job, "win_chance": winchances.estimate_job}


class BotWorker(Worker):
    """Channels' ``Worker``, taking a message only when it has a free slot for it.

    Channels' own listener takes messages as fast as the layer hands them over and queues them for
    one consumer that handles them in turn: one worker would take a whole burst while the others
    sat idle, and a worker killed mid-burst would lose all it had taken. Here a process holds at most
    ``concurrency`` messages (bot thinking is CPU-bound Python: one process per core, each taking one
    at a time, is the default), and Redis hands the rest to the other workers. Messages are handled
    by ``runner.settle_job`` (and ``winchances.estimate_job``) itself: there is no consumer to route them to.
    """

    def __init__(self, channel_layer, concurrency=1):
        super().__init__(application=None, channels=[dispatch.CHANNEL], channel_layer=channel_layer)
        self.concurrency = concurrency

    async def handle(self):
        runner.serve_from(asyncio.get_running_loop(), worker=True)
        self.slots = asyncio.Semaphore(self.concurrency)
        self.jobs = set()
        heart = asyncio.ensure_future(self.beat())
        try:
            await super().handle()
        finally:
            heart.cancel()

    async def beat(self):
        while True:
            try:
                await sync_to_async(dispatch.heartbeat, thread_sensitive=False)()
            except Exception:
                logger.exception("The bot worker's heartbeat failed")
            await asyncio.sleep(dispatch.HEARTBEAT_SECONDS)

    async def listener(self, channel):
        while True:
            await self.slots.acquire()
            try:
                message = await self.channel_layer.receive(channel)
            except Exception:
                # Redis restarting, say: the worker outlives it (a lost message is swept up later).
                self.slots.release()
                logger.exception("The bot worker could not read its channel; trying again in a second")
                await asyncio.sleep(1.0)
                continue
            job = asyncio.ensure_future(self.settle(message))
            # The loop keeps only weak references to tasks: one nobody holds may vanish mid-settle.
            self.jobs.add(job)
            job.add_done_callback(self.jobs.discard)

    async def settle(self, message):
        try:
            match_id = message.get("match_id")
            job = JOBS.get(message.get("type"))
            if job is None or type(match_id) is not int:
                logger.warning("The bot worker dropped a message it does not know: %r", message)
                return
            await sync_to_async(job, thread_sensitive=False)(match_id)
        finally:
            self.slots.release()
