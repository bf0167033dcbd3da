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
from itertools import product
from pathlib import Path

from django.template import Context, Engine
from django.utils import translation

from game import games
from game.games.aquawar import markup
from game.games.base import Drawn
from game.live import presenter as live_presenter
from tests.games.aquawar.positions import positions

ROOT = Path(__file__).resolve().parents[3]
ENGINE = Engine(
    dirs=[
        str(Path(__file__).parent / "reference"),
        *(str(ROOT / folder) for folder in ("templates", "ratings/templates", "lobby/templates")),
    ],
    libraries={"i18n": "django.templatetags.i18n"},
)
EXTRAS = ({"oob": True}, {"oob": False, "csrf_token": 'tok<&"\'>'})
OPPONENTS = (
    None,
    {"match": 51, "connected": True, "computer": False, "claim_at": None, "claimable": False, "winnable": False},
    {"match": 51, "connected": False, "computer": False, "claim_at": None, "claimable": False, "winnable": False},
    {"match": 51, "connected": True, "computer": True, "claim_at": None, "claimable": False, "winnable": False},
    {"match": 51, "connected": False, "computer": False, "claim_at": 1_796_000_123_456, "claimable": True, "winnable": True},
    {"match": 51, "connected": False, "computer": False, "claim_at": 1_796_000_123_456, "claimable": False, "winnable": False},
)
REMATCHES = (
    None,
    {"status": "offered", "offered_by": 0, "match": None},
    {"status": "offered", "offered_by": 1, "match": None},
    {"status": "accepted", "offered_by": 1, "match": 1234},
    {"status": "declined", "offered_by": 0, "match": None},
)
RATINGS = (
    [],
    [{"seat": 0, "before": 1500, "after": 1516, "delta": 16}, {"seat": 1, "before": 1487, "after": 1471, "delta": -16}],
    [{"seat": 0, "before": 998, "after": 998, "delta": 0}, {"seat": 1, "before": 2001, "after": 2001, "delta": 0}],
)
CALLED_OFF = {
    "cancelled": ("timeout", "expired", None),
    "aborted": ("no_first_move", "aborted", "opponent_left", "bot_error", None),
}


def reference(ctx):
    return ENGINE.get_template("aquawar/_status.html").render(Context(ctx))


def context(payload, marks, opponent=None):
    ctx = live_presenter.context(games.get("aquawar"), payload, 1, marks, [True, True], {})
    # Each line of the opponent's, whatever the fairness rules would make of this position.
    ctx["opponent"] = opponent if payload["seat"] is not None and payload["status"] in ("live", "finished") else None
    return ctx


def variants(index, payload, marks):
    """(what it exercises, context) for the position as it is and changed as the other states have it."""
    # Positions come in threes (seat 0, seat 1, a spectator): the variants turn with each three.
    opponent = OPPONENTS[(index // 3 + index) % len(OPPONENTS)]
    programs = ([False, False], [True, False], [False, True])[index // 3 % 3]
    yield "as is", context({**payload, "programs": programs}, marks, opponent)
    if payload["status"] == "finished":
        for rematch, ratings, reason in product(REMATCHES, RATINGS, (payload["end_reason"], "resign", "timeout")):
            changed = {**payload, "rematch": rematch, "rating_changes": ratings, "end_reason": reason, "rated": bool(ratings)}
            yield f"finished:{reason}:{rematch and rematch['status']}:{bool(ratings)}", context(changed, marks, opponent)
    elif index % 5 == 0:
        for status, reasons in CALLED_OFF.items():
            for reason in reasons:
                yield f"{status}:{reason}", context({**payload, "status": status, "end_reason": reason}, marks)
        yield "open", context({**payload, "status": "open", "view": None, "players": [payload["players"][0], None]}, marks)


def features(ctx):
    status, found = ctx["status"], set()
    found |= {"last_round"} if status.get("last_round") else set()
    found |= {"rounds"} if status["rounds"] else set()
    found |= {f"phase:{status.get('phase')}"}
    found |= {"your_turn"} if status.get("your_turn") else set()
    found |= {"your_move"} if ctx["your_move"] else set()
    if ctx["opponent"]:
        o = ctx["opponent"]
        found.add("opponent:" + ("computer" if o["computer"] else "claim" if o["claim_at"] else "presence"))
        found |= {f"opponent:connected:{o['connected']}"}
        found |= {f"opponent:claimable:{o['claimable']}:{o['winnable']}"} if o["claim_at"] else set()
    found |= {"bot"} if any(ctx["payload"]["programs"]) else set()
    if ctx["result"]:
        r = ctx["result"]
        found.add("result:" + ("won" if r["you_won"] else "lost" if r["you_lost"] else "over"))
    return found


def test_the_status_line_is_the_template_s_bytes():
    seen, drawn = Counter(), 0
    for seed in (11, 12, 19):
        for index, (language, payload, marks, _seats) in enumerate(positions(seed, 5)):
            with translation.override(language):
                for variant, ctx in variants(index, payload, marks):
                    seen.update(features(ctx) | {variant.split(":")[0], f"language:{language}", f"seat:{payload['seat']}"})
                    seen.update({variant} if ":" in variant else ())
                    for extra in EXTRAS:
                        page = {**ctx, **extra}
                        assert markup.status(page) == reference(page), (seed, payload["version"], payload["seat"], language, variant, extra)
                        drawn += 1
    wanted = {
        "language:en", "language:zh-hans", "seat:0", "seat:1", "seat:None", "as is", "open", "last_round", "rounds",
        "phase:pick", "phase:act", "phase:assert", "your_turn", "your_move", "opponent:presence", "opponent:computer",
        "opponent:connected:True", "opponent:connected:False", "opponent:claimable:True:True",
        "opponent:claimable:False:False", "bot", "result:won", "result:lost", "result:over",
        *(f"{status}:{reason}" for status, reasons in CALLED_OFF.items() for reason in reasons),
        *(f"finished:{reason}:{r and r['status']}:{rated}" for reason in ("resign", "timeout") for r in REMATCHES for rated in (False, True)),
    }
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
