"""The 神迹之战 board (with the sides' strips), move forms and status line as HTML, drawn in Python
from ``presenter.page_context``.

A browser socket redraws them on every change, and as templates their loops (every token, card and
form, each ``{% translate %}`` and number looked up again) were a quarter of the servers' time on a
神迹之战 HTML load (docs/performance.md, "The 神迹之战 parts drawn in Python"). The markup is byte for
byte what the templates drew, by the rules of ``game.games.markup``
(``tests/games/miracle/test_markup.py`` compares them on many positions).
"""
from functools import lru_cache

from django.templatetags.static import static
from django.utils.formats import localize
from django.utils.html import json_script
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_noop

from .. import markup as platform
from ..markup import clock, esc, formats, number, texts


def decimal(value, language):
    """``{{ value }}`` of a coordinate or a scale (a float, or the int 1): ``localize``, once per
    language and value (a board has a few hundred places, each drawn again on every redraw)."""
    # The key holds ``repr``: 1 and 1.0, 0.0 and -0.0 are equal keys but print differently.
    return _decimal(language, repr(value), value)


@lru_cache(maxsize=8192)
def _decimal(language, text, value):
    return localize(value)


@lru_cache(maxsize=None)
def asset(path):
    """``{% static path %}`` as a template prints it (escaped)."""
    return esc(static(path))


def oob(ctx):
    return ' hx-swap-oob="true"' if ctx.get("oob") else ""


# The board's data- attributes for board.js, in the template's order: (attribute, msgid).
BOARD_TEXTS = (
    ("unit-hint", gettext_noop("Click a green cell to move there, a red one to attack it. Esc cancels.")),
    ("mana", gettext_noop("mana")),
    ("ready", gettext_noop("ready")),
    ("summon-here", gettext_noop("Summon here:")),
    ("choose-level", gettext_noop("Which level?")),
    ("place-hint", gettext_noop("Click a lit spawn point to summon there. Esc cancels.")),
    ("summon-not-now", gettext_noop(
        "None of these can be summoned now (no unit ready, not enough mana, or no free spawn point).")),
    ("artifact-hint", gettext_noop(
        "Click a lit cell or creature to use the artifact; the shaded area is what it reaches. Esc cancels.")),
    ("artifact-not-now", gettext_noop("The artifact cannot be used now.")),
    ("summon-unit-here", gettext_noop("Summon here instead…")),
    ("act-move", gettext_noop("move here")),
    ("act-attack", gettext_noop("attack this")),
    ("act-place", gettext_noop("choose this cell")),
    ("confirm-units", gettext_noop("creatures can still act")),
    ("confirm-mana", gettext_noop("mana left")),
    ("confirm-ask", gettext_noop("End the turn anyway?")),
    ("confirm-yes", gettext_noop("End turn")),
    ("confirm-no", gettext_noop("Keep playing")),
    ("confirm-never", gettext_noop("End turn, and don’t ask again")),
)


@lru_cache(maxsize=8)
def _board_head(language):
    """The board's opening tag up to its ``hx-swap-oob``: fixed texts only."""
    _ = texts(language)
    attributes = "".join('\n  data-%s="%s"' % (name, _(msgid)) for name, msgid in BOARD_TEXTS)
    return '<section id="match-board" class="match-board miracle-board" aria-label="%s"%s' % (_("Board"), attributes)


@lru_cache(maxsize=8)
def _zoom(language):
    _ = texts(language)
    return (
        '  <div class="zoom-buttons" aria-label="%s"><button type="button" class="button button--small" data-zoom="in" '
        'title="%s">+</button><button type="button" class="button button--small" data-zoom="out" title="%s">−</button>'
        '<button type="button" class="button button--small" data-zoom="reset" title="%s">⤢</button></div>\n'
        % (_("Zoom"), _("Zoom in (+)"), _("Zoom out (−)"), _("Whole map (0)"))
    )


