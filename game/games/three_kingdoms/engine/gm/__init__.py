"""The game master's part (rulings 5, 26, 27, 37, 54, 59–61): the game data and its lock, the pending
decisions and effects, the answers to them, and overrides."""
