"""The Aquawar board, move forms and status line as HTML, drawn in Python from ``presenter.page_context``.

A browser socket redraws them on every change, and as templates their loops (with every
``{% translate %}`` and number looked up again for each fish and each move) were most of the
servers' time per command (docs/performance.md, "The Aquawar board drawn in Python"). The markup is
byte for byte what the templates drew, by the rules of ``game.games.markup``
(``tests/games/aquawar/test_markup.py`` compares them on many positions).
"""
from functools import lru_cache

from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_noop, ngettext

from .. import markup as platform
from ..markup import clock, csrf_input, esc, number, texts
from .texts import name as species_name
from .texts import skill_text


@lru_cache(maxsize=64)
def rounds_won(language, count):
    """``{% blocktranslate count n=count %}{{ n }} round won{% plural %}…``."""
    return ngettext("%(n)s round won", "%(n)s rounds won", count) % {"n": number(count)}


@lru_cache(maxsize=64)
def shields(language, count):
    return ngettext("%(n)s shield", "%(n)s shields", count) % {"n": number(count)}


@lru_cache(maxsize=256)
def species_texts(language, species, mimic_of):
    """A known fish's escaped name, the name of the species it copies, and its two skills."""
    passive, active = skill_text(species, mimic_of)
    return (
        esc(species_name(species)),
        esc(species_name(mimic_of)) if mimic_of else None,
        esc(passive),
        esc(active),
    )


def board(ctx):
    """aquawar/_board.html as it was: ``ctx["sides"]`` from ``presenter.board``."""
    language = get_language()
    _ = texts(language)
    out = [
        '<section id="match-board" class="match-board" aria-label="%s"%s>\n  '
        % (_("Board"), ' hx-swap-oob="true"' if ctx.get("oob") else "")
    ]
    for side in ctx["sides"]:
        out.append(_side(side, _, language))
    out.append("\n</section>\n")
    return mark_safe("".join(out))


def _side(side, _, language):
    own = " team--own" if side["own"] else ""
    to_move = " team--to-move" if side["to_move"] else ""
    out = [
        f'\n    \n    <div class="team team--{esc(side["tone"])}{own}{to_move}" data-side="{number(side["side"])}">\n',
        '      <h2 class="team-name">\n',
        '        <span class="team-icon" aria-hidden="true">%s</span>\n' % ("●" if side["tone"] == "a" else "◆"),
        f'        <span class="team-label">{esc(side["label"])}</span>\n',
        "        ",
    ]
    if side["to_move"]:
        out.append('<span class="team-turn">%s</span>' % (_("Your turn") if side["own"] else _("To move")))
    out.append("\n        ")
    if side["clock"]:
        out.append(clock(side["clock"], _))
    out.append("\n        ")
    aid_url = side["aid_url"]
    if aid_url:
        out.append(
            '<button type="button" class="button button--small button--quiet aid-button" data-aid-url="%s" '
            'aria-expanded="false" data-text-show="%s" data-text-hide="%s">%s</button>'
            % (esc(aid_url), _("What could they be?"), _("Hide the aid"), _("What could they be?"))
        )
    out.append(
        '\n        <span class="team-score" title="%s">%s</span>\n      </h2>\n      '
        % (_("Rounds won"), rounds_won(language, side["score"]))
    )
    if side["fish"]:
        out.append('\n        <ol class="fish-list">\n          ')
        for fish in side["fish"]:
            out.append(_fish(fish, aid_url, _, language))
        out.append("\n        </ol>\n      ")
    elif side["picked"]:
        out.append('\n        <p class="team-note">✔ %s</p>\n      ' % _("Team picked."))
    else:
        out.append('\n        <p class="team-note">%s</p>\n      ' % _("No team on the board yet."))
    out.append("\n    </div>\n  ")
    return "".join(out)