GARRISON_TITLES = {
    "a": gettext_noop("Garrison (held by the blue side)"),
    "b": gettext_noop("Garrison (held by the red side)"),
    "none": gettext_noop("Garrison (nobody's yet)"),
}


def board(ctx):
    """miracle/_board.html as it was (with miracle/_strip.html): ``ctx["board"]`` from
    ``presenter.board``, ``ctx["sides"]`` from ``presenter.sides``."""
    language = get_language()
    _, f = texts(language), formats(language)
    b, sides = ctx["board"], ctx["sides"]
    view_box = esc(b["view_box"])
    out = [_board_head(language), oob(ctx), ">\n"]
    if sides:
        out.append(strip(sides["top"], _, f, language))
    out.append(
        '\n\n<div class="hexmap-wrap" data-flipped="%s">\n'
        '  <svg class="hexmap" viewBox="%s" data-view-box="%s" role="group" aria-label="%s">\n'
        '    <defs><polygon id="mh-hex" points="%s"/></defs>\n'
        '    <g class="cells">%s</g>\n'
        '    <g class="terrain" aria-hidden="true">%s</g>\n    '
        % (
            "1" if b["flipped"] else "0", view_box, view_box,
            _("The map: arrow keys move between cells, Enter or Space acts"),
            esc(b["hex"]), esc(b["cells_svg"]), esc(b["terrain_svg"]),
        )
    )
    tone = esc(b["trail_tone"]) if b["trail_tone"] is not None else "None"
    for path in b["paths"]:
        out.append('<polyline class="trail-path trail-path--%s" points="%s"/>' % (tone, esc(path)))
    out.append('\n    <g class="garrisons">')
    garrison = asset("miracle/img/garrison.svg")
    for g in b["garrisons"]:
        out.append(
            '<g class="garrison garrison--%s" transform="translate(%s %s)"><title>%s</title>'
            '<use href="%s#miracle-garrison" x="-7" y="-7" width="14" height="14"/></g>'
            % (
                esc(g["tone"]), decimal(g["x"], language), decimal(g["y"], language),
                _(GARRISON_TITLES.get(g["tone"], GARRISON_TITLES["none"])), garrison,
            )
        )
    out.append('</g>\n    <g class="miracles">')
    miracle = asset("miracle/img/miracle.svg")
    whose = f(gettext_noop("%(who)s's miracle: %(hp)s/30 HP"))
    for m in b["miracles"]:
        hp = number(m["hp"])
        out.append(
            '<g class="miracle miracle--%s" transform="translate(%s %s)" data-cell="%s"><title>%s</title>\n'
            '      <use href="%s#miracle-miracle" x="-9" y="-10" width="18" height="18"/>\n'
            '      <rect class="miracle-hp-box" x="-8" y="4" width="16" height="9" rx="2"/>'
            '<text class="miracle-hp" x="0" y="11">%s</text></g>'
            % (
                esc(m["tone"]), decimal(m["x"], language), decimal(m["y"], language), esc(m["key"]),
                whose % {"who": esc(m["label"]), "hp": hp}, miracle, hp,
            )
        )
    out.append('</g>\n    <g class="tokens">')
    for u in b["units"]:
        out.append(_token(u, language))
    out.append(
        '</g>\n    <use class="hex-cursor" href="#mh-hex" aria-hidden="true" visibility="hidden"/>\n  </svg>\n'
        + _zoom(language)
        + '</div>\n\n<p class="board-tray" id="board-tray" hidden></p>\n'
    )
    if sides:
        out.append(strip(sides["bottom"], _, f, language))
    out.append("\n</section>\n")
    return mark_safe("".join(out))


FRAMES = {
    "a": '<circle class="token-frame" r="7.6"/>',
    "b": '<rect class="token-frame" x="-6" y="-6" width="12" height="12" transform="rotate(45)"/>',
}


