"""The player's page: its forms offer exactly what the engine accepts for that seat (read from the
page's HTML, posted back through ``sanguo.player``, applied by the engine), the 立刻 cutoff and the
revision window shown and enforced, every event the engine sends a seat or the public read as a
sentence, and bad posts refused with a reason and nothing changed."""
import itertools
import json
import random
import re
from html.parser import HTMLParser

import pytest
from django.http import QueryDict
from django.urls import reverse
from django.utils import translation

from game.errors import ServiceError
from game.games.three_kingdoms import engine
from sanguo import player, services, texts
from sanguo.models import Event, Game
from tests.accounts import client_for

from .helpers import clock, started_game  # noqa: F401
from .play import answer_as_gm, play_phases, run_to_deadline

pytestmark = pytest.mark.django_db

# The commands of one form applied by the engine: all up to this many, else a seeded sample.
TRIED = 40
# A named target on the page: "曹操 (ID 5)".
NAMED = re.compile(r"([^\s>(;:]+) \(ID (\d+)\)")


class Forms(HTMLParser):
    """The player section's forms: for each, its ``form`` key and the values each field offers."""

    def __init__(self):
        super().__init__()
        self.forms, self.form, self.select, self.inside = [], None, None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.inside = a.get("id") == "sanguo-player"
        if not self.inside:
            return
        if tag == "form":
            self.form = {"fields": {}, "key": None, "most": None, "immediate": "data-immediate" in a}
            self.forms.append(self.form)
        elif self.form is None:
            return
        elif tag == "input" and a.get("name") == "form":
            self.form["key"] = a["value"]
        elif tag == "input" and a.get("type") == "checkbox":
            self.form["fields"].setdefault(a["name"], []).append(a["value"])
        elif tag == "fieldset" and "data-most" in a:
            self.form["most"] = int(a["data-most"])
        elif tag == "select":
            self.select = self.form["fields"].setdefault(a["name"], [])
        elif tag == "option" and self.select is not None and a.get("value", "x") != "":
            self.select.append(a.get("value"))
        elif tag == "button" and a.get("name"):
            self.form["fields"].setdefault(a["name"], []).append(a["value"])

    def handle_data(self, data):
        if self.select is not None and self.select and self.select[-1] is None:
            self.select[-1] = data

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.form = None
        elif tag == "section":
            self.inside = False


def page_forms(html):
    parser = Forms()
    parser.feed(html)
    return parser.forms


def posts(form):
    """Every post the form can make."""
    fields = form["fields"]
    if "targets" in fields:
        sets = [list(c) for r in range(1, form["most"] + 1) for c in itertools.combinations(fields["targets"], r)]
        rest = {k: v for k, v in fields.items() if k != "targets"}
    else:
        sets, rest = [None], {k: v for k, v in fields.items() if k not in ("text", "country", "call")}
    names = sorted(rest)
    combos = [(s, values) for s in sets for values in itertools.product(*(rest[n] for n in names))]
    out = []
    for chosen, values in combos:
        post = QueryDict(mutable=True)
        post["form"] = form["key"]
        post.update(dict(zip(names, values)))
        if chosen is not None:
            post.setlist("targets", chosen)
        out.append(post)
    return out


def html_of(client, row):
    response = client.get(reverse("sanguo:game", args=[row.pk]))
    assert response.status_code == 200
    return response.content.decode()