def _fish(fish, aid_url, _, language):
    species = fish["species"]
    if species:
        name, mimic_of, passive, active = species_texts(language, species, fish["copies"])
    else:
        name = mimic_of = passive = active = None
    level = esc(fish["hp_level"])
    index, pos, hp = number(fish["index"]), number(fish["pos"]), number(fish["hp"])
    marks = fish["marks"]
    out = [
        '\n            <li class="fish fish--hp-%s%s%s%s" data-pos="%s" data-label="#%s %s">\n'
        % (
            level,
            "" if fish["alive"] else " fish--dead",
            " fish--marked" if marks else "",
            " fish--acted" if fish["acted"] else "",
            index,
            pos,
            name if name else _("Hidden fish"),
        ),
        '              <span class="fish-picture">\n                ',
    ]
    if fish["image"]:
        out.append('<img class="fish-image" src="%s" alt="" width="64" height="64">' % esc(fish["image"]))
    out.append("\n                ")
    if fish["dead_image"]:
        out.append('<img class="fish-dead" src="%s" alt="" width="64" height="64">' % esc(fish["dead_image"]))
    out.append(
        '\n              </span>\n              <div class="fish-body">\n'
        f'                <p class="fish-name"><span class="fish-pos">#{pos}</span>\n                  '
    )
    if name:
        out.append(name)
        if mimic_of:
            copying = gettext("copying %(copy)s") % {"copy": mimic_of}
            out.append(f' <span class="fish-mimic">{copying}</span>')
    else:
        out.append('<span class="fish-hidden">%s</span>' % _("Hidden fish"))
    out.append("\n                  \n                  ")
    if marks:
        out.append('<span class="fish-marks" title="%s">' % _("The last move"))
        for order, mark in enumerate(marks):
            out.append(
                f'<span class="mark mark--{esc(mark["kind"])}" style="--order: {number(order)}">{esc(mark["text"])}</span>'
            )
        out.append("</span>")
    out.append("\n                </p>\n                ")
    if not fish["alive"]:
        out.append('<p class="fish-tag">✝ %s</p>' % _("defeated"))
    out.append(
        '\n                <div class="hp hp--%s" role="meter" aria-label="%s" aria-valuemin="0" aria-valuemax="400" '
        'aria-valuenow="%s">\n'
        '                  <div class="hp-bar" style="width: %s%%"></div>\n'
        '                  <span class="hp-text">%s/400</span>\n'
        '                </div>\n                <p class="fish-stats">' % (level, _("HP"), hp, number(fish["hp_percent"]), hp)
    )
    if fish["atk"] is not None:
        out.append("%s %s" % (_("ATK"), number(fish["atk"])))
    if fish["own"] and fish["shields"]:
        out.append(" · " + shields(language, fish["shields"]))
    for effect in fish["effects"]:
        if effect == "reduce":
            text = _("next hit −70%%")
        elif effect == "share":
            text = _("next hit shared")
        else:
            text = _("heal after next hit")
        out.append(f' · <span class="fish-effect">{text}</span>')
    out.append("</p>\n                ")
    if aid_url and fish["alive"] and not fish["revealed"]:
        out.append(f'<div class="fish-aid" id="aid-{index}" aria-live="polite"></div>')
    out.append("\n                ")
    if passive:
        out.append(
            '\n                  <details class="fish-skills">\n'
            "                    <summary>%s</summary>\n"
            "                    <p><strong>%s</strong> %s</p>\n"
            "                    <p><strong>%s</strong> %s</p>\n"
            "                  </details>\n                " % (_("Skills"), _("Passive:"), passive, _("Active:"), active)
        )
    out.append("\n              </div>\n            </li>\n          ")
    return "".join(out)


def controls(ctx):
    """aquawar/_controls.html as it was (with aquawar/_board_play.html): ``ctx["controls"]`` from
    ``presenter.controls``."""
    language = get_language()
    _ = texts(language)
    c = ctx["controls"]
    out = [
        '<section id="match-controls" class="match-controls" aria-label="%s"%s>\n\n'
        % (_("Your move"), ' hx-swap-oob="true"' if ctx.get("oob") else "")
    ]
    if c.get("clock"):
        out.append('<p class="controls-clock">%s %s</p>' % (_("Your time for this decision:"), clock(c["clock"], _)))
    out.append("\n")
    mode = c["mode"]
    if mode == "pick":
        out.append(_pick(c, csrf_input(ctx), _, language))
    elif mode == "assert":
        out.append(_assert(c, csrf_input(ctx), _, language))
    elif mode == "act":
        out.append(_act(c, csrf_input(ctx), _))
    elif mode in NOTES:
        out.append('\n  <p class="controls-note">%s</p>\n' % _(NOTES[mode]))
    out.append("\n\n</section>\n")
    return mark_safe("".join(out))


