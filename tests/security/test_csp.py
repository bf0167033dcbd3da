"""The Content-Security-Policy (issue #30 item 13): every page is sent one that runs only the site's
own script files — no inline script, no inline event handler, no eval — and no template needs more.
The browser tests check the pages themselves: any violation a page reports fails its test
(tests/browser/conftest.py)."""
import re
from pathlib import Path

import pytest
from django.test import Client

from game import services

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(
    path for folder in ("templates", "game", "lobby", "ratings", "tournaments") for path in (ROOT / folder).rglob("*.html")
)


def policy(response):
    header = response.headers.get("Content-Security-Policy")
    assert header, "no Content-Security-Policy header"
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.django_db
def test_every_kind_of_page_is_sent_the_policy(host, guest):
    match = services.join_match(services.create_match(host), guest)
    client = Client()
    client.force_login(host)
    for url in ("/", f"/match/{match.pk}/", "/history/", "/accounts/login/", f"/match/{match.pk}/replay/", "/no-such-page/"):
        directives = policy(client.get(url))
        assert directives["script-src"] == ["'self'"], url
        assert directives["default-src"] == ["'self'"] and directives["object-src"] == ["'none'"], url
        assert not any("unsafe-inline" in value or "unsafe-eval" in value for value in directives["script-src"])
        assert "script-src-attr" not in directives and "script-src-elem" not in directives


def test_no_template_has_an_inline_script_or_handler():
    assert len(TEMPLATES) > 30
    for path in TEMPLATES:
        html = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            # A file's script, or data (json_script writes type="application/json", never run).
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
        assert not re.search(r"\son[a-z]+\s*=", html), path
        assert "javascript:" not in html and "hx-on" not in html and 'hx-vals=\'js:' not in html, path
