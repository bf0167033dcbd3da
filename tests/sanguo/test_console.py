"""The 天庭 console (sanguo/console.py, _console.html): its forms post commands the engine accepts or
are refused with a clear message and nothing changed; what it shows (the queue, the decisions and
their proposed orders, the night's ledger) is the engine's state in a played game; previews show
exactly what their audience will read; a co-GM has the console, a seat never does."""
import html as entities
import json
import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from game.games.three_kingdoms import engine
from game.games.three_kingdoms.engine.records.randomplay import random_setup
from sanguo import records, services, texts
from sanguo.models import Event, Game
from tests.accounts import client_for

from .helpers import DURATIONS, clock, deal_from, people, started_game  # noqa: F401
from .play import run_to_deadline, submit_randomly

pytestmark = pytest.mark.django_db
# Seeds of nine-seat games played at random: together they have 结算前 orders, defences and damage.
SEEDS = (1, 2)


def page(client, row):
    response = client.get(reverse("sanguo:game", args=[row.pk]))
    assert response.status_code == 200
    return response.content.decode()


def post(client, row, data, follow=False):
    return client.post(reverse("sanguo:act", args=[row.pk]), data, follow=follow)


def form_answer(decision):
    """The console's form for ``decision`` posted as it comes: the proposal pre-selected."""
    data = {"do": "resolve", "decision": str(decision["key"])}
    if decision["kind"] == "skill":
        data["effects"] = engine_json(decision["default"])
    elif decision["kind"] == "defence":
        data["defence"] = "1"
    else:
        data["choice"] = decision["default"]
        if decision["kind"] == "last_words_review":
            data["text"] = decision["about"]["text"]
    return data


def engine_json(value):
    return json.dumps(value, ensure_ascii=False)


def game_with_skills(monkeypatch, mode, seed):
    """A started game of ``seed`` whose data gives skills of every timing class (the engine's
    random-play data), so its nights queue decisions, 结算前 orders and damage."""
    deal_from(monkeypatch, seed)
    gm = get_user_model().objects.create_user(f"gm{seed}", password="x")
    row = services.create_game(gm, mode=mode, durations=DURATIONS)
    # The field's default is read through a cached property: patched above, not its ``default``.
    assert row.seed == seed
    services.import_game_data(row.pk, gm, engine_json(random_setup(row.state, random.Random(seed))["setup"]))
    players = people(row.seat_count, f"seed{seed}p")
    for player in players:
        services.sign_up(row.pk, player)
    services.start(row.pk, gm)
    row.refresh_from_db()
    players.sort(key=lambda p: row.seats.get(user=p).seat)
    return row, gm, players


def check_console(html, state):
    """The console shows the engine's queue, pending decisions (in its order) and ledger."""
    queued = {f"{key}-{kind}" for key, subs in state["subs"].items() for kind in subs}
    assert set(re.findall(r'data-queue="([^"]+)"', html)) == queued
    # One row per submission: a character's identifications are one each.
    count = sum(len(entry) if kind == "identify" else 1
                for subs in state["subs"].values() for kind, entry in subs.items())
    assert html.count("data-queue=") == count
    # Each submission in the player's page's words (texts.queued), never in the engine's fields.
    for subs in state["subs"].values():
        for kind, entry in subs.items():
            for one in ([dict(e, index=int(i)) for i, e in entry.items()] if kind == "identify" else [entry]):
                assert entities.escape(texts.queued(kind, one)) in html, (kind, one)
    pending = [str(d["key"]) for d in state["pending"] if d["for"] == "gm"]
    assert re.findall(r'data-decision="(\d+)"', html) == pending
    for d in state["pending"]:
        if d["for"] == "gm" and d["about"].get("proposed_order"):
            block = html[html.index(f'data-decision="{d["key"]}"'):]
            listed = re.findall(r"<li>ID (\d+) ([^<]+)</li>", block[block.index("data-order"):block.index("</ol>")])
            assert [[int(i), name] for i, name in listed] == d["about"]["proposed_order"]
        if d["for"] == "gm" and d["kind"] == "defence":
            block = html[html.index(f'data-decision="{d["key"]}"'):]
            block = block[:block.index("</form>")]
            listed = re.findall(r'name="defended" value="(\d+)"', block)
            assert listed == [str(h["index"]) for h in d["about"]["damage"]]
    if state["phase"] in ("night_resolution", "night_feedback") and state.get("work"):
        targets = {str(hit["target"]) for hit in state["work"]["damage"]}
        assert set(re.findall(r'data-ledger="(\d+)"', html)) == targets
        hits = re.findall(r'data-hit="(\d+)"', html)
        assert sorted(map(int, hits)) == list(range(len(state["work"]["damage"])))
    else:
        assert "data-ledger" not in html


