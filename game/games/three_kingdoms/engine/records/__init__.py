"""Records, their replay, and random play with the automatic game master (the tests', the benchmark's
and the CLI's games)."""
