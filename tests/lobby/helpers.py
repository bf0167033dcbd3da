from game.games.aquawar.engine import SPECIES, apply, legal_commands, new_match
from game.models import Match


def fresh(match):
    return Match.objects.get(pk=match.pk)


def hide_teams_in(match):
    """Give `match` a real engine state where both sides have secretly picked their fish, so a page
    that rendered any of the state would show species names."""
    state = new_match(match.seed)
    for seat in (0, 1):
        state, _events = apply(state, seat, legal_commands(state, seat)[0])
    Match.objects.filter(pk=match.pk).update(state=state.to_json())


def assert_no_species(html):
    lowered = html.lower()
    names = {name for species in SPECIES for name in (species, species.replace("_", " "))}
    leaked = sorted(name for name in names if name in lowered)
    assert not leaked, f"species leaked into the page: {leaked}"


def post_with_csrf(client, page_url, action_url, data=None):
    """POST the way a browser does: load the page that holds the form, then send its CSRF token."""
    client.get(page_url)
    token = client.cookies["csrftoken"].value
    return client.post(action_url, {"csrfmiddlewaretoken": token, **(data or {})})
