"""The engines' random generator: SplitMix64 on a 64-bit integer kept in the match state, so a
state serialised mid-match and restored draws the very same numbers, and a record (seed + commands)
replays bit for bit."""

MASK64 = (1 << 64) - 1


def splitmix64(x):
    """One SplitMix64 step: returns (new generator state, 64-bit output)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)
