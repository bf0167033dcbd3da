"""The Aquawar board and move forms drawn in Python (game/games/aquawar/markup.py) are byte for byte
what their templates drew.

The templates are kept here (``reference/aquawar/``) only as the reference: the app no longer uses
them. Each position of several random matches (both seats and a spectator, live and finished, every
clock the page draws, both languages, players' names and marks a template would have to escape, a
page's csrf token and a socket's fragment) is drawn both ways and compared.
"""
from collections import Counter
from pathlib import Path

import pytest
from django.template import Context, Engine
from django.template.loader import get_template
from django.utils import translation

from game.games.aquawar import markup, presenter
from game.games.aquawar.web import AquawarWeb
from game.games.base import Drawn
from game.live import presenter as live_presenter
from tests.games.aquawar.positions import positions
from tests.games.positions import NOW

REFERENCE = Path(__file__).parent / "reference"
ENGINE = Engine(
    dirs=[str(REFERENCE), str(Path(__file__).resolve().parents[3] / "templates")],
    libraries={"i18n": "django.templatetags.i18n"},
)
# A page drawn for a request has a csrf token (escaped where it is printed); a socket's has none.
EXTRAS = ({"oob": True}, {"oob": False, "csrf_token": 'tok<&"\'>'})


def reference(name, ctx):
    return ENGINE.get_template(f"aquawar/_{name}.html").render(Context(ctx))


def features(ctx):
    """What of the markup a context exercises, for the check that the positions cover it all."""
    found = {f"mode:{ctx['controls']['mode']}"}
    for side in ctx["sides"]:
        found |= {"aid"} if side["aid_url"] else set()
        found |= {"to_move"} if side["to_move"] else set()
        found |= {f"clock:{'deadline' if side['clock']['deadline'] else 'bank'}"} if side["clock"] else set()
        found |= {"urgent"} if side["clock"] and side["clock"]["urgent"] else set()
        found |= {"picked"} if side["picked"] and not side["fish"] else set()
        for fish in side["fish"]:
            found |= {"hidden"} if not fish["species"] else {"known"}
            found |= {"mimic_copying"} if fish["mimic_of"] else set()
            found |= {"dead"} if not fish["alive"] else set()
            found |= {"shields"} if fish["own"] and fish["shields"] else set()
            found |= {f"effect:{e}" for e in fish["effects"]}
            found |= {"escaped_mark"} if any("<" in m["text"] for m in fish["marks"]) else set()
    controls = ctx["controls"]
    if controls["mode"] == "pick" and controls["mimic_targets"]:
        found.add("mimic_targets")
    if controls["mode"] == "assert" and not controls["targets"]:
        found.add("assert_without_targets")
    for actor in controls.get("actors", ()):
        found |= {"skill_grid"} if actor["skill_grid"] else set()
        found |= {"skill_list"} if actor["skills"] and not actor["skill_grid"] else set()
    return found


def test_the_board_and_the_controls_are_the_templates_bytes():
    seen = Counter()
    drawn = 0
    for seed in (11, 12, 13, 14, 19):
        for language, payload, marks, seats in positions(seed, 4):
            with translation.override(language):
                ctx = presenter.page_context(payload, marks, seats)
                seen.update(features(ctx) | {f"language:{language}", f"seat:{payload['seat']}", payload["status"]})
                for extra in EXTRAS:
                    context = {**ctx, **extra}
                    assert markup.board(context) == reference("board", context), (seed, payload["version"], payload["seat"], language)
                    assert markup.controls(context) == reference("controls", context), (seed, payload["version"], payload["seat"], language)
                    drawn += 2
    wanted = {
        "language:en", "language:zh-hans", "seat:0", "seat:1", "seat:None", "live", "finished",
        "mode:pick", "mode:waiting_pick", "mode:assert", "mode:act", "mode:wait", "mode:watching", "mode:finished",
        "aid", "to_move", "clock:deadline", "clock:bank", "urgent", "hidden", "known", "mimic_copying", "dead",
        "shields", "effect:reduce", "escaped_mark", "mimic_targets", "skill_grid", "skill_list",
    }
    assert wanted <= set(seen), wanted - set(seen)
    assert drawn > 1000


def test_the_players_names_and_the_marks_are_escaped():
    language, payload, marks, seats = next(p for p in positions(12, 4) if p[1]["seat"] == 0 and p[1]["version"] == 12)
    with translation.override(language):
        html = markup.board(presenter.page_context(payload, marks, seats))
    assert "&lt;b&gt;&quot;Tom&#x27;s&quot; &amp; co&lt;/b&gt; (you)" in html
    assert '<span class="mark mark--x&quot;&lt;" style="--order: ' in html
    assert "<b>" not in html and "<&'" not in html


def test_a_pick_and_its_forms_read_in_chinese():
    language, payload, marks, seats = next(p for p in positions(11, 4, languages=("zh-hans",)) if p[1]["seat"] == 0)
    with translation.override(language):
        ctx = presenter.page_context(payload, marks, seats)
        html = markup.controls({**ctx, "oob": True})
    assert ctx["controls"]["mode"] == "pick"
    assert 'hx-swap-oob="true"' in html and "csrfmiddlewaretoken" not in html
    assert "锁定队伍" in html and "Lock in my team" not in html


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize(
    "clock",
    [
        {"deadline": NOW + 45_000, "server_time": NOW, "text": "0:45", "urgent": False},
        {"deadline": NOW + 7_000, "server_time": NOW, "text": "0:07", "urgent": True},
        {"deadline": None, "server_time": NOW, "text": "3:20", "urgent": False},
        {"deadline": 1234567, "server_time": 999, "text": "<1:02:03>", "urgent": False},
    ],
)
def test_the_clock_is_the_platform_template_s(language, clock):
    with translation.override(language):
        assert markup.clock(clock, markup.texts(language)) == get_template("game/_clock.html").render({"clock": clock})


def test_the_game_draws_its_board_and_controls_and_the_page_includes_them():
    web = AquawarWeb()
    assert isinstance(web.templates["board"], Drawn) and isinstance(web.templates["controls"], Drawn)
    language, payload, marks, seats = next(p for p in positions(13, 4) if p[1]["seat"] == 1 and p[1]["version"] == 20)
    with translation.override(language):
        ctx = {**presenter.page_context(payload, marks, seats), "parts": web.templates}
        page = Engine(libraries={}).from_string("{% include parts.board %}\x00{% include parts.controls %}")
        board, controls = page.render(Context(ctx)).split("\x00")
        assert board == markup.board(ctx) and controls == markup.controls(ctx)
        fragment = live_presenter.render_parts(ctx, ("board", "controls"))
        assert fragment == markup.board({**ctx, "oob": True}) + markup.controls({**ctx, "oob": True})