def check_seat(row, seat, client, rng):
    """The seat's page offers what the engine accepts: each offered post becomes a command the
    engine applies (or, for two targets naming one ID, is refused by the page); every listed legal
    command is offered; a sample of refused commands is not."""
    html = html_of(client, row)
    row.refresh_from_db()
    now = services.clock()
    state = dict(row.state, clock=max(row.state["clock"], now))
    forms = player.Seat(row.state, seat, now)
    offered = set()
    for form in page_forms(html):
        made = []
        for post in posts(form):
            try:
                made.append(forms.command(post))
            except ServiceError as refused:
                # Two targets on one ID (say, an ID and the name holding it): the page says so.
                assert refused.code == "not_offered", (post, refused.message)
        for command in made if len(made) <= TRIED else rng.sample(made, TRIED):
            engine.apply(state, seat, dict(command, at=now))
        offered |= {player._canonical(forms._by_id(c)) for c in made if "last_words" not in c}
    listed = {player._canonical(c) for c in engine.legal_commands(state, seat)
              if "choose" not in next(iter(c.values())) and "last_words" not in c}
    withdrawals = {c for c in offered if c.startswith('{"cancel"')}
    # A ``choose`` family stands for every set of its IDs: its form's commands are checked by applying.
    chosen = {(b["actor"], b["index"]) for c in engine.legal_commands(state, seat)
              for b in [c.get("identify", {})] if "choose" in b}
    families = {c for c in offered if c.startswith('{"identify"')
                and (json.loads(c)["identify"]["actor"], json.loads(c)["identify"]["index"]) in chosen}
    assert offered - withdrawals - families == listed
    known = {(name, int(i)) for i, names in state["known"][str(seat)].items() for name in names}
    assert set((n, int(i)) for n, i in NAMED.findall(html)) <= known
    names = [c for s in state["slots"] for c in s["chain"]]
    skills = [k["name"] for k in state["data"]["skills"]]
    ids = range(0, len(names) + 2)
    candidates = [rng.choice((
        {"assassinate": {"actor": rng.choice(names), "target": rng.choice(ids)}},
        {"vote": {"voter": rng.choice(names), "target": rng.choice(ids)}},
        {"suicide": {"actor": rng.choice(names)}},
        {"skill": {"actor": rng.choice(names), "skill": rng.choice(skills), "targets": [rng.choice(ids)]}},
        {"identify": {"actor": rng.choice(names), "index": 0, "targets": [rng.choice(ids)]}},
    )) for _ in range(12)]
    for command in candidates:
        if not engine.is_legal(state, seat, command):
            assert player._canonical(command) not in offered, command
    return offered


def test_every_form_offers_what_the_engine_accepts_for_its_seat(clock):
    row, gm, players = started_game()
    rng = random.Random(7)
    clients = [client_for(p) for p in players]
    seen, checked = set(), set()

    def each(current):
        current.refresh_from_db()
        if current.status == Game.Status.LIVE and current.version not in checked:
            checked.add(current.version)
            for seat, client in enumerate(clients):
                seen.update(json.loads(c).popitem()[0] for c in check_seat(current, seat, client, rng))

    play_phases(row, gm, players, clock, phases=9, rng=random.Random(1), each=each)
    # Night actions, votes and 议和 were all offered and applied along the way.
    assert {"assassinate", "identify", "skill", "vote", "peace"} <= seen, seen


def test_a_two_target_skill_offers_distinct_targets_and_names(clock):
    row, gm, players = started_game()
    state = row.state
    actor = next(s["chain"][0] for s in state["slots"] if s["controller"] == 0 and s["identity"] != "杀手")
    state["data"]["skills"].append({"name": "双目", "owner": actor, "timing": "结算时", "targets": 2, "text": ""})
    forms = player.Seat(state, 0, state["clock"])
    form = forms.forms[f"skill|{actor}|双目"]
    assert form["positions"] == [0, 1]
    legal = {player._canonical(c) for c in engine.legal_commands(state, 0) if c.get("skill", {}).get("skill") == "双目"}
    made = set()
    values = [v for v, _label, _i in form["targets"]["ids"] + form["targets"]["names"]]
    for first, second in itertools.product(values, repeat=2):
        post = QueryDict(mutable=True)
        post.update({"form": form["key"], "target0": first, "target1": second})
        if form["targets"]["map"][first] == form["targets"]["map"][second]:
            with pytest.raises(ServiceError):
                forms.command(post)
            continue
        command = forms.command(post)
        engine.apply(state, 0, command)
        made.add(player._canonical(forms._by_id(command)))
    assert made == legal


