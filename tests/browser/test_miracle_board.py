"""The 神迹之战 board's faults of issue #29, each in a real browser: one identity per player on the
guest's page, only your own card rung, an ended match drawn with nobody to act (and an aborted one
saying so in its log), a replay that never shows a miracle below 0."""
import random
import re

import pytest

from game import services
from game.games.miracle import engine
from game.games.miracle.bots import make_bot
from game.games.miracle.game import GAME
from game.models import Match

from . import test_miracle, ui

ui.skip_without_a_browser()

# Both decks hold archers: the opponent's strip then has a card of the type the player clicks.
HOST_DECK = ("holy_light", ["archer", "swordsman", "priest"])
GUEST_DECK = ("wind_blessing", ["archer", "frost_dragon", "volcano_dragon"])


def two_players(browser, url, *, guest_width=1280):
    """Host and guest pages of a live match, both decks in: (host page, guest page, their names)."""
    host = ui.new_page(browser, url)
    guest = ui.new_page(browser, url, width=guest_width)
    names = ui.sign_up(host, "host"), ui.sign_up(guest, "guest")
    match_id, invite = test_miracle.create_miracle_match(host)
    ui.join_by_invite(guest, invite, match_id)
    ui.follow_to_match(host, match_id)
    ui.wait_live(host)
    for version, page, deck in ((0, host, HOST_DECK), (1, guest, GUEST_DECK)):
        # The other's deck coming in redraws the form: choose after it.
        ui.wait_version(page, version)
        test_miracle.choose_deck(page, deck)
        page.click(".deck-form button[type=submit]")
        ui.wait_version(page, version + 1)
    for page in (host, guest):
        ui.wait_version(page, 2)
    return host, guest, names


def mover(pages):
    """The page whose turn it is (its options are on it)."""
    for page in pages:
        page.wait_for_selector("#match-status[data-version]")
    return next(page for page in pages if test_miracle.options(page) is not None)


def test_each_player_keeps_one_identity_on_every_page(browser, live_server_url):
    host, guest, (host_name, guest_name) = two_players(browser, live_server_url)
    # The status line draws the host ● and the guest ◆; the guest's own page agrees on the strips.
    status = guest.inner_html("#match-status .match-players")
    assert re.search(r"team-icon--a[^<]*</span> " + host_name, status)
    for page in (host, guest):
        strips = page.locator(".miracle-board .side-strip").evaluate_all(
            "ss => ss.map(s => [s.querySelector('.strip-name').textContent, s.className, "
            "s.querySelector('.team-icon').textContent])"
        )
        by_name = {name.removesuffix(" (you)"): (cls, icon) for name, cls, icon in strips}
        assert "side-strip--a" in by_name[host_name][0] and by_name[host_name][1] == "●", strips
        assert "side-strip--b" in by_name[guest_name][0] and by_name[guest_name][1] == "◆", strips
        assert page.get_attribute(".miracle--a", "data-cell") == host.get_attribute(".miracle--a", "data-cell")


def test_a_card_click_rings_only_your_own_card(browser, live_server_url, screenshot_dir):
    host, guest, _names = two_players(browser, live_server_url)
    page = mover((host, guest))
    page.click('.card--mine[data-card="archer"]')
    rung = page.locator(".card--selected")
    assert rung.count() == 1 and "card--mine" in rung.get_attribute("class")
    ui.shoot(page, screenshot_dir, "miracle-card-rung-1280")


def test_an_aborted_match_shows_nobody_to_act_after_a_reload_and_says_so_in_its_log(browser, live_server_url,
                                                                                   screenshot_dir):
    page = ui.new_page(browser, live_server_url)
    vs_computer(page)
    # Play until a creature of ours can act (summon, end the turn, the computer's turn, ours again).
    for _ in range(6):
        my_turn(page)
        if page.locator(".token--ready").count():
            break
        play = test_miracle.options(page)
        if play["summons"]:
            cheapest = min(play["summons"], key=lambda s: s["cost"])
            version = ui.version(page)
            # Through the folded "Moves as lists" form: this test is about what the page shows after.
            page.eval_on_selector(f'.summon-form[data-type="{cheapest["type"]}"]',
                                  "(f, level) => { f.elements.level.value = level; f.requestSubmit(); }",
                                  str(cheapest["level"]))
            ui.wait_version(page, version + 1)
        version = ui.version(page)
        page.evaluate("localStorage.setItem('miracle.askBeforeEndTurn', 'no')")
        page.eval_on_selector("#end-turn-form", "f => f.requestSubmit()")
        ui.wait_version(page, version + 1)
    assert page.locator(".token--ready").count() and page.locator(".side-strip--to-move").count()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#match-opponent .fairness-form button")
    page.wait_for_selector("#match-status[data-status=aborted]")
    for reloaded in (False, True):
        if reloaded:
            page.reload()
            page.wait_for_selector("#match-status[data-status=aborted]")
        assert page.locator(".token--ready").count() == 0, reloaded
        assert page.locator(".side-strip--to-move").count() == 0, reloaded
        assert page.locator("#match-log li").last.inner_text().startswith("This match was aborted"), reloaded
    ui.shoot(page, screenshot_dir, "miracle-aborted-1280")


