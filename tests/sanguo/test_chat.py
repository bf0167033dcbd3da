"""三国 chat: who is in which channel as the game goes on (the engine's knowledge, read again each
time), that nobody reads a line of a channel they were not in when it was written — on any page, as
any seat, spectator or the game master, at every checkpoint of a game played through the services —
that refusals store nothing, that a line rings only its readers' sockets, that everyone reads
everything once the game is over, that a person's mutes (the match chat's) hide the muted person's
lines from them alone, and that the public channel is open while the game recruits."""
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from game.chat.models import ChatMute
from game.chat import service as match_chat
from game.errors import ServiceError
from sanguo import chat, services
from sanguo.models import Game, Message
from tests.accounts import client_for

from .helpers import clock, people, started_game  # noqa: F401
from .play import answer_as_gm, run_to_deadline
from .test_socket import open_game_socket, run

# 群英荟萃局's seats are its characters in roster order: 魏 0–6 (夏侯惇 3 and 张辽 4 its 杀手),
# 蜀 7–13 (关羽 10, 张飞 11), 吴 14–20 (太史慈 17, 凌操 18), then the 在野.
KILLERS = {(3, 4), (10, 11), (17, 18)}
WEI = tuple(range(7))
SWITCHER = re.compile(r'<select id="sanguo-chat-channel" name="chat">(.*?)</select>', re.S)
OPTION = re.compile(r'<option value="([^"]+)"')
GROUP_NAME = re.compile(r"seats:(\d+(?:,\d+)+)")


def groups(row, seat):
    return {key for key in chat.writable(row, seat) if key.startswith("seats:")}


def to_night(row, gm, clock, night):
    """The server closes phase after phase, the game master answering with the engine's defaults;
    nobody submits anything, so nobody dies and the game runs on to ``night``."""
    for _ in range(40):
        row.refresh_from_db()
        if row.state["night"] >= night:
            return
        answer_as_gm(row, gm)
        run_to_deadline(row, clock)
    raise AssertionError(f"night {night} never came")


def page(client, row, channel="", ref=""):
    """The game's page showing ``channel`` (by name; or by the address's ``ref``) if the viewer reads it."""
    ref = ref or (chat.ref(row.pk, channel) if channel else "")
    response = client.get(reverse("sanguo:game", args=[row.pk]), {"chat": ref} if ref else {})
    assert response.status_code == 200
    return response.content.decode()


def refused(code, *args, **kwargs):
    before = Message.objects.count()
    with pytest.raises(ServiceError) as refusal:
        services.post_message(*args, **kwargs)
    assert refusal.value.code == code, refusal.value.code
    assert Message.objects.count() == before
    return refusal.value


@pytest.mark.django_db
def test_channels_follow_what_the_seats_know_from_the_killers_pairs_to_the_countries(clock):
    row, gm, players = started_game("crowd")
    for seat in range(27):
        assert chat.writable(row, seat)[:2] == ["public", f"gm:{seat}"]
        pair = [p for p in KILLERS if seat in p]
        assert groups(row, seat) == {chat.group_key(p) for p in pair}, seat
    assert chat.writable(row, "spectator") == ["spectators"]
    assert chat.writable(row, "gm") == ["public"] + [f"gm:{seat}" for seat in range(27)]
    gm_reads = [c["key"] for c in chat.channels(row, "gm")]
    assert {chat.group_key(p) for p in KILLERS} | {"spectators"} <= set(gm_reads)
    assert [c["key"] for c in chat.channels(row, 0)] == ["public", "gm:0"]
    assert [c["key"] for c in chat.channels(row, "spectator")] == ["public", "spectators"]

    services.post_message(row.pk, players[3], "seats:3,4", "before the reveal")
    refused("not_in_channel", row.pk, players[0], "seats:3,4", "let me in")
    assert "before the reveal" in page(client_for(players[4]), row, "seats:3,4")
    assert "before the reveal" not in page(client_for(players[0]), row, "seats:3,4")

    # Night 4 opens after vote 3's reveal: every 魏 seat recognises every other.
    to_night(row, gm, clock, 4)
    row.refresh_from_db()
    wei = chat.group_key(WEI)
    for seat in WEI:
        assert groups(row, seat) == {wei}, seat
    for seat in range(7, 27):
        assert wei not in groups(row, seat)
    # The killers' talk shows in the group it grew into, to the two who had it only.
    assert "before the reveal" in page(client_for(players[3]), row, wei)
    newcomer = page(client_for(players[0]), row, wei)
    assert "before the reveal" not in newcomer and f'value="{chat.ref(row.pk, wei)}" selected' in newcomer
    refused("not_in_channel", row.pk, players[3], "seats:3,4", "the old pair is closed")
    services.post_message(row.pk, players[0], wei, "after the reveal")
    assert "after the reveal" in page(client_for(players[3]), row, wei)
    assert "after the reveal" not in page(client_for(players[7]), row, wei)
    listed = [c for c in chat.channels(row, 3) if c["key"] == wei]
    assert listed[0]["keys"] == ["seats:0,1,2,3,4,5,6", "seats:3,4"]
    assert [c["keys"] for c in chat.channels(row, 0) if c["key"] == wei] == [[wei]]