def check_rolls(html, row):
    """The rolls made since the phase opened are listed in words (texts.roll); how many there were."""
    made = [e for events in Event.objects.filter(game=row, version__gte=row.phase_opened).values_list("events", flat=True)
            for e in events if e.get("type") == "roll"]
    listed = re.findall(r"<li>([^<]*)</li>", html.split('class="console-rolls">')[1].split("</ul>")[0]) if made else []
    assert listed == [entities.escape(texts.roll(e)) for e in made]
    return len(made)


def play_through_the_console(row, gm, players, clock, seen):
    """Random submissions, every GM decision answered by posting its console form as it comes, the
    console checked against the engine's state at every step."""
    client = client_for(gm)
    rng = random.Random(row.seed)
    for _ in range(14):
        row.refresh_from_db()
        if row.status != Game.Status.LIVE:
            return
        if row.state["phase"] in ("night_action", "day_wound", "day_vote"):
            submit_randomly(row, players, rng)
        for _answer in range(50):
            row.refresh_from_db()
            if row.status != Game.Status.LIVE:
                return
            html = page(client, row)
            check_console(html, row.state)
            seen["ledger"] += "data-ledger" in html
            seen["queue"] += "data-queue" in html
            seen["roll"] += check_rolls(html, row)
            pending = [d for d in row.state["pending"] if d["for"] == "gm"]
            if not pending:
                break
            seen["decision"] += 1
            seen["order"] += bool(pending[0]["about"].get("proposed_order"))
            seen["defence"] += pending[0]["kind"] == "defence"
            # The form's answer changes the game exactly as the engine's own default answer would.
            expected, _events = engine.apply(row.state, "gm", dict(engine.legal_commands(row.state, "gm")[0],
                                                                   at=services.clock()))
            response = post(client, row, form_answer(pending[0]))
            assert response.status_code == 302
            row.refresh_from_db()
            assert row.state == expected
        run_to_deadline(row, clock)


def test_the_console_follows_the_engine_and_its_forms_answer_as_the_engine_proposes(clock, monkeypatch):
    seen = {"ledger": 0, "decision": 0, "queue": 0, "order": 0, "defence": 0, "roll": 0}
    for seed in SEEDS:
        play_through_the_console(*game_with_skills(monkeypatch, "nine", seed), clock, seen)
    assert all(seen.values()), seen


