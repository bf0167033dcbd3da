"""神迹之战 (Miracle): the engine (``engine/``, pure Python), the built-in opponents (``bots/``, pure), and
behind the platform's interface (``game.py``) its web presentation (``web.py``, templates, static).

Nothing is imported here, so that ``game.games.miracle.engine`` stays importable without Django.
"""