def test_the_immediate_cutoff_is_shown_and_enforced(clock):
    row, gm, players = started_game()
    client = client_for(players[0])
    html = html_of(client, row)
    assert "立刻 actions and 自杀 close ten minutes before the deadline" in html
    suicide = next(f for f in page_forms(html) if f["key"].startswith("suicide|"))
    assert 'data-immediate data-closes="2026-03-01T13:50:00+00:00"' in html
    clock.at(7200 - 599)
    html = html_of(client, row)
    assert "立刻 actions and 自杀 closed at 13:50 UTC" in html
    assert not any(f["key"].startswith("suicide|") for f in page_forms(html))
    assert "立刻 closed ten minutes before the deadline: " in html
    version = row.version
    response = client.post(reverse("sanguo:act", args=[row.pk]), {"do": "play", "form": suicide["key"]}, follow=True)
    assert "That action is not open now" in response.content.decode()
    actor = suicide["key"].split("|")[1]
    with pytest.raises(ServiceError) as refused:
        services.command(row.pk, players[0], "", {"suicide": {"actor": actor}})
    assert refused.value.code == "too_late"
    row.refresh_from_db()
    assert row.version == version


def test_submitting_withdrawing_and_the_revision_window(clock):
    row, gm, players = started_game()
    client = client_for(players[0])
    form = next(f for f in page_forms(html_of(client, row)) if f["key"].startswith("assassinate|"))
    target = form["fields"]["target0"][0]
    client.post(reverse("sanguo:act", args=[row.pk]), {"do": "play", "form": form["key"], "target0": target})
    html = html_of(client, row)
    assert f"You submitted for {form['key'].split('|')[1]}: 刺杀 on " in html
    withdraw, = [f for f in page_forms(html) if f["key"].startswith("cancel|")]
    client.post(reverse("sanguo:act", args=[row.pk]), {"do": "play", "form": withdraw["key"]})
    row.refresh_from_db()
    assert not engine.view(row.state, 0)["submissions"]
    # A skill (not 立刻) is changed by withdrawing it: the page says so beside it.
    skill = next(f for f in page_forms(html_of(client, row)) if f["key"].startswith("skill|")
                 and "target0" in f["fields"] and not f["immediate"])
    client.post(reverse("sanguo:act", args=[row.pk]), {"do": "play", "form": skill["key"],
                                                       "target0": skill["fields"]["target0"][0]})
    html = html_of(client, row)
    assert "Withdraw it to choose another skill or 刺杀." in html
    assert not any(f["key"] == skill["key"] for f in page_forms(html))
    client.post(reverse("sanguo:act", args=[row.pk]), {"do": "play", "form": "cancel|" + skill["key"].split("|")[1]
                                                       + "|skill"})
    # A revision window with one of the seat's IDs locked (as a 预结算前 skill leaves it).
    client.post(reverse("sanguo:act", args=[row.pk]), {"do": "play", "form": form["key"], "target0": target})
    row.refresh_from_db()
    killer = next(s for s in row.state["slots"] if s["chain"][0] == form["key"].split("|")[1])
    row.state["revision"] = {"until": row.state["deadline"] + 900, "locked": [killer["id"]]}
    row.save()
    html = html_of(client, row)
    assert "Revision window (预结算前): change your actions until" in html
    assert "Used a 预结算前 skill: it cannot change in the revision window." in html
    assert not any(f["key"].endswith(f"|{killer['chain'][0]}") or f"|{killer['chain'][0]}|" in f["key"]
                   for f in page_forms(html) if f["key"] != "peace")