def _token(u, language):
    classes = esc(u["tone"])
    if u["flying"]:
        classes += " token--flying"
    if u["own"] and u["can_act"]:
        classes += " token--ready"
    shield = (
        '<use class="token-shield" href="%s#miracle-shield" x="3.5" y="-10" width="6" height="6"/>'
        % asset("miracle/img/shield.svg") if u["shield"] else ""
    )
    aura = (
        '<use class="token-aura" href="%s#miracle-aura" x="-9.5" y="-10" width="6" height="6"/>'
        % asset("miracle/img/aura.svg") if u["aura"] else ""
    )
    return (
        '<g class="token token--%s" transform="translate(%s %s) scale(%s)" data-unit="%s" data-cell="%s"><title>%s</title>\n'
        "      %s\n"
        '      <use href="%s" x="-6.5" y="-7" width="13" height="13"/>\n'
        '      <text class="token-stars" x="0" y="-7.6">%s</text>\n'
        '      <rect class="token-atk-box" x="-10.5" y="1.5" width="9" height="8" rx="1.5"/><text class="token-atk" x="-6" y="7.9">%s</text>\n'
        '      <rect class="token-hp-box" x="1.5" y="1.5" width="9" height="8" rx="1.5"/><text class="token-hp" x="6" y="7.9">%s</text>\n'
        "      %s\n      %s\n    </g>"
        % (
            classes, decimal(u["x"], language), decimal(u["y"], language), decimal(u["scale"], language),
            number(u["id"]), esc(u["cell"]), esc(u["label"]),
            FRAMES["a"] if u["tone"] == "a" else FRAMES["b"],
            esc(u["symbol"]), "★" * len(u["stars"]), number(u["atk"]), number(u["hp"]), shield, aura,
        )
    )


def strip(s, _, f, language):
    """miracle/_strip.html, one side's strip, with its newlines."""
    out = [
        '\n<div class="side-strip side-strip--%s%s" data-side="%s">\n'
        '  <p class="strip-head">\n'
        '    <span class="team-icon" aria-hidden="true">%s</span>\n'
        '    <strong class="strip-name">%s</strong>\n    '
        % (
            esc(s["tone"]), " side-strip--to-move" if s["to_move"] else "", number(s["side"]),
            "●" if s["tone"] == "a" else "◆", esc(s["label"]),
        )
    ]
    if s["to_move"]:
        out.append('<span class="visually-hidden">%s</span>' % (_("Your turn") if s["own"] else _("To move")))
    out.append("\n    ")
    if s["clock"]:
        out.append(clock(s["clock"], _))
    out.append("\n  </p>\n  ")
    if s.get("mana") is not None:
        out.append(_facts(s, _, f))
        if s["pools"]:
            out.append(_cards(s, _, f))
        elif s["deck_in"]:
            out.append('<p class="strip-note">✔ %s</p>\n  ' % _("Deck chosen."))
        else:
            out.append('<p class="strip-note">%s</p>' % _("Choosing a deck…"))
        out.append("\n  ")
    out.append("\n</div>\n")
    return "".join(out)


def _facts(s, _, f):
    out = [
        '\n  <ul class="strip-facts">\n'
        '    <li class="fact fact--hp" title="%s"><img src="%s" alt="" width="18" height="18"> %s</li>\n'
        '    <li class="fact fact--mana" title="%s"><img src="%s" alt="" width="18" height="18"> %s'
        % (
            _("Miracle HP"), asset("miracle/img/miracle.svg"),
            f(gettext_noop("Miracle %(hp)s/30")) % {"hp": number(s["miracle_hp"])},
            _("Mana now / mana cap"), asset("miracle/img/mana.svg"),
            f(gettext_noop("Mana %(m)s/%(max)s")) % {"m": number(s["mana"]), "max": number(s["max_mana"])},
        )
    ]
    if s["next_mana"] is not None:
        out.append(' <span class="muted">%s</span>' % (f(gettext_noop("(next turn %(n)s)")) % {"n": number(s["next_mana"])}))
    out.append("</li>\n    ")
    if s["lost_stars"]:
        out.append(
            '<li class="fact" title="%s">%s</li>'
            % (_("Level stars lost (a tiebreak at turn 100)"), f(gettext_noop("%(n)s ★ lost")) % {"n": number(s["lost_stars"])})
        )
    out.append("\n  </ul>\n  ")
    return "".join(out)


