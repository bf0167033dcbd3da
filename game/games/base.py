"""The interface between the platform and a game: everything the platform may ask of one.

The platform (services, the sockets, clocks, the bot runner, history, replays, records, the lobby)
never imports a game's engine: it asks the registry (``game.games.get(name)``) for the game's
``Game`` object and calls the members below. A game subclasses ``Game`` (or ``EngineGame``) and
``Presentation`` in its own package (``game/games/<name>/``); docs/games.md says how, and
``tests/conformance`` checks it.

Terms used throughout:

- **seat**: 0 (the host) or 1 (the guest). The platform seats exactly two players.
- **audience**: a seat, ``"spectator"``, or ``"all"`` (everything; only once the match is over).
- **state**: the game's own object for a match in progress. The platform only passes it back to
  the game, and stores ``dump(state)`` (JSON) on the match row.
- **command**: a JSON object (a dict) a player sends; the game decides what it means.
- **events**: what one command did, as a list of JSON objects in the game's full (unredacted) form.
  The platform stores them and sends each audience ``project(events, audience)``.

Every method is deterministic: the same state and arguments give the same answer and the same
events, so a stored seed plus the stored commands rebuild every state (replays, records, imports).
"""
import json
import re
from pathlib import Path
from typing import NamedTuple


class RecordError(ValueError):
    """A record that cannot be read or replayed. ``code`` is stable (for programs and tests),
    ``message`` is English; ``command_index`` is the 0-based index of the command at fault, or
    None when the problem is not about one command."""

    def __init__(self, code, message, command_index=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.command_index = command_index


class BadForm(ValueError):
    """A browser form (``Presentation.form_command``) that stands for no command; ``message`` says
    what to fill in. The socket answers it as a ``bad_field`` error and changes nothing."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class Record(NamedTuple):
    """A match record read by ``Game.read_record``: enough to play the match again."""

    seed: int
    commands: tuple  # ((seat, command), ...), commands in the engine's form
    first_mover: object = None  # the override ``new_match`` takes, or None (drawn from the seed)
    players: tuple = None  # the two players' names, or None
    forfeit: tuple = None  # (seat, reason): after the commands, that seat lost the match
    # How the match starts beyond the seed and the first mover (JSON the game defines, given back
    # to ``new_match``; Aquawar: an official replay's recorded dodges and round length), or None.
    setup: object = None
    # What the file was when it was not one of the game's records (JSON the game defines and its
    # ``Presentation.describe_source`` words; Aquawar: an official replay of the 2021 contest, with
    # where its program departed from the rules), or None.
    source: object = None


def measured_level_ratings(bots_folder):
    """{level: rating} from ``level_ratings.json`` in ``bots_folder`` (a path), or {} without one."""
    path = Path(bots_folder) / "level_ratings.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {level: round(entry["rating"]) for level, entry in data["ratings"].items()}


class Target(NamedTuple):
    """One thing to click in a tutorial's step: a CSS selector on the match page (keep it on the
    board's stable ids and classes) and what to say while it is the thing to click. ``optional``:
    passed over when the page does not show it (a menu the board opens only sometimes)."""

    selector: str
    hint: str = ""
    optional: bool = False


class Step(NamedTuple):
    """Where a tutorial stands: ``key`` names the step (stable, for tests and the page's script),
    ``text`` explains it (lazily translated), ``targets`` are clicked in order (none: read, or
    wait), ``number`` counts the lesson steps from 1 (0 for a step that is not one: waiting for the
    bot, a re-explanation), ``done``: the tutorial is over."""

    key: str
    text: str
    targets: tuple = ()
    number: int = 0
    done: bool = False


class Tutorial:
    """A game's tutorial: a first match from a fixed start against a scripted bot, whose page says
    what to do next (docs/tutorial.md). Subclass it in the game's package (``tutorial.py``).

    Both halves read only what their seat may know: ``choose`` the bot's view, ``step`` the
    player's projected payload, so the page follows the real match whatever the player does."""

    #: The built-in level of the tutorial's bot (``BotSeat.level``); not one of ``Game.levels``, so
    #: it is never offered in the lobby, ranked or anchored.
    level = "tutorial"
    #: The fixed start: ``new_match(seed, first_mover, setup)`` (the player is seat 0).
    seed = 0
    first_mover = 0
    setup = None
    #: How many lesson steps there are (``Step.number`` runs from 1 to it).
    lessons = 0

    def choose(self, view, events, legal, seat, rng):
        """The bot's command: its script where it applies, else something sensible and legal."""
        raise NotImplementedError

    def step(self, payload):
        """The ``Step`` for the player reading ``payload`` (``frames.payload`` for seat 0) of a live
        match; the platform says the last word once it is over."""
        raise NotImplementedError


# A space between two Chinese characters (or full-width punctuation). The Chinese lines keep a space
# on each side of a player's name, as Latin words are set apart in Chinese text ("alice 选择了"); when
# the name is itself Chinese ("你", for the viewer) those spaces are stray ("你 选择了").
CJK_GAP = re.compile(r"(?<=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]) (?=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])")


def close_cjk_gaps(text):
    """``text`` without the spaces between two Chinese characters, for the games' log lines."""
    return CJK_GAP.sub("", text)


class Game:
    """One game, as the platform sees it. Subclass it; every member below must be provided."""

    #: The registry key, stored in ``Match.game``: lower-case letters, at most 32 characters.
    name = None
    #: The name people read (a lazily translated string).
    title = None
    #: The engine's refusal: an exception class whose instances carry ``code`` (a stable
    #: identifier, e.g. "not_your_turn") and ``message`` (English, for programs).
    IllegalCommand = Exception
    #: The ``format`` field of this game's records, e.g. "aquawar-record/1".
    record_format = None
    #: The time controls a person may choose when creating a match: seconds per clock unit
    #: (``clock_counts``), 0 for none. The first is the default.
    time_controls = (0,)
    #: What one clock period covers: "decision" (each command gets the full time) or "turn" (all
    #: commands of one turn share one period; see ``restarts_clock``).
    clock_counts = "decision"
    #: The refusal of a time control not in ``time_controls`` (lazily translated).
    bad_time_control = None
    #: The banks the lobby offers (game/time_controls.py): (bank, increment) in seconds, each
    #: player's bank for the whole match and what each of their decisions (turns) adds to it.
    bank_presets = ()
    #: The banks and increments a person may choose beyond the presets: (least, most) seconds.
    bank_limits = (60, 3600)
    increment_limits = (0, 60)
    #: A pick phase's own allowance (``picking``), never taken from a bank: seconds.
    pick_seconds = 60
    #: The refusal of a host's cancel once ``in_setup`` is over (lazily translated).
    too_late_to_cancel = None
    #: Built-in opponents: level -> label (lazily translated), weakest first. There is always a
    #: "random" level (a uniformly random legal command): the runner falls back to it when another
    #: level's command is refused, so that a person's match never stalls.
    levels = {}
    #: The level the lobby's form suggests.
    default_level = None
    #: Each level's rating as measured by the levels' round robin (``bench/bot_ratings.py``,
    #: ``level_ratings.json`` in the game's ``bots/``): level -> rating; a level not measured is absent.
    level_ratings = {}
    #: The game's tutorial (a ``Tutorial``), or None: no tutorial offered.
    tutorial = None
    #: The web presentation (a ``Presentation``); Django-side, so it may use templates.
    web = None

    # --- Rules. Each must be deterministic and must not keep state of its own between calls.

    def new_match(self, seed, first_mover=None, setup=None):
        """A new match's state. All randomness of the match comes from ``seed`` (a signed 63-bit
        integer). ``first_mover`` (a seat) overrides the seeded choice of who opens, for rematches
        and records that name it; None lets the seed decide. ``setup`` is an imported record's
        ``Record.setup`` (stored as ``Match.setup``), None for every match played here."""
        raise NotImplementedError

    def apply(self, state, seat, command):
        """Apply ``seat``'s ``command``; return ``(state after it, events)``. It may change ``state``
        in place (the platform goes on with the state returned).

        Raise ``IllegalCommand`` for anything that is not a legal command for this seat now — any
        JSON at all may arrive here — and then leave ``state`` exactly as it was."""
        raise NotImplementedError

    def resign(self, state, seat, reason):
        """``seat`` loses the match at once; return ``(state, events)`` (in place). ``reason`` is
        "resign", "timeout" (a clock ran out), "illegal" (a program broke the rules) or "abandon".
        Raise ``IllegalCommand`` if the match is already over."""
        raise NotImplementedError

    def legal_commands(self, state, seat):
        """Every command ``seat`` may send now (a list; empty when it owes none). Each one must be
        accepted by ``apply``. The built-in opponents and the conformance tests choose from it."""
        raise NotImplementedError

    def to_move(self, state):
        """The seats that owe a command now, as a tuple: one seat, both (a simultaneous phase, such
        as picking teams blind), or none once the match is over. Clocks and the runner follow it."""
        raise NotImplementedError

    def outcome(self, state):
        """None while the match goes on; once it is over, ``(winner seat, reason)``."""
        raise NotImplementedError

    def first_mover(self, state):
        """The seat that opened the match (a rematch hands the opening to the other seat)."""
        raise NotImplementedError

    def in_setup(self, state):
        """True while nothing either player did has been shown to the other (say, before both teams
        are in): the host may still call the match off instead of resigning."""
        raise NotImplementedError

    def blind(self, command):
        """True for a command made without seeing the other side's (a blind pick): it stays valid
        when the other side moved meanwhile, so the platform does not refuse it as stale."""
        raise NotImplementedError

    def dump(self, state):
        """``state`` as JSON (dicts, lists, strings, numbers); ``load(dump(s))`` equals ``s``."""
        raise NotImplementedError

    def load(self, data):
        """The state ``dump`` wrote, sharing nothing mutable with ``data``: a match's row is shared
        by its process's sockets and a command may be applied to the state loaded from it
        (``services._change_known``)."""
        raise NotImplementedError

    # --- What each audience may see. The only way a state or an event leaves the server.

    def view(self, state, audience):
        """The state as ``audience`` may know it, as JSON. It must hold nothing the audience may
        not know (not even in a field that a page would not show), and once the match is over
        the "all" view may hold everything."""
        raise NotImplementedError

    def project(self, events, audience):
        """``events`` as ``audience`` may see them: each whole, redacted, or left out. For a
        stored command, ``view(old state) + project(its events)`` is what the audience learns;
        the conformance kit checks that replaying them gives the fresh view."""
        raise NotImplementedError

    def choices(self, state, seat):
        """What ``seat`` may do now, as fields of the ``state``/``snapshot`` frame (for Aquawar
        ``{"legal": [...], "pick": {...} or None}``). ``seat`` None (a spectator, or anyone while
        the match is not being played; ``state`` may then be None): the same fields, empty. Only
        the seat's own options: nothing here may hint at the other side's hidden choices."""
        raise NotImplementedError

    # --- Clocks

    def restarts_clock(self, command):
        """Whether a seat that still owes a decision after its own ``command`` gets a fresh clock
        period. Per decision: always. Per turn: only for a command that starts a new period."""
        raise NotImplementedError

    def picking(self, state):
        """Whether ``state`` is a pick phase (choosing a team or a deck before play), timed by the
        pick allowance rather than the bank (game/time_controls.py)."""
        return False

    def program_seconds(self, state):
        """The contest's allowance for a program (a seat played over the bot socket) for what it
        owes now, in seconds (``state`` None: the default, told in the bot socket's welcome).
        ``settings.BOT_MOVE_SECONDS``, when set, overrides it for every game."""
        raise NotImplementedError

    # --- Built-in opponents

    def choose(self, level, view, events, legal, seat, rng, **options):
        """A built-in opponent's command for ``seat``. It receives exactly what that player may
        know: ``view(state, seat)``, ``project(every event so far, seat)`` and
        ``legal_commands(state, seat)``; ``rng`` (a ``random.Random``) is its only randomness.
        ``options`` tune a level (``settings.BOT_LEVEL_OPTIONS``)."""
        raise NotImplementedError

    # --- Win chances (docs/win-chances.md)

    def win_chance(self, state):
        """The chance (0 to 1) that the host (seat 0) wins the match, from what a spectator may know
        of ``state`` only: two states with the same spectator view get the same number."""
        raise NotImplementedError

    # --- Records

    def make_record(self, seed, commands, *, first_mover=None, players=None, forfeit=None, setup=None):
        """The record of a match as a JSON object: ``commands`` are ``(seat, command)`` pairs in
        order, ``forfeit`` ``(seat, reason)`` or None, ``first_mover`` the seat that opened,
        ``setup`` the match's ``Match.setup``. ``read_record`` reads it back with the same setup."""
        raise NotImplementedError

    def read_record(self, data):
        """A ``Record`` from a record file's bytes (or its decoded JSON), or from another file of
        the game that ``claims_upload`` (then with ``source`` set); ``RecordError`` if its shape is
        wrong. Whether its commands are legal is found by playing them (from ``new_match(seed,
        first_mover, setup)``)."""
        raise NotImplementedError

    def claims_upload(self, data):
        """Whether ``data`` (an uploaded file's bytes, which name no record format) is a file of
        this game other than its records, which ``read_record`` reads too (Aquawar: an official
        replay of the 2021 contest). False for anything else; a game with no such files always
        answers False."""
        raise NotImplementedError


class EngineGame(Game):
    """A ``Game`` over an engine of the shape both engines share: the ``engine`` package's
    ``apply`` and ``resign`` (with ``in_place``), ``view``, ``project`` and ``MatchState``
    (``from_json``; a state's ``to_json``, ``phase``, ``winner``, ``end_reason``, ``first_mover``),
    its ``records`` module's ``make_record`` and its ``winchance`` module's ``estimate(spectator view)``. A subclass adds the members that are its game's own."""

    engine = None
    records = None
    winchance = None

    def apply(self, state, seat, command):
        return self.engine.apply(state, seat, command, in_place=True)

    def resign(self, state, seat, reason):
        return self.engine.resign(state, seat, reason, in_place=True)

    def outcome(self, state):
        return (state.winner, state.end_reason) if state.phase == "over" else None

    def first_mover(self, state):
        return state.first_mover

    def dump(self, state):
        return state.to_json()

    def load(self, data):
        return self.engine.MatchState.from_json(data)

    def view(self, state, audience):
        return self.engine.view(state, audience)

    def project(self, events, audience):
        return self.engine.project(events, audience)

    def win_chance(self, state):
        # The spectator's view and nothing else reaches the estimator; its events add nothing to it.
        return self.winchance.estimate(self.engine.view(state, "spectator"))

    def make_record(self, seed, commands, *, first_mover=None, players=None, forfeit=None, setup=None):
        # A setup (an imported record's) is the keyword arguments of the record it came from.
        return self.records.make_record(
            seed,
            [{"player": seat, **command} for seat, command in commands],
            first_mover=first_mover,
            players=players,
            forfeit=forfeit,
            **(setup or {}),
        )


class Drawn:
    """A part of the match page drawn by a function of the template context (a dict) rather than by
    a template, where a template's loops cost too much for a part redrawn on every change. It goes
    where a template name would in ``Presentation.templates``: ``{% include %}`` takes it as it takes
    a template (it has ``render(context)``), and the browser socket calls ``draw`` with its dict."""

    def __init__(self, draw):
        self.draw = draw

    def render(self, context):
        return self.draw(context.flatten())


class Presentation:
    """How the site draws a game. The match page, the browser socket's fragments, the history and
    the replays call these; everything they get was projected for the viewer first."""

    #: Templates (or ``Drawn`` parts) of the game's parts of the match page, each a fragment with a fixed id that the
    #: browser socket swaps out of band: "status" (``#match-status``: extends "game/_status.html"
    #: and fills its blocks, or a ``Drawn`` part calling ``game.games.markup.status`` with the
    #: game's blocks), "board" (``#match-board``), "controls" (``#match-controls``, whose
    #: forms send ``form`` frames with ``ws-send``); and of the history pages: "summary" (the
    #: summary page's body), "replay" (what the replay script needs besides its data), "source"
    #: (on the summary and replay pages of a match imported from a ``Record.source``, given the
    #: ``describe_source`` of it as ``source``).
    templates = {}
    #: Static files (paths for ``{% static %}``) the match page loads after the platform's own:
    #: {"css": [...], "js": [...]}; the ones the summary and replay pages load: {"css": [...]}; and
    #: the replay viewer's script, which draws the frames of ``replay_data`` (it hands its steps to
    #: the platform's controls, ``Replay.controls`` of static/game/replay.js, loaded before it).
    match_static = {"css": (), "js": ()}
    history_static = {"css": ()}
    replay_script = None
    #: A line on the invitation page: what a match of this game is (lazily translated).
    blurb = None
    #: The match page's link to the summary (lazily translated).
    summary_link = None
    #: A line on the import page saying which files other than its records the game reads
    #: (``claims_upload``), lazily translated; "" for none.
    import_note = None

    def page_context(self, payload, marks, seats):
        """Template context of the board, controls and status from a ``state`` frame's body
        (``payload``: view, choices, players, clock …), the newest log line's ``marks`` and, per
        seat, ``{"label": the player's name as the viewer reads it, "clock": its running clock or
        None (drawn with "game/_clock.html"), "program": whether a program plays the seat}``."""
        raise NotImplementedError

    def log_book(self, audience, players):
        """A reader of projected events that writes the log (``entries(versions)`` → lines of
        ``{"version", "text", "kind", "images"}``, and ``"own": True`` on the lines of the viewer's
        own decisions if the game marks them (the page marks what came after as new);
        ``describe(event)`` → text or None, and ``marks`` for the board); it must name nothing its
        events did not name."""
        raise NotImplementedError

    def form_command(self, frame):
        """The command a browser form (flat string fields) stands for; ``BadForm`` if none."""
        raise NotImplementedError

    def refusal_text(self, code):
        """A person's wording of the engine's refusal ``code`` (translated), or None."""
        raise NotImplementedError

    def end_reason(self, reason):
        """How a match's end ``reason`` reads ("two rounds won", "resignation" …)."""
        raise NotImplementedError

    def history_facts(self, state):
        """What the history list shows of a finished match: ``{"score": (a, b), "turns": n}``."""
        raise NotImplementedError

    def progress(self, state):
        """How far a live match has come, in a few words everyone may read (the lobby's list of
        live matches: score, round, turn), or None where the game says nothing."""
        return None

    def summary(self, state, names, commands, plot):
        """The summary page's context for the "summary" template, from the final state, the two
        names, and ``commands``: ``[(version, seat, command, events)]`` replayed from the seed. ``plot(series, top)`` turns ``[(x, value of seat 0, value of seat 1)]`` into the
        coordinates of the platform's line chart."""
        raise NotImplementedError

    def describe_source(self, source, names):
        """How the pages name a match imported from a ``Record.source`` (``Match.source``), for
        ``templates["source"]``: a dict whose ``"label"`` (short, lower-case) the history list, the
        summary and the replay show where they show "imported", with whatever else the template
        reads; ``names`` are the two players'."""
        raise NotImplementedError

    def replay_data(self, frames, audience):
        """The replay viewer's data from its frames (``{"version", "view", "events", "lines"}``):
        ``{"data": JSON for its script, "rounds": what the jump list offers}``. Only what the
        frames name may appear in it."""
        raise NotImplementedError

    #: The body of the game's "How to play" page (a template name), shown at
    #: ``/games/<name>/how-to-play/`` and linked from the lobby and the match page; None: the game
    #: has none yet (no links are shown). It gets ``how_to_play_context()`` and ``game``.
    how_to_play = None

    def how_to_play_context(self):
        """What the "How to play" template needs beyond ``game`` (e.g. the pieces and their texts)."""
        return {}

    #: Extra views on a match for its players: [(path suffix, URL name, view)], routed as
    #: ``match/<id>/<suffix>`` in the "game" namespace; each view is called as
    #: ``view(request, match, seat, projected)`` once the platform has checked that the user plays
    #: the match, where ``projected()`` returns every event so far as that seat may see it. A path
    #: is answered for this game's matches only: on another game's match it is a 404.
    player_views = ()