NOTES = {
    "waiting_pick": gettext_noop("Your team is locked in. Waiting for your opponent's pick."),
    "wait": gettext_noop("Your opponent is thinking."),
    "watching": gettext_noop("You are watching. Hidden fish stay hidden until the match is over."),
    "finished": gettext_noop("The match is over: every fish is shown."),
    "open": gettext_noop("The match starts when a second player joins."),
}


def _hidden(csrf, form, client_id, version, indent):
    return (
        f'{indent}{csrf}<input type="hidden" name="type" value="form"><input type="hidden" name="form" value="{form}">\n'
        f'{indent}<input type="hidden" name="id" value="{client_id}"><input type="hidden" name="version" value="{version}">\n'
    )


def _pick(c, csrf, _, language):
    legend = gettext(
        "Choose %(n)s fish. The order you choose them in is their position, #1 to #4: it matters."
    ) % {"n": number(c["count"])}
    out = [
        '\n  \n  \n  <form ws-send method="post" action="%s" class="move-form pick-form" data-count="%s" data-text-up="%s" '
        'data-text-down="%s" data-text-remove="%s" data-text-empty="%s"\n'
        % (esc(c["post_url"]), number(c["count"]), _("Move up"), _("Move down"), _("Remove"), _("empty")),
        '    data-text-more-one="%s" data-text-more="%s"\n    data-text-mimic="%s">\n'
        % (
            _("Choose 1 more fish to lock in your team."),
            _("Choose {n} more fish to lock in your team."),
            _("Choose the species to copy, just below, to lock in your team."),
        ),
        _hidden(csrf, "pick", esc(c["client_id"]), number(c["version"]), "    "),
        f'    <fieldset class="pick-roster" data-catalogue>\n      <legend>{legend}</legend>\n'
        '      <ul class="pick-options">\n        ',
    ]
    passive_word, active_word = _("Passive:"), _("Active:")
    for option in c["options"]:
        image = option["image"]
        picture = f'<img src="{esc(image)}" alt="" width="48" height="48">' if image else ""
        name, _copy, passive, active = species_texts(language, option["id"], None)
        out.append(
            '\n          <li class="pick-card">\n'
            f'            <label class="pick-card__label"><input type="checkbox" name="fish" value="{esc(option["id"])}" class="pick-check">\n'
            f"              {picture}\n"
            f"              <strong>{name}</strong></label>\n"
            "            \n"
            '            <div class="pick-card__skills">\n'
            f'              <p><strong>{passive_word}</strong> {passive}</p><p><strong>{active_word}</strong> {active}</p></div>\n'
            "          </li>\n        "
        )
    slots = "".join(
        '<li class="pick-slot pick-slot--empty"><span class="fish-pos">#%s</span> %s</li>' % (n, _("empty")) for n in "1234"
    )
    out.append(
        "\n      </ul>\n    </fieldset>\n"
        '    <div class="pick-side">\n'
        '    <div class="pick-team" hidden>\n'
        '      <h3 class="pick-team__title">%s</h3>\n'
        '      <ol class="pick-slots" aria-live="polite">%s</ol>\n'
        "    </div>\n    " % (_("Your team, in order"), slots)
    )
    if c["mimic_targets"]:
        out.append(
            '\n      <label class="mimic-choice" data-catalogue>%s\n' % _("The Mimic Fish copies:")
            + '        <select name="mimic">\n'
            '          <option value="">—</option>\n          '
        )
        for option in c["mimic_targets"]:
            out.append(f'<option value="{esc(option["id"])}">{species_texts(language, option["id"], None)[0]}</option>')
        out.append("\n        </select>\n      </label>\n    ")
    out.append(
        '\n    <p class="pick-submit">\n'
        '      <button type="submit" class="button" aria-describedby="pick-missing">%s</button>\n' % _("Lock in my team")
        + '      <span class="pick-missing" id="pick-missing" aria-live="polite"></span>\n'
        "    </p>\n    </div>\n  </form>\n"
    )
    return "".join(out)