def _cards(s, _, f):
    own = s["own"]
    mine, disabled = (" card--mine", "") if own else ("", " disabled")
    out = ['\n  <ul class="cards">\n    ']
    ready_title, count_text = f(gettext_noop("%(name)s: %(a)s of %(c)s ready, %(n)s on the board")), f(gettext_noop("%(a)s/%(c)s"))
    for pool in s["pools"]:
        name = esc(pool["name"])
        available, capacity, on_board = number(pool["available"]), number(pool["capacity"]), number(pool["on_board"])
        out.append(
            '\n      <li><button type="button" class="card%s" data-card="%s"%s title="%s">\n'
            '        <svg class="card-picture" viewBox="0 0 64 64" aria-hidden="true"><use href="%s"/></svg>\n'
            '        <span class="visually-hidden">%s:</span>\n'
            '        <span class="card-count" title="%s">%s</span>\n        '
            % (
                mine, esc(pool["type"]), disabled,
                ready_title % {"name": name, "a": available, "c": capacity, "n": on_board},
                esc(pool["symbol"]), name, _("ready to summon / units in all"),
                count_text % {"a": available, "c": capacity},
            )
        )
        if pool["on_board"]:
            out.append(
                '<span class="card-extra" title="%s">%s</span>'
                % (_("on the board"), f(gettext_noop("▣%(n)s")) % {"n": on_board})
            )
        out.append("\n        ")
        if pool["cooling"]:
            out.append(
                '<span class="card-extra card-cooling" title="%s">↺%s</span>'
                % (_("cooling down: turns left"), ",".join(number(t) for t in pool["cooling"]))
            )
        out.append("\n      </button></li>\n    ")
    out.append("\n    ")
    artifact = s["artifact"]
    if artifact:
        name = esc(artifact["name"])
        if artifact["state"] == "ready":
            state = _("ready")
        elif artifact["state"] == "in_use":
            state = _("in use")
        else:
            state = f(gettext_noop("↺ %(n)s turns")) % {"n": esc(number(artifact["cooldown"]))}
        out.append(
            '\n      <li><button type="button" class="card card--artifact%s" data-card="artifact"%s title="%s">\n'
            '        <img class="card-picture" src="%s" alt="" width="28" height="28">\n'
            '        <span class="card-name visually-hidden">%s</span>\n'
            '        <span class="card-count">%s</span>\n'
            "      </button></li>\n    "
            % (
                mine, disabled,
                f(gettext_noop("%(name)s (artifact, %(cost)s mana)")) % {"name": name, "cost": number(artifact["cost"])},
                esc(artifact["image"]), name, state,
            )
        )
    out.append("\n  </ul>\n  ")
    return "".join(out)


# What the controls say to a viewer with no move to make, by mode.
NOTES = {
    "deck_waiting": gettext_noop("Your deck is in. Waiting for your opponent's."),
    "wait": gettext_noop("Your opponent is playing their turn."),
    "watching": gettext_noop("You are watching. Each deck stays hidden until both are chosen."),
    "finished": gettext_noop("The match is over."),
    "open": gettext_noop("The match starts when a second player joins."),
}


def controls(ctx):
    """miracle/_controls.html as it was (with miracle/_deck.html and miracle/_play.html):
    ``ctx["controls"]`` from ``presenter.controls``."""
    language = get_language()
    _, f = texts(language), formats(language)
    c = ctx["controls"]
    out = ['<section id="match-controls" class="match-controls miracle-controls" aria-label="%s"%s>\n\n' % (_("Your move"), oob(ctx))]
    if c.get("clock"):
        out.append('<p class="controls-clock">%s %s</p>' % (_("Your time for this turn:"), clock(c["clock"], _)))
    out.append("\n")
    mode = c["mode"]
    if mode == "deck":
        out.append("\n  " + _deck(c, _, f) + "\n")
    elif mode == "play":
        out.append("\n  " + _play(c, _, f) + "\n")
    elif mode in NOTES:
        out.append('\n  <p class="controls-note">%s</p>\n' % _(NOTES[mode]))
    out.append("\n\n</section>\n")
    return mark_safe("".join(out))


