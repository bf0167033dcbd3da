"""Template context and HTML fragments for the match page, built only from a projected payload.

The page (HTTP) and the browser socket (``?ui=html``) both render through here, from the same
``frames.payload`` the JSON protocol sends, so the HTML can show no more than the JSON does. The
board, the controls and the status line are the game's (``Presentation.page_context`` and its
templates); the clocks, presence, rematch, links and notices are the platform's.
"""
import json
import math
import uuid

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import fairness, time_controls
from ..games.base import Drawn, Step
from ..games.markup import esc, number, translate, url
from . import frames

REFUSALS = {
    "no_match": gettext_lazy("There is no such match."),
    "bad_field": gettext_lazy("That form was not filled in completely."),
}
# What a person clicking faster than the socket's frame rate reads (programs get the exact limit).
TOO_FAST = gettext_lazy("You are sending too much too fast. Wait a few seconds, then try again.")
# A clock this close to running out is drawn as urgent (match.js keeps it so as it ticks down).
URGENT_SECONDS = 10
PARTS = ("status", "board", "controls", "tutorial", "spectators", "links")


def countdown(payload, side):
    """The running clock of ``side``, for the page to tick down (None: it owes no timed decision).

    Counted against the server's time in the payload: ``left`` is right as rendered, and match.js
    goes on from ``server_time`` rather than from the reader's own clock.
    """
    clock = payload["clock"]
    deadline, bank = clock["deadlines"][side], clock.get("banks", [None, None])[side]
    if payload["status"] != "live" or (deadline is None and bank is None):
        return None
    if deadline is None:
        if payload["programs"][side]:
            return None  # a machine keeps its own clock, whatever the bank
        # A bank that is not running: shown as it stands, not ticking (no ``deadline``).
        return {"deadline": None, "server_time": clock["server_time"], "text": clock_text(math.ceil(bank / 1000)), "urgent": False}
    left = max(0, math.ceil((deadline - clock["server_time"]) / 1000))
    return {
        "deadline": deadline,
        "server_time": clock["server_time"],
        "text": clock_text(left),
        "urgent": left <= URGENT_SECONDS,
    }