@pytest.mark.parametrize("data, message", [
    ({"do": "override", "reason": ""}, "an override needs a reason"),
    ({"do": "override", "reason": "fix", "effects": "[{"}, "The effects are not valid JSON."),
    ({"do": "override", "reason": "fix", "effects": '[{"wound": 99}]'}, "99 is not an ID"),
    ({"do": "override", "reason": "fix", "minutes": "soon"}, "Give the minutes as a whole number."),
    ({"do": "alliance", "first": "魏", "second": "魏", "on": "on"}, "an alliance names two countries"),
    ({"do": "draw", "reason": " "}, "a declared draw needs a reason"),
    ({"do": "advance", "reason": ""}, "closing a phase early needs a reason"),
    ({"do": "resolve", "decision": "9999", "effects": "[]"}, "no pending decision 9999"),
    ({"do": "resolve", "decision": "x"}, "Choose a decision."),
    ({"do": "feedback", "id": "", "text": "hi"}, "Choose an ID."),
    ({"do": "feedback", "id": "999", "text": "hi"}, "feedback takes an ID and a text"),
    ({"do": "preview", "what": "feedback", "id": "999", "text": "hi"}, "feedback takes an ID and a text"),
    ({"do": "share", "username": "nobody-here"}, "There is no account named nobody-here."),
    ({"do": "share", "username": ""}, "Nobody shares the console."),
    ({"do": "override", "reason": "x", "minutes_day_vote": "0"}, "Each phase lasts from one minute to 14 days."),
    ({"do": "override", "reason": "x", "minutes_day_vote": "soon"}, "Each phase lasts from one minute to 14 days."),
    ({"do": "override", "reason": "x", "join_id": "1", "join_country": "秦"},
     "Choose the country it joins, or none to cancel its joins."),
    ({"do": "override", "reason": "x", "join_id": "x", "join_country": "魏"}, "Choose an ID."),
    ({"do": "override", "reason": "x", "roll_kind_0": "伤判", "roll_id_0": "", "roll_outcome_0": "healed"},
     "Choose the ID the roll is for."),
    ({"do": "override", "reason": "x", "roll_kind_0": "伤判", "roll_id_0": "1", "roll_outcome_0": "fine"},
     "伤判: an outcome of the wrong shape"),
    ({"do": "override", "reason": "x", "roll_kind_0": "chance", "roll_id_0": "1", "roll_outcome_0": "maybe"},
     "A judgement is fixed as favourable or unfavourable."),
    ({"do": "override", "reason": "x", "roll_kind_0": "pick", "roll_outcome_0": "1, x"},
     "Give the IDs as numbers, separated by commas."),
    ({"do": "override", "reason": "x", "roll_kind_0": "pick", "roll_outcome_0": "99"}, "outcome must be an ID"),
    ({"do": "override", "reason": "x", "roll_kind_0": "拼点", "roll_outcome_0": "x"}, "Give the winner's ID as a number."),
    ({"do": "override", "reason": "x", "roll_kind_0": "dice", "roll_outcome_0": "1"}, "Choose the kind of roll."),
    # A valid part does not apply when another is refused: the engine checks every part first.
    ({"do": "override", "reason": "x", "minutes_day_vote": "30", "roll_kind_0": "拼点", "roll_outcome_0": "x"},
     "Give the winner's ID as a number."),
    ({"do": "zhao_yun_pool", "country": "秦"}, "Choose a country, or none for uniform draws."),
    ({"do": "override", "reason": "x", "action_id_0": "1", "action_kind_0": "dance"}, "Choose the kind of action."),
    ({"do": "override", "reason": "x", "action_id_0": "1", "action_kind_0": "skill", "action_skill_0": "无中生有",
      "action_targets_0": "2"}, "has no active skill"),
    ({"do": "override", "reason": "x", "action_id_0": "1", "action_kind_0": "skill", "action_targets_0": "2, x"},
     "Give the IDs as numbers, separated by commas."),
    ({"do": "override", "reason": "x", "action_id_0": "1", "action_kind_0": "identify", "action_index_0": "one"},
     "Give the identification's number as a whole number."),
    ({"do": "override", "reason": "x", "effect_kind_0": "poison", "effect_id_0": "1"}, "Effect 1: choose its kind."),
    ({"do": "override", "reason": "x", "effect_kind_0": "", "effect_kind_1": "wound", "effect_id_1": ""},
     "Effect 2: choose its ID."),
    ({"do": "override", "reason": "x", "effect_kind_0": "recognise", "effect_id_0": "1"},
     "Effect 1: choose the ID recognised."),
    ({"do": "override", "reason": "x", "effect_kind_0": "identity", "effect_id_0": "1", "effect_text_0": "国王"},
     "identity takes [ID, one of"),
    ({"do": "override", "reason": "x", "effect_kind_0": "wound", "effect_id_0": "99"}, "99 is not an ID"),
    # A valid row does not apply beside a refused JSON list.
    ({"do": "override", "reason": "x", "effect_kind_0": "wound", "effect_id_0": "2", "effects": '[{"kill": 99}]'},
     "99 is not an ID"),
])
def test_a_refused_console_form_says_why_and_changes_nothing(clock, data, message):
    row, gm, players = started_game()
    before = (row.version, row.state, row.co_gm_id)
    response = post(client_for(gm), row, data, follow=True)
    assert message in entities.unescape(response.content.decode())
    row.refresh_from_db()
    assert (row.version, row.state, row.co_gm_id) == before


