"""The 神迹之战 board (with the sides' strips), move forms and status line drawn in Python
(game/games/miracle/markup.py, with the platform's lines of game/games/markup.py) are byte for byte
what their templates drew.

The templates are kept here (``reference/miracle/``) only as the reference: the app no longer uses
them; the status's extends the platform's ``game/_status.html`` as it is in the app. Each position
of several random matches (the deck choice, live and finished; both seats and a spectator; every
clock the page draws; both languages; players' names and marks a template would have to escape) is
drawn both ways, as a socket's fragment and as a page with a csrf token, and compared; the status
line also in every state of the platform's (``tests/games/status_variants.py``).
"""
from collections import Counter
from pathlib import Path

from django.template import Context, Engine
from django.utils import translation

from game import games
from game.games.base import Drawn
from game.games.miracle import markup
from game.live import presenter as live_presenter
from tests.games import status_variants
from tests.games.miracle.positions import positions
from tests.games.status_variants import EXTRAS

ROOT = Path(__file__).resolve().parents[3]
ENGINE = Engine(
    dirs=[
        str(Path(__file__).parent / "reference"),
        *(str(ROOT / folder) for folder in ("templates", "ratings/templates", "lobby/templates")),
    ],
    libraries={"i18n": "django.templatetags.i18n", "static": "django.templatetags.static"},
)
DRAW = {"status": markup.status, "board": markup.board, "controls": markup.controls}


def reference(name, ctx):
    return ENGINE.get_template(f"miracle/_{name}.html").render(Context(ctx))


def features(ctx):
    """What of the board and the forms a context exercises, for the check that the positions cover it all."""
    c, b = ctx["controls"], ctx["board"]
    found = {f"mode:{c['mode']}", f"flipped:{b['flipped']}"}
    found |= {"clock:controls"} if c.get("clock") else set()
    found |= {"paths"} if b["paths"] else set()
    found |= {f"garrison:{g['tone']}" for g in b["garrisons"]}
    found |= {"escaped_mark"} if "hex--x&quot;&lt;&amp;" in b["cells_svg"] else set()
    for u in b["units"]:
        found |= {f"token:{u['tone']}", f"scale:{u['scale']}"}
        found |= {name for name in ("flying", "shield", "aura") if u[name]}
        found |= {"ready"} if u["own"] and u["can_act"] else set()
    for strip in (ctx["sides"] or {}).values():
        found |= {"strip:to_move:own" if strip["own"] else "strip:to_move"} if strip["to_move"] else set()
        found |= {f"clock:{'deadline' if strip['clock']['deadline'] else 'bank'}"} if strip["clock"] else set()
        found |= {"urgent"} if strip["clock"] and strip["clock"]["urgent"] else set()
        if "mana" not in strip:
            found.add("strip:no_view")
            continue
        found |= {"next_mana"} if strip["next_mana"] is not None else set()
        found |= {"lost_stars"} if strip["lost_stars"] else set()
        if not strip["pools"]:
            found.add("strip:deck_in" if strip["deck_in"] else "strip:choosing")
        for pool in strip["pools"] or ():
            found |= {"on_board"} if pool["on_board"] else set()
            found |= {"cooling"} if pool["cooling"] else set()
        if strip["artifact"]:
            found.add(f"artifact:{strip['artifact']['state']}:{'own' if strip['own'] else 'other'}")
    if c["mode"] == "play":
        found |= {"actor:moves"} if any(a["moves"] for a in c["actors"]) else set()
        found |= {"actor:attacks"} if any(a["attacks"] for a in c["actors"]) else set()
        found |= {"summons"} if c["summons"] else set()
        found |= {"lists_hidden"} if not (c["actors"] or c["summons"] or c["artifact"]) else set()
        if c["artifact"]:
            found.add("use:unit" if c["artifact"]["unit_choices"] else "use:cell")
    status = ctx["status"]
    found |= {"status:deck"} if status.get("phase") == "deck" else set()
    found |= {"status:your_turn"} if status.get("your_turn") else set()
    found |= {"status:to_move"} if status.get("to_move") else set()
    return found