def _hidden(form, client_id, version, indent, unit=""):
    """A form's hidden fields: its kind (with the unit it moves), then its id and the version."""
    return (
        f'{indent}<input type="hidden" name="type" value="form"><input type="hidden" name="form" value="{form}">{unit}\n'
        f'{indent}<input type="hidden" name="id" value="{client_id}"><input type="hidden" name="version" value="{version}">\n'
    )


def _deck(c, _, f):
    count = number(c["count"])
    out = [
        '\n<form ws-send class="move-form deck-form" data-count="%s">\n' % count,
        _hidden("deck", esc(c["client_id"]), number(c["version"]), "  "),
        '  <p class="controls-title">%s</p>\n'
        '  <div class="deck-catalogue" data-catalogue>\n'
        '  <fieldset class="deck-group">\n'
        "    <legend>%s</legend>\n"
        '    <ul class="deck-cards deck-cards--artifacts">'
        % (f(gettext_noop("Choose your deck: one artifact and %(n)s creature types.")) % {"n": count}, _("Artifact")),
    ]
    numbers = f(gettext_noop("cost %(cost)s · cooldown %(cd)s"))
    for index, a in enumerate(c["artifacts"]):
        out.append(
            '\n      <li><label class="deck-card"><input type="radio" name="artifact" value="%s" required%s>\n'
            '        <img src="%s" alt="" width="40" height="40">\n'
            '        <span class="deck-card-body"><strong>%s</strong>\n'
            '          <span class="deck-numbers">%s</span>\n'
            '          <span class="deck-text">%s</span></span></label></li>'
            % (
                esc(a["id"]), " checked" if index == 0 else "", esc(a["image"]), esc(a["name"]),
                numbers % {"cost": number(a["cost"]), "cd": number(a["cooldown"])}, esc(a["effect"]),
            )
        )
    out.append(
        "\n    </ul>\n  </fieldset>\n"
        '  <fieldset class="deck-group">\n'
        "    <legend>%s</legend>\n"
        '    <ul class="deck-cards deck-cards--creatures">'
        % (f(gettext_noop("Creatures (choose %(n)s)")) % {"n": count})
    )
    counts = f(gettext_noop("units %(a)s → %(b)s → %(c)s"))
    heads = (
        '<tr><th scope="col">★</th><th scope="col" title="%s">%s</th><th scope="col">%s</th><th scope="col">%s</th>'
        '<th scope="col">%s</th><th scope="col">%s</th><th scope="col" title="%s">%s</th></tr>'
        % (
            _("Mana cost"), _("cost"), _("ATK"), _("HP"), _("range"), _("move"),
            _("Cooldown: turns before a lost unit can be summoned again"), _("CD"),
        )
    )
    for cr in c["creatures"]:
        tags = ('<span class="tag">%s</span>' % _("flying") if cr["flying"] else "") + (
            '<span class="tag">%s</span>' % _("anti-air") if cr["anti_air"] else ""
        )
        a, b, n = cr["counts"][:3]
        levels = "".join(
            "<tr><th scope=\"row\">%s</th><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>"
            % (
                number(lv["level"]), number(lv["cost"]), number(lv["atk"]), number(lv["hp"]), esc(lv["range"]),
                number(lv["move"]), number(lv["cooldown"]),
            )
            for lv in cr["levels"]
        )
        out.append(
            '\n      <li><label class="deck-card"><input type="checkbox" name="creatures" value="%s" class="deck-check">\n'
            '        <svg class="deck-picture" viewBox="0 0 64 64" aria-hidden="true"><use href="%s"/></svg>\n'
            '        <span class="deck-card-body"><strong>%s</strong>\n'
            '          <span class="deck-tags">%s<span class="tag">%s</span></span>\n'
            '          <span class="deck-text">%s</span></span>\n'
            '          <table class="deck-table">\n'
            "            %s\n"
            "            %s\n"
            "          </table></label></li>"
            % (
                esc(cr["id"]), esc(cr["symbol"]), esc(cr["name"]), tags,
                counts % {"a": number(a), "b": number(b), "c": number(n)}, esc(cr["ability"]), heads, levels,
            )
        )
    out.append(
        "\n    </ul>\n  </fieldset>\n  </div>\n"
        '  <button type="submit" class="button">%s</button>\n</form>\n' % _("Lock in my deck")
    )
    return "".join(out)


