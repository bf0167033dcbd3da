"""The signed links in notices: verifying an address, unsubscribing from mail in one click. Signed
(``django.core.signing``), so they need no table and cannot be made up for someone else."""
from django.conf import settings
from django.core import signing

VERIFY_SALT = "notify.verify"
UNSUBSCRIBE_SALT = "notify.unsubscribe"
# A verification link works this long.
VERIFY_MAX_AGE = 3 * 24 * 60 * 60


def absolute(path):
    return settings.SITE_URL.rstrip("/") + path


def verify_token(user_id, email):
    return signing.dumps({"u": user_id, "e": email}, salt=VERIFY_SALT)


def read_verify_token(token):
    """(user id, address) of a valid link, else None."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE)
    except signing.BadSignature:
        return None
    return data["u"], data["e"]


def unsubscribe_token(user_id):
    return signing.dumps(user_id, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token):
    try:
        return signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
