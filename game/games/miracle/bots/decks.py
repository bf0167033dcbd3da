"""The master's deck, chosen from a self-play matchup table (``data/deck_table.json``, made by
``bench/miracle_deck_table.py``).

The opponent's deck is hidden until both are in, so the pick cannot answer it: it is the deck whose
worst matchup in the table is best (ties: the best total), a deck no entrant of the table beats.
"""
import json
import os

TABLE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "deck_table.json")


def deck_key(deck):
    return f"{deck['artifact']}+{'+'.join(deck['creatures'])}"


def pick(table):
    """The table's deck with the best worst-case win rate against the other entrants."""
    def merit(index):
        rates = [w / table["matches_per_pair"] for w in table["wins"][index] if w is not None]
        return min(rates), sum(rates)

    best = max(range(len(table["decks"])), key=merit)
    return table["decks"][best]


def load_table(path=TABLE_PATH):
    with open(path, encoding="utf-8") as source:
        return json.load(source)