def readers_of(key, seats):
    """Who may read a line written to ``key`` now, while the game runs (the test's own account)."""
    if key == "public":
        return set(range(seats)) | {"gm", "spectator"}
    if key == "spectators":
        return {"gm", "spectator"}
    if key.startswith("gm:"):
        return {int(key[3:]), "gm"}
    return {int(s) for s in key[len("seats:"):].split(",")} | {"gm"}


def everyone_writes(row, gm, players, onlooker, lines, checkpoint):
    """Each person writes one line in every channel they may write to now; ``lines`` keeps who may
    read each one."""
    row.refresh_from_db()
    authors = [(gm, "gm")] + [(p, seat) for seat, p in enumerate(players)] + [(onlooker, "spectator")]
    for user, audience in authors:
        for key in chat.writable(row, audience):
            text = f"line-{checkpoint}-{audience}-{key}-end"
            services.post_message(row.pk, user, key, text)
            lines[text] = readers_of(key, len(players))


def everything_read(client, row):
    """Every line a viewer's pages show: each channel of its switcher, and a channel not its own.
    No address names a channel by its seats."""
    first = page(client, row)
    switcher, = SWITCHER.findall(first)
    shown = [first] + [page(client, row, ref=ref) for ref in OPTION.findall(switcher)]
    shown.append(page(client, row, "seats:4,5"))
    assert not [ref for ref in OPTION.findall(switcher) if ":" in ref]
    return "".join(shown)


@pytest.mark.django_db
def test_nobody_ever_reads_a_channel_they_were_not_in(clock, settings):
    """王侯将相局: nine seats, three to a country, who can talk in groups once the reveal makes each
    country's seats recognise each other (蜀's 赵云 left out while he holds his ID)."""
    settings.CHAT_RATE = (1000, 10)
    row, gm, players = started_game("nine")
    onlooker, = people(1, "onlooker")
    lines = {}
    viewers = [(client_for(p), seat) for seat, p in enumerate(players)] + [
        (client_for(gm), "gm"), (client_for(onlooker), "spectator"), (Client(), "spectator")]
    for checkpoint, night in enumerate((1, 4)):
        to_night(row, gm, clock, night)
        everyone_writes(row, gm, players, onlooker, lines, checkpoint)
        for client, audience in viewers:
            html = everything_read(client, row)
            for text, readers in lines.items():
                assert (text in html) == (audience in readers), (checkpoint, audience, text)
            # Not even a group's name reaches someone outside it.
            named = {frozenset(map(int, seats.split(","))) for seats in GROUP_NAME.findall(html)}
            assert audience == "gm" or all(audience in seats for seats in named), (checkpoint, audience, named)
    assert {"seats:0,1", "seats:3,4,5", "seats:6,7,8"} <= {key for key in map(str, Message.objects.values_list(
        "channel", flat=True))}
    services.command(row.pk, gm, "", {"draw": {"reason": "stalemate"}})
    row.refresh_from_db()
    assert row.status == Game.Status.FINISHED
    for client, audience in viewers[:1] + viewers[-3:]:
        html = everything_read(client, row)
        assert all(text in html for text in lines), audience