def test_alliance_override_and_draw_forms_are_the_engines_commands(clock):
    row, gm, players = started_game()
    client = client_for(gm)
    post(client, row, {"do": "alliance", "first": "魏", "second": "吴", "on": "on"})
    row.refresh_from_db()
    assert [sorted(a) for a in row.state["alliances"]] == [sorted(["魏", "吴"])]
    post(client, row, {"do": "override", "reason": "server outage", "minutes": "90", "effects": '[{"wound": 2}]'})
    row.refresh_from_db()
    assert row.state["deadline"] == services.clock() + 90 * 60
    assert row.state["slots"][1]["wound"] is not None
    assert row.state["log"][-1]["kind"] == "override" and row.state["log"][-1]["reason"] == "server outage"
    commands = records.make_record(row)["commands"]
    assert commands[-1]["override"]["reason"] == "server outage"
    replayed = records.replay_steps(row, "gm")[-1][1]
    assert {"type": "override", "reason": "server outage"}.items() <= replayed[-1].items()
    post(client, row, {"do": "draw", "reason": "everyone agreed"})
    row.refresh_from_db()
    assert row.status == Game.Status.FINISHED and row.state["end_reason"] == "declared"


def test_the_override_forms_durations_join_and_rolls_and_the_pool_form_are_the_engines_commands(clock):
    row, gm, players = started_game()
    client = client_for(gm)
    free = next(s["id"] for s in row.state["slots"] if s["country"] is None and s["status"] == "normal")
    joined = next(s["id"] for s in row.state["slots"] if s["country"] is not None)
    response = post(client, row, {"do": "override", "reason": "x", "join_id": str(joined), "join_country": "魏"},
                    follow=True)
    assert "only an unjoined 在野 in play joins" in entities.unescape(response.content.decode())
    post(client, row, {"do": "override", "reason": "slower days", "minutes_day_vote": "30", "join_id": str(free),
                       "join_country": "蜀", "roll_kind_0": "chance", "roll_id_0": "3", "roll_label_0": "刺杀",
                       "roll_outcome_0": "unfavourable"})
    row.refresh_from_db()
    assert row.state["data"]["durations"]["day_vote"] == 1800
    assert {"id": free, "country": "蜀", "via": "天庭"}.items() <= row.state["joins"][-1].items()
    assert row.state["fixed_rolls"] == [{"roll": "chance", "id": 3, "label": "刺杀", "outcome": False}]
    post(client, row, {"do": "override", "reason": "undo", "join_id": str(free), "join_country": "none",
                       "roll_kind_0": "pick", "roll_outcome_0": "1，4"})
    row.refresh_from_db()
    assert not [j for j in row.state["joins"] if j["id"] == free]
    assert row.state["fixed_rolls"][-1] == {"roll": "pick", "outcome": [1, 4]}
    post(client, row, {"do": "zhao_yun_pool", "country": "吴", "inside": "outside"})
    row.refresh_from_db()
    assert row.state["zhao_yun_pool"] == {"country": "吴", "inside": False}
    post(client, row, {"do": "zhao_yun_pool", "country": ""})
    row.refresh_from_db()
    assert row.state["zhao_yun_pool"] is None
    # The console's fields name the phases with their current lengths.
    assert 'name="minutes_day_vote" inputmode="decimal" size="6" placeholder="30"' in page(client, row)


def test_the_overrides_action_form_rewrites_and_withdraws_an_ids_action(clock):
    row, gm, players = started_game()
    killer = next(s for s in row.state["slots"] if s["controller"] == 0 and s["identity"] == "杀手")
    target = next(s for s in row.state["slots"] if s["controller"] == 1)
    post(client_for(gm), row, {"do": "override", "reason": "lost submission", "action_id_0": str(killer["id"]),
                               "action_kind_0": "assassinate", "action_target_0": str(target["id"])})
    row.refresh_from_db()
    entry = row.state["subs"][str(killer["id"])]["assassinate"]
    assert entry["target"] == target["id"] and entry["by_gm"]
    post(client_for(gm), row, {"do": "override", "reason": "withdrawn", "action_id_0": str(killer["id"]),
                               "action_kind_0": "assassinate", "action_withdraw_0": "yes"})
    row.refresh_from_db()
    assert "assassinate" not in row.state["subs"].get(str(killer["id"]), {})


