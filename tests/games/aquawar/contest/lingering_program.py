"""A stand-in contest program for the tests of a bridge being stopped: it starts a child of its own
(in its process group, as a shell script's commands are), writes both process ids to the file named
by its first argument, ignores SIGTERM and SIGHUP, and then never exits, as an SDK program never
does — or, given ``--crash``, exits at once, leaving its child running."""
import os
import signal
import subprocess
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(sys.argv[1], "w") as pids:
    pids.write(f"{child.pid} {os.getpid()}\n")
if sys.argv[2:] == ["--crash"]:
    sys.exit(3)
while True:
    time.sleep(1)
