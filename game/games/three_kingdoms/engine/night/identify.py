"""Identifications (ruling 21, 57, 24's 招揽): read at the close, their results kept for 夜晚反馈公告.

同国: per submitted ID holding a listed character, nights 1–3 "指认到X" (the relation recorded, the
ID hidden until the reveal), from night 4 "A是X"; mutual only where the data says. 非同国: a hit is
mutual and shows the ID. 不反馈: nothing to the identifier, a hit asks the GM about the passive it
triggers (at once, or in the 结算前 order when the data marks it 结算前, ruling 58). 评价: "A是猛将" / "A不是猛将". 招揽: a hit on an unjoined 在野 becomes an offer.
"""
from __future__ import annotations

from ..gm import decisions
from ..state import GM, holder, slot

HIDDEN_NIGHTS = 3


def identifications(state, events):
    work = state["work"]
    for key, subs in state["subs"].items():
        actor = slot(state, int(key))
        specs = state["data"]["identifications"].get(holder(actor), [])
        for index, entry in sorted(subs.get("identify", {}).items()):
            spec = specs[int(index)]
            found = [_one(state, events, work, actor, spec, ident, entry) for ident in entry["targets"]]
            if state["night"] <= HIDDEN_NIGHTS and spec["kind"] in ("同国", "招揽"):
                # Nights 1–3 name the characters found, never which submitted ID held them.
                hits = [name for name in found if name]
                work["feedback"].append([actor["id"], "指认到" + "、".join(hits) if hits else "未指认到"])


def _one(state, events, work, actor, spec, ident, entry):
    target = slot(state, ident)
    name = holder(target)
    kind = spec["kind"]
    hidden = state["night"] <= HIDDEN_NIGHTS
    if kind == "评价":
        facts = state["data"]["characters"].get(name, {})
        wanted = spec.get("evaluation") or spec.get("identity")
        has = wanted in (facts.get("evaluations") or []) or target["identity"] == wanted
        work["feedback"].append([actor["id"], f"ID {ident} {'是' if has else '不是'}{wanted}"])
        return None
    if kind == "招揽":
        hit = target["country"] is None and name in entry["names"]
        if hit:
            work["offers"].append({"id": ident, "country": actor["country"], "via": "招揽", "by": actor["id"]})
            # A hit is an identification like 同国's: the 君主 knows the 在野's ID one way.
            if hidden:
                work["hidden"].append([actor["id"], ident])
            else:
                work["recognitions"].append([actor["id"], ident, False])
        if not hidden:
            work["feedback"].append([actor["id"], _result(ident, name if hit else None)])
        return name if hit else None
    hit = name in spec.get("names", [])
    if kind == "不反馈":
        if hit and spec.get("passive"):
            _trigger(state, events, work, actor, spec, ident, entry)
        return None
    if not hit:
        if not (hidden and kind == "同国"):
            work["feedback"].append([actor["id"], _result(ident, None)])
        return None
    if kind == "非同国":
        work["recognitions"].append([actor["id"], ident, True])
        work["feedback"].append([actor["id"], _result(ident, name)])
        return name
    mutual = name in spec.get("mutual", [])
    if hidden:
        work["hidden"].append([actor["id"], ident] + ([True] if mutual else []))
    else:
        work["recognitions"].append([actor["id"], ident, mutual])
        work["feedback"].append([actor["id"], _result(ident, name)])
    return name


def _trigger(state, events, work, actor, spec, ident, entry):
    """Ruling 58: a passive fires when its identification hits; one whose identification the data
    marks 结算前 (change note 3) waits for its turn in the 结算前 order instead, at rank 9."""
    if spec.get("before"):
        use = {"skill": spec["passive"], "targets": [ident], "trigger": ident, "seq": entry["seq"]}
        work["passives"].append([actor["id"], f"passive:{spec['passive']}", use])
        return
    skill = next((s for s in state["data"]["skills"] if s["owner"] == holder(actor) and s["name"] == spec["passive"]),
                 {})
    decisions.add(state, events, "skill", GM,
                  {"stage": "passive", "actor": actor["id"], "character": holder(actor), "skill": spec["passive"],
                   "targets": [ident], "text": skill.get("text", ""), "trigger": ident}, ["effects"],
                  skill.get("effects", []))


def _result(ident, name):
    return f"ID {ident} 未指认到" if name is None else f"ID {ident} 是{name}"
