"""Chat beside a match (issue #15), as on lichess: one room for its two players, and one for
everyone else, which the players do not see while they play. Stored with the match (the database
is the truth, as for moves), delivered live over the match socket (a ``chat.posted`` ring that
carries no text: each socket reads what its viewer may see), shown in the replay afterwards.

``models``: the messages and the mutes; ``service``: the only code that writes them.
"""