def _board_play(step, species, _, language):
    """aquawar/_board_play.html: ``species`` is the assertion's choices (None: no assertion to make)."""
    attributes = "\n".join(f'  data-text-{key}="{_(text)}"' for key, text in BOARD_PLAY_TEXTS)
    out = [
        f'\n<div class="board-play" data-board-play="{step}" hidden\n{attributes}>\n'
        '  <p class="controls-title board-play__prompt" id="board-play-prompt" aria-live="polite"></p>\n  '
    ]
    if species is not None:
        still_possible, assert_word, cancel = _("still possible, by the deduction aid"), _("Assert"), _("Cancel")
        out.append(
            f'\n    <p class="controls-hint">{_(ASSERT_HINT)}</p>\n'
            '    <div class="assert-pick" hidden>\n'
            '      <p class="assert-pick__title"></p>\n'
            f'      <p class="assert-pick__legend"><span class="assert-pick__chip">★</span> {still_possible}</p>\n'
            '      <ul class="assert-grid" data-catalogue>\n        '
        )
        for s in species:
            key = esc(s["id"])
            picture = f'<img src="{esc(s["image"])}" alt="" width="32" height="32">' if s["image"] else ""
            out.append(
                f'<li><button type="button" class="assert-species" value="{key}" data-species="{key}">{picture}'
                f'<span>{species_texts(language, s["id"], None)[0]}</span></button></li>'
            )
        out.append(
            "\n      </ul>\n"
            '      <p class="assert-pick__actions">\n'
            f'        <button type="button" class="button assert-confirm" disabled>{assert_word} <kbd class="key-hint" aria-hidden="true">Enter</kbd></button>\n'
            f'        <button type="button" class="button button--quiet board-play__cancel">{cancel} <kbd class="key-hint" aria-hidden="true">Esc</kbd></button>\n'
            "      </p>\n    </div>\n"
            '    <template class="assert-title" data-text="%s"></template>\n  ' % (gettext("Enemy fish #{pos} is a…") % {})
        )
    keys = (
        _("Keys: a number picks an enemy fish, Enter confirms, Esc cancels, S skips.")
        if step == "assert"
        else _("Keys: a number picks a fish or a target, A attack, K skill, Enter confirms, Esc cancels.")
    )
    show = _("Show the moves as a list")
    out.append(
        f'\n  <p class="controls-hint board-play__keys">{keys}</p>\n'
        f'  <p class="board-play__list"><button type="button" class="link-button board-play__toggle">{show}</button></p>\n'
        "</div>\n"
    )
    return "".join(out)


ASSERT_HINT = gettext_noop(
    "Right: every enemy fish loses 50 HP and the fish is revealed. Wrong: every fish of yours loses 50 HP."
)
BOARD_PLAY_TEXTS = (
    ("actor", gettext_noop("Your move: click one of your fish (or press its number).")),
    ("enemy", gettext_noop("Now click the enemy to hit (or press its number).")),
    ("ally", gettext_noop("Click the teammate for the skill (or press its number).")),
    ("ally-step", gettext_noop("Skill, step 1 of 2: click the teammate it helps.")),
    ("enemy-step", gettext_noop("Skill, step 2 of 2: click the enemy it strikes.")),
    ("no-target", gettext_noop("This skill needs no target: confirm it.")),
    ("confirm-target", gettext_noop("Press Enter (or click it again) to confirm.")),
    ("attack", gettext_noop("Attack")),
    ("skill", gettext_noop("Skill")),
    ("use", gettext_noop("Use the skill")),
    ("cancel", gettext_noop("Cancel")),
    ("assert", gettext_noop("Your assertion: click a hidden enemy fish to name it, or skip.")),
    ("no-hidden", gettext_noop("Every enemy fish is known: nothing to name, skip the assertion.")),
    ("list-show", gettext_noop("Show the moves as a list")),
    ("list-hide", gettext_noop("Hide the list")),
)


