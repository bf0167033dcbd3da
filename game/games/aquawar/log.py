"""Readable log lines from events already projected for one audience.

A ``LogBook`` walks the versions in order and remembers what the viewer has learnt of each fish's
species (its own picks, successful assertions, or everything for the ``"all"`` audience), so it can
only ever name a fish the projected events themselves have named to that viewer. It also keeps the
marks of the newest version (a hit, a heal, a block…) that the board flashes on the fish concerned.
"""
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..base import close_cjk_gaps
from .texts import image as species_image
from .texts import name as species_name

ROUND_END_REASONS = {
    "wipeout": gettext_lazy("a whole team was defeated"),
    "mutual": gettext_lazy("both teams fell together; the last to act wins"),
    "turn_limit": gettext_lazy("turn limit reached"),
}
MATCH_END_REASONS = {
    "rounds": gettext_lazy("two rounds won"),
    "resign": gettext_lazy("resignation"),
    "timeout": gettext_lazy("time ran out"),
    "illegal": gettext_lazy("an illegal move"),
    "abandon": gettext_lazy("the match was abandoned"),
}
# The events a player's decision in a round starts with (a turn: an assertion or its skip, then an action).
OPERATIONS = ("assert", "assert_skip", "action")
SKILL_CATEGORIES = {
    "aoe": gettext_lazy("an area attack"),
    "crit": gettext_lazy("a critical strike"),
    "harm_ally": gettext_lazy("a skill that hurts a teammate"),
    "silent": gettext_lazy("a skill with no visible effect"),
}


def marks(events):
    """{(side, pos): [{"kind", "text"}]}: what each fish went through in one version, for the board.

    Built from the viewer's projected events only, so a mark says no more than the log line does:
    the owner of a shielded fish reads "Shield", everyone else the public "Blocked".
    """
    found = {}

    def mark(side, pos, kind, text):
        found.setdefault((side, pos), []).append({"kind": kind, "text": text})

    for event in events:
        kind = event["type"]
        if kind in ("damage", "hp_loss"):
            mark(event["side"], event["pos"], "damage", f"−{event['amount']}")
        elif kind == "heal":
            mark(event["side"], event["pos"], "heal", f"+{event['amount']}")
        elif kind == "avoid":
            mark(event["side"], event["pos"], "block", _("Shield") if event["how"] == "shield" else _("Dodge"))
        elif kind == "reduce":
            mark(event["side"], event["pos"], "block", _("Blocked") if event["to"] == 0 else _("Reduced"))
        elif kind == "share":
            mark(event["side"], event["pos"], "block", _("Shared"))
        elif kind == "counter":
            mark(*event["target"], "counter", _("Counter"))
        elif kind == "explode":
            mark(*event["target"], "counter", _("Explosion"))
        elif kind == "death":
            mark(event["side"], event["pos"], "death", _("Defeated"))
        elif kind == "action":
            mark(event["player"], event["actor"], "act", _("Attack") if event["kind"] == "attack" else _("Skill"))
    return found


def mark_rows(events):
    """``marks(events)`` as rows for the replay's script, ``[[side, pos, kind, text]]``: the same
    marks, in the same words, as the live board draws."""
    return [[side, pos, mark["kind"], mark["text"]] for (side, pos), found in marks(events).items() for mark in found]


