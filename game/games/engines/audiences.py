"""Who may look at a match, for every engine's ``view`` and ``project``: each seat, a spectator, and
"all" (everything, once the match is over). What each audience may see of an event is its game's
decision (its ``view.project_event``); the walk over a command's events is the same for all."""

AUDIENCES = (0, 1, "spectator", "all")


def check(audience):
    # A bool equals 0 or 1, but ``True`` is no seat.
    if isinstance(audience, bool) or audience not in AUDIENCES:
        raise ValueError(f"Unknown audience {audience!r}; expected one of {AUDIENCES}.")


def project(events, audience, project_event, valid=check):
    """``events`` as ``audience`` may see them: each one's ``project_event(event, audience)``, the
    ones it may see nothing of left out. ``valid`` checks the audience (a game with more seats than
    two, 三国, passes its own)."""
    valid(audience)
    if audience == "all":
        return list(events)
    out = []
    for event in events:
        seen = project_event(event, audience)
        if seen is not None:
            out.append(seen)
    return out