@pytest.mark.django_db
def test_a_bad_line_is_refused_and_nothing_is_stored(clock, settings):
    settings.CHAT_RATE = (3, 10)
    row, gm, players = started_game()
    onlooker, = people(1, "onlooker")
    refused("empty_message", row.pk, players[0], "public", "  \n ")
    assert "at most 300" in refused("too_long", row.pk, players[0], "public", "x" * 301).message
    refused("bad_field", row.pk, players[0], "public", "a\x00b")
    refused("bad_field", row.pk, players[0], "public", 7)
    for key in ("nope", "gm:3", "gm:x", "gm:²", "gm:01", "seats:1", "seats:2,1", "seats:1,1", "seats:0,9", "", None):
        refused("no_channel", row.pk, players[0], key, "hello")
    # Well formed but not the author's: the same answer whether or not the group exists.
    refused("not_in_channel", row.pk, players[0], "gm:1", "hello")
    refused("not_in_channel", row.pk, players[0], "seats:1,2", "hello")
    refused("not_in_channel", row.pk, players[0], "spectators", "hello")
    refused("not_in_channel", row.pk, onlooker, "public", "hello")
    refused("not_in_channel", row.pk, gm, "spectators", "hello")
    refused("login_required", row.pk, None, "spectators", "hello")
    Game.objects.filter(pk=row.pk).update(private=True)
    refused("invite_only", row.pk, onlooker, "spectators", "hello")
    services.post_message(row.pk, onlooker, "spectators", "with the invite", token=row.invite_token)
    Game.objects.filter(pk=row.pk).update(private=False)

    for n in range(3):
        services.post_message(row.pk, players[0], "public", f"hello {n}")
    refused("chat_rate_limited", row.pk, players[0], "public", "too fast")
    services.post_message(row.pk, players[1], "public", "someone else is not held back")
    clock.forward(11)
    services.post_message(row.pk, players[0], "public", "later")
    assert Message.objects.get(text="later").channel == "public"

    waiting = services.create_game(gm, mode="standard")
    refused("not_in_channel", waiting.pk, gm, "gm:0", "no seat has its channel yet")
    refused("not_in_channel", waiting.pk, gm, "spectators", "only the public channel while recruiting")
    services.command(row.pk, gm, "", {"draw": {"reason": "stalemate"}})
    refused("game_over", row.pk, players[0], "public", "too late")
    refused("no_game", 10 ** 9, players[0], "public", "nowhere")


@pytest.mark.django_db
def test_the_page_posts_a_line_and_says_why_one_is_refused(clock):
    row, gm, players = started_game()
    client = client_for(players[0])
    url = reverse("sanguo:chat", args=[row.pk])
    response = client.post(url, {"channel": "gm:0", "text": "<b>to the GM</b>"})
    assert response.status_code == 302 and response["Location"].endswith(f"?chat={chat.ref(row.pk, 'gm:0')}#sanguo-chat")
    html = page(client, row, "gm:0")
    assert "&lt;b&gt;to the GM&lt;/b&gt;" in html and "<b>to the GM" not in html
    assert "&lt;b&gt;to the GM" in page(client_for(gm), row, "gm:0")
    assert "to the GM" not in page(client_for(players[1]), row, "gm:0")
    response = client.post(url, {"channel": "gm:1", "text": "not mine"}, follow=True)
    assert "You cannot write in that channel." in response.content.decode()
    response = client.post(url, {"channel": "public", "text": ""}, headers={"X-Requested-With": "fetch"})
    assert response.status_code == 400 and response.json() == {"error": "Write something first."}
    response = client.post(url, {"channel": "public", "text": "hi"}, headers={"X-Requested-With": "fetch"})
    assert response.json() == {"ok": True} and Message.objects.filter(text="hi", channel="public").exists()
    assert Client().post(url, {"channel": "spectators", "text": "anonymous"}).status_code == 302
    assert not Message.objects.filter(text="anonymous").exists()


