"""Readable log lines from events already projected for one audience.

A ``LogBook`` walks the versions in order and remembers what the viewer has learnt of each fish's
species (its own picks, successful assertions, or everything for the ``"all"`` audience), so it can
only ever name a fish the projected events themselves have named to that viewer.
"""
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .species_text import name as species_name

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
SKILL_CATEGORIES = {
    "aoe": gettext_lazy("an area attack"),
    "crit": gettext_lazy("a critical strike"),
    "harm_ally": gettext_lazy("a skill that hurts a teammate"),
    "silent": gettext_lazy("a skill with no visible effect"),
}


class LogBook:
    def __init__(self, audience, players):
        self.audience = audience
        self.players = players
        self.round = 1
        self.pending = [None, None]
        self.known = [[None] * 4, [None] * 4]

    def entries(self, versions):
        """``versions``: [(version, projected events)] in order → [{"version", "round", "text", "kind"}]."""
        lines = []
        for version, events in versions:
            for event in events:
                text = self.describe(event)
                if text:
                    lines.append({"version": version, "round": self.round, "text": text, "kind": event["type"]})
        return lines

    def player(self, side):
        if self.audience == side:
            return _("you")
        return self.players[side] or _("Player %(n)s") % {"n": side + 1}

    def fish(self, side, pos):
        owner = _("your") if self.audience == side else _("%(player)s's") % {"player": self.player(side)}
        species = self.known[side][pos] if 0 <= pos < 4 else None
        if species:
            return _("%(owner)s %(species)s (#%(pos)s)") % {
                "owner": owner,
                "species": species_name(species),
                "pos": pos + 1,
            }
        return _("%(owner)s fish #%(pos)s") % {"owner": owner, "pos": pos + 1}

    def describe(self, event):
        handler = getattr(self, "on_" + event["type"], None)
        text = handler(event) if handler else None
        # "you" / "your" start many lines; player names keep the case their owners chose.
        if text and text.startswith(_("you")):
            text = capfirst(text)
        return text

    def on_pick(self, event):
        if "fish" not in event:
            return _("%(player)s picked a team.") % {"player": self.player(event["player"])}
        self.pending[event["player"]] = event["fish"]
        names = ", ".join(str(species_name(s)) for s in event["fish"])
        if event.get("mimic"):
            names += " " + _("(the Mimic Fish copies %(species)s)") % {"species": species_name(event["mimic"])}
        return _("%(player)s picked %(names)s.") % {"player": self.player(event["player"]), "names": names}

    def on_round_start(self, event):
        self.round = event["round"]
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
        text = _("%(actor)s uses %(skill)s") % {
            "actor": actor,
            "skill": SKILL_CATEGORIES.get(event.get("category"), _("its skill")),
        }
        targets = []
        if event.get("ally") is not None:
            targets.append(self.fish(side, event["ally"]))
        if event.get("enemy") is not None:
            targets.append(self.fish(1 - side, event["enemy"]))
        if targets:
            text += " " + _("on %(targets)s") % {"targets": _(" and ").join(targets)}
        return text + "."

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
        return _("Round %(round)s goes to %(player)s (%(reason)s) after %(turns)s turns. Score %(a)s–%(b)s.") % {
            "round": event["round"],
            "player": self.player(event["winner"]),
            "reason": ROUND_END_REASONS.get(event["reason"], event["reason"]),
            "turns": event["turns"],
            "a": event["score"][0],
            "b": event["score"][1],
        }

    def on_match_end(self, event):
        return _("%(player)s won the match (%(reason)s). Final score %(a)s–%(b)s.") % {
            "player": self.player(event["winner"]),
            "reason": MATCH_END_REASONS.get(event["reason"], event["reason"]),
            "a": event["score"][0],
            "b": event["score"][1],
        }