def _play(c, _, f):
    client_id, version = esc(c["client_id"]), number(c["version"])
    out = [
        '\n<div class="turn-bar">\n'
        '  <form ws-send class="move-form end-turn-form" id="end-turn-form">\n'
        + _hidden("end_turn", client_id + "-end", version, "    ")
        + '    <button type="submit" class="button end-turn" title="%s">%s <kbd>E</kbd></button>\n'
        "  </form>\n"
        '  <label class="end-turn-ask"><input type="checkbox" id="end-turn-ask" checked> %s</label>\n'
        '  <p class="controls-hint">%s</p>\n'
        "</div>\n"
        "%s\n"
        '<details class="move-lists"%s>\n'
        "  <summary>%s</summary>\n  "
        % (
            _("End turn (E)"), _("End turn"), _("Ask before ending a turn with moves left"),
            _(
                "Click one of your creatures, a spawn point or a card, or Tab to the map and use the arrows and "
                "Enter. Esc cancels, N picks the next creature that can act."
            ),
            json_script(c["play"], "miracle-play"),
            "" if c["actors"] or c["summons"] or c["artifact"] else " hidden",
            _("Moves as lists"),
        )
    ]
    level_text = f(gettext_noop("L%(l)s (%(cost)s mana)"))
    for s in c["summons"]:
        kind = esc(s["type"])
        levels = "".join(
            '<option value="%s">%s</option>' % (number(lv["level"]), level_text % {"l": number(lv["level"]), "cost": number(lv["cost"])})
            for lv in s["levels"]
        )
        cells = "".join('<option value="%s">(%s)</option>' % (esc(k), esc(k)) for k in s["cells"])
        out.append(
            '\n    <form ws-send class="move-form summon-form" data-type="%s">\n' % kind
            + _hidden("summon", f"{client_id}-s-{kind}", version, "      ")
            + '      <fieldset><legend>%s</legend>\n'
            '        <input type="hidden" name="creature" value="%s">\n'
            '        <label>%s <select name="level">%s</select></label>\n'
            '        <label>%s <select name="at">%s</select></label>\n'
            '        <button type="submit" class="button button--small">%s</button>\n'
            "      </fieldset>\n    </form>\n  "
            % (
                f(gettext_noop("Summon a %(name)s")) % {"name": esc(s["name"])}, kind, _("Level"), levels, _("at"), cells,
                _("Summon"),
            )
        )
    out.append("\n  ")
    for a in c["actors"]:
        unit = number(a["id"])
        out.append('\n    <fieldset class="actor" data-unit="%s"><legend>%s %s</legend>\n      ' % (unit, esc(a["label"]), esc(a["at"])))
        if a["moves"]:
            options = "".join('<option value="%s">%s</option>' % (esc(m["key"]), esc(m["label"])) for m in a["moves"])
            out.append(_unit_form("move", "m", "to", _("Move to"), options, _("Move"), unit, client_id, version))
        out.append("\n      ")
        if a["attacks"]:
            options = "".join('<option value="%s">%s</option>' % (esc(t["value"]), esc(t["label"])) for t in a["attacks"])
            out.append(_unit_form("attack", "a", "target", _("Attack"), options, _("Attack"), unit, client_id, version))
        out.append("\n    </fieldset>\n  ")
    out.append("\n  ")
    artifact = c["artifact"]
    if artifact:
        if artifact["unit_choices"]:
            choices = "".join('<option value="%s">%s</option>' % (esc(u["value"]), esc(u["label"])) for u in artifact["unit_choices"])
            where = '<label>%s <select name="unit">%s</select></label>\n        ' % (_("on"), choices)
        else:
            choices = "".join('<option value="%s">%s</option>' % (esc(k["key"]), esc(k["label"])) for k in artifact["cell_choices"])
            where = '<label>%s <select name="at">%s</select></label>' % (_("at"), choices)
        out.append(
            '\n    <form ws-send class="move-form artifact-form">\n'
            + _hidden("artifact", client_id + "-art", version, "      ")
            + "      <fieldset><legend>%s</legend>\n"
            "        %s\n"
            '        <button type="submit" class="button button--small">%s</button>\n'
            "      </fieldset>\n    </form>\n  "
            % (f(gettext_noop("Use %(name)s")) % {"name": esc(artifact["name"])}, where, _("Use"))
        )
    out.append("\n</details>\n")
    return "".join(out)


