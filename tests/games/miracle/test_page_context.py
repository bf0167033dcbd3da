"""The 神迹之战 page context a socket builds on every change (``presenter.page_context``) translates
its texts and looks its drawings up once, not once per redraw, cell or creature, and says the same
as when it translated them each time: the units' labels, and each of the 277 cells' names."""
import random
from html import escape

from django.templatetags.static import static
from django.utils import translation
from django.utils.formats import localize
from django.utils.translation import gettext

from game.games import markup as platform
from game.games.miracle import cards, mapdraw, presenter
from game.games.miracle.texts import creature_name
from tests.games.miracle.positions import positions


def sample(languages=("en", "zh-hans")):
    """Live positions of two random matches, a few of each seat's and a spectator's."""
    found = [p for seed in (6, 8) for p in positions(seed, 50, languages) if p[1]["status"] == "live"]
    assert len(found) > 30
    return found


def old_unit_label(unit, own, acting=True):
    """A creature's label as it was made before, with gettext for each creature."""
    words = {"type": creature_name(unit["type"]), "level": unit["level"], "hp": unit["hp"], "max": unit["max_hp"], "atk": unit["atk"]}
    text = (gettext("Your %(type)s (L%(level)s): HP %(hp)s/%(max)s, ATK %(atk)s") if own
            else gettext("Enemy %(type)s (L%(level)s): HP %(hp)s/%(max)s, ATK %(atk)s")) % words
    if unit["shield"]:
        text += " · " + gettext("holy shield")
    if unit["atk"] > unit["base_atk"]:
        text += " · " + gettext("attack raised")
    if own and acting and unit["can_act"]:
        text += " · " + gettext("can act")
    return text


def old_cells_svg(payload, marks, seats, drawn):
    """The cells as they were drawn before: every cell's dict and name made again, with gettext."""
    seen, seat, flip = payload["view"], payload["seat"], drawn["flipped"]
    spawn_sides = {mapdraw.key(c): side for side in (0, 1) for c in (seen["spawn_points"][side] if seen else [])}
    things = {}
    for key, side in spawn_sides.items():
        things.setdefault(key, []).append(
            gettext("your spawn point") if side == seat else gettext("spawn point of %(who)s") % {"who": seats[side]["label"]})
    for g, key in zip(drawn["garrisons"], mapdraw.GARRISONS):
        things.setdefault(key, []).append(
            gettext("Garrison (nobody's yet)") if g["owner"] is None
            else gettext("garrison of %(who)s") % {"who": seats[g["owner"]]["label"]})
    for m in drawn["miracles"]:
        things.setdefault(m["key"], []).append(gettext("%(who)s's miracle: %(hp)s/30 HP") % {"who": m["label"], "hp": m["hp"]})
    for unit in drawn["units"]:
        things.setdefault(unit["cell"], []).append(unit["label"])
    out = []
    for c in mapdraw.CELLS[flip]:
        where = gettext("Column %(column)s, row %(row)s") % c
        said = things.get(c["key"]) or [gettext("abyss") if c["terrain"] == "abyss" else gettext("empty")]
        if c["terrain"] == "abyss" and c["key"] in things:
            said = [gettext("abyss")] + said
        spawn = presenter.TONES.get(spawn_sides.get(c["key"]))
        classes = "hex hex--" + c["terrain"] + (" hex--spawn-" + spawn if spawn else "")
        classes += "".join(" hex--" + escape(m) for m in (marks.get("cells") or {}).get(c["key"], []))
        out.append('<use href="#mh-hex" x="%s" y="%s" class="%s" data-cell="%s" role="button" aria-label="%s" tabindex="-1"/>' % (
            localize(c["x"]), localize(c["y"]), classes, c["key"], escape("%s: %s" % (where, "; ".join(str(t) for t in said)))))
    return "".join(out)


def test_the_labels_and_the_cells_names_are_the_catalogue_s_in_each_language():
    checked = set()
    for language, payload, marks, seats in sample():
        with translation.override(language):
            ctx = presenter.page_context(payload, marks, seats)
            drawn, controls = ctx["board"], ctx["controls"]
            units = {u["id"]: u for u in payload["view"]["units"]}
            for token in drawn["units"]:
                assert token["label"] == old_unit_label(units[token["id"]], token["own"])
                checked |= {(language, "own" if token["own"] else "enemy")} | ({(language, "shield")} if token["shield"] else set())
            for actor in controls.get("actors", ()):
                assert actor["label"] == old_unit_label(units[actor["id"]], True)
                checked.add((language, "actor"))
            assert drawn["cells_svg"] == old_cells_svg(payload, marks, seats, drawn)
            checked |= {(language, "marks")} if marks["cells"] else set()
    assert {(lang, kind) for lang in ("en", "zh-hans") for kind in ("own", "enemy", "shield", "actor", "marks")} <= checked


def test_a_second_context_of_a_position_translates_and_looks_up_nothing(monkeypatch):
    calls = []
    for module, name in ((platform, "gettext"), (presenter, "_"), (cards, "static")):
        original = getattr(module, name)
        monkeypatch.setattr(module, name, lambda text, original=original: calls.append(text) or original(text))
    language, payload, marks, seats = random.Random(3).choice([p for p in sample(("zh-hans",)) if p[1]["seat"] is not None])
    with translation.override(language):
        first = presenter.page_context(payload, marks, seats)
        calls.clear()
        again = presenter.page_context(payload, marks, seats)
    assert calls == []
    assert again["board"] == first["board"] and again["sides"] == first["sides"]


def test_a_drawing_s_address_is_the_static_one():
    for type_id in ("archer", "inferno"):
        assert cards.image(type_id) == static(f"miracle/img/{type_id}.svg")
        assert cards.symbol(type_id) == static(f"miracle/img/{type_id}.svg") + f"#miracle-{type_id}"
    assert cards.artifact_image("holy_light") == static("miracle/img/holy_light.svg")