@pytest.mark.django_db
def test_a_mute_hides_the_muted_lines_from_the_one_who_muted_alone_and_holds_beside_matches(clock):
    row, gm, players = started_game()
    services.post_message(row.pk, players[1], "public", "noise from seat one")
    services.post_message(row.pk, players[2], "public", "a word from seat two")
    client = client_for(players[0])
    html = page(client, row)
    assert "noise from seat one" in html and 'aria-label="Mute p1"' in html and 'aria-label="Mute p0"' not in html
    url = reverse("sanguo:chat_mute", args=[row.pk])
    response = client.post(url, {"user": players[1].username, "chat": chat.ref(row.pk, "public")})
    assert response["Location"].endswith(f"?chat={chat.ref(row.pk, 'public')}#sanguo-chat")
    html = page(client, row)
    assert "noise from seat one" not in html and "a word from seat two" in html
    assert 'aria-label="Unmute p1"' in html
    assert "noise from seat one" in page(client_for(players[2]), row)
    assert "noise from seat one" in page(client_for(gm), row)
    # The list is one with the match chat's: a mute made beside a match holds here, an unmute too.
    match_chat.mute(players[0], players[2].username)
    assert "a word from seat two" not in page(client, row)
    client.post(url, {"user": players[1].username, "mute": "off"})
    assert list(ChatMute.objects.filter(user=players[0]).values_list("muted__username", flat=True)) == ["p2"]
    assert "noise from seat one" in page(client, row)
    before = ChatMute.objects.count()
    for bad in ({"user": players[0].username}, {"user": "no one"}, {"user": "nobody_here"}):
        response = client.post(url, bad, follow=True)
        assert response.status_code == 200 and 'class="message' in response.content.decode()
    assert ChatMute.objects.count() == before
    assert Client().post(url, {"user": players[1].username}).status_code == 302
    assert ChatMute.objects.count() == before


@pytest.mark.django_db
def test_while_recruiting_sign_ups_the_game_master_and_onlookers_talk_in_public(clock):
    gm, player, onlooker = people(3, "r")
    row = services.create_game(gm, mode="standard")
    services.sign_up(row.pk, player)
    for who in (gm, player, onlooker):
        services.post_message(row.pk, who, "public", f"hello from {who.username}")
    for who in (gm, player, onlooker, None):
        html = page(client_for(who) if who else Client(), row)
        assert all(f"hello from {w.username}" in html for w in (gm, player, onlooker))
        assert OPTION.findall(SWITCHER.search(html).group(1)) == [chat.ref(row.pk, "public")]
    assert ("data-chat-form" in page(client_for(player), row)) and "data-chat-form" not in page(Client(), row)


@pytest.mark.django_db
def test_the_replay_shows_the_chat_its_viewer_may_read_now_and_no_box(clock):
    row, gm, players = started_game()
    services.post_message(row.pk, players[0], "gm:0", "seat zero to the GM")
    services.post_message(row.pk, players[1], "public", "said to all")
    replay = reverse("sanguo:replay", args=[row.pk])

    def shown(user, channel):
        html = (client_for(user) if user else Client()).get(replay, {"chat": chat.ref(row.pk, channel)}).content.decode()
        assert "data-chat-form" not in html
        return html

    assert "seat zero to the GM" in shown(players[0], "gm:0") and "seat zero to the GM" in shown(gm, "gm:0")
    for other in (players[1], None):
        assert "seat zero to the GM" not in shown(other, "gm:0") and "said to all" in shown(other, "gm:0")
    services.command(row.pk, gm, "", {"draw": {"reason": "over"}})
    for anyone in (players[1], None):
        assert "seat zero to the GM" in shown(anyone, "gm:0")


async def rang(socket):
    return json.loads(await socket.receive_text()) == {"type": "changed"}


@pytest.mark.django_db(transaction=True)
async def test_a_line_rings_the_sockets_of_those_who_may_read_it_and_no_other():
    row, gm, players = await run(started_game, "crowd")
    onlooker, = await run(people, 1, "onlooker")
    killer, other, master, watcher = [
        (await open_game_socket(row.pk, user))[0] for user in (players[3], players[0], gm, onlooker)]
    await run(services.post_message, row.pk, players[4], "seats:3,4", "between the killers")
    assert await rang(killer) and await rang(master)
    assert await other.communicator.receive_nothing(timeout=0.3)
    assert await watcher.communicator.receive_nothing(timeout=0.1)
    await run(services.post_message, row.pk, players[0], "gm:0", "to the GM")
    assert await rang(other) and await rang(master)
    assert await killer.communicator.receive_nothing(timeout=0.3)
    await run(services.post_message, row.pk, onlooker, "spectators", "from the stands")
    assert await rang(watcher) and await rang(master)
    assert await killer.communicator.receive_nothing(timeout=0.3)
    assert await other.communicator.receive_nothing(timeout=0.1)
    await run(services.post_message, row.pk, gm, "public", "to all")
    for socket in (killer, other, master, watcher):
        assert await rang(socket)
        await socket.disconnect()
