"""三国 (Three Kingdoms): the hidden-identity game for 3 to 33 people and a game master. Only its
rules engine exists so far (``engine``); it is not yet in the platform's registry."""
