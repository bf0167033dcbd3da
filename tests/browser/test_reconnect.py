"""The match page when the server asks it to try again (code 4013: its Redis was down as the
socket connected, see docs/faults.md): it reconnects by itself, and the board comes back."""
import re

from . import ui

ui.skip_without_a_browser()

MATCH_SOCKET = re.compile(r".*/ws/match/\d+/.*")


def test_the_page_reconnects_when_the_server_says_try_again_later(browser, live_server_url):
    page = ui.new_page(browser, live_server_url)
    ui.sign_up(page, "host")
    match_id, _invite = ui.create_match(page)
    attempts = []

    def server(socket):
        attempts.append(socket.url)
        if len(attempts) == 1:
            # What a server whose channel layer failed does to a socket it has accepted.
            socket.close(code=4013, reason="try again later")
        else:
            socket.connect_to_server()

    page.route_web_socket(MATCH_SOCKET, server)
    page.goto(f"/match/{match_id}/")
    for _tick in range(100):  # the page waits 0.5-1.5 s before it tries again
        if len(attempts) == 2:
            break
        page.wait_for_timeout(100)
    assert len(attempts) == 2
    ui.wait_live(page)
    # The second socket is the real one: the server drew the page again over it.
    page.wait_for_selector("#match-status[data-status=open]")
    assert "0 spectators watching" in page.inner_text("#match-spectators")
