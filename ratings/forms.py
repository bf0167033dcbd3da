from lobby.forms import GameChoice, rated_field


class PlayNowForm(GameChoice):
    """Quick pairing: a game, a time control, rated or casual."""

    rated = rated_field()
