"""A whole 神迹之战 match in real browsers, played by clicking the map: two people sign up, one creates
the match, the other joins by its invite link, both choose decks, and the host marches on the
guest's miracle (summoning, moving, attacking, using the artifact) while the guest ends its turns
and a third person watches; the host's page reloads mid-turn. Once every kind of command has been
clicked, the greedy level finishes the host's march through the services and the pages follow it
to the end; then the replay is stepped through.
The guest reads the site in Chinese on a phone; screenshots at 360 and 1280 px in both languages.
"""
import json
import random

import pytest

from game import services
from game.games.miracle import engine
from game.games.miracle.bots import make_bot
from game.games.miracle.game import GAME
from game.models import Match

from . import ui

ui.skip_without_a_browser()

HOST_DECK = ("holy_light", ["black_bat", "swordsman", "priest"])
GUEST_DECK = ("wind_blessing", ["archer", "frost_dragon", "volcano_dragon"])
GUEST_NAMES = ["archer", "frost dragon", "volcano dragon", "wind blessing", "frost_dragon", "volcano_dragon",
               "wind_blessing", "弓箭手", "冰霜之龙", "火山之龙"]
# Commands the host's march takes (about 100 with the guest's end of turns); a margin beyond it.
MAX_STEPS = 400


def distance(a, b):
    p, q = ([int(v) for v in c.split(",")] for c in (a, b))
    return sum(abs(x - y) for x, y in zip(p, q)) // 2


def create_miracle_match(page):
    page.goto("/")
    form = "main form[action='/match/new']"
    page.select_option(f"{form} select[name=game]", "miracle")
    page.check(f"{form} input[name=visibility][value=open]")
    page.click(f"{form} button[type=submit]")
    link = page.locator("input.invite-link").first
    return int(link.get_attribute("id").removeprefix("invite-")), link.input_value()


def choose_deck(page, deck):
    artifact, creatures = deck
    page.check(f".deck-form input[name=artifact][value={artifact}]")
    for creature in creatures:
        page.click(f".deck-card:has(input[value={creature}])")
    # A fourth creature type cannot be ticked.
    assert page.locator(".deck-check:disabled").count() == 3


def hidden_words(page):
    return " ".join(page.inner_html(part).lower() for part in ("#match-board", "#match-status", "#match-log"))


def click_cell(page, cell):
    """A click where a person would click: the middle of the hex, whatever is drawn over it. The
    board may be redrawn meanwhile (a spectator arriving): the hex is then found again."""
    hexagon = page.locator(f'.miracle-board .hex[data-cell="{cell}"]')
    box = page.evaluate(
        """cell => {
            const hex = document.querySelector(`.miracle-board .hex[data-cell="${cell}"]`);
            hex.scrollIntoView({block: "nearest"});
            const r = hex.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        }""",
        cell,
    )
    assert hexagon.count() == 1
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def click_unit(page, unit):
    page.click(f'.miracle-board .token[data-unit="{unit}"]')
    if not page.locator(f'.token--selected[data-unit="{unit}"]').count():
        # On a spawn point where a summon is possible too, the tray asks which is meant.
        page.click("#board-tray button >> nth=0")
    page.wait_for_selector(f'.token--selected[data-unit="{unit}"]')


def options(page):
    node = page.locator("#miracle-play")
    return json.loads(node.text_content()) if node.count() else None


def end_turn(page, click=False):
    """End the turn by its button or by E; when it asks first (moves left), E again confirms."""
    if click:
        page.click("#end-turn-form button")
    else:
        page.keyboard.press("e")
    if page.locator(".board-tray--confirm").count():
        page.keyboard.press("e")


