"""What a game's parts drawn in Python (``base.Drawn``) share: templates' printing rules, and the
platform's lines of the status fragment (templates/game/_status.html with its includes).

Drawn parts print byte for byte what their templates printed: every value a template printed is
escaped as it escaped it (``conditional_escape``), every text translated as it translated it,
every number localised as it localised it. A game whose status part is drawn calls ``status`` with
its own blocks; the template stays, for the games whose status part is still a template.
"""
import html
from functools import lru_cache

from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, gettext_noop


def esc(value):
    """``conditional_escape(value)``. A plain ``str`` (nearly everything a part escapes, dozens of
    times per redraw) is escaped as Django's ``escape`` does it, without its lazy-argument wrapper."""
    if type(value) is str:
        return SafeString(html.escape(value))
    return conditional_escape(value)


def number(value):
    """``{{ value }}`` of an int: ``localize``, which only a thousands separator could change, and
    none applies below 1,000."""
    return str(value) if -1000 < value < 1000 else localize(value)


def translate(msgid):
    """``{% translate %}`` of a template literal whose catalogue msgid is ``msgid``: the template
    doubled the literal's ``%`` to make the msgid and undoes it in what it prints; a template's own
    text is trusted, not escaped."""
    return gettext(msgid).replace("%%", "%")


class Texts(dict):
    """The parts' fixed texts in one language, each translated when first asked for. Called as
    ``_("msgid")`` so that makemessages finds every msgid here (the templates that had them are gone)."""

    def __missing__(self, msgid):
        text = self[msgid] = translate(msgid)
        return text

    def __call__(self, msgid):
        return self[msgid]


class Formats(Texts):
    """``{% blocktranslate %}`` texts in one language, each translated when first asked for: the
    catalogue's text as it is, to be filled in with ``%`` (which undoes the doubled ``%``)."""

    def __missing__(self, msgid):
        text = self[msgid] = gettext(msgid)
        return text


_texts = {}


def texts(language):
    """The ``Texts`` of ``language``, which must be the active one (``get_language()``)."""
    found = _texts.get(language)
    if found is None:
        found = _texts[language] = (Texts(), Formats())
    return found[0]


def formats(language):
    """The ``Formats`` of ``language``, which must be the active one."""
    texts(language)
    return _texts[language][1]


def url(name, *args):
    """``reverse(name, args=args)``, looked up once: the parts and their context ask for the same
    few addresses of a match on every redraw, and a lookup costs more than the rest of a redraw's
    context. What else ``reverse`` reads (the URL configuration, the script prefix) is in the key;
    the language is not, as no address of the site is translated (no ``i18n_patterns``)."""
    return _url(get_urlconf(), get_script_prefix(), name, args)


@lru_cache(maxsize=4096)
def _url(urlconf, prefix, name, args):
    return reverse(name, urlconf, args)


def csrf_input(ctx):
    """``{% csrf_token %}``: the token's input on a page drawn for a request, nothing on a socket's."""
    token = ctx.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


def clock(clock, _):
    """templates/game/_clock.html (which other games' templates still include), with its newline;
    ``_`` is the language's ``Texts``."""
    urgent = " clock--urgent" if clock["urgent"] else ""
    if clock["deadline"]:
        when = ' data-deadline="%s" data-server-time="%s" title="%s"' % (
            esc(number(clock["deadline"])), esc(number(clock["server_time"])), _("Time left for this decision")
        )
    else:
        when = ' title="%s"' % _("Time left in the bank")
    return (
        '<span class="clock%s" role="timer"%s><span class="visually-hidden">%s </span><span class="clock-time">%s</span></span>\n'
        % (urgent, when, _("Time left:"), esc(clock["text"]))
    )


