"""What a viewer must not be told while a match is live, and scanners for the frames it got."""
import json
from html.parser import HTMLParser

from game.games.aquawar import engine
from game.games.aquawar.engine import SPECIES
from game.games.aquawar.texts import NAMES

MIMIC_TARGETS = [s for s in SPECIES if s != "mimic_fish"]


def hidden_from(view_all, seat):
    """Species (and Mimic copy targets) on the board that ``seat`` (None: a spectator) may not know."""
    secret = set()
    for side in (0, 1):
        if side == seat:
            continue
        for fish in view_all["teams"][side]:
            if not fish["revealed"]:
                secret.add(fish["fish"])
            if fish["mimic_of"]:
                secret.add(fish["mimic_of"])
        pick = view_all["picks"][side]
        if pick and not view_all["teams"][side]:
            # Locked in, not yet on the board (the other side is still picking).
            secret.update(pick["fish"] + ([pick["mimic"]] if pick["mimic"] else []))
    return secret


def fielded_by(view_all, seat):
    """Species ``seat`` has put on the board so far: its own frames may name those."""
    if seat is None:
        return set()
    picks = [pair[seat] for pair in view_all["past_picks"]] + [view_all["picks"][seat]]
    return {s for pick in picks if pick for s in pick["fish"] + ([pick["mimic"]] if pick["mimic"] else [])}


def named_by(events):
    """Species an assertion named (right or wrong): the guess itself is public."""
    return {e["fish"] for e in events if e["type"] == "assert"}


def words_for(species_ids):
    return set(species_ids) | {str(NAMES[s]).lower() for s in species_ids}


def strip_json(frame, seat):
    """The frame minus the viewer's own choice lists, which legitimately list every species."""
    frame = dict(frame)
    legal = frame.pop("legal", [])
    frame.pop("pick", None)
    for command in legal:
        assert set(command) <= {"pick", "mimic", "assert", "act"}, command
    targets = {}
    for command in legal:
        if command.get("assert"):
            targets.setdefault(command["assert"]["target"], []).append(command["assert"]["fish"])
    # The assertion choices must be every species for every target, whatever the target really is.
    assert all(sorted(fish) == sorted(SPECIES) for fish in targets.values()), targets
    seen = frame.get("view")
    if seen and seat is not None:
        seen = dict(seen)
        available = list(seen["available"])
        available[seat] = None
        seen["available"] = available
        frame["view"] = seen
    return frame


# The spectators' win chance (game/programs/winchances.py): engine help, which a player of a live
# match is never sent, in any frame or page.
WIN_CHANCE_FIELD = "win_chance"
WIN_CHANCE_HTML = "win-chance"


def _keys(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def check_win_chance_hidden(frame, seat):
    """A player's frame (JSON) of a live match carries no win chance, not even an empty one, at any
    depth (the workers store one with every command: ``MatchEvent.win_chance``)."""
    if seat is not None and frame.get("audience") != "all":
        assert frame.get("type") != WIN_CHANCE_FIELD and WIN_CHANCE_FIELD not in set(_keys(frame)), frame


def check_win_chance_html_hidden(text, seat, live):
    """A player's page or fragment of a live match draws no win-chance bar."""
    if seat is not None and live:
        assert WIN_CHANCE_HTML not in text, "a player of a live match is shown the win chance"


def check_structure(frame, seat):
    """Field by field: what a live view shows of the sides ``seat`` does not own."""
    check_win_chance_hidden(frame, seat)
    seen = frame.get("view")
    if not seen or frame["audience"] == "all":
        return
    for side in (0, 1):
        if side == seat:
            continue
        assert seen["available"][side] is None
        assert seen["picks"][side] is None
        assert all(pair[side] is None for pair in seen["past_picks"])
        for fish in seen["teams"][side]:
            assert fish["atk"] is None and fish["mimic_of"] is None and fish["shields"] is None
            assert fish["effects"] is None and fish["skill_uses"] is None
            assert fish["revealed"] or fish["fish"] is None


def check_events(events, seat):
    for event in events:
        owner = event.get("player", event.get("side"))
        if owner == seat or event["type"] in ("round_start", "round_end", "match_end", "assert", "assert_skip"):
            continue
        assert event["type"] not in ("atk", "avoid"), event
        if event["type"] == "pick":
            assert set(event) == {"type", "player"}, event
        if event["type"] == "action":
            assert "skill" not in event, event
        assert "by" not in event and "how" not in event, event


class CatalogueStripper(HTMLParser):
    """Drops elements marked ``data-catalogue`` (fixed species lists) and keeps their values aside."""

    VOID = {"input", "br", "img", "meta", "link", "hr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.kept = []
        self.depth = 0
        self.catalogues = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if self.depth:
            if tag in ("input", "option", "button") and attributes.get("value"):
                self.catalogues[-1].append(attributes["value"])
            if tag not in self.VOID:
                self.depth += 1
            return
        if "data-catalogue" in attributes:
            self.catalogues.append([])
            self.depth = 1
            return
        self.kept.append(self.get_starttag_text())

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1
            return
        self.kept.append(f"</{tag}>")

    def handle_data(self, data):
        if not self.depth:
            self.kept.append(data)


def strip_html(text, own_available):
    stripper = CatalogueStripper()
    stripper.feed(text)
    stripper.close()
    for values in stripper.catalogues:
        values = [v for v in values if v]
        assert values in (list(SPECIES), MIMIC_TARGETS, own_available), values
    return "".join(stripper.kept)


def leaked(text, secret):
    lowered = text.lower()
    return sorted(word for word in words_for(secret) if word in lowered)


def view_all(match):
    return engine.view(engine.MatchState.from_json(match.state), "all")


def own_available(view_all_now, seat):
    return None if seat is None else list(view_all_now["available"][seat])


def scan_json(texts, seat, secret):
    for text in texts:
        frame = json.loads(text)
        check_win_chance_hidden(frame, seat)
        if frame["type"] in ("state", "snapshot"):
            check_structure(frame, seat)
            frame = strip_json(frame, seat)
        if frame["type"] == "version":
            check_events(frame["events"], seat)
        found = leaked(json.dumps(frame), secret)
        assert not found, (found, text)