def test_every_event_a_player_or_spectator_sees_reads_as_a_sentence(clock):
    row, gm, players = started_game()
    play_phases(row, gm, players, clock, phases=14, rng=random.Random(1))
    kinds = set()
    for stored in Event.objects.filter(game=row):
        for audience in list(range(len(players))) + ["spectator"]:
            for e in engine.project(stored.events, audience):
                kinds.add(e["type"])
                assert e["type"] in texts.EVENTS, e["type"]
                line = texts.event(e, audience)
                assert "{'" not in line and "[{" not in line and "None" not in line, line
                assert not line.startswith("To seat"), line
    assert {"phase", "submitted", "announcement", "decision", "learn"} <= kinds, kinds
    opened = [texts.event(e, 0) for stored in Event.objects.filter(game=row)
              for e in engine.project(stored.events, 0) if e["type"] == "phase"]
    assert "Night 1: night actions (夜晚行动) began." in opened and "Day 1: wound checks (白天受伤判定) began." in opened
    # The game master reads a seat's own events as that seat's, not as spoken to them.
    told = [texts.event(e, "gm") for stored in Event.objects.filter(game=row)
            for e in engine.project(stored.events, "gm") if e["to"] == [0]]
    assert told and all(line.startswith("To seat 0: ") for line in told)
    row.refresh_from_db()
    for seat, person in enumerate(players):
        html = html_of(client_for(person), row)
        assert "{&#x27;" not in html and "[{" not in html
    with translation.override("zh-hans"):
        lines = [texts.event(e, 0) for stored in Event.objects.filter(game=row)
                 for e in engine.project(stored.events, 0)]
    assert any("你为" in line for line in lines) and any("开始" in line for line in lines)
    html = client_for(players[0], HTTP_ACCEPT_LANGUAGE="zh-hans").get(reverse("sanguo:game", args=[row.pk])).content
    assert "你的频道".encode() in html and "第 1 夜".encode() in html


def test_bad_posts_are_refused_with_a_reason_and_change_nothing(clock):
    row, gm, players = started_game()
    client = client_for(players[0])
    forms = page_forms(html_of(client, row))
    identify = next(f for f in forms if f["key"].startswith("identify|"))
    targeted = next(f for f in forms if f["key"].startswith("assassinate|"))
    other = next(s["chain"][0] for s in row.state["slots"] if s["controller"] == 1)
    version = row.version
    bad = [
        ({"form": "assassinate|" + other, "target0": "1"}, "That action is not open now"),
        ({"form": targeted["key"], "target0": "999"}, "Choose a target from the list."),
        ({"form": targeted["key"], "target0": other}, "Choose a target from the list."),
        ({"form": identify["key"]}, "Choose from 1 to"),
        ({"form": identify["key"], "targets": ["1", "1"]}, "Choose IDs from the list."),
        ({"form": identify["key"], "targets": ["x"]}, "Choose IDs from the list."),
        ({"form": "peace", "extra": "{'a': 1}"}, None),
    ]
    for post, message in bad:
        response = client.post(reverse("sanguo:act", args=[row.pk]), dict(post, do="play"), follow=True)
        assert response.status_code == 200
        if message:
            assert message in response.content.decode(), post
    row.refresh_from_db()
    # 议和 alone was a real command (extra fields are ignored); nothing else changed anything.
    assert row.version == version + 1
    recruiting = services.create_game(gm, mode="standard")
    response = client.post(reverse("sanguo:act", args=[recruiting.pk]), {"do": "play", "form": "peace"}, follow=True)
    assert "The game is not running." in response.content.decode()
    for person, message in ((gm, "Only the game&#x27;s players"), (players[1], "That action is not open now")):
        response = client_for(person).post(reverse("sanguo:act", args=[row.pk]),
                                           {"do": "play", "form": targeted["key"], "target0": "1"}, follow=True)
        assert message in response.content.decode()
    row.refresh_from_db()
    assert row.version == version + 1


