"""``{% table _("Name") _("Created") %}<tr>…</tr>{% endtable %}``: a list's table with the same
markup on every page (``templates/_table.html``): one column header per argument, the rows between
the tags, and a wrapper that scrolls the table sideways on a narrow screen."""
from django import template
from django.template.loader import render_to_string

register = template.Library()


class TableNode(template.Node):
    def __init__(self, headers, rows):
        self.headers = headers
        self.rows = rows

    def render(self, context):
        headers = [header.resolve(context) for header in self.headers]
        return render_to_string("_table.html", {"headers": headers, "rows": self.rows.render(context)})


@register.tag
def table(parser, token):
    headers = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    if not headers:
        raise template.TemplateSyntaxError("{% table %} needs the column headers")
    rows = parser.parse(("endtable",))
    parser.delete_first_token()
    return TableNode(headers, rows)
