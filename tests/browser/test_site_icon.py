"""The site's icon in a real browser: a page asks for nothing that is missing (browsers ask for
/favicon.ico of their own accord), and the icon it links draws."""
from . import ui

ui.skip_without_a_browser()


def test_a_page_asks_for_no_missing_file_and_its_icon_draws(browser, live_server_url):
    page = ui.new_page(browser, live_server_url)
    missing = []
    page.on("response", lambda response: missing.append(response.url) if response.status >= 400 else None)
    page.goto("/")
    page.wait_for_selector(".site-header")
    icon = page.get_attribute("link[rel=icon]", "href")
    size = page.evaluate(
        """href => new Promise((done) => {
            const image = new Image();
            image.onload = () => done([image.naturalWidth, image.naturalHeight]);
            image.onerror = () => done(null);
            image.src = href;
        })""",
        icon,
    )
    assert size and size[0] > 0 and size[1] > 0, size
    # What a browser that reads no <link> (or an old bookmark) asks for: the same icon.
    answer = page.request.get("/favicon.ico")
    assert answer.ok and answer.url.endswith(icon) and answer.headers["content-type"].startswith("image/svg+xml")
    assert not missing, missing
