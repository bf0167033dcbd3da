"""The one error an engine raises for a command it refuses: the same for every game, so that the
platform and a program read every refusal alike."""


class IllegalCommand(Exception):
    """A command that breaks the rules. ``code`` is stable (for programs), ``message`` is for people."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self):
        return {"code": self.code, "message": self.message}


def accepts(check, *args):
    """Whether ``check(*args)`` runs without a refusal: an engine's ``is_legal`` over its checks."""
    try:
        check(*args)
    except IllegalCommand:
        return False
    return True