def clock_text(seconds):
    """"4:05", "1:02:03", "2d 03h": as match.js's tick writes it."""
    if seconds >= 86400:
        return "%dd %02dh" % (seconds // 86400, seconds % 86400 // 3600)
    if seconds >= 3600:
        return "%d:%02d:%02d" % (seconds // 3600, seconds % 3600 // 60, seconds % 60)
    return "%d:%02d" % divmod(seconds, 60)


def side_label(payload, side):
    name = payload["players"][side] or _("(waiting for a player)")
    if payload["seat"] == side:
        return _("%(name)s (you)") % {"name": name}
    return name


def result(payload):
    """Who won a finished match, as the viewer reads it; None while it is not over."""
    if payload["winner"] is None:
        return None
    winner = payload["winner"]
    you_won = winner == payload["seat"]
    out_of_time = side_label(payload, 1 - winner) if payload["end_reason"] == "timeout" else None
    return {
        "winner": side_label(payload, winner),
        "you_won": you_won,
        "you_lost": payload["seat"] is not None and not you_won,
        "out_of_time": out_of_time,
    }


def rematch(payload):
    """The rematch box of a finished match, for its players: what happened and what they may do."""
    offer = payload["rematch"]
    seat = payload["seat"]
    if payload["status"] != "finished" or seat is None or payload["tutorial"]:
        return None
    state = offer["status"] if offer else None
    return {
        "state": state,
        "mine": bool(offer) and offer["offered_by"] == seat,
        "match": offer["match"] if offer else None,
        "client_id": uuid.uuid4().hex,
    }


def your_move(game, payload):
    """Whether the viewer owes a decision now: any of the game's choice fields is not empty (they
    are all empty for anyone with nothing to do, ``Game.choices``)."""
    return any(payload.get(field) for field in game.choices(None, None))


def opponent(payload, players, levels=None):
    """What the status line says of the viewer's opponent (``fairness.opponent``), which may read.
    ``players``: which seats have a socket open (``presence.players``). ``levels``: the match's
    ``fairness.machines`` if read with it (``frames.machines``), else None."""
    return fairness.opponent(
        payload["match"], payload["seat"], payload["status"], time_controls.of_clock(payload["clock"]), players, levels
    )


def context(game, payload, spectators, marks=None, players=None, levels=None):
    """``marks``: the newest version's marks from the viewer's log book, flashed on the board.
    ``players``, ``levels``: for ``opponent`` (None: no opponent line)."""
    seats = [
        {"label": side_label(payload, side), "clock": countdown(payload, side), "program": payload["programs"][side]}
        for side in (0, 1)
    ]
    return {
        "opponent": opponent(payload, players, levels),
        "result": result(payload),
        "rematch": rematch(payload),
        "your_move": your_move(game, payload),
        "payload": payload,
        "spectators": spectators,
        "parts": game.web.templates,
        "summary_link": game.web.summary_link,
        "how_to_play_url": how_to_play_url(game),
        # The key is in a spectator's payload only (frames.payload): the bar is drawn for them alone.
        "spectating_live": "win_chance" in payload,
        "win_chance": win_chance(payload.get("win_chance")),
        "tutorial": tutorial(game, payload),
        **game.web.page_context(payload, marks or {}, seats),
    }


def tutorial(game, payload):
    """The tutorial's panel for its player (the step, and its targets for tutorial.js),
    or None: not a tutorial, or not the player's page (a spectator watches a plain match)."""
    if not payload["tutorial"] or payload["seat"] != 0 or game.tutorial is None:
        return None
    step = game.tutorial.step(payload) if payload["status"] == "live" else tutorial_over(game, payload)
    targets = [{"selector": t.selector, "hint": str(t.hint), "optional": t.optional} for t in step.targets]
    return {
        "step": step,
        "lessons": game.tutorial.lessons,
        "targets": json.dumps(targets, ensure_ascii=False),
        "live": payload["status"] == "live",
    }


def tutorial_over(game, payload):
    """The tutorial's last word, the same in every game: left midway, won, or lost."""
    if payload["status"] == "aborted":
        return Step("left", _("This tutorial was left before its end: nothing was recorded for or against you."), done=True)
    if payload["winner"] == 0:
        text = _("You won the match! You know the whole game now: try a real match against a person or the computer.")
    else:
        text = _("The match is over. You know the whole game now: try a real match against a person or the computer.")
    return Step("over", text, number=game.tutorial.lessons, done=True)


def win_chance(chance):
    """The win-chance bar's numbers (whole per cent, host and guest), or None without an estimate."""
    if chance is None:
        return None
    host = round(chance * 100)
    return {"host": host, "guest": 100 - host}


def render_win_chance(chance, over=False):
    """The bar's value, swapped in out of band; ``over``: the match ended (the summary has the chart)."""
    return render_to_string("game/_win_chance_value.html", {"win_chance": win_chance(chance), "over": over, "oob": True})


def how_to_play_url(game):
    """The game's "How to play" page, or None if it has none."""
    return url("game:how_to_play", game.name) if game.web.how_to_play else None


def full_log(match, seat):
    """A fresh log book that has read every version, and the lines it wrote (with the line of a
    called-off match, which no game event tells)."""
    book = match.game_object.web.log_book(frames.audience_for(match, seat), frames.players(match))
    return book, book.entries(frames.versions(match, seat, 0)) + called_off(match)


def called_off(match):
    """The log's last line when the match ended without a result: [] while it did not."""
    texts = {
        "aborted": _("This match was aborted: nobody won and nothing is counted."),
        "cancelled": _("This match was cancelled."),
    }
    if match.status not in texts:
        return []
    return [{"version": match.version, "text": texts[match.status], "kind": "called-off", "images": []}]


def render_parts(ctx, parts=PARTS, oob=True):
    out = []
    for part in parts:
        template = ctx.get("parts", {}).get(part, f"game/_{part}.html")
        context = {**ctx, "oob": oob}
        out.append(template.draw(context) if isinstance(template, Drawn) else render_to_string(template, context))
    return "".join(out)


def render_log(entries, *, append):
    """templates/game/_log.html as a socket sends it (``oob``), drawn in Python: every change of a
    browser's match page sends it, and the template cost as much as the rest of a spectators'
    redraw (docs/performance.md). Byte for byte the template's (tests/game/test_log_markup.py);
    the page still includes the template."""
    if append:
        out = ['<ol hx-swap-oob="beforeend:#match-log">']
    else:
        out = ['<ol id="match-log" class="match-log" tabindex="0" aria-label="', translate("Log"), '" hx-swap-oob="true">']
    for entry in entries:
        out.append(f'\n<li class="log-entry log-entry--{esc(entry["kind"])}" data-version="{number(entry["version"])}"')
        out.append(' data-own>' if entry.get("own") else ">")
        if entry.get("images"):
            out.append('<span class="log-images">')
            out.extend(f'<img src="{esc(image)}" alt="" width="20" height="20">' for image in entry["images"])
            out.append("</span>")
        out.append(f'<span class="log-text">{esc(entry["text"])}</span></li>')
    out.append("\n</ol>\n")
    return "".join(out)


def refusal_text(game, code, message):
    """What to tell a person whose move was refused: the engine and the protocol word their
    refusals in English for programs; the ones a page's own forms can run into have a translation.
    ``game``: the match's, or None when there is no match."""
    text = game.web.refusal_text(code) if game is not None else None
    return text or REFUSALS.get(code, message)


def render_notice(message="", level="error"):
    return render_to_string("game/_notice.html", {"message": message, "level": level, "oob": True})
