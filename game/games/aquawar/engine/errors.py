"""The one error the engine raises for a command it refuses."""


class IllegalCommand(Exception):
    """A command that breaks the rules. ``code`` is stable (for programs), ``message`` is for people."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self):
        return {"code": self.code, "message": self.message}
