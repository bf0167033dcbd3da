"""The Content-Security-Policy in a real browser (issue #30 item 13): an inline script injected
into a page does not run, and the violation it causes is caught — the check that makes every other
browser test fail on any violation of its own pages (conftest.py, ``browser``)."""
from . import ui

ui.skip_without_a_browser()


def test_an_injected_inline_script_is_refused_and_reported(browser, live_server_url):
    page = ui.new_page(browser, live_server_url)
    page.goto("/")
    page.wait_for_selector(".site-header")
    assert not ui.CSP_VIOLATIONS  # the page itself needs no exception
    # The handler's refusal is the later of the two console messages.
    with page.expect_console_message(lambda message: "inline event handler" in message.text):
        page.evaluate(
            """() => {
                const script = document.createElement("script");
                script.textContent = "window.injectedRan = true";
                document.body.append(script);
                const button = document.createElement("button");
                button.id = "injected";
                button.setAttribute("onclick", "window.injectedRan = true");
                document.body.append(button);
                button.click();
            }"""
        )
    assert page.evaluate("() => window.injectedRan === undefined")
    caught = list(ui.CSP_VIOLATIONS)
    # Both refusals were seen: the conftest's check would fail this test on either.
    assert any("inline script" in text for text in caught) and any("inline event handler" in text for text in caught), caught
    ui.CSP_VIOLATIONS.clear()
    # The injected button has no name: the accessibility check at the end would rightly fail it.
    page.evaluate("() => document.getElementById('injected').remove()")
