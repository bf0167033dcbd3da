"""Engine scenario tests. The shared helpers live in ``_helpers.py`` (imported by each test module)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
