"""The refusal every layer speaks: services, limits, the socket and form handlers that report it."""


class ServiceError(Exception):
    """A refused request: ``code`` is stable for programs, ``message`` is for people."""

    def __init__(self, code, message, illegal=False):
        super().__init__(message)
        self.code = code
        self.message = message
        # True when the engine refused the command itself (the rules, not the match's situation):
        # in play between programs that loses the match (see the bot socket).
        self.illegal = illegal
