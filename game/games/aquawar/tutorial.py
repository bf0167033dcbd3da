"""Aquawar's tutorial (``game.games.base.Tutorial``; docs/tutorial.md): a first match against a bot
that fields a known team, never asserts and makes plain attacks, while the page walks the player
through a pick, a skipped assertion, an attack, a right assertion and a skill, on the real board.

Each step is read off the player's projected payload alone, so whatever the player did instead of
what was asked (another team, an assertion instead of a skip, a skill instead of an attack), the
page shows the lesson that still fits the board, or the next one.
"""
from django.utils.translation import gettext as _

from ..base import Step, Target, Tutorial
from .texts import name as species_name

# The bot's team in round 1, told to the player in the assertion lesson. No dodging or shielded
# fish: the lesson's numbers come out as the text says.
BOT_TEAM = ("octopus", "sea_wolf", "hammerhead_shark", "great_white_shark")
# The team the pick lesson suggests: two fish whose skills need no target, two that need a teammate.
SUGGESTED = ("archerfish", "pufferfish", "electric_eel", "sunfish")
SKIP = ".skip-form button"


def fish(own, pos):
    team = ".team--own" if own else ".team:not(.team--own)"
    return f"{team} .fish[data-pos='{pos}'] .fish-picture"


class AquawarTutorial(Tutorial):
    seed = 20211
    first_mover = 0
    lessons = 6

    def choose(self, view, events, legal, seat, rng):
        if view["phase"] == "pick":
            # ``legal`` lists one order of each team; the lesson needs this one.
            return {"pick": list(BOT_TEAM)} if view["round"] == 1 else legal[0]
        if view["phase"] == "assert":
            return {"assert": None}
        # A plain attack by its first living fish on the player's first living fish: the player
        # sees one thing happen at a time, and wins by playing on.
        attacks = [c for c in legal if c["act"]["kind"] == "attack"]
        return min(attacks or legal, key=lambda c: (c["act"]["actor"], c["act"].get("enemy", 0)))

    def step(self, payload):
        seen = payload["view"]
        if seen["phase"] == "pick":
            return self.pick(seen)
        if seen["to_move"] != 0:
            return Step("wait", _("The tutorial bot is moving. Each move is written in the log, and marked on the fish it touched."))
        own, enemy = seen["teams"][0], seen["teams"][1]
        lessons_done = any(f["skill_uses"] for f in own) and any(f["revealed"] for f in enemy)
        if seen["round"] > 1 or lessons_done:
            return self.play_on()
        if seen["phase"] == "assert":
            if seen["turn"] == 0:
                return Step("skip", _(
                    "Your turn has two parts. First an assertion: you may name one hidden enemy fish. Right, it "
                    "is revealed and every enemy fish loses 50 HP; wrong, every one of yours does. You know "
                    "nothing of the enemy yet, so skip it."
                ), (Target(SKIP, _("Click “Skip the assertion”.")),), 2)
            return self.assertion(enemy)
        if not any(f["skill_uses"] for f in own) and seen["turn"] == 0:
            return self.attack(own)
        return self.skill(own, payload.get("legal") or [])

    def pick(self, seen):
        if seen["picked"][0]:
            return Step("wait", _("Your team is locked in. The tutorial bot is picking its own, in secret."))
        if seen["round"] > 1:
            return Step("pick", _(
                "A new round: pick four fish again. A species you fielded in an earlier round is gone for you."
            ), (Target(".pick-form button[type=submit]", _("Tick four fish, then lock in your team.")),), 1)
        targets = tuple(
            Target(f".pick-card:has(input[value={key}]) .pick-card__label", _("Click the %(fish)s.") % {"fish": species_name(key)})
            for key in SUGGESTED
        ) + (Target(".pick-form button[type=submit]", _("Lock in your team.")),)
        return Step("pick", _(
            "Each round starts with a secret pick: four of the twelve species, in the order they will stand. "
            "Every fish has 400 HP, 100 ATK and two skills (written on its card). For this first match take "
            "the four suggested, in order; any four would do."
        ), targets, 1)

    def attack(self, own):
        actor = next(i for i, f in enumerate(own) if f["alive"])
        targets = (
            Target(fish(True, actor), _("Click your %(fish)s.") % {"fish": species_name(own[actor]["fish"])}),
            Target(".fish-menu button[data-kind=attack]", _("Choose “Attack”.")),
            Target(fish(False, 0), _("Now click the enemy fish #1 to hit it.")),
        )
        return Step("attack", _(
            "Then act with one of your fish. A normal attack hits one enemy for half its ATK: 50 damage."
        ), targets, 3)

    def assertion(self, enemy):
        hidden = [i for i, f in enumerate(enemy) if f["alive"] and not f["revealed"]]
        if not hidden:
            return Step("skip-again", _("Every enemy fish is known: skip the assertion."), (Target(SKIP, _("Click “Skip the assertion”.")),))
        pos = hidden[0]
        species = species_name(BOT_TEAM[pos])
        targets = (
            Target(fish(False, pos), _("Click the enemy fish #%(pos)d.") % {"pos": pos + 1}),
            Target(f".assert-species[data-species={BOT_TEAM[pos]}]", _("Choose the %(fish)s.") % {"fish": species}),
            Target(".assert-confirm", _("Confirm the assertion.")),
        )
        return Step("assert", _(
            "Time to assert. The tutorial tells you that the enemy fish #%(pos)d is a %(fish)s; in a real match "
            "you work it out from what the enemy's fish do (the log, and the “What could they be?” aid)."
        ) % {"pos": pos + 1, "fish": species}, targets, 4)

    def skill(self, own, legal):
        skills = [c["act"] for c in legal if "act" in c and c["act"]["kind"] == "skill"]
        if not skills:
            return self.play_on()
        # A skill that needs no target first: one click fewer to explain.
        chosen = min(skills, key=lambda act: ("ally" in act or "enemy" in act, act["actor"]))
        name = species_name(own[chosen["actor"]]["fish"])
        targets = [
            Target(fish(True, chosen["actor"]), _("Click your %(fish)s.") % {"fish": name}),
            Target(".fish-menu button[data-kind=skill]", _("Choose “Skill”.")),
        ]
        if "ally" in chosen:
            targets.append(Target(fish(True, chosen["ally"]), _("Click the teammate the skill is for.")))
        if "enemy" in chosen:
            targets.append(Target(fish(False, chosen["enemy"]), _("Click the enemy the skill strikes.")))
        if "ally" not in chosen and "enemy" not in chosen:
            targets.append(Target(".fish-menu__use", _("Use the skill.")))
        return Step("skill", _(
            "Instead of a normal attack a fish may use its active skill (open “Skills” on a fish to read it). "
            "Use your %(fish)s's skill now."
        ) % {"fish": name}, tuple(targets), 5)

    def play_on(self):
        return Step("play", _(
            "That is the whole game: assert when you know a fish, act every turn. Defeat all four enemy fish "
            "to win the round; two rounds win the match. Play on against the tutorial bot, or leave whenever "
            "you like: this match is not rated."
        ), number=self.lessons, done=True)


TUTORIAL = AquawarTutorial()