def status(ctx, blocks):
    """templates/game/_status.html, with the blocks a game's template extending it filled in:
    ``blocks`` has a method for each (``score``, ``result``, ``final_score``, ``between``, ``live``,
    ``after``) that returns the block's text for ``ctx``; ``result(ctx, platform)`` gets the
    platform's own text of the block (``{{ block.super }}``)."""
    language = get_language()
    _, f = texts(language), formats(language)
    payload = ctx["payload"]
    state = payload["status"]
    players, programs = payload["players"], payload["programs"]
    badge = bot_badge(_) if programs[0] or programs[1] else ""
    out = [
        '<section id="match-status" class="match-status" data-status="%s" data-version="%s" data-your-move="%s"%s>\n'
        '  <p class="match-players">\n'
        '    <span class="match-player"><span class="team-icon team-icon--a" aria-hidden="true">●</span> %s%s</span>\n'
        '    <span class="vs">%s</span>\n'
        '    <span class="match-player"><span class="team-icon team-icon--b" aria-hidden="true">◆</span> %s%s</span>\n'
        "    %s\n  </p>\n  %s\n  "
        % (
            esc(state),
            esc(number(payload["version"])),
            "true" if ctx["your_move"] else "false",
            ' hx-swap-oob="true"' if ctx.get("oob") else "",
            esc(players[0]),
            " " + badge if programs[0] else "",
            _("vs"),
            esc(players[1]) if players[1] else _("(waiting for a player)"),
            " " + badge if programs[1] else "",
            blocks.score(ctx),
            opponent(ctx, _),
        )
    ]
    if state == "finished":
        result = ctx["result"]
        if result["you_won"]:
            tone, icon, platform = "won", "★", _("You won the match!")
        elif result["you_lost"]:
            tone, icon, platform = "lost", "✕", _("You lost the match.")
        else:
            tone, icon, platform = "over", "⚑", f(gettext_noop("%(winner)s won the match.")) % {"winner": esc(result["winner"])}
        if payload["end_reason"] == "resign":
            how = _("(by resignation)")
        elif result["out_of_time"]:
            how = (
                _("You ran out of time.")
                if result["you_lost"]
                else f(gettext_noop("%(player)s ran out of time.")) % {"player": esc(result["out_of_time"])}
            )
        else:
            how = ""
        out.append(
            '\n    \n    <p class="banner banner--%s" role="status">\n'
            '      <span class="banner-icon" aria-hidden="true">%s</span>\n'
            '      <span class="match-result">%s\n      %s</span>\n'
            "      %s\n    </p>\n    %s\n    %s\n    "
            % (tone, icon, blocks.result(ctx, platform), how, blocks.final_score(ctx), rating_changes(payload, _), rematch(ctx, _))
        )
        if payload["seat"] is not None:
            out.append("\n      \n      " + news_socket(ctx) + "\n    ")
        out.append("\n  ")
    else:
        out.append("\n    %s\n  " % blocks.between(ctx))
    out.append("\n  ")
    reason = payload["end_reason"]
    if state == "open":
        out.append('\n    <p class="match-phase">%s</p>\n  ' % _("Waiting for a second player to join."))
    elif state == "cancelled":
        out.append(
            '\n    <p class="match-phase">%s%s</p>\n  ' % (_("This match was cancelled."), called_off_reason(CANCELLED, reason, _))
        )
    elif state == "aborted":
        out.append(
            '\n    <p class="match-phase">%s%s</p>\n  '
            % (_("This match was aborted: nobody won and nothing is counted."), called_off_reason(ABORTED, reason, _))
        )
    elif state == "live":
        out.append("\n    %s\n  " % blocks.live(ctx))
    out.append("\n  %s\n</section>\n" % blocks.after(ctx))
    return "".join(out)


# Why a match was called off, as the status line adds it (nothing for another reason).
CANCELLED = {"timeout": gettext_noop("Neither player moved in time."), "expired": gettext_noop("Nobody joined it in time.")}
ABORTED = {
    "no_first_move": gettext_noop("A player's clock ran out before their first move."),
    "aborted": gettext_noop("The player aborted it against the computer."),
    "opponent_left": gettext_noop("A player left the match for too long."),
    "bot_error": gettext_noop("The computer failed to make its move: sorry, that is our fault."),
}


def called_off_reason(reasons, reason, _):
    return " " + _(reasons[reason]) if reason in reasons else ""


def bot_badge(_):
    """ratings/_bot_badge.html, with its newline."""
    return '<span class="badge badge--bot" title="%s">%s</span>\n' % (_("A program plays under this account"), _("BOT"))


def opponent(ctx, _):
    """game/_opponent.html as the status fragment includes it (not out of band), with its newline."""
    info = ctx["opponent"]
    if not info:
        return '<div id="match-opponent" class="match-opponent"></div>\n'
    if not info["connected"]:
        presence = '<span class="presence presence--off"><span aria-hidden="true">○</span> %s</span>' % _("Opponent disconnected")
    else:
        presence = '<span class="presence presence--on"><span aria-hidden="true">●</span> %s</span>' % (
            _("The computer is playing") if info["computer"] else _("Opponent connected")
        )
    out = ['<div id="match-opponent" class="match-opponent">\n  ', presence, "\n  "]
    if info["computer"] or info["claim_at"]:
        match, csrf = esc(number(info["match"])), csrf_input(ctx)
        abort_url = esc(url("game:abort", info["match"]))
    if info["computer"]:
        confirm = ' data-ws-confirm="%s"' % _("Abort this match? Nobody wins and nothing is counted.")
        out.append("\n    " + abort_form(abort_url, confirm, csrf, match, "    ", _) + "\n  ")
    elif info["claim_at"]:
        out.append(
            '\n    \n    <span class="claim" data-claim-at="%s"%s>\n      '
            % (esc(number(info["claim_at"])), "" if info["claimable"] else " hidden")
        )
        if info["winnable"]:
            out.append(
                '%s\n      <form ws-send method="post" action="%s" class="fairness-form">\n'
                '        %s<input type="hidden" name="type" value="claim"><input type="hidden" name="id" value="claim-%s">\n'
                '        <button type="submit" class="button button--small">%s</button>\n      </form>\n      '
                % (
                    _("Your opponent left the match."),
                    esc(url("game:claim", info["match"])),
                    csrf,
                    match,
                    _("Claim the win"),
                )
            )
        else:
            out.append(_("Your opponent left before making a move."))
        out.append("\n      " + abort_form(abort_url, "", csrf, match, "      ", _) + "\n    </span>\n  ")
    out.append("\n</div>\n")
    return "".join(out)


