"""神迹之战's tutorial (``game.games.base.Tutorial``; docs/tutorial.md): a first match against a bot
that holds the same deck, sends one Swordsman at a time straight at the player's creatures and
attacks whatever it reaches, while the page walks the player through a deck, a summon, ending a
turn, a move and an attack, on the real map.

The steps are read off the player's projected payload (the view and the engine's ``options``) alone:
a player who summons something else, moves elsewhere or ends a turn early is shown the lesson that
fits the board as it now is.
"""
from django.utils.translation import gettext as _

from ..base import Step, Target, Tutorial
from .mapdraw import key
from .texts import creature_name

DECK = {"artifact": "holy_light", "creatures": ["swordsman", "archer", "black_bat"]}
FIRST = "swordsman"
END_TURN = "#end-turn-form button"
# The board may ask before a turn ends with moves or mana left; its first button ends the turn.
CONFIRM_END = "#board-tray.board-tray--confirm button:first-of-type"


def distance(a, b):
    return max(abs(x - y) for x, y in zip(a, b))


def cell(at):
    return f'.miracle-board .hex[data-cell="{key(at)}"]'


def token(unit):
    return f'.miracle-board .token[data-unit="{unit}"]'


def nearest(cells, goals):
    """The cell of ``cells`` closest to any of ``goals`` (ties: the first listed)."""
    return min(cells, key=lambda c: min(distance(c, g) for g in goals))


class MiracleTutorial(Tutorial):
    seed = 29
    first_mover = 0
    lessons = 6

    def choose(self, view, events, legal, seat, rng):
        if view["phase"] == "deck":
            return {"deck": DECK}
        enemies = [u["at"] for u in view["units"] if u["camp"] != seat] or [view["miracles"][1 - seat]]
        attacks = [c for c in legal if "attack" in c]
        if attacks:
            return attacks[0]
        moves = [c for c in legal if "move" in c]
        if moves:
            return min(moves, key=lambda c: (c["move"]["unit"], min(distance(c["move"]["to"], e) for e in enemies)))
        own = [u for u in view["units"] if u["camp"] == seat]
        summons = [c for c in legal if "summon" in c and c["summon"]["type"] == FIRST and c["summon"]["level"] == 1]
        if summons and not own:
            return min(summons, key=lambda c: min(distance(c["summon"]["at"], e) for e in enemies))
        return {"end_turn": {}}

    def step(self, payload):
        seen = payload["view"]
        if seen["phase"] == "deck":
            if seen["deck_submitted"][0]:
                return Step("wait", _("Your deck is locked in. The tutorial bot is choosing its own."))
            return self.deck()
        if seen["current"] != 0:
            return Step("wait", _(
                "The tutorial bot is playing its turn: summoning, moving and attacking, each written in the log "
                "and lit on the map."
            ))
        options = payload.get("options") or {}
        units = options.get("units") or []
        own = [u for u in seen["units"] if u["camp"] == 0]
        enemies = [u for u in seen["units"] if u["camp"] == 1]
        if self.attacked(seen, enemies):
            return self.play_on()
        attacking = [u for u in units if any(t != "miracle" for t in u["attacks"])]
        if attacking:
            return self.attack(attacking[0], seen)
        if not own:
            return self.summon(options.get("summons") or [], seen)
        moving = [u for u in units if u["moves"]]
        if moving:
            goals = [u["at"] for u in enemies] or [seen["miracles"][1]]
            return self.move(moving[0], seen, goals)
        return Step("end", _(
            "Nothing more to do this turn (a creature summoned this turn waits until your next). End your turn."
        ), self.ending(), 3)

    @staticmethod
    def ending():
        return (Target(END_TURN, _("Click “End turn”.")), Target(CONFIRM_END, _("Yes: end the turn."), optional=True))

    @staticmethod
    def attacked(seen, enemies):
        """Whether the player has hit anything yet: an enemy hurt or lost, or the enemy miracle hurt."""
        lost = any(pool["cooling"] for pool in (seen["pools"][1] or {}).values())
        return lost or seen["miracle_hp"][1] < 30 or any(u["hp"] < u["max_hp"] for u in enemies)

    def deck(self):
        targets = (Target('.deck-card:has(input[value="holy_light"])', _("Take Holy Light as your artifact.")),) + tuple(
            Target(f'.deck-card:has(input[value="{creature}"])', _("Tick the %(creature)s.") % {"creature": creature_name(creature)})
            for creature in DECK["creatures"]
        ) + (Target(".deck-form button[type=submit]", _("Lock in your deck.")),)
        return Step("deck", _(
            "Before the match each side secretly chooses a deck: one artifact and three creature types. Each "
            "card says what it costs in mana and what it does. For this first match take the ones suggested."
        ), targets, 1)

    def summon(self, summons, seen):
        first = [s for s in summons if s["type"] == FIRST and s["level"] == 1] or summons
        if not first:
            return Step("end", _("You can summon nothing more this turn: end it."), self.ending(), 3)
        chosen = first[0]
        name = creature_name(chosen["type"])
        spot = nearest(chosen["cells"], [seen["miracles"][1]])
        return Step("summon", _(
            "Your miracle (30 HP) is at the bottom, the enemy's at the top: bring theirs to 0 to win. You have "
            "%(mana)d mana. Summon a level-1 %(creature)s on one of your spawn points (the tinted cells around "
            "your miracle)."
        ) % {"mana": seen["mana"][0], "creature": name}, (
            Target(f'.card--mine[data-card="{chosen["type"]}"]', _("Click your %(creature)s card below the map.") % {"creature": name}),
            Target("#board-tray button", _("Choose level 1.")),
            Target(cell(spot), _("Click the lit spawn point nearest the enemy.")),
        ), 2)

    def move(self, unit, seen, goals):
        mover = next(u for u in seen["units"] if u["id"] == unit["unit"])
        name = creature_name(mover["type"])
        to = nearest([m["to"] for m in unit["moves"]], goals)
        return Step("move", _(
            "March: a creature moves up to its move points (%(move)d for your %(creature)s). It cannot pass other "
            "creatures, and it must stop when it steps next to an enemy: the green cells are where it may end."
        ) % {"move": mover["move"], "creature": name}, (
            Target(token(unit["unit"]), _("Click your %(creature)s.") % {"creature": name}),
            Target(cell(to), _("Click the green cell nearest the enemy.")),
        ), 4)

    def attack(self, unit, seen):
        attacker = next(u for u in seen["units"] if u["id"] == unit["unit"])
        target = next(u for u in seen["units"] if u["id"] == next(t for t in unit["attacks"] if t != "miracle"))
        return Step("attack", _(
            "An enemy is in range. Attack it: it loses HP equal to your attack, and if your creature stands within "
            "its range it strikes back (a counter). A creature either moves or attacks in a turn, not both."
        ), (
            Target(token(attacker["id"]), _("Click your %(creature)s.") % {"creature": creature_name(attacker["type"])}),
            Target(cell(target["at"]), _("Click the enemy %(creature)s, lit red.") % {"creature": creature_name(target["type"])}),
        ), 5)

    def play_on(self):
        return Step("play", _(
            "That is the whole game: summon, march, attack, and use your artifact (its card, beside the "
            "creatures) when it helps. Bring the enemy miracle to 0 HP to win. Play on against the tutorial bot, "
            "or leave whenever you like: this match is not rated."
        ), number=self.lessons, done=True)


TUTORIAL = MiracleTutorial()
