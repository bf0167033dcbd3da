"""三国 on the site: games of 3 to 33 seats run by a game master (天庭), beside ``game.Match``.

docs/three-kingdoms-site.md says why it has its own tables, and how it reuses the platform (accounts,
the sweep, notices, the event-log design). The rules are the engine's
(``game/games/three_kingdoms/engine``); this app is the only code that reaches it, and
``sanguo.services`` the only code that changes a game.
"""
