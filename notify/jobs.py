"""Where notices are found and sent: on every sweep of a process that settles matches (a
``run_bots`` worker; the server itself in the embedded setup), finding the new events there and then
(a few queries) and sending in a worker thread of that process (``runner.run_soon``), so neither the
sweep nor any page or socket waits on SMTP or a push service."""
import logging

from django.db import connections

from game.programs import runner

from . import delivery, events

logger = logging.getLogger(__name__)


def on_sweep(sender, **kwargs):
    events.find()
    if delivery.pending_exist():
        runner.run_soon(send_job)


def send_job():
    try:
        delivery.deliver_pending()
    except Exception:
        logger.exception("Sending notices failed")
    finally:
        # Worker threads outlive the job; never leave a connection open behind one.
        connections.close_all()
