"""The Aquawar status line drawn in Python (game/games/aquawar/markup.py with the platform's lines
of game/games/markup.py) is byte for byte what its template drew.

The template (``reference/aquawar/_status.html``) is kept only as the reference; it extends the
platform's ``game/_status.html`` as it is in the app (神迹之战 still draws with it), with that
template's includes (the opponent's presence, the bot badge, the rating changes, the rematch, the
lobby's news socket). Each position of several random matches (both seats and a spectator, live
and finished, both languages, names a template would have to escape) is drawn both ways in many
variants: every opponent line, bots on either seat, every rematch state, rating changes up, down
and even, a resignation and a clock run out, open, cancelled and aborted matches with each reason,
as a socket's fragment and as a page with a csrf token.
"""
from collections import Counter
from pathlib import Path

from django.template import Context, Engine
from django.utils import translation

from game import games
from game.games.aquawar import markup
from game.games.base import Drawn
from game.live import presenter as live_presenter
from tests.games import status_variants
from tests.games.aquawar.positions import positions
from tests.games.status_variants import EXTRAS, OPPONENTS, RATINGS

ROOT = Path(__file__).resolve().parents[3]
ENGINE = Engine(
    dirs=[
        str(Path(__file__).parent / "reference"),
        *(str(ROOT / folder) for folder in ("templates", "ratings/templates", "lobby/templates")),
    ],
    libraries={"i18n": "django.templatetags.i18n"},
)


def reference(ctx):
    return ENGINE.get_template("aquawar/_status.html").render(Context(ctx))


def context(payload, marks, opponent=None):
    return status_variants.context("aquawar", payload, marks, opponent)


def features(ctx):
    status, found = ctx["status"], status_variants.features(ctx)
    found |= {"last_round"} if status.get("last_round") else set()
    found |= {"rounds"} if status["rounds"] else set()
    found |= {f"phase:{status.get('phase')}"}
    found |= {"your_turn"} if status.get("your_turn") else set()
    return found


def test_the_status_line_is_the_template_s_bytes():
    seen, drawn = Counter(), 0
    for seed in (11, 12, 19):
        for index, (language, payload, marks, _seats) in enumerate(positions(seed, 5)):
            with translation.override(language):
                for variant, ctx in status_variants.variants("aquawar", index, payload, marks):
                    seen.update(features(ctx) | {variant.split(":")[0], f"language:{language}", f"seat:{payload['seat']}"})
                    seen.update({variant} if ":" in variant else ())
                    for extra in EXTRAS:
                        page = {**ctx, **extra}
                        assert markup.status(page) == reference(page), (seed, payload["version"], payload["seat"], language, variant, extra)
                        drawn += 1
    wanted = {*status_variants.WANTED, "last_round", "rounds", "phase:pick", "phase:act", "phase:assert", "your_turn"}
    assert wanted <= set(seen), wanted - set(seen)
    assert drawn > 1000


def test_the_lobby_s_news_of_a_page_that_lists_open_matches_is_the_template_s():
    language, payload, marks, _seats = next(p for p in positions(12, 5) if p[1]["status"] == "finished" and p[1]["seat"] == 1)
    with translation.override(language):
        ctx = {**context(payload, marks), "news_waiting": [7, 12], "oob": True}
        html = markup.status(ctx)
        assert html == reference(ctx)
    assert 'ws-connect="/ws/lobby/?waiting=7,12"' in html


def test_names_in_the_status_line_are_escaped():
    language, payload, marks, _seats = next(
        p for p in positions(12, 5) if p[1]["status"] == "finished" and p[1]["seat"] is None and p[0] == "en"
    )
    with translation.override(language):
        html = markup.status({**context({**payload, "rating_changes": RATINGS[1]}, marks), "oob": True})
    assert "&lt;b&gt;&quot;Tom&#x27;s&quot; &amp; co&lt;/b&gt;" in html and "ana&amp;&lt;i&gt;" in html
    assert "<b>" not in html and "<i>" not in html


def test_a_live_status_reads_in_chinese():
    language, payload, marks, _seats = next(
        p for p in positions(13, 5, languages=("zh-hans",)) if p[1]["status"] == "live" and p[1]["view"]["phase"] == "act"
    )
    with translation.override(language):
        html = markup.status({**context(payload, marks), "oob": True})
    assert 'hx-swap-oob="true"' in html and "Round 1 of 3" not in html
    assert "第 1 轮（共 3 轮）" in html


def test_the_game_draws_its_status_and_the_page_includes_it():
    web = games.get("aquawar").web
    assert isinstance(web.templates["status"], Drawn)
    language, payload, marks, _seats = next(p for p in positions(13, 5) if p[1]["seat"] == 0 and p[1]["status"] == "live")
    with translation.override(language):
        ctx = context(payload, marks, OPPONENTS[3])
        page = Engine(libraries={}).from_string("{% include parts.status %}")
        assert page.render(Context({**ctx, "csrf_token": "abc"})) == markup.status({**ctx, "csrf_token": "abc"})
        assert live_presenter.render_parts(ctx, ("status",)) == markup.status({**ctx, "oob": True})