def test_the_overrides_effect_rows_are_the_engines_effects_in_their_order(clock):
    row, gm, players = started_game()
    own = next(s for s in row.state["slots"] if s["controller"] == 0)
    other = next(s for s in row.state["slots"] if s["controller"] == 1)
    post(client_for(gm), row, {
        "do": "override", "reason": "ruling",
        "effect_kind_0": "recognise", "effect_id_0": str(own["id"]), "effect_other_0": str(other["id"]),
        "effect_mutual_0": "on",
        "effect_kind_1": "feedback", "effect_id_1": str(own["id"]), "effect_text_1": "ROWFEEDBACK",
        "effect_kind_2": "wound", "effect_id_2": str(other["id"]),
        "effects": json.dumps([{"luck": [own["id"], "优"]}])})
    row.refresh_from_db()
    assert row.state["log"][-1]["kind"] == "override"
    assert [own["id"], other["id"]] in row.state["recognition"] and [other["id"], own["id"]] in row.state["recognition"]
    assert row.state["feedback"]["0"][-1]["text"] == "ROWFEEDBACK"
    assert row.state["slots"][other["id"] - 1]["wound"] is not None
    assert row.state["slots"][own["id"] - 1]["luck"] == "优"
    assert records.make_record(row)["commands"][-1]["override"]["effects"] == [
        {"recognise": [own["id"], other["id"]], "mutual": True}, {"feedback": own["id"], "text": "ROWFEEDBACK"},
        {"wound": other["id"]}, {"luck": [own["id"], "优"]}]


def test_previews_show_what_the_audience_will_read_and_send_nothing(clock):
    row, gm, players = started_game()
    client = client_for(gm)
    target = next(s for s in row.state["slots"] if s["controller"] is not None)
    seat, version = target["controller"], row.version
    html = post(client, row, {"do": "preview", "what": "feedback", "id": str(target["id"]),
                              "text": "PREVIEWED words"}).content.decode()
    row.refresh_from_db()
    assert row.version == version
    assert f"Seat {seat} will read:" in html
    shown = re.search(r'data-preview="feedback">(.*?)</div>', html, re.S).group(1)
    assert "PREVIEWED words" not in page(client_for(players[seat]), row)
    post(client, row, {"do": "feedback", "id": str(target["id"]), "text": "PREVIEWED words"})
    row.refresh_from_db()
    assert len(engine.view(row.state, seat)["feedback"]) == 1
    # The seat's page lists its feedback word for word as the preview showed it.
    read = re.findall(r"<li>(Night [^<]*PREVIEWED words)</li>", page(client_for(players[seat]), row))
    assert read and read == re.findall(r"<blockquote>([^<]*)</blockquote>", shown)

    bot = next(s for s in row.state["slots"] if s["controller"] is None)
    html = post(client, row, {"do": "preview", "what": "feedback", "id": str(bot["id"]), "text": "x"})
    assert "nobody will read it" in html.content.decode()

    html = post(client, row, {"do": "preview", "what": "announce", "text": "A storm at night"}).content.decode()
    shown = re.search(r'data-preview="announce"[^>]*>(.*?)</div>', html, re.S).group(1)
    post(client, row, {"do": "announce", "text": "A storm at night"})
    row.refresh_from_db()
    while not row.state["announcements"] and row.status == Game.Status.LIVE:
        for d in [d for d in row.state["pending"] if d["for"] == "gm"]:
            services.command(row.pk, gm, "", engine.legal_commands(row.state, "gm")[0])
            row.refresh_from_db()
        run_to_deadline(row, clock)
        row.refresh_from_db()
    published = row.state["announcements"][0]
    assert "A storm at night" in published["texts"]
    assert re.findall(r"<p>([^<]*)</p>", shown)[1:] == published["texts"]
    for death in published["deaths"]:
        assert f"ID {death['id']} " in entities.unescape(shown)


def test_nobody_but_the_game_master_previews(clock):
    row, gm, players = started_game()
    ident = row.state["slots"][0]["id"]
    response = post(client_for(players[1]), row, {"do": "preview", "what": "feedback", "id": str(ident),
                                                  "text": "x"}, follow=True)
    body = response.content.decode()
    assert "Only the game master can do that." in body
    assert "data-preview" not in body and "sanguo-console" not in body


