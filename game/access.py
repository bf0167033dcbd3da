"""Who may watch a match. Shared by the page and the websocket so the two can never disagree."""
import secrets


def may_watch(match, user, invite_token=None):
    """Public matches: anyone. Private ones: the two players, and whoever holds the invite link."""
    if not match.private or match.seat_of(user) is not None:
        return True
    if not isinstance(invite_token, str) or not invite_token:
        return False
    # Bytes: compare_digest refuses str with non-ASCII characters, and anyone can type those.
    return secrets.compare_digest(invite_token.encode(), match.invite_token.encode())