def host_step(page, used):
    """One command of the march, clicked on the map; returns its kind."""
    play = options(page)
    enemy = page.get_attribute(".miracle--b", "data-cell")
    for unit, entry in play["units"].items():
        if enemy in entry["attacks"]:
            click_unit(page, unit)
            click_cell(page, enemy)
            return "attack"
    own = page.locator(".token--a").evaluate_all("ts => ts.map(t => t.dataset.cell)")
    near = [c for c in own if distance(c, enemy) <= 2]
    artifact = play["artifact"]
    if artifact and len(near) >= 2:
        best = max(artifact["cells"], key=lambda c: sum(distance(c, u) <= artifact["radius"] for u in near))
        page.click('.card--mine[data-card="artifact"]')
        page.hover(f'.miracle-board .hex[data-cell="{best}"]', force=True)
        assert page.locator(".hex--area").count() > 1, "the artifact's area is shown under the pointer"
        click_cell(page, best)
        return "artifact"
    for unit, entry in play["units"].items():
        closer = [m for m in entry["moves"] if distance(m, enemy) < distance(entry["at"], enemy)]
        if closer:
            click_unit(page, unit)
            assert page.locator(".hex--reach").count() == len(entry["moves"])
            click_cell(page, min(closer, key=lambda m: distance(m, enemy)))
            return "move"
    summons = [s for s in play["summons"] if s["type"] != "priest"]
    if summons:
        cheapest = min(summons, key=lambda s: s["cost"])
        cell = min(cheapest["cells"], key=lambda c: distance(c, enemy))
        if "summon-card" not in used:
            # From the hand: the card, then the level, then a lit spawn point.
            page.click(f'.card--mine[data-card="{cheapest["type"]}"]')
            page.click(f'#board-tray button:has-text("L{cheapest["level"]} ")')
            assert page.locator(".hex--place").count() == len(cheapest["cells"])
            click_cell(page, cell)
            return "summon-card"
        # From the map: the spawn point, then the creature offered there.
        click_cell(page, cell)
        page.click(f'#board-tray button:has-text("{cheapest["name"]} L{cheapest["level"]} ")')
        return "summon"
    end_turn(page)
    return "end_turn"


def march_through_the_services(match_id):
    """The host's march on, played by the greedy level through the services while the guest only
    ends its turns, until the guest's miracle falls; returns the final version."""
    match = Match.objects.select_related("host", "guest").get(pk=match_id)
    users, bot, rng = (match.host, match.guest), make_bot("greedy"), random.Random(1)
    for _ in range(MAX_STEPS):
        current = Match.objects.get(pk=match_id)
        if current.status != Match.Status.LIVE:
            return current.version
        state = GAME.load(current.state)
        seat = engine.to_move(state)[0]
        if seat == 0:
            command = bot.choose(engine.view(state, seat), [], engine.legal_commands(state, seat), seat, rng)
        else:
            command = {"end_turn": {}}
        services.apply_command(match_id, users[seat], f"march{current.version}", current.version, command)
    raise AssertionError("the greedy march did not end the match")


