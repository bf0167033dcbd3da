"""``{% table %}`` (game/templatetags/tables.py): the markup every list's table shares."""
import pytest
from django.template import Template, TemplateSyntaxError
from django.template.context import Context
from django.utils import translation

TABLE = Template('{% load tables %}{% table _("Name") label %}<tr><td>{{ name }}</td></tr>{% endtable %}')


def test_it_wraps_the_rows_in_a_table_with_one_column_header_per_argument():
    html = TABLE.render(Context({"label": "Token", "name": "<script>"}))
    assert html.startswith('<div class="table-wrap">') and html.rstrip().endswith("</div>")
    assert '<th scope="col">Name</th>' in html and '<th scope="col">Token</th>' in html
    assert "<tbody><tr><td>&lt;script&gt;</td></tr></tbody>" in html


def test_it_translates_the_headers_in_the_language_of_the_page():
    with translation.override("zh-hans"):
        html = TABLE.render(Context({"label": "x", "name": "y"}))
    assert '<th scope="col">名称</th>' in html


def test_a_table_without_headers_is_refused():
    with pytest.raises(TemplateSyntaxError):
        Template("{% load tables %}{% table %}{% endtable %}")
