from _helpers import SPECIES

from game.games.aquawar import engine


def test_the_engine_uses_the_species_ids_of_the_record_format_in_roster_order():
    assert engine.SPECIES == SPECIES