def _assert(c, csrf, _, language):
    url, client_id, version = esc(c["post_url"]), esc(c["client_id"]), number(c["version"])
    out = ["\n  ", _board_play("assert", c["species"] if c["targets"] else None, _, language), "\n  "]
    if c["targets"]:
        title, enemy_fish, is_a = _("Assertion: name a hidden enemy fish, or skip."), _("Enemy fish"), _("is a")
        assert_word = _("Assert")
        targets = "".join(f'<option value="{number(t["pos"])}">{esc(t["label"])}</option>' for t in c["targets"])
        species = "".join(
            f'<option value="{esc(s["id"])}">{species_texts(language, s["id"], None)[0]}</option>' for s in c["species"]
        )
        out.append(
            '<div class="move-list" data-move-list>\n'
            f'  <form ws-send method="post" action="{url}" class="move-form assert-form">\n'
            + _hidden(csrf, "assert", client_id, version, "    ")
            + f'    <p class="controls-title">{title}</p>\n'
            f'    <p class="controls-hint">{_(ASSERT_HINT)}</p>\n'
            f'    <label>{enemy_fish}\n'
            f'      <select name="target">{targets}</select>\n'
            "    </label>\n"
            f'    <label data-catalogue>{is_a}\n'
            f'      <select name="fish">{species}</select>\n'
            "    </label>\n"
            f'    <button type="submit" class="button">{assert_word}</button>\n'
            "  </form>\n  </div>"
        )
    skip = _("Skip the assertion")
    out.append(
        f'\n  <form ws-send method="post" action="{url}" class="move-form skip-form">\n'
        + _hidden(csrf, "skip", f"{client_id}-skip", version, "    ")
        + f'    <button type="submit" class="button button--quiet">{skip} <kbd class="key-hint" aria-hidden="true">S</kbd></button>\n'
        "  </form>\n"
    )
    return "".join(out)


def _moves(moves):
    return "".join(
        f'\n            <label class="move"><input type="radio" name="move" value="{esc(move["value"])}" required'
        f'{" checked" if move.get("checked") else ""}> {esc(move["label"])}</label>\n          '
        for move in moves
    )


def _act(c, csrf, _):
    url, client_id, version = esc(c["post_url"]), esc(c["client_id"]), number(c["version"])
    grid_caption, go = _("Skill: choose a teammate (row) and an enemy (column)"), _("Go")
    out = [
        "\n  ",
        _board_play("act", None, _, None),
        '\n  <div class="move-list" data-move-list>\n  <p class="controls-title">%s</p>\n  '
        % _("Action: choose a fish and what it does."),
    ]
    for actor in c["actors"]:
        picture = f'<img src="{esc(actor["image"])}" alt="" width="32" height="32"> ' if actor["image"] else ""
        out.append(
            f'\n    <form ws-send method="post" action="{url}" class="move-form act-form">\n'
            + _hidden(csrf, "act", f'{client_id}-{number(actor["pos"])}', version, "      ")
            + "      <fieldset>\n"
            f'        <legend>{picture}{esc(actor["label"])}</legend>\n'
            '        <div class="moves">\n          '
        )
        if actor["attacks"]:
            out.append('<div class="moves-group">%s</div>' % _moves(actor["attacks"]))
        out.append("\n          ")
        grid = actor["skill_grid"]
        if grid:
            heads = "".join(f'<th scope="col">{esc(enemy)}</th>' for enemy in grid["enemies"])
            out.append(
                '\n            <table class="moves-group moves-group--skill skill-grid">\n'
                f'              <caption>{grid_caption}</caption>\n'
                f"              <tr><td></td>{heads}</tr>\n              "
            )
            for row in grid["rows"]:
                cells = "".join(
                    "<td>%s</td>"
                    % (
                        f'<input type="radio" name="move" value="{esc(move["value"])}" required aria-label="{esc(move["label"])}" '
                        f'title="{esc(move["label"])}">'
                        if move
                        else ""
                    )
                    for move in row["cells"]
                )
                out.append(f'\n                <tr><th scope="row">{esc(row["ally"])}</th>{cells}</tr>\n              ')
            out.append("\n            </table>\n          ")
        elif actor["skills"]:
            out.append('<div class="moves-group moves-group--skill">%s</div>' % _moves(actor["skills"]))
        out.append(
            "\n        </div>\n"
            f'        <button type="submit" class="button">{go}</button>\n'
            "      </fieldset>\n    </form>\n  "
        )
    out.append("\n  </div>\n")
    return "".join(out)