@pytest.fixture
def finished_match(host, guest, transactional_db):
    """A 神迹之战 match two greedy bots played to its end through the services: its last attack takes
    the loser's miracle below 0 (made before the browser starts: the test makes no database calls)."""
    match = services.join_match(services.create_match(host, game="miracle"), guest)
    rng, bots, users = random.Random(1), (make_bot("greedy"), make_bot("greedy")), (host, guest)
    while (current := Match.objects.get(pk=match.pk)).status == Match.Status.LIVE:
        state = GAME.load(current.state)
        seat = engine.to_move(state)[0]
        command = bots[seat].choose(engine.view(state, seat), [], engine.legal_commands(state, seat), seat, rng)
        services.apply_command(match.pk, users[seat], f"c{current.version}", current.version, command)
    state = GAME.load(Match.objects.get(pk=match.pk).state)
    assert min(state.miracle_hp) < 0, state.miracle_hp
    return match


def test_the_replay_never_shows_a_miracle_below_zero(finished_match, browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url)
    page.goto(f"/match/{finished_match.pk}/replay/?as=all")
    page.wait_for_selector("#replay:not([hidden]) .hexmap")
    page.click('[data-go="last"]')
    shown = page.locator(".miracle-replay text.miracle-hp").evaluate_all("ts => ts.map(t => t.textContent)")
    assert sorted(int(v) for v in shown)[0] == 0, shown
    strips = page.locator(".miracle-replay .side-strip .fact").all_inner_texts()
    assert "Miracle 0/30" in strips and not any("-" in s for s in strips), strips
    ui.shoot(page, screenshot_dir, "miracle-replay-end-1280")
    # The replay's map zooms as the live one does: keys, buttons, the wheel; a step keeps the zoom.
    whole = float(page.get_attribute(".miracle-replay .hexmap", "viewBox").split()[2])
    page.keyboard.press("+")
    zoomed = float(page.get_attribute(".miracle-replay .hexmap", "viewBox").split()[2])
    assert zoomed < whole * 0.8, (whole, zoomed)
    page.keyboard.press("ArrowLeft")
    assert float(page.get_attribute(".miracle-replay .hexmap", "viewBox").split()[2]) == zoomed
    page.click('.miracle-replay [data-zoom="reset"]')
    assert float(page.get_attribute(".miracle-replay .hexmap", "viewBox").split()[2]) == whole
    box = page.locator(".miracle-replay .hexmap").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -300)
    page.wait_for_function("w => parseFloat(document.querySelector('.miracle-replay .hexmap')"
                           ".getAttribute('viewBox').split(' ')[2]) < w", arg=whole)


def vs_computer(page, deck=HOST_DECK):
    """A 神迹之战 match against the computer, our deck in, waiting for our first turn."""
    ui.sign_up(page, "solo")
    page.goto("/")
    page.select_option("main form[action='/match/computer'] select[name=game]", "miracle")
    page.click("main form[action='/match/computer'] button[type=submit]")
    page.wait_for_url("**/match/*/")
    ui.wait_live(page)
    ui.wait_version(page, 1)
    test_miracle.choose_deck(page, deck)
    page.click(".deck-form button[type=submit]")
    my_turn(page)


def my_turn(page):
    page.wait_for_selector("#match-status[data-your-move=true]")
    page.wait_for_selector("#miracle-play", state="attached")


def focused_cell(page):
    return page.evaluate("() => { const a = document.activeElement; return a && a.dataset ? a.dataset.cell || null : null; }")


