"""The 2021 Saiblo contest's programs and replays on this site (docs/contest-programs.md).

- ``python -m game.games.aquawar.contest``: the bridge, which runs a contest program unmodified
  and plays one seat for it over the bot socket (``bridge``, ``translator``, ``sdk``,
  ``actioninfo``). It needs no Django: the standard library, ``websockets`` and the engine (``..engine``).
- ``official``: an official replay file turned into an ``aquawar-record/1`` record, which the
  game's record reader does for the import page (``game.Aquawar.read_record``); the pages word what
  it found with ``game.games.aquawar.source``.
"""
