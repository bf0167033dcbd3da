"""The drawings of the 神迹之战 board: every one the board needs is there, and each is a safe, tintable
SVG that can be inlined or referenced with <use> (game/games/miracle/static/miracle/img/README.md)."""
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

IMG = Path(__file__).resolve().parents[3] / "game" / "games" / "miracle" / "static" / "miracle" / "img"
SVG = "{http://www.w3.org/2000/svg}"
CREATURES = ["swordsman", "archer", "black_bat", "priest", "volcano_dragon", "frost_dragon", "inferno"]
TINTED_MARKS = ["miracle", "garrison", "spawn"]
FIXED_MARKS = ["abyss", "shield", "aura", "star", "mana"]
ARTIFACTS = ["holy_light", "inferno_flame", "salamander_shield", "wind_blessing"]
REQUIRED = CREATURES + TINTED_MARKS + FIXED_MARKS + ARTIFACTS
FORBIDDEN_TAGS = {"script", "text", "image", "foreignObject", "style", "a"}


def parse(name):
    return ET.parse(IMG / f"{name}.svg").getroot()


def local(tag):
    return tag.rsplit("}", 1)[-1]


def test_every_drawing_the_board_needs_is_there_and_nothing_else():
    assert sorted(p.stem for p in IMG.glob("*.svg")) == sorted(REQUIRED)


@pytest.mark.parametrize("name", REQUIRED)
def test_it_is_a_square_svg_sized_by_the_page_with_a_title(name):
    root = parse(name)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 64 64"
    assert root.get("width") is None and root.get("height") is None
    title = root.find(f"{SVG}title")
    assert title is not None and title.text and title.text.strip()
    assert (IMG / f"{name}.svg").stat().st_size < 4096


@pytest.mark.parametrize("name", REQUIRED)
def test_it_has_no_script_text_or_outside_reference(name):
    for element in parse(name).iter():
        assert local(element.tag) not in FORBIDDEN_TAGS, element.tag
        for attribute, value in element.attrib.items():
            assert not local(attribute).lower().startswith("on"), attribute
            if local(attribute) == "href":
                assert value.startswith("#"), value
            for target in re.findall(r"url\(\s*['\"]?([^)'\"]*)", value):
                assert target.startswith("#"), value


def test_each_root_carries_the_id_a_use_element_points_at_and_ids_are_unique_across_files():
    seen = []
    for name in REQUIRED:
        root = parse(name)
        assert root.get("id") == f"miracle-{name}"
        seen += [element.get("id") for element in root.iter() if element.get("id")]
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("name", CREATURES + TINTED_MARKS)
def test_the_owner_colour_comes_from_css(name):
    fills = [element.get("fill") for element in parse(name).iter()]
    assert "currentColor" in fills