def walk_to(page, target):
    """The arrows that take the keyboard's cell to ``target``: across the columns, then along one."""
    for _ in range(80):
        here = focused_cell(page)
        assert here, "the focus left the map"
        if here == target:
            return
        (hx, hy), (tx, ty) = (
            [float(v) for v in page.eval_on_selector(f'.hex[data-cell="{c}"]', "h => [h.getAttribute('x'), h.getAttribute('y')]")]
            for c in (here, target)
        )
        if abs(hx - tx) > 0.5:
            page.keyboard.press("ArrowRight" if tx > hx else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if ty > hy else "ArrowUp")
    pytest.fail(f"the arrows did not reach {target}")


def act_by_keys(page, target):
    version = ui.version(page)
    walk_to(page, target)
    page.keyboard.press("Enter")
    return version


def contrast(a, b):
    def luminance(rgb):
        channels = [int(v) / 255 for v in re.findall(r"\d+", rgb)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_a_match_is_played_from_the_keyboard_alone(browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url, width=1280, height=900)
    vs_computer(page)
    # Tab reaches the map once, on one cell (a roving focus), named in words.
    for _ in range(80):
        page.keyboard.press("Tab")
        if focused_cell(page):
            break
    else:
        pytest.fail("Tab never reached the map")
    assert page.locator('.hex[tabindex="0"]').count() == 1
    assert re.match(r"Column \d+, row \d+: ", page.evaluate("document.activeElement.getAttribute('aria-label')"))

    done = set()
    for _ in range(40):
        my_turn(page)
        if not focused_cell(page):
            page.focus('.hex[tabindex="0"]')
        play = test_miracle.options(page)
        attacks = [(unit, target) for unit, entry in play["units"].items() for target in entry["attacks"]]
        movers = [(unit, entry["moves"]) for unit, entry in play["units"].items() if entry["moves"]]
        if attacks:
            unit, target = attacks[0]
            version = act_by_keys(page, play["units"][unit]["at"])
            assert page.locator(f'.token--selected[data-unit="{unit}"]').count() == 1
            assert "attack this" in page.get_attribute(f'.hex[data-cell="{target}"]', "aria-label")
            walk_to(page, target)
            page.keyboard.press("Enter")
            ui.wait_version(page, version + 1)
            done.add("attack")
        elif movers and "move" not in done | {"attack"} or movers and not play["summons"]:
            unit, moves = movers[0]
            enemy = page.get_attribute(".miracle--b", "data-cell")
            version = act_by_keys(page, play["units"][unit]["at"])
            destination = min(moves, key=lambda m: test_miracle.distance(m, enemy))
            walk_to(page, destination)
            page.keyboard.press("Enter")
            ui.wait_version(page, version + 1)
            # The keyboard's cell stays on the map, where the creature went.
            page.wait_for_function("c => document.activeElement && document.activeElement.dataset.cell === c",
                                   arg=destination)
            # The move was said aloud: its log line is in the page's live region.
            last = page.inner_text("#match-log .log-entry:last-child .log-text").strip()
            page.wait_for_function("t => document.getElementById('match-announcer').textContent.includes(t)", arg=last)
            done.add("move")
        elif play["summons"]:
            summon = min(play["summons"], key=lambda s: s["cost"])
            version = act_by_keys(page, summon["cells"][0])
            # The tray's first choice takes the focus: Enter summons it.
            assert page.evaluate("document.activeElement.closest('#board-tray') !== null")
            page.keyboard.press("Enter")
            ui.wait_version(page, version + 1)
            done.add("summon")
        else:
            version = ui.version(page)
            page.keyboard.press("e")
            ui.wait_version(page, version + 1)
            done.add("end")
            continue
        if {"summon", "move", "attack"} <= done and "confirmed" in done:
            break
        # End the turn: with something left to do, E asks first; E again (or Enter on the focused
        # button) ends it.
        version = ui.version(page)
        # What is left is read once, before the key: with nothing left, E ends the turn at once and
        # the page may already hold the next state when it is read again.
        left = test_miracle.options(page)
        page.keyboard.press("e")
        if left and (left["units"] or left["summons"]):
            page.wait_for_selector(".board-tray--confirm")
            assert page.evaluate("document.activeElement.closest('#board-tray') !== null")
            assert ui.version(page) == version, "nothing is sent before the confirmation"
            if "confirmed" not in done:
                ui.shoot(page, screenshot_dir, "miracle-end-turn-confirm-1280")
            page.keyboard.press("Enter" if "confirmed" in done else "e")
            done.add("confirmed")
        ui.wait_version(page, version + 1)
        done.add("end")
    assert {"summon", "move", "attack", "end", "confirmed"} <= done, done
    # Every move was said aloud in the one live region, which outlives the redraws.
    assert page.locator("#match-announcer[aria-live=polite]").count() == 1
    ui.shoot(page, screenshot_dir, "miracle-keyboard-1280")


def test_the_board_reads_at_a_glance_at_1280(browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url, width=1280, height=900)
    vs_computer(page)
    play = test_miracle.options(page)
    summon = min(play["summons"], key=lambda s: s["cost"])
    page.click(f'.card--mine[data-card="{summon["type"]}"]')
    page.click(f'#board-tray button:has-text("L{summon["level"]} ")')
    version = ui.version(page)
    test_miracle.click_cell(page, summon["cells"][0])
    ui.wait_version(page, version + 1)
    page.evaluate("window.scrollTo(0, 0)")
    # The whole map is in view by default...
    assert page.get_attribute(".hexmap", "viewBox").split()[2] >= page.get_attribute(".hexmap", "data-view-box").split()[2]
    # ... and every number on it is at least 11 px high on the screen.
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.miracle-board .token:not([transform*="scale(0.65)"]) text.token-atk,'
           + '.miracle-board .token:not([transform*="scale(0.65)"]) text.token-hp, .miracle-board text.miracle-hp')]
           .map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"""
    )
    assert len(sizes) >= 4 and min(sizes) >= 11, sizes
    # The miracles' HP beside the names says what it is.
    assert page.inner_text("#match-status .match-score").startswith("Miracle HP")
    # The marks of what can act and of the keyboard's cell: 3:1 against the cells at least.
    cell = page.eval_on_selector(".hex--ground", "h => getComputedStyle(h).fill")
    for selector in (".token-frame", ".hex-cursor"):
        page.eval_on_selector(".miracle-board", "b => b.querySelectorAll('.token')[0].classList.add('token--ready')")
        stroke = page.eval_on_selector(f".miracle-board .token--ready {selector}" if selector == ".token-frame"
                                       else f".miracle-board {selector}", "e => getComputedStyle(e).stroke")
        assert contrast(stroke, cell) >= 3, (selector, stroke, cell)
    ui.shoot(page, screenshot_dir, "miracle-readable-1280")


def test_a_creature_on_a_spawn_point_is_one_click_and_the_phone_reaches_end_turn(browser, live_server_url,
                                                                                  screenshot_dir):
    page = ui.new_page(browser, live_server_url, width=360, height=780)
    # Bats fly: one may be summoned over the swordsman standing on the spawn point.
    vs_computer(page, ("holy_light", ["swordsman", "black_bat", "priest"]))
    # A creature summoned on a spawn point, the turn over, ours again: it stands there able to act.
    play = test_miracle.options(page)
    summon = next(s for s in play["summons"] if s["type"] == "swordsman" and s["level"] == 1)
    cell = summon["cells"][0]
    version = ui.version(page)
    page.eval_on_selector(f'.summon-form[data-type="{summon["type"]}"]',
                          "(f, a) => { f.elements.level.value = a[0]; f.elements.at.value = a[1]; f.requestSubmit(); }",
                          [str(summon["level"]), cell])
    ui.wait_version(page, version + 1)
    version = ui.version(page)
    page.keyboard.press("e")
    if page.locator(".board-tray--confirm").count():
        page.click(".board-tray--confirm button >> nth=0")
    ui.wait_version(page, version + 1)
    my_turn(page)
    play = test_miracle.options(page)
    unit = next(u for u, entry in play["units"].items() if entry["at"] == cell)
    test_miracle.click_cell(page, cell)
    page.wait_for_selector(f'.token--selected[data-unit="{unit}"]')
    # Summoning a bat there instead is a second, clear control of the tray.
    assert any(s["type"] == "black_bat" and cell in s["cells"] for s in play["summons"])
    assert page.locator("#board-tray button", has_text="Summon here instead").count() == 1
    # On the phone, with the map in view, End turn and the creature's choices are on the screen.
    page.evaluate("document.querySelector('.hexmap').scrollIntoView({block: 'start'})")
    for selector in ("#end-turn-form button", "#board-tray"):
        box = page.locator(selector).bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= 780, (selector, box)
    assert page.evaluate("document.documentElement.scrollWidth <= 360")
    ui.shoot(page, screenshot_dir, "miracle-phone-selected-360")