def test_an_identification_too_large_to_list_gets_a_picker_the_engine_judges(clock):
    row, gm, players = started_game()
    state = row.state
    monarch = next(s["chain"][0] for s in state["slots"] if s["controller"] == 0 and s["identity"] == "君主")
    # Three IDs of 27 (3,303 sets), and a 招揽 of two IDs with a name (2,268): both beyond the listed 2,000.
    state["data"]["identifications"][monarch] = [{"kind": "同国", "count": 3, "names": ["刘备"]},
                                                 {"kind": "招揽", "count": 2}]
    assert all("choose" in c["identify"] for c in engine.legal_commands(state, 0)
               if c.get("identify", {}).get("actor") == monarch)
    forms = player.Seat(state, 0, state["clock"])
    wide, recruit = forms.forms[f"identify|{monarch}|0"], forms.forms[f"identify|{monarch}|1"]
    assert (wide["most"], len(wide["ids"]), recruit["most"], recruit["names"]) == (3, 27, 2, state["free"])
    rng = random.Random(5)
    for _ in range(30):
        for form, name in ((wide, None), (recruit, rng.choice(state["free"]))):
            post = QueryDict(mutable=True)
            post.update({"form": form["key"], **({"name": name} if name else {})})
            post.setlist("targets", [str(i) for i in rng.sample(form["ids"], rng.randint(1, form["most"]))])
            engine.apply(state, 0, forms.command(post))
    refused = [({"targets": ["1", "2", "3", "4"]}, "Choose from 1 to 3 IDs."),
               ({"targets": []}, "Choose from 1 to 3 IDs."),
               ({"targets": ["1", "99"]}, "Choose IDs from the list.")]
    for fields, message in refused:
        post = QueryDict(mutable=True)
        post["form"] = wide["key"]
        post.setlist("targets", fields["targets"])
        with pytest.raises(ServiceError, match=message):
            forms.command(post)
    post = QueryDict(mutable=True)
    post.update({"form": recruit["key"], "name": "曹操"})
    post.setlist("targets", ["1"])
    with pytest.raises(ServiceError, match="在野"):
        forms.command(post)


def test_a_crowd_game_offers_each_of_its_27_seats_what_the_engine_accepts(clock):
    row, gm, players = started_game("crowd")
    rng = random.Random(2)
    for seat, person in enumerate(players):
        assert check_seat(row, seat, client_for(person), rng)


def test_a_seat_sees_its_own_ballots_and_votes_again_to_change_them(clock):
    row, gm, players = started_game()
    for _ in range(6):
        row.refresh_from_db()
        if row.state["phase"] == "day_vote":
            break
        answer_as_gm(row, gm)
        run_to_deadline(row, clock)
        answer_as_gm(row, gm)
    assert row.state["phase"] == "day_vote"
    client, other = client_for(players[0]), client_for(players[1])
    # A 杀手's: the two start mutually recognised, so they may follow their group on any ID.
    vote = max((f for f in page_forms(html_of(client, row)) if f["key"].startswith("vote|")),
               key=lambda f: len(f["fields"]["choice"]))
    first, second = vote["fields"]["choice"][:2]
    for choice in (first, second):
        client.post(reverse("sanguo:act", args=[row.pk]), {"do": "play", "form": vote["key"], "choice": choice})
    html = html_of(client, row)
    ballots = re.findall(r"<p data-ballot>Your ballot: ([^<]*) \(vote again", html)
    start = html.index(f'value="{vote["key"]}"')
    labels = dict(re.findall(r'<option value="(\d+)">([^<]*)</option>', html[start:html.index("</form>", start)]))
    assert ballots == [labels[second]] and labels[first] != labels[second]
    assert "data-ballot" not in html_of(other, row)


def test_every_asked_choice_and_identification_reads_as_a_sentence():
    asked = [{"kind": "offer", "about": {"character": "陈登", "country": "魏", "via": "招揽"}},
             {"kind": "request", "about": {"character": "陈登", "country": "魏"}},
             {"kind": "regent", "about": {"country": "蜀"}},
             {"kind": "last_words", "about": {"character": "张飞"}}]
    lines = [texts.decision(d) for d in asked]
    assert all("陈登" in line for line in lines[:2]) and "代理君主" in lines[2] and "张飞" in lines[3]
    # A kind the page does not know yet still reads as words, not as a dict.
    assert texts.decision({"kind": "omen", "about": {"ids": [1, 2], "sign": None}}) == "omen: ids 1, 2; sign —"
    for specs in engine.new_match(1)["data"]["identifications"].values():
        for spec in specs:
            line = texts.identification(spec)
            assert line.startswith(spec["kind"] + ":") and "{" not in line, line
