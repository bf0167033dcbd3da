"""Readable log lines from 神迹之战 events already projected for one audience.

A ``LogBook`` reads the versions in order and remembers each unit from its ``summon`` event (owner,
type, level), so a line names a unit the way the viewer knows it: "your Archer (L2)", "the enemy
Swordsman (L1)", or for a spectator "Alice's Swordsman (L1)". An attack and the damage it deals are
one line. A deck is named only when the projected event names it (its owner, then everyone once
both are in). The board's marks (what the opponent's last turn did) come from BOARD's ``Trail``.
"""
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..base import close_cjk_gaps
from . import marks
from .texts import END_REASONS, TIEBREAKS, artifact_name, creature_name


class LogBook:
    def __init__(self, audience, players):
        self.audience = audience
        self.players = players
        self.units = {}
        # The attack whose damage event comes next: the two are told as one line.
        self.attacking = None
        self.trail = marks.Trail(audience)
        self.marks = self.trail.marks()

    def entries(self, versions):
        """``versions``: [(version, projected events)] in order → [{"version", "text", "kind", "images"}].
        Afterwards ``marks`` holds what the board highlights (the opponent's last turn)."""
        lines = []
        for version, events in versions:
            self.trail.read(events)
            for event in events:
                text = self.describe(event)
                if text:
                    lines.append({"version": version, "text": text, "kind": event["type"], "images": []})
        self.marks = self.trail.marks()
        return lines

    def describe(self, event):
        handler = getattr(self, "on_" + event["type"], None)
        text = handler(event) if handler else None
        if not text:
            return None
        # "you", "your", "the enemy" start many lines and take a capital; a player's name never
        # changes case: it is the name its owner chose.
        if not any(name and text.startswith(name) for name in self.players):
            text = capfirst(text)
        return close_cjk_gaps(text)

    # --- Names

    def player(self, side):
        if self.audience == side:
            return _("you")
        return self.players[side] or _("Player %(n)s") % {"n": side + 1}

    def unit(self, unit_id):
        camp, type_id, level = self.units.get(unit_id, (None, None, None))
        if camp is None:
            return _("unit #%(id)s") % {"id": unit_id}
        words = {"name": creature_name(type_id), "level": level}
        if camp == self.audience:
            return _("your %(name)s (L%(level)s)") % words
        if self.audience in (0, 1):
            return _("the enemy %(name)s (L%(level)s)") % words
        return _("%(player)s's %(name)s (L%(level)s)") % {**words, "player": self.player(camp)}

    def miracle(self, side):
        if side == self.audience:
            return _("your miracle")
        if self.audience in (0, 1):
            return _("the enemy miracle")
        return _("%(player)s's miracle") % {"player": self.player(side)}

    def target(self, event):
        return self.miracle(event["miracle"]) if "miracle" in event else self.unit(event["unit"])

    # --- Events

    def on_deck(self, event):
        if "creatures" not in event:
            return _("%(player)s chose a deck.") % {"player": self.player(event["player"])}
        return _("%(player)s chose %(deck)s.") % {"player": self.player(event["player"]), "deck": self.deck(event)}

    def deck(self, deck):
        creatures = _(", ").join(str(creature_name(c)) for c in deck["creatures"])
        return _("%(creatures)s with %(artifact)s") % {"creatures": creatures, "artifact": artifact_name(deck["artifact"])}

    def on_decks(self, event):
        first = event["first_mover"]
        words = {"a": self.player(first), "deck_a": self.deck(event["decks"][first]),
                 "b": self.player(1 - first), "deck_b": self.deck(event["decks"][1 - first])}
        # Whole sentences per case: "you" and a name take different verbs in English.
        if self.audience == first:
            return _("Decks revealed: yours is %(deck_a)s; %(b)s plays %(deck_b)s. You move first.") % words
        if self.audience == 1 - first:
            return _("Decks revealed: %(a)s plays %(deck_a)s and moves first; yours is %(deck_b)s.") % words
        return _("Decks revealed: %(a)s plays %(deck_a)s and moves first; %(b)s plays %(deck_b)s.") % words

    def on_turn_start(self, event):
        words = {"turn": event["turn"], "player": self.player(event["player"]), "mana": event["mana"]}
        if self.audience == event["player"]:
            return _("Turn %(turn)s: your turn, %(mana)s mana.") % words
        return _("Turn %(turn)s: %(player)s's turn, %(mana)s mana.") % words

    def on_unit_counts(self, event):
        return _("More units join both decks.")

    def on_summon(self, event):
        self.units[event["unit"]] = (event["player"], event["unit_type"], event["level"])
        return _("%(player)s summoned a %(name)s (L%(level)s) for %(cost)s mana.") % {
            "player": self.player(event["player"]), "name": creature_name(event["unit_type"]),
            "level": event["level"], "cost": event["cost"]}

    def on_move(self, event):
        steps = len(event["path"])
        return ngettext("%(unit)s moved %(steps)s cell.", "%(unit)s moved %(steps)s cells.", steps) % {
            "unit": self.unit(event["unit"]), "steps": steps}

    def on_attack(self, event):
        self.attacking = event
        return None

    def on_damage(self, event):
        attack, self.attacking = self.attacking, None
        words = {"target": self.target(event), "amount": event["amount"], "hp": max(event["hp"], 0)}
        if event["kind"] == "attack" and attack is not None:
            words["unit"] = self.unit(attack["unit"])
            if event["shielded"]:
                return _("%(unit)s attacks %(target)s: the holy shield blocks it.") % words
            return _("%(unit)s attacks %(target)s: %(amount)s damage (HP %(hp)s).") % words
        if event["shielded"]:
            return _("The holy shield of %(target)s blocks the hit.") % words
        if event["kind"] == "counter":
            words["unit"] = self.unit(event["source"])
            return _("%(unit)s strikes back at %(target)s: %(amount)s damage (HP %(hp)s).") % words
        if event["kind"] == "splash":
            words["unit"] = self.unit(event["source"])
            return _("The splash of %(unit)s hits %(target)s: %(amount)s damage (HP %(hp)s).") % words
        words["artifact"] = artifact_name(event["source"])
        return _("%(artifact)s hits %(target)s: %(amount)s damage (HP %(hp)s).") % words

    def on_heal(self, event):
        words = {"unit": self.unit(event["unit"]), "amount": event["amount"], "hp": event["hp"]}
        return _("%(unit)s heals %(amount)s HP (HP %(hp)s).") % words

    def on_death(self, event):
        self.units.setdefault(event["unit"], (event["camp"], event["unit_type"], event["level"]))
        return _("%(unit)s is defeated.") % {"unit": self.unit(event["unit"])}

    def on_artifact(self, event):
        words = {"player": self.player(event["player"]), "artifact": artifact_name(event["artifact"]),
                 "cost": event["cost"]}
        if "unit" in event:
            words["unit"] = self.unit(event["unit"])
            return _("%(player)s used %(artifact)s on %(unit)s for %(cost)s mana.") % words
        return _("%(player)s used %(artifact)s for %(cost)s mana.") % words

    def on_equip(self, event):
        return _("%(unit)s is equipped: max HP %(max_hp)s.") % {"unit": self.unit(event["unit"]), "max_hp": event["max_hp"]}

    def on_action_restored(self, event):
        return _("%(unit)s may act again.") % {"unit": self.unit(event["unit"])}

    def on_capture(self, event):
        return _("%(unit)s captured a garrison, and with it three spawn points.") % {"unit": self.unit(event["unit"])}

    def on_ready(self, event):
        words = {"player": self.player(event["player"])}
        if "artifact" in event:
            return _("%(player)s: %(artifact)s is ready again.") % {**words, "artifact": artifact_name(event["artifact"])}
        return _("%(player)s: %(count)s × %(name)s ready to summon again.") % {
            **words, "count": event["count"], "name": creature_name(event["creature"])}

    def on_match_end(self, event):
        words = {"player": self.player(event["winner"]), "reason": END_REASONS.get(event["reason"], event["reason"])}
        if event.get("tiebreak"):
            words["reason"] = f"{words['reason']}: {TIEBREAKS.get(event['tiebreak'], event['tiebreak'])}"
        if self.audience == event["winner"]:
            return _("You won the match (%(reason)s).") % words
        return _("%(player)s won the match (%(reason)s).") % words