def abort_form(url, confirm, csrf, match, indent, _):
    """The opponent line's abort form, its first line at ``indent``."""
    return (
        '<form ws-send method="post" action="%s" class="fairness-form"%s>\n'
        '%s  %s<input type="hidden" name="type" value="abort"><input type="hidden" name="id" value="abort-%s">\n'
        '%s  <button type="submit" class="button button--quiet button--small">%s</button>\n%s</form>'
    ) % (url, confirm, indent, csrf, match, indent, _("Abort (no result)"), indent)


def rating_changes(payload, _):
    """ratings/_match_rating.html, with its newlines."""
    changes = payload["rating_changes"]
    if not changes:
        return "\n\n"
    out = ['\n\n<ul class="rating-changes" id="match-rating-changes" aria-label="%s">\n  ' % _("Rating changes")]
    for change in changes:
        seat, delta = change["seat"], change["delta"]
        if seat == payload["seat"]:
            who = _("Your rating")
        else:
            who = esc(payload["players"][0] if seat == 0 else payload["players"][1])
        if delta > 0:
            tone, signed = "up", "+" + esc(number(delta))
        elif delta < 0:
            tone, signed = "down", "−" + esc(("%d" % delta)[1:])
        else:
            tone, signed = "same", "±0"
        out.append(
            '\n    <li class="rating-change rating-change--%s" data-seat="%s">\n'
            "      %s:\n"
            "      %s → <strong>%s</strong>\n"
            '      <span class="rating-delta">(%s)</span>\n'
            "    </li>\n  "
            % (tone, esc(number(seat)), who, esc(number(change["before"])), esc(number(change["after"])), signed)
        )
    out.append("\n</ul>\n\n")
    return "".join(out)


def rematch(ctx, _):
    """game/_rematch.html, with its newlines."""
    offer = ctx["rematch"]
    if not offer:
        return "\n\n"
    state = offer["state"]
    href = esc(url("game:match", offer["match"])) if offer["match"] else None
    out = [
        '\n\n<div class="match-rematch" id="match-rematch" data-state="%s"%s>\n  '
        % (esc(state) if state else "", ' data-href="%s"' % href if href else "")
    ]
    if state == "accepted":
        out.append('\n    <p><a class="button" href="%s">%s</a></p>\n  ' % (href, _("Play the rematch")))
    elif state == "declined":
        out.append("\n    <p>%s</p>\n  " % _("The rematch was declined."))
    elif state == "offered" and offer["mine"]:
        out.append("\n    <p>%s</p>\n  " % _("You offered a rematch. Waiting for your opponent…"))
    else:
        offered = state == "offered"
        action, csrf, client_id = esc(url("game:rematch", ctx["payload"]["match"])), csrf_input(ctx), esc(offer["client_id"])
        form = (
            '<form ws-send method="post" action="%s" class="rematch-form">\n'
            '      %s<input type="hidden" name="type" value="rematch"><input type="hidden" name="id" value="%s-%s">\n'
            '      <input type="hidden" name="answer" value="%s">\n'
            '      <button type="submit" class="button%s">%s</button>\n    </form>'
        )
        out.append(
            "\n    %s\n    " % ("<p>%s</p>" % _("Your opponent offers a rematch.") if offered else "")
            + form
            % (
                action, csrf, client_id, "a", "accept" if offered else "offer", "",
                _("Accept the rematch") if offered else _("Offer a rematch"),
            )
            + "\n    "
        )
        if offered:
            out.append("\n    " + form % (action, csrf, client_id, "d", "decline", " button--quiet", _("Decline")) + "\n    ")
        out.append("\n  ")
    out.append("\n</div>\n\n")
    return "".join(out)


def news_socket(ctx):
    """lobby/_news_socket.html, with its newline."""
    waiting = ctx.get("news_waiting")
    query = "?waiting=" + ",".join(esc(match) for match in waiting) if waiting else ""
    return '<div hx-ext="ws" ws-connect="/ws/lobby/%s" class="lobby-news"><p id="lobby-joined" hidden></p></div>\n' % query