def test_a_co_gm_has_the_console_and_a_seat_never_does(clock):
    row, gm, players = started_game()
    helper, = people(1, "helper")
    assert "sanguo-console" not in page(client_for(helper), row)
    refused = post(client_for(players[0]), row, {"do": "share", "username": helper.username}, follow=True)
    assert "Only the game master can do that." in refused.content.decode()
    seated = post(client_for(gm), row, {"do": "share", "username": players[0].username}, follow=True)
    assert "The co-GM is someone without a seat in this game." in seated.content.decode()

    post(client_for(gm), row, {"do": "share", "username": helper.username})
    row.refresh_from_db()
    assert row.co_gm == helper
    html = page(client_for(helper), row)
    assert "sanguo-console" in html and "data-gm-share" not in html
    assert "sanguo-console" not in page(client_for(players[0]), row)
    ident = row.state["slots"][0]["id"]
    post(client_for(helper), row, {"do": "feedback", "id": str(ident), "text": "from the co-GM"})
    row.refresh_from_db()
    assert row.state["log"][-1]["text"] == "from the co-GM"
    reasons = [c["override"]["reason"] for c in records.make_record(row)["commands"] if "override" in c]
    assert reasons == [f"天庭 console shared with {helper.username}"]

    post(client_for(gm), row, {"do": "share", "username": ""})
    row.refresh_from_db()
    assert row.co_gm is None
    assert "sanguo-console" not in page(client_for(helper), row)
    reasons = [c["override"]["reason"] for c in records.make_record(row)["commands"] if "override" in c]
    assert reasons[-1] == "天庭 console no longer shared"


def test_the_queue_marks_what_the_close_will_void_as_the_close_then_does(clock):
    row, gm, players = started_game()
    options = [c for c in engine.legal_commands(row.state, 0) if "assassinate" in c]
    command = next(c for c in options
                   if row.state["slots"][c["assassinate"]["target"] - 1]["identity"] != "君主")
    services.command(row.pk, players[0], "", command)
    row.refresh_from_db()
    actor, = [key for key, subs in row.state["subs"].items()
              if "assassinate" in subs and row.state["slots"][int(key) - 1]["controller"] == 0]
    target = command["assassinate"]["target"]
    html = page(client_for(gm), row)
    assert re.search(rf'data-queue="{actor}-assassinate">.*?<td>stands</td>', html, re.S)
    # The target dies by the GM's hand before the close: the 刺杀 no longer has a target.
    post(client_for(gm), row, {"do": "override", "reason": "a test", "effects": json.dumps([{"kill": target}])})
    row.refresh_from_db()
    html = page(client_for(gm), row)
    shown = re.search(rf'data-queue="{actor}-assassinate">.*?<td data-void>void \(([a-z_]+)\)</td>', html, re.S)
    shown = shown.group(1)
    version = row.version
    run_to_deadline(row, clock)
    voided = [e for events in row.events.filter(version__gt=version).values_list("events", flat=True)
              for e in events if e["type"] == "void" and e["action"] == "assassinate"]
    assert [e["reason"] for e in voided] == [shown]


def test_each_identification_is_a_row_of_the_queue(clock, monkeypatch):
    # Seed 1 deals 甄姬, who has two identifications, to seat 0.
    deal_from(monkeypatch, 1)
    row, gm, players = started_game()
    for index in (0, 1):
        command = next(c for c in engine.legal_commands(row.state, 0)
                       if "identify" in c and c["identify"]["actor"] == "甄姬" and c["identify"]["index"] == index)
        services.command(row.pk, players[0], "", command)
        row.refresh_from_db()
    ident = next(s["id"] for s in row.state["slots"] if s["chain"][0] == "甄姬")
    rows = re.findall(rf'<tr data-queue="{ident}-identify">(.*?)</tr>', page(client_for(gm), row), re.S)
    assert len(rows) == 2
    assert ["identification 1 on" in rows[0], "identification 2 on" in rows[1]] == [True, True]


@pytest.mark.parametrize("roll, words", [
    ({"kind": "伤判", "id": 4, "roll": 1, "outcome": "healed", "fixed_by_gm": False}, "伤判 for ID 4 (roll 1): healed"),
    ({"kind": "刺杀", "id": 3, "against": 5, "odds": [1, 2], "decided_by_luck": True, "fixed_by_gm": False,
      "favourable": False}, "刺杀: a 1-in-2 judgement for ID 3 against ID 5: unfavourable (decided by luck)"),
    ({"kind": "八卦阵", "among": [1, 2, 3], "count": 1, "good": True, "picked": [2], "fixed_by_gm": True},
     "八卦阵: 1 drawn among ID 1, ID 2, ID 3 for protection: ID 2 (fixed by the game master)"),
    ({"kind": "拼点", "ids": [6, 7], "winner": 7, "fixed_by_gm": False}, "拼点 among ID 6, ID 7: ID 7 wins"),
])
def test_each_kind_of_roll_reads_as_a_sentence(roll, words):
    assert texts.roll(dict(roll, type="roll", to="gm")) == words
