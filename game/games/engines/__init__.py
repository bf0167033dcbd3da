"""What both engines share: pure Python, standard library only, no Django and no game of its own,
so that each engine (``game/games/<name>/engine``) may import it and stay pure."""
