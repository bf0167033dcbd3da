"""The characters the rules text names, with what it states of them (rules §游戏介绍, rulings 7, 24,
37). Unstated identities and ranks follow ruling 7's roster order and are flagged ``inferred``: the
game master confirms or changes them in the game data (``setup``)."""

COUNTRIES = ("魏", "蜀", "吴")
FREE = "在野"
IDENTITIES = ("君主", "军师", "杀手", "护卫", "女眷", "平民")
EVALUATIONS = ("智者", "猛将", "统帅", "义士", "仁者", "能吏", "雅士", "文豪", "异人")

# Roster order per ruling 7: 君主, 主军师, 副军师, 主杀手, 副杀手, 护卫, 女眷.
_ORDER = (("君主", None), ("军师", "主"), ("军师", "副"), ("杀手", "主"), ("杀手", "副"), ("护卫", None),
          ("女眷", None))
_STATED = {"荀彧", "徐庶", "张昭", "夏侯惇", "关羽", "太史慈"}
INITIAL = {
    "魏": ("曹操", "荀彧", "郭嘉", "夏侯惇", "张辽", "典韦", "甄姬"),
    "蜀": ("刘备", "徐庶", "庞统", "关羽", "张飞", "赵云", "糜夫人"),
    "吴": ("孙坚", "张昭", "吕蒙", "太史慈", "凌操", "黄盖", "孙淑"),
}
FIXED_FREE = "司马朗"
FREE_POOL = ("水镜先生", "袁方", "吕布", "张角", "华佗", "小孟", "王允", "郭昂", "陈登", "陈宫", "董卓")
# Characters the text names outside the rosters: successors (ruling 37's hints) and others whose
# country and identity the game master gives.
OTHERS = ("诸葛亮", "荀攸", "刘晔", "魏延", "司马懿", "左慈", "贾诩", "周瑜", "小八")
ZHAO_YUN = "赵云"
SEATS_PER_COUNTRY = {27: 2, 30: 3, 33: 4}
FREE_COUNT = {27: 6, 30: 9, 33: 12}
# Ruling 39: a country is destroyed at alive <= threshold.
THRESHOLD = {27: (3, 4), 30: (4, 5), 33: (5, 6)}


def initial_characters():
    """{name: {"country", "identity", "rank", "inferred"}} for the 21 country characters."""
    out = {}
    for country, names in INITIAL.items():
        for name, (identity, rank) in zip(names, _ORDER):
            out[name] = {"country": country, "identity": identity, "rank": rank, "inferred": name not in _STATED}
    return out


# The identifications and facts the text states (rulings 21, 24, 35): the defaults of the game data.
SEED_IDENTIFICATIONS = {
    "徐庶": [{"kind": "同国", "count": 2, "names": ["刘备", "糜夫人"]}],
    "甄姬": [{"kind": "同国", "count": 2, "names": ["曹操", "荀彧", "荀攸", "刘晔"], "mutual": ["曹操"]},
           {"kind": "非同国", "count": 1, "names": ["袁方"]}],
    "张辽": [{"kind": "不反馈", "count": 1, "names": ["太史慈"], "passive": "急袭海昏"}],
    "典韦": [{"kind": "评价", "count": 1, "evaluation": "猛将"}],
}
RECRUIT = {"kind": "招揽", "count": 1}
# Ruling 43: the text spells one skill two ways; the rulings' spelling is the skill.
SKILL_ALIASES = {"料敌先机": "料敌机先"}
SEED_SKILLS = [
    {"name": "急袭海昏", "owner": "张辽", "timing": "被动", "targets": 0, "effects": [{"leave": "trigger"}],
     "text": "指认出太史慈后令太史慈脱离游戏"},
    {"name": "三顾茅庐", "owner": "刘备", "timing": "被动", "targets": 0, "text": "指认出诸葛亮后与诸葛亮互识"},
    {"name": "武圣永恒", "owner": "关羽", "timing": "被动", "targets": 0, "outside": True, "text": ""},
    {"name": "环环相扣", "owner": "庞统", "timing": "立刻", "targets": 1, "text": ""},
    {"name": "残兵之首", "owner": "赵云", "timing": "结算时", "targets": 1, "text": "前三夜目标由天庭随机指定"},
    {"name": "宛城护驾", "owner": "典韦", "timing": "结算时", "targets": 1, "text": ""},
    {"name": "借物代形", "owner": "左慈", "timing": "被动", "targets": 0, "text": ""},
    {"name": "弃车保帅", "owner": "司马懿", "timing": "白天受伤判定", "targets": 1, "text": ""},
    {"name": "诈取信任", "owner": "司马懿", "timing": "白天行动投票", "targets": 1, "text": ""},
]
SEED_NATURAL_DEATHS = {"徐庶": 3}