def _unit_form(form, letter, field, label, options, button, unit, client_id, version):
    """A creature's move or attack form in the lists."""
    return (
        '<form ws-send class="move-form move-form--%s" data-unit="%s">\n' % (form, unit)
        + _hidden(form, f"{client_id}-{letter}-{unit}", version, "        ", f'<input type="hidden" name="unit" value="{unit}">')
        + '        <label>%s <select name="%s">%s</select></label>\n'
        '        <button type="submit" class="button button--small">%s</button>\n'
        "      </form>" % (label, field, options, button)
    )


class StatusBlocks:
    """miracle/_status.html as it was: its blocks of the platform's status fragment
    (``platform.status``), from ``ctx["status"]`` (``presenter.status``)."""

    def score(self, ctx):
        hp = ctx["status"].get("hp")
        if not hp:
            return ""
        _ = texts(get_language())
        return '<span class="match-score miracle-hp-score" title="%s">%s <strong>%s–%s</strong></span>' % (
            _("Miracle HP left"), _("Miracle HP"), number(hp[0]), number(hp[1])
        )

    def result(self, ctx, platform_text):
        return platform_text

    def final_score(self, ctx):
        hp = ctx["status"].get("hp")
        if not hp:
            return ""
        f = formats(get_language())
        return '<span class="banner-score">%s</span>' % (f(gettext_noop("Miracle HP %(a)s–%(b)s")) % {"a": number(hp[0]), "b": number(hp[1])})

    def between(self, ctx):
        return ""

    def live(self, ctx):
        status = ctx["status"]
        language = get_language()
        _, f = texts(language), formats(language)
        if status.get("phase") == "deck":
            said = "\n        %s\n      " % _("Both players choose their decks.")
        elif status["turn"]:
            turn = f(gettext_noop("Turn %(turn)s/%(max)s")) % {"turn": number(status["turn"]), "max": number(status["last_turn"])}
            if status["your_turn"]:
                who = '<strong class="your-turn">▶ %s</strong>' % _("Your turn")
            else:
                who = f(gettext_noop("%(who)s to move")) % {"who": esc(status["to_move"])}
            said = '\n        <strong class="turn-count">%s</strong> ·\n        %s\n      ' % (turn, who)
        else:
            said = ""
        return '\n    <p class="match-phase">\n      %s\n    </p>\n' % said

    def after(self, ctx):
        return ""


STATUS_BLOCKS = StatusBlocks()


def status(ctx):
    """miracle/_status.html as it was, with the platform's game/_status.html it extended."""
    return mark_safe(platform.status(ctx, STATUS_BLOCKS))