class StatusBlocks:
    """aquawar/_status.html as it was: its blocks of the platform's status fragment
    (``platform.status``), from ``ctx["status"]`` (``presenter.status``)."""

    def score(self, ctx):
        score = ctx["status"].get("score")
        if not score:
            return ""
        _ = texts(get_language())
        return '<strong class="match-score" title="%s">%s–%s</strong>' % (_("Rounds won"), number(score[0]), number(score[1]))

    def result(self, ctx, platform_text):
        # A player reads the result from their own side, their score first ("You lost 0–2"); a
        # match that ended before any round did (a resignation, a clock) has no score worth saying.
        status, result = ctx["status"], ctx["result"]
        if not (status["mine"] or status["theirs"]):
            return platform_text
        if result["you_won"]:
            text = gettext_noop("You won the match %(mine)s–%(theirs)s!")
        elif result["you_lost"]:
            text = gettext_noop("You lost the match %(mine)s–%(theirs)s.")
        else:
            return platform_text
        f = platform.formats(get_language())
        return f(text) % {"mine": number(status["mine"]), "theirs": number(status["theirs"])}

    def final_score(self, ctx):
        status = ctx["status"]
        if not status.get("score") or status["mine"] is not None:
            return ""
        f = platform.formats(get_language())
        a, b = status["score"]
        return '<span class="banner-score">%s</span>' % (f(gettext_noop("Final score %(a)s–%(b)s")) % {"a": number(a), "b": number(b)})

    def between(self, ctx):
        last = ctx["status"].get("last_round")
        if not last:
            return ""
        f = platform.formats(get_language())
        if last["you_won"]:
            tone = "won"
        else:
            tone = "over" if ctx["payload"]["seat"] is None else "lost"
        return (
            '\n    <p class="banner banner--%s" role="status">\n'
            '      <span class="banner-icon" aria-hidden="true">%s</span>\n'
            '      <span class="match-result">%s</span>\n'
            '      <span class="banner-score">%s</span>\n'
            "    </p>\n"
            % (
                tone,
                "★" if last["you_won"] else "⚑",
                f(gettext_noop("Round %(n)s goes to %(winner)s.")) % {"n": number(last["number"]), "winner": esc(last["winner"])},
                esc(last["reason"]),
            )
        )

    def live(self, ctx):
        status = ctx["status"]
        language = get_language()
        _, f = texts(language), platform.formats(language)
        out = ['\n    <p class="match-phase">\n      %s ·\n      ' % (f(gettext_noop("Round %(round)s of 3")) % {"round": number(status["round"])})]
        if status["phase"] == "pick":
            out.append("\n        %s\n      " % _("Both players pick their teams."))
        else:
            turn = f(gettext_noop("Turn %(turn)s/%(max)s")) % {"turn": number(status["turn"]), "max": number(status["max_turns"])}
            if status["your_turn"]:
                who = '<strong class="your-turn">▶ %s</strong>' % _("Your turn")
            else:
                who = f(gettext_noop("%(who)s to move")) % {"who": esc(status["to_move"])}
            phase = _("(assertion)") if status["phase"] == "assert" else _("(action)")
            out.append("\n        %s ·\n        %s\n        %s\n      " % (turn, who, phase))
        out.append("\n    </p>\n")
        return "".join(out)

    def after(self, ctx):
        rounds = ctx["status"]["rounds"]
        if not rounds:
            return ""
        f = platform.formats(get_language())
        text = f(gettext_noop("Round %(n)s: %(winner)s won after %(turns)s turns (%(reason)s)"))
        lines = "".join(
            "\n        <li>%s</li>\n      "
            % (text % {"n": number(r["number"]), "winner": esc(r["winner"]), "turns": number(r["turns"]), "reason": esc(r["reason"])})
            for r in rounds
        )
        return '\n    <ol class="match-rounds">\n      %s\n    </ol>\n' % lines


STATUS_BLOCKS = StatusBlocks()


def status(ctx):
    """aquawar/_status.html as it was, with the platform's game/_status.html it extended."""
    return mark_safe(platform.status(ctx, STATUS_BLOCKS))