def test_a_whole_miracle_match_by_clicking(browser, live_server_url, screenshot_dir, subtests):
    host = ui.new_page(browser, live_server_url, width=1280, height=800)
    guest = ui.new_page(browser, live_server_url, width=360, height=780, locale="zh-CN")
    watcher = ui.new_page(browser, live_server_url, width=1280, height=800)
    ui.sign_up(host, "host")
    ui.sign_up(guest, "guest")
    match_id, invite = create_miracle_match(host)
    ui.join_by_invite(guest, invite, match_id)
    ui.follow_to_match(host, match_id)
    ui.wait_live(host)
    watcher.goto(f"/match/{match_id}/")
    ui.wait_live(watcher)

    # Decks: the guest's first; until the host's is in too, nobody else may learn it.
    choose_deck(guest, GUEST_DECK)
    ui.shoot(guest, screenshot_dir, "miracle-deck-360-zh")
    guest.click(".deck-form button[type=submit]")
    for page in (host, watcher):
        ui.wait_version(page, 1)
        found = [w for w in GUEST_NAMES if w in hidden_words(page)]
        assert not found, found
    choose_deck(host, HOST_DECK)
    ui.shoot(host, screenshot_dir, "miracle-deck-1280-en")
    host.click(".deck-form button[type=submit]")
    for page in (host, guest, watcher):
        ui.wait_version(page, 2)
    assert "frost dragon" in hidden_words(host), "both decks are public once both are in"

    version, used = 2, set()
    reloaded = lit = shot = False
    for _ in range(MAX_STEPS):
        if {"summon-card", "summon", "move", "attack", "artifact"} <= used and reloaded and lit and shot:
            # Every kind of command has been clicked: the march ends through the services, the
            # three pages following it live.
            version = ui.off_playwrights_thread(lambda: march_through_the_services(match_id))
            break
        for page in (host, guest):
            ui.wait_version(page, version)
        if host.get_attribute("#match-status", "data-status") == "finished":
            break
        if options(host) is not None:
            used.add(host_step(host, used))
            if not reloaded and "move" in used:
                # Mid-turn: the page comes back as it was, the log whole, the turn still the host's.
                ui.wait_version(host, version + 1)
                log = host.inner_text("#match-log")
                host.reload()
                ui.wait_live(host)
                assert host.inner_text("#match-log") == log and options(host) is not None
                reloaded = True
        else:
            if not lit and guest.locator(".hex--move").count():
                # The host's last turn is lit on the guest's map until the guest acts.
                assert guest.locator(".trail-path").count()
                ui.shoot(guest, screenshot_dir, "miracle-play-360-zh")
                guest.set_viewport_size({"width": 1280, "height": 800})
                ui.shoot(guest, screenshot_dir, "miracle-play-1280-zh")
                guest.set_viewport_size({"width": 360, "height": 780})
                lit = True
            end_turn(guest, click=True)
        ui.wait_version(host, version + 1)
        version = ui.version(host)
        if not shot and {"move", "summon"} <= used and options(host) is not None:
            ui.shoot(host, screenshot_dir, "miracle-play-1280-en")
            for part in ("#match-board", "#match-controls"):
                bottom = host.evaluate(f"document.querySelector('{part}').getBoundingClientRect().bottom")
                assert bottom <= 800, f"{part} needs scrolling at 1280 px"
            before = host.get_attribute(".hexmap", "viewBox")
            box = host.locator(".hexmap").bounding_box()
            host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            host.mouse.wheel(0, -300)
            host.wait_for_function("v => document.querySelector('.hexmap').getAttribute('viewBox') !== v", arg=before)
            host.keyboard.press("0")
            host.set_viewport_size({"width": 360, "height": 780})
            assert host.evaluate("document.documentElement.scrollWidth <= 360"), "no sideways scrolling at 360"
            ui.shoot(host, screenshot_dir, "miracle-play-360-en")
            host.set_viewport_size({"width": 1280, "height": 800})
            ui.wait_version(watcher, version)
            ui.shoot(watcher, screenshot_dir, "miracle-spectator-1280")
            shot = True
    else:
        pytest.fail("the match did not end")
    assert {"summon-card", "summon", "move", "attack", "artifact"} <= used, used
    assert reloaded and lit and shot

    for page in (host, guest, watcher):
        ui.wait_version(page, version)
    assert "You won the match!" in host.inner_text(".banner")
    assert guest.locator(".banner--lost").count() == 1
    assert "won the match." in watcher.inner_text(".banner")
    ui.shoot(host, screenshot_dir, "miracle-over-1280-en")

    with subtests.test("replay"):
        host.goto(f"/match/{match_id}/replay/?as=0")
        host.wait_for_selector("#replay:not([hidden]) .hexmap")
        start = host.inner_text("#replay-position")
        host.click('[data-go="next-turn"]')
        host.click('[data-go="next-turn"]')
        host.click('[data-go="next"]')
        assert host.inner_text("#replay-position") != start
        host.click('[data-go="last"]')
        # The board as it was at the end: the guest's miracle fell.
        assert int(host.inner_html(".miracle--b text.miracle-hp")) == 0
        host.keyboard.press("Shift+ArrowLeft")
        ui.shoot(host, screenshot_dir, "miracle-replay-1280")
    with subtests.test("summary"):
        host.goto(f"/match/{match_id}/summary/")
        assert host.locator(".miracle-chart").count() == 2
        ui.shoot(host, screenshot_dir, "miracle-summary-1280")
