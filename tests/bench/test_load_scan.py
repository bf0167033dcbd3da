"""The load benchmark's own checks (bench/_loadscan.py, bench/_loadpolicy.py): a leak it must
report is reported, a clean frame is not, and its players only ever send legal commands."""
import json
import random
import sys
from pathlib import Path

from django.template.loader import render_to_string

from game.games.miracle import engine as miracle
from game.live import presenter

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from _loadpolicy import choose, choose_miracle  # noqa: E402
from _loadscan import (  # noqa: E402
    HtmlScanner,
    MiracleScanner,
    MiracleTruth,
    Truth,
    appended_log_versions,
    html_status,
)

HOST_DECK = {"deck": {"artifact": "holy_light", "creatures": ["archer", "priest", "swordsman"]}}
GUEST_DECK = {"deck": {"artifact": "inferno_flame", "creatures": ["black_bat", "frost_dragon", "volcano_dragon"]}}


def truth_with_host_deck():
    truth = MiracleTruth()
    truth.sent(0, HOST_DECK)
    truth.applied(1, HOST_DECK, 0)
    return truth


def deck_state(version, decks=(None, None)):
    state = miracle.new_match(3)
    seen = miracle.view(state, 1)
    seen["decks"] = list(decks)
    return {"type": "state", "version": version, "status": "live", "audience": 1, "view": seen,
            "options": miracle.options(state, 1)}


def test_miracle_scanner_passes_a_clean_deck_phase():
    scanner = MiracleScanner(truth_with_host_deck(), 1)
    event = {"type": "version", "version": 1, "events": [{"type": "deck", "player": 0}]}
    scanner.version(event, json.dumps(event))
    scanner.state(deck_state(1), None)
    assert scanner.findings == [] and scanner.scanned == 2


def test_miracle_scanner_flags_the_other_deck_before_both_are_in():
    scanner = MiracleScanner(truth_with_host_deck(), 1)
    event = {"type": "version", "version": 1, "events": [{"type": "deck", "player": 0, **HOST_DECK["deck"]}]}
    scanner.version(event, json.dumps(event))
    scanner.state(deck_state(1, ({"artifact": "holy_light"}, None)), None)
    problems = [p for finding in scanner.findings for p in finding["problems"]]
    assert any(p.startswith("unredacted event") for p in problems)
    assert "side 0's deck shown" in problems
    assert any("names hidden cards" in p and "holy_light" in p for p in problems)


def test_miracle_scanner_lets_the_decks_out_once_both_are_in():
    truth = truth_with_host_deck()
    truth.sent(1, GUEST_DECK)
    truth.applied(2, GUEST_DECK, 1)
    scanner = MiracleScanner(truth, 1)
    event = {"type": "version", "version": 2, "events": [{"type": "decks", "decks": [HOST_DECK, GUEST_DECK]}]}
    scanner.version(event, json.dumps(event))
    assert truth.public_from == 2 and scanner.findings == []
    # A spectator's frame of version 1 still may not name the host's deck.
    assert truth.secret_for(None, 1) >= {"holy_light", "archer", "priest", "swordsman"}
    assert truth.secret_for(None, 2) == set()


def test_miracle_scanner_flags_a_win_chance_sent_to_a_player():
    frame = {"type": "state", **deck_state(3), "audience": 0, "win_chance": {"host": 50}}
    player, spectator = MiracleScanner(MiracleTruth(), 0), MiracleScanner(MiracleTruth(), None)
    player.state(frame, None)
    spectator.state({**frame, "audience": "spectator"}, None)
    assert player.findings[0]["problems"] == ["a player is sent the win chance"]
    assert spectator.findings == []


def status_fragment(version, status="live"):
    return render_to_string("game/_status.html", {"payload": {"status": status, "version": version}, "oob": True})


def test_html_fragments_give_their_version_and_appended_log_lines():
    assert html_status(status_fragment(7)) == ("live", 7)
    assert html_status(presenter.render_notice()) is None
    entries = [{"kind": "action", "version": 5, "text": "x"}, {"kind": "action", "version": 6, "text": "y"}]
    assert appended_log_versions(presenter.render_log(entries, append=True)) == [5, 6]
    # A whole log, sent on (re)connect, is a redraw, not lines appended again.
    assert appended_log_versions(presenter.render_log(entries, append=False)) == []


def test_html_scanner_flags_a_hidden_card_by_name_outside_the_catalogues():
    scanner = HtmlScanner(truth_with_host_deck(), None)
    scanner.fragment(1, "live", status_fragment(1) + "<p>Their deck: Archer</p>", known_through=1)
    assert scanner.findings and "archer" in scanner.findings[0]["problems"][0]


def test_html_scanner_allows_catalogues_and_waits_for_the_truth():
    scanner = HtmlScanner(truth_with_host_deck(), 1)
    catalogue = '<fieldset data-catalogue><input value="archer"><input value="holy_light"></fieldset>'
    scanner.fragment(1, "live", status_fragment(1) + catalogue, known_through=0)
    assert scanner.scanned == 0 and len(scanner.waiting) == 1
    scanner.judge(1)
    assert scanner.scanned == 1 and scanner.findings == []


def test_html_scanner_flags_a_win_chance_bar_for_a_player():
    scanner = HtmlScanner(MiracleTruth(), 0)
    scanner.fragment(4, "live", status_fragment(4) + '<div class="win-chance"></div>', known_through=4)
    assert scanner.findings[0]["problems"] == ["a player is shown the win chance"]


def test_html_scanner_knows_an_aquawar_guess_is_public_from_its_version():
    truth = Truth()
    truth.sent(0, {"pick": ["sea_wolf", "manta_ray", "sea_turtle", "octopus"]})
    truth.applied(4, {"assert": {"target": 0, "fish": "octopus"}}, 1)
    before, after = HtmlScanner(truth, 1), HtmlScanner(truth, 1)
    before.fragment(3, "live", status_fragment(3) + "<p>Octopus</p>", known_through=4)
    after.fragment(4, "live", status_fragment(4) + "<p>Octopus</p>", known_through=4)
    assert before.findings and after.findings == []


def test_html_scanner_takes_a_finished_match_shown_whole_for_no_leak():
    truth = Truth()
    truth.sent(0, {"pick": ["sea_wolf", "manta_ray", "sea_turtle", "octopus"]})
    truth.applied(1, {"pick": ["sea_wolf", "manta_ray", "sea_turtle", "octopus"]}, 0)
    live, over = HtmlScanner(truth, 1), HtmlScanner(truth, 1)
    live.fragment(1, "live", status_fragment(1) + "<p>Octopus</p>", known_through=1)
    over.fragment(1, "finished", status_fragment(1, "finished") + "<p>Octopus</p>", known_through=1)
    assert live.findings and over.findings == []


def test_the_miracle_policy_plays_legal_commands_to_the_end():
    rng = random.Random(2)
    for seed in range(3):
        state, commands = miracle.new_match(seed), 0
        while state.phase != "over":
            for seat in list(miracle.to_move(state)):
                frame = {"view": miracle.view(state, seat), "options": miracle.options(state, seat)}
                command = choose(frame, rng)
                assert "surrender" not in command and miracle.is_legal(state, seat, command), command
                state, _events = miracle.apply(state, seat, command)
                commands += 1
                if state.phase == "over":
                    break
        assert 20 < commands < 1000


def test_the_miracle_policy_waits_while_it_is_not_the_seats_turn():
    state = miracle.new_match(1)
    state, _ = miracle.apply(state, 0, HOST_DECK)
    assert choose_miracle(miracle.options(state, 0), miracle.view(state, 0)["miracles"], random.Random(1)) is None
