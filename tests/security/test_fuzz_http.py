"""Fuzzing every form, POST endpoint and GET parameter with the test client: never a 500, and a bad
request changes no match."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from game import services
from game.games.aquawar.engine.randomplay import play_random_match
from game.models import Match
from tests.accounts import client_for
from tests.game.helpers import HOST_TEAMS, live_match

pytestmark = pytest.mark.django_db

VALUES = [
    "", " ", "0", "-1", "1.5", "99999999999999999999999999", "true", "null", "[]", "{}", "'\"<>&",
    "\x00", "é中文\u202e", "%00", "%ff", "../../etc/passwd", "x" * 5000, "<script>alert(1)</script>",
    "javascript:alert(1)", "//evil.example/", "\\\\evil", "http://evil.example/",
]
BIG = 10**30


def state_of():
    return list(Match.objects.order_by("pk").values_list("pk", "status", "version", "guest_id", "winner"))


@pytest.fixture
def matches(host, guest, outsider):
    """An open public match, an open private one, a live one (a pick made) and a finished one."""
    open_public = services.create_match(host)
    open_private = services.create_match(host, private=True)
    live = live_match(host, guest)
    services.apply_command(live.pk, host, "h", 0, HOST_TEAMS[1])
    finished = live_match(guest, host)
    services.resign(finished, host, "r")
    return {"open": open_public, "private": open_private, "live": live, "finished": finished}


def check(response, url):
    assert response.status_code < 500, (url, response.status_code)


def test_it_never_fails_on_get_parameters(host_client, outsider_client, matches):
    anonymous = Client()
    ids = [matches[k].pk for k in ("private", "live", "finished")] + [BIG]
    urls = ["/", "/lobby/matches/", "/history/", "/users/host/history/", "/users/host/", "/accounts/login/",
            "/accounts/signup/", "/records/import/"]
    for match_id in ids:
        urls += [f"/match/{match_id}/", f"/match/{match_id}/replay/", f"/match/{match_id}/summary/",
                 f"/match/{match_id}/record.json"]
    params = ["player", "result", "page", "as", "invite", "digest", "next", "ui"]
    for client in (host_client, outsider_client, anonymous):
        for url in urls:
            check(client.get(url), url)
            # Every value as the host; a sample as the others (the same code paths, other users).
            for value in VALUES[::5] if client is not host_client else VALUES:
                query = {name: value for name in params}
                check(client.get(url, query), (url, value))
    for value in VALUES:
        check(anonymous.get(f"/users/{value.strip() or 'x'}/history/"), value)


def test_it_never_fails_on_posts_and_changes_nothing_it_should_not(host, guest, outsider, matches):
    before = state_of()
    clients = {"outsider": client_for(outsider), "anonymous": Client()}
    for name, client in clients.items():
        # Not the open public match: anyone logged in may join that one (and then resign it).
        for match_id in [matches[k].pk for k in ("private", "live", "finished")] + [0, BIG]:
            for path in ("join", "cancel", "resign/", "rematch/"):
                for value in VALUES[::2]:
                    url = f"/match/{match_id}/{path}"
                    check(client.post(url, {"client_id": value, "answer": value, "visibility": value}), url)
            check(client.get(f"/match/{match_id}/join"), "GET join")
        for value in VALUES:
            check(client.post("/match/new", {"visibility": value}), ("new", value))
            check(client.post("/match/computer", {"level": value}), ("computer", value))
            check(client.post("/accounts/tokens/new", {"name": value}), ("token", value))
            check(client.post(f"/accounts/tokens/{BIG}/revoke"), "revoke")
            check(client.post("/accounts/signup/", {"username": value, "password1": value, "password2": value,
                                                     "next": value}), ("signup", value))
            check(client.post("/accounts/login/", {"username": value, "password": value}), ("login", value))
            check(client.post("/i18n/setlang/", {"language": value, "next": value}), ("setlang", value))
        # An invite for a private match: a bad token is a 404, never a join.
        for token in ("x", "A" * 40, matches["private"].invite_token + "x"):
            check(client.post(f"/invite/{token}/"), token)
    # Outsiders and anonymous users joined nothing, cancelled nothing, resigned nothing.
    guarded = {matches[k].pk for k in ("private", "live", "finished")}
    assert [row for row in state_of() if row[0] in guarded] == [row for row in before if row[0] in guarded]
    # The players' own bad values.
    host_client = client_for(host)
    for value in VALUES:
        live = matches["live"]
        check(host_client.post(f"/match/{live.pk}/resign/", {"client_id": value}), ("resign", value))
        check(host_client.post("/match/new", {"visibility": value}), ("new", value))
        check(host_client.post(f"/match/{matches['open'].pk}/join", {"x": value}), ("own join", value))


def upload(client, content, name="record.json"):
    return client.post("/records/import/", {"record": SimpleUploadedFile(name, content)})


def test_it_refuses_bad_record_files_without_failing(host_client):
    good = play_random_match(3)
    bad_files = [
        b"", b"not json", b"\xff\xfe\x00garbage", b"[]", b"null", b"{}", b"[" * 100000, b"{\"a\":" * 50000,
        "é".encode("latin-1"), json.dumps(dict(good, players=["é", "b"]), ensure_ascii=False).encode("latin-1"),
        json.dumps(dict(good, seed=10**30)).encode(), json.dumps(dict(good, seed=-(10**30))).encode(),
        json.dumps(dict(good, seed=1.5)).encode(), json.dumps(dict(good, first_mover=2)).encode(),
        json.dumps(dict(good, players=["a"])).encode(), json.dumps(dict(good, players=[1, 2])).encode(),
        json.dumps(dict(good, players=["\ud800", "b"])).encode(), json.dumps(dict(good, players=["a\x00", "b"])).encode(),
        json.dumps(dict(good, commands=good["commands"][:5])).encode(),
        json.dumps(dict(good, commands=[{"player": 0, "pick": "x"}])).encode(),
        json.dumps(dict(good, commands=[{"player": True, "act": {}}])).encode(),
        json.dumps(dict(good, commands=[{"player": 0, "act": {"actor": [], "kind": {}}}])).encode(),
        json.dumps(dict(good, commands=[{"player": 0, "assert": {"target": 10**30, "fish": []}}])).encode(),
        json.dumps(dict(good, format="aquawar-record/2")).encode(),
        json.dumps(dict(good, extra=1)).encode(),
        json.dumps(dict(good, commands=None)).encode(),
        json.dumps(dict(good, forfeit={"player": 0, "reason": "resign"})).encode(),  # after the end
        json.dumps(dict(good, forfeit={"player": 0, "reason": []})).encode(),
        json.dumps(dict(good, forfeit={"player": [], "reason": {}})).encode(),
        json.dumps(dict(good, forfeit=[0, "resign"])).encode(),
        json.dumps(dict(good, dodges=[True])).encode(),  # a recorded dodge no roll uses
        json.dumps(dict(good, dodges="yes")).encode(), json.dumps(dict(good, turn_limit=10)).encode(),
        # Arrays are read as official replays of the 2021 contest.
        b"[null]", b"[1, null]", b'[{"players": []}, null]', b"[" * 100000 + b"]" * 100000,
        json.dumps([{"players": [{}, {}], "state": 1, "gamestate": 3, "cur_turn": 0, "rounds": 0, "score": 0,
                    "operation": [{"Action": "Pick", "Fish": [1, 2, 3, 99]}]}, None]).encode(),
        b" " * (2 * 1024 * 1024 + 1),
    ]
    count = Match.objects.count()
    for content in bad_files:
        response = upload(host_client, content)
        # A refused record is a 400 naming the problem; an empty upload fails the form itself.
        assert response.status_code in (200, 400), (content[:80], response.status_code)
        assert b"import-error" in response.content or b"errorlist" in response.content, content[:80]
    assert host_client.post("/records/import/", {"record": "not a file"}).status_code == 200
    assert host_client.post("/records/import/", {}).status_code == 200
    assert Match.objects.count() == count
    # JSON in UTF-16 / UTF-32 is still JSON (the decoder detects it): taken, or refused, never a 500.
    for encoding in ("utf-16", "utf-32", "utf-8-sig"):
        assert upload(host_client, json.dumps(good).encode(encoding)).status_code in (302, 400), encoding
    # Every page that lists or shows matches still renders.
    for url in ("/history/", "/users/host/"):
        assert host_client.get(url).status_code == 200


def test_an_imported_record_never_breaks_the_pages_that_show_it(host_client):
    """Regression: lone surrogates in "players" were stored, and /history/ then failed for everyone
    (a page holding one cannot be encoded as UTF-8)."""
    good = play_random_match(4)
    assert upload(host_client, json.dumps(dict(good, players=["\ud800", "b"])).encode()).status_code == 400
    assert upload(host_client, json.dumps(dict(good, players=["né 中文 <b>", " "])).encode()).status_code == 302
    match = Match.objects.get(imported=True)
    assert match.player_names == ["né 中文 <b>", "Player B"]
    for url in ("/history/", f"/match/{match.pk}/summary/", f"/match/{match.pk}/replay/", f"/match/{match.pk}/record.json"):
        response = host_client.get(url)
        assert response.status_code == 200, url
        assert b"<b>" not in response.content or url.endswith(".json"), url
