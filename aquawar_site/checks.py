"""The site's own system checks: what Django's deployment checks cannot know about these settings.

Django's ``security.W009`` only flags a SECRET_KEY that looks weak; the embedded setup's built-in
key looks strong and is public (it is in this file's neighbour, settings.py), so without DEBUG a
site that forgot ``SECRET_KEY`` would sign its sessions with it silently (issue #30 item 12).
"""
from django.conf import settings
from django.core.checks import Error, Warning, register

EMBEDDED_KEY_HINT = "Set SECRET_KEY (50+ random characters, the same on every process): docs/deploy.md."


def _embedded_key():
    return not settings.DEBUG and settings.SECRET_KEY == settings.EMBEDDED_SECRET_KEY


@register()
def embedded_key_in_use(app_configs, **kwargs):
    """Said on every start (runserver, migrate …) of a site without DEBUG that has no key of its own."""
    if not _embedded_key():
        return []
    return [Warning("SECRET_KEY is not set: the public built-in key signs sessions.", hint=EMBEDDED_KEY_HINT, id="aquawar.W001")]


@register(deploy=True)
def embedded_key_deployed(app_configs, **kwargs):
    """``check --deploy`` fails outright on it, whatever its ``--fail-level``."""
    if not _embedded_key():
        return []
    return [Error("SECRET_KEY is not set: the public built-in key would sign every session.", hint=EMBEDDED_KEY_HINT, id="aquawar.E001")]
