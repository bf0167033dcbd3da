"""How many frames one socket may send: a sliding window, kept per socket (no shared state)."""
import time
from collections import deque


class FrameRate:
    """At most ``limit`` frames in any ``window`` seconds; the frame that would exceed it is refused."""

    def __init__(self, limit, window, what="frames"):
        self.limit, self.window, self.what = limit, window, what
        self._recent = deque()

    def refuse(self):
        """True if this frame is one too many for the window; otherwise it is counted."""
        now = time.monotonic()
        while self._recent and self._recent[0] <= now - self.window:
            self._recent.popleft()
        if len(self._recent) >= self.limit:
            return True
        self._recent.append(now)
        return False

    def message(self):
        return (
            f"Too fast: at most {self.limit} {self.what} per {self.window} seconds. "
            "That one was ignored: wait a moment, then send it again."
        )
