"""The site's own pages that belong to no app."""
from django.shortcuts import redirect
from django.templatetags.static import static
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe


@require_safe
def favicon(request):
    """/favicon.ico, which browsers ask for whatever a page links: the site's SVG icon. Not a
    permanent redirect: the icon's static name changes with its content."""
    response = redirect(static("site/favicon.svg"))
    patch_cache_control(response, max_age=24 * 3600)
    return response
