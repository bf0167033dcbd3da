"""Rated play: Glicko-2 ratings per game, program accounts, leaderboards, quick pairing.

Its own app, with its own migrations: it depends on ``game`` one way (``game`` never imports it; the
services announce every end of a match with the ``match_ended`` signal, and ``ratings.changes``
listens inside that same transaction). docs/ratings.md describes it.
"""
