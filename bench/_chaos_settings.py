"""Settings of the fault test's servers (``bench/chaos.py``): the production settings, plus a
program move clock taken from the environment.

The contest's 3 s clock (``BOT_MOVE_SECONDS``) is shorter than a killed server takes to come back
(about 1–2 s to start, plus the client's back-off), so most kills would end a match by timeout
instead of testing what the issue asks for. ``CHAOS_BOT_MOVE_SECONDS`` (``--move-seconds``) sets it, and
``CHAOS_BOT_SWEEP_SECONDS`` / ``CHAOS_RECHECK_SECONDS`` the sweep and the sockets' recheck;
everything else is exactly ``aquawar_site.settings``.
"""
import os

from aquawar_site.settings import *  # noqa: F401,F403

BOT_MOVE_SECONDS = float(os.environ.get("CHAOS_BOT_MOVE_SECONDS", "3"))
BOT_SWEEP_SECONDS = float(os.environ.get("CHAOS_BOT_SWEEP_SECONDS", "5"))
if os.environ.get("CHAOS_RECHECK_SECONDS"):
    # ``--recheck-seconds 0`` shows what the sockets' recheck is for (docs/faults.md).
    RECHECK_SECONDS = float(os.environ["CHAOS_RECHECK_SECONDS"])
