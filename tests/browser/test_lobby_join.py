"""The host waiting in the lobby is taken to their match the moment someone joins it; the lobby
links to the rules, which read on a phone in Chinese as well (issue #15)."""
import json

from . import ui

ui.skip_without_a_browser()

KEEP_THE_NEWS = """addEventListener("pagehide", () => {
  const news = document.getElementById("lobby-joined");
  if (news && news.dataset.url) {
    sessionStorage.setItem("lobby-news", JSON.stringify({text: news.textContent, sound: news.dataset.lastSound}));
  }
})"""


def test_the_host_in_the_lobby_is_taken_to_the_match_when_someone_joins(browser, live_server_url, screenshot_dir):
    host = ui.new_page(browser, live_server_url, width=1280)
    guest = ui.new_page(browser, live_server_url, width=360, height=780)
    ui.sign_up(host, "host")
    guest_name = ui.sign_up(guest, "guest")
    # A newcomer reads the rules first, from the lobby.
    host.goto("/")
    host.click(".lobby-guides a")
    host.wait_for_selector("#species-mimic_fish")
    ui.shoot(host, screenshot_dir, "how-to-play-1280")
    host.evaluate("document.getElementById('species').scrollIntoView()")
    host.screenshot(path=str(screenshot_dir / "how-to-play-species-1280.png"))
    reader = ui.new_page(browser, live_server_url, width=360, height=780, locale="zh-CN")
    reader.goto("/games/aquawar/how-to-play/")
    assert "拟态鱼规则" in reader.inner_text("main")
    ui.shoot(reader, screenshot_dir, "how-to-play-zh-360")
    match_id, invite = ui.create_match(host)
    # The lobby's own socket is open before anyone joins.
    host.wait_for_selector(".lobby-news[data-state=open]", state="attached")
    # The lobby goes to the match 1.2 s after the news, which may be before this test looks (the
    # guest's page loads meanwhile): the page keeps what the news said as it leaves.
    host.evaluate(KEEP_THE_NEWS)
    ui.join_by_invite(guest, invite, match_id)
    host.wait_for_url(f"**/match/{match_id}/")
    news = json.loads(host.evaluate("sessionStorage.getItem('lobby-news')"))
    assert f"{guest_name} joined your match #{match_id}" in news["text"]
    # Told with a sound, once: the lobby's chime; the match page it leads to opens quietly, though
    # the host's pick is due there.
    assert news["sound"] == ui.SOUND_TURN
    ui.wait_live(host)
    assert host.locator(".pick-form").count() == 1
    assert host.get_attribute("#match-status", "data-your-move") == "true"
    assert host.get_attribute(".match-page", "data-last-sound") is None