def test_the_board_and_the_controls_are_the_templates_bytes():
    seen, drawn = Counter(), 0
    # Seeds whose positions between them use an artifact on a cell and on a creature, and shield one.
    for seed in (1, 6, 7, 8):
        for language, payload, marks, seats in positions(seed, 60):
            with translation.override(language):
                ctx = live_presenter.context(games.get("miracle"), payload, 1, marks, [True, True], {})
                seen.update(features(ctx) | {f"language:{language}", f"seat:{payload['seat']}", payload["status"]})
                for extra in EXTRAS:
                    page = {**ctx, **extra}
                    for name in ("board", "controls"):
                        assert DRAW[name](page) == reference(name, page), (name, seed, payload["version"], payload["seat"], language, extra)
                        drawn += 1
    wanted = {
        "language:en", "language:zh-hans", "seat:0", "seat:1", "seat:None", "live", "finished",
        "mode:deck", "mode:deck_waiting", "mode:play", "mode:wait", "mode:watching", "mode:finished",
        "flipped:True", "flipped:False", "clock:controls", "clock:deadline", "clock:bank", "urgent", "paths",
        "garrison:a", "garrison:b", "garrison:none", "escaped_mark", "token:a", "token:b", "scale:1", "scale:0.65",
        "flying", "shield", "aura", "ready", "strip:to_move", "strip:to_move:own", "next_mana", "lost_stars",
        "strip:deck_in", "strip:choosing", "on_board", "cooling", "artifact:ready:own", "artifact:ready:other",
        "artifact:in_use:own", "artifact:cooling:own", "actor:moves", "actor:attacks", "summons", "lists_hidden",
        "use:unit", "use:cell", "status:deck", "status:your_turn", "status:to_move",
    }
    assert wanted <= set(seen), wanted - set(seen)
    assert drawn > 1000


def test_the_status_line_is_the_template_s_bytes():
    seen, drawn = Counter(), 0
    for seed in (1, 2):
        for index, (language, payload, marks, _seats) in enumerate(positions(seed, 100)):
            with translation.override(language):
                for variant, ctx in status_variants.variants("miracle", index, payload, marks):
                    seen.update(
                        status_variants.features(ctx) | features(ctx)
                        | {variant.split(":")[0], f"language:{language}", f"seat:{payload['seat']}"}
                    )
                    seen.update({variant} if ":" in variant else ())
                    for extra in EXTRAS:
                        page = {**ctx, **extra}
                        assert markup.status(page) == reference("status", page), (seed, payload["version"], payload["seat"], language, variant, extra)
                        drawn += 1
    wanted = {*status_variants.WANTED, "status:deck", "status:your_turn", "status:to_move"}
    assert wanted <= set(seen), wanted - set(seen)
    assert drawn > 1000


def test_the_players_names_and_the_marks_are_escaped():
    language, payload, marks, _seats = next(
        p for p in positions(1, 60, languages=("en",)) if p[1]["seat"] == 0 and p[1]["version"] == 60
    )
    with translation.override(language):
        ctx = live_presenter.context(games.get("miracle"), payload, 1, marks, [True, True], {})
        html = "".join(DRAW[name]({**ctx, "oob": True}) for name in DRAW)
    assert "&lt;b&gt;&quot;Tom&#x27;s&quot; &amp; co&lt;/b&gt; (you)" in html and "ana&amp;&lt;i&gt;" in html
    assert "hex--x&quot;&lt;&amp;" in html
    assert "<b>" not in html and "<i>" not in html and 'x"<' not in html


def test_a_deck_choice_and_a_turn_read_in_chinese():
    found = {}
    for language, payload, marks, _seats in positions(7, 60, languages=("zh-hans",)):
        if payload["seat"] == 0 and payload["status"] == "live":
            with translation.override(language):
                ctx = live_presenter.context(games.get("miracle"), payload, 1, marks, [True, True], {})
                found.setdefault(ctx["controls"]["mode"], (ctx, markup.controls({**ctx, "oob": True}), markup.board(ctx)))
    deck, play = found["deck"][1], found["play"][1]
    assert 'hx-swap-oob="true"' in deck and "确定我的卡组" in deck and "Lock in my deck" not in deck
    assert "结束回合" in play and "End turn" not in play and 'id="miracle-play"' in play
    assert "hx-swap-oob" not in found["play"][2] and "法力" in found["play"][2]


def test_the_game_draws_its_parts_and_the_page_includes_them():
    web = games.get("miracle").web
    assert all(isinstance(web.templates[name], Drawn) for name in DRAW)
    language, payload, marks, _seats = next(p for p in positions(6, 60) if p[1]["seat"] == 1 and p[1]["version"] == 120)
    with translation.override(language):
        ctx = live_presenter.context(games.get("miracle"), payload, 1, marks, [True, True], {})
        for name, draw in DRAW.items():
            page = Engine(libraries={}).from_string("{% include parts." + name + " %}")
            assert page.render(Context({**ctx, "csrf_token": "abc"})) == draw({**ctx, "csrf_token": "abc"})
            assert live_presenter.render_parts(ctx, (name,)) == draw({**ctx, "oob": True})