class LogBook:
    def __init__(self, audience, players):
        self.audience = audience
        self.players = players
        self.round = 1
        self.pending = [None, None]
        self.known = [[None] * 4, [None] * 4]
        self.marks = {}
        self.turn = 0
        self.in_turn = False
        # The species the line being written names, for the drawings shown beside it.
        self.named = []

    def entries(self, versions):
        """``versions``: [(version, projected events)] in order → [{"version", "round", "text", "kind",
        "images"}], where ``images`` are the drawings of the species the line names.

        Afterwards ``marks`` holds the marks of the newest of them (none if there were none).
        """
        lines = []
        for version, events in versions:
            for event in events:
                if event["type"] in OPERATIONS:
                    lines.extend(self.turn_heading(version, event))
                text = self.describe(event)
                if text:
                    images = [species_image(s) for s in dict.fromkeys(self.named)]
                    lines.append(
                        {
                            "version": version,
                            "round": self.round,
                            "turn": self.turn,
                            "text": text,
                            "kind": event["type"],
                            "images": images,
                            "own": self.is_own(event),
                        }
                    )
            # A version without marks (a skipped assertion, say) leaves the last move's on the board.
            self.marks = marks(events) or self.marks
        return lines

    def is_own(self, event):
        """Whether the line is the viewer's own decision (the page marks what came after it as new)."""
        return event["type"] in OPERATIONS + ("pick",) and event["player"] == self.audience

    def turn_heading(self, version, event):
        """A heading line when ``event`` opens a turn (its assertion, or its action when no
        assertion came first); a turn closes with its action."""
        opens = not self.in_turn
        self.in_turn = event["type"] != "action"
        if not opens:
            return []
        self.turn += 1
        text = _("Turn %(turn)s · %(player)s") % {"turn": self.turn, "player": self.player(event["player"])}
        return [
            {
                "version": version,
                "round": self.round,
                "turn": self.turn,
                "text": capfirst(text),
                "kind": "turn",
                "images": [],
                "own": False,
            }
        ]

    def player(self, side):
        if self.audience == side:
            return _("you")
        return self.players[side] or _("Player %(n)s") % {"n": side + 1}

    def fish(self, side, pos):
        owner = _("your") if self.audience == side else _("%(player)s's") % {"player": self.player(side)}
        species = self.known[side][pos] if 0 <= pos < 4 else None
        if species:
            self.named.append(species)
            return _("%(owner)s %(species)s (#%(pos)s)") % {
                "owner": owner,
                "species": species_name(species),
                "pos": pos + 1,
            }
        return _("%(owner)s fish #%(pos)s") % {"owner": owner, "pos": pos + 1}

    def describe(self, event):
        self.named = []
        handler = getattr(self, "on_" + event["type"], None)
        text = handler(event) if handler else None
        # "you" / "your" start many lines; player names keep the case their owners chose.
        if text and text.startswith(_("you")):
            text = capfirst(text)
        return text and close_cjk_gaps(text)

    def on_pick(self, event):
        if "fish" not in event:
            return _("%(player)s picked a team.") % {"player": self.player(event["player"])}
        self.pending[event["player"]] = event["fish"]
        self.named.extend(event["fish"])
        names = _(", ").join(str(species_name(s)) for s in event["fish"])
        if event.get("mimic"):
            names += " " + _("(the Mimic Fish copies %(species)s)") % {"species": species_name(event["mimic"])}
        return _("%(player)s picked %(names)s.") % {"player": self.player(event["player"]), "names": names}

    def on_round_start(self, event):
        self.round = event["round"]
        self.turn = 0
        self.in_turn = False
        # The last round's marks were on fish no longer on the board.
        self.marks = {}
        self.known = [list(p) if p else [None] * 4 for p in self.pending]
        self.pending = [None, None]
        return _("Round %(round)s begins. First to move: %(player)s.") % {
            "round": event["round"],
            "player": self.player(event["first_mover"]),
        }

    def on_assert(self, event):
        enemy = 1 - event["player"]
        words = {
            "player": self.player(event["player"]),
            "target": self.fish(enemy, event["target"]),
            "species": species_name(event["fish"]),
        }
        # The guess is public whether right or wrong.
        self.named.append(event["fish"])
        if event["success"]:
            self.known[enemy][event["target"]] = event["fish"]
            return _("%(player)s guessed %(target)s is %(species)s: correct!") % words
        return _("%(player)s guessed %(target)s is %(species)s: wrong.") % words

    def on_assert_skip(self, event):
        return _("%(player)s skipped the assertion.") % {"player": self.player(event["player"])}

    def on_hp_loss(self, event):
        return _("%(fish)s loses %(amount)s HP to the assertion (HP %(hp)s).") % {
            "fish": self.fish(event["side"], event["pos"]),
            "amount": event["amount"],
            "hp": event["hp"],
        }

    def on_action(self, event):
        side = event["player"]
        actor = self.fish(side, event["actor"])
        if event["kind"] == "attack":
            return _("%(actor)s attacks %(target)s.") % {"actor": actor, "target": self.fish(1 - side, event["enemy"])}
        category = event.get("category")
        words = {"actor": actor, "skill": SKILL_CATEGORIES.get(category, _("its skill"))}
        # A skill's owner sees the teammate it helps as well as any enemy it strikes: each is named
        # for what happened to it (the teammate gets the effect, the enemy the strike).
        if event.get("ally") is not None:
            if category == "harm_ally":
                return _("%(actor)s uses %(skill)s on %(ally)s.") % {**words, "ally": self.fish(side, event["ally"])}
            if event["ally"] == event["actor"]:
                return _("%(actor)s uses its skill on itself.") % words
            words["ally"] = self.fish(side, event["ally"])
            if event.get("enemy") is not None:
                words["enemy"] = self.fish(1 - side, event["enemy"])
                return _("%(actor)s uses its skill on teammate %(ally)s and a critical strike on %(enemy)s.") % words
            if category == "aoe":
                return _("%(actor)s uses its skill on teammate %(ally)s and an area attack on every enemy fish.") % words
            return _("%(actor)s uses its skill on teammate %(ally)s.") % words
        if event.get("enemy") is not None:
            return _("%(actor)s uses %(skill)s on %(enemy)s.") % {**words, "enemy": self.fish(1 - side, event["enemy"])}
        return _("%(actor)s uses %(skill)s.") % words

    def on_damage(self, event):
        return _("%(fish)s takes %(amount)s damage (HP %(hp)s).") % {
            "fish": self.fish(event["side"], event["pos"]),
            "amount": event["amount"],
            "hp": event["hp"],
        }

    def on_avoid(self, event):
        how = _("a shield blocks") if event["how"] == "shield" else _("it dodges")
        return _("%(fish)s: %(how)s %(amount)s damage.") % {
            "fish": self.fish(event["side"], event["pos"]),
            "how": how,
            "amount": event["amount"],
        }

    def on_reduce(self, event):
        return _("%(fish)s takes less damage: %(amount)s → %(to)s.") % {
            "fish": self.fish(event["side"], event["pos"]),
            "amount": event["amount"],
            "to": event["to"],
        }

    def on_share(self, event):
        return _("%(fish)s shares the damage with its teammates.") % {"fish": self.fish(event["side"], event["pos"])}

    def on_heal(self, event):
        return _("%(fish)s heals %(amount)s HP (HP %(hp)s).") % {
            "fish": self.fish(event["side"], event["pos"]),
            "amount": event["amount"],
            "hp": event["hp"],
        }

    def on_counter(self, event):
        side = event["side"]
        if "by" in event:
            who = self.fish(side, event["by"])
            return _("%(who)s strikes back at %(target)s.") % {"who": who, "target": self.fish(*event["target"])}
        return _("The hit on %(fish)s sets off a counter-attack on %(target)s.") % {
            "fish": self.fish(side, event["pos"]),
            "target": self.fish(*event["target"]),
        }

    def on_explode(self, event):
        return _("%(fish)s explodes, hitting %(target)s.") % {
            "fish": self.fish(event["side"], event["pos"]),
            "target": self.fish(*event["target"]),
        }

    def on_atk(self, event):
        return _("%(fish)s now has ATK %(atk)s.") % {"fish": self.fish(event["side"], event["pos"]), "atk": event["atk"]}

    def on_death(self, event):
        return _("%(fish)s is defeated.") % {"fish": self.fish(event["side"], event["pos"])}

    def on_round_end(self, event):
        text = _("Round %(round)s goes to %(player)s (%(reason)s) after %(turns)s turns.") % {
            "round": event["round"],
            "player": self.player(event["winner"]),
            "reason": ROUND_END_REASONS.get(event["reason"], event["reason"]),
            "turns": event["turns"],
        }
        return f"{text} {self.score(event['score'])}"

    def score(self, score):
        """The score as the viewer reads it: a player's own first."""
        if self.audience not in (0, 1):
            return _("Score %(a)s–%(b)s.") % {"a": score[0], "b": score[1]}
        words = {"mine": score[self.audience], "theirs": score[1 - self.audience]}
        if words["mine"] > words["theirs"]:
            return _("You lead %(mine)s–%(theirs)s.") % words
        if words["mine"] < words["theirs"]:
            return _("You trail %(mine)s–%(theirs)s.") % words
        return _("Level at %(mine)s–%(theirs)s.") % words

    def on_match_end(self, event):
        winner = event["winner"]
        score = {"a": event["score"][0], "b": event["score"][1]}
        if event["reason"] == "timeout":
            # Said of the loser, so that both sides and every spectator read why the match ended.
            names = {"winner": self.player(winner), "loser": self.player(1 - winner), **score}
            if self.audience == 1 - winner:
                return _("You ran out of time — %(winner)s wins the match. Final score %(a)s–%(b)s.") % names
            if self.audience == winner:
                return _("%(loser)s ran out of time — you win the match. Final score %(a)s–%(b)s.") % names
            return _("%(loser)s ran out of time — %(winner)s wins the match. Final score %(a)s–%(b)s.") % names
        return _("%(player)s won the match (%(reason)s). Final score %(a)s–%(b)s.") % {
            "player": self.player(winner),
            "reason": MATCH_END_REASONS.get(event["reason"], event["reason"]),
            **score,
        }
