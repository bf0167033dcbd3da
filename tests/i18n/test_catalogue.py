"""The Simplified Chinese catalogue is complete, compiled, and covers every string in the code.

No polib: the .po format needed here (msgctxt / msgid / msgid_plural / msgstr[n], continuation
lines, flags) is small enough to read directly.
"""
import ast
import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = Path("locale", "zh_Hans", "LC_MESSAGES")
PO = ROOT / CATALOGUE / "django.po"
MO = ROOT / CATALOGUE / "django.mo"
# What makemessages scans: the project's own code and templates (the same folders the .po says).
SOURCES = ("aquawar_site", "game", "lobby", "ratings", "tournaments", "notify", "sanguo", "templates")


def read_po(path):
    """[{"msgctxt", "msgid", "msgid_plural", "msgstr", "msgstr[0]", …, "flags"}], header left out."""
    entries, entry, key = [], None, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if entry and "msgid" in entry:
                entries.append(entry)
            entry, key = None, None
            continue
        entry = entry if entry is not None else {"flags": set()}
        if line.startswith("#,"):
            entry["flags"].update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#~"):
            entry["obsolete"] = True
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[key] += ast.literal_eval(line)
        else:
            key, _space, value = line.partition(" ")
            entry[key] = ast.literal_eval(value)
    return [e for e in entries if e["msgid"] and not e.get("obsolete")]


def translations(entry):
    return [value for key, value in entry.items() if key.startswith("msgstr")]


def test_it_translates_every_message_for_real():
    entries = read_po(PO)
    assert len(entries) > 100
    untranslated = [e["msgid"] for e in entries if not all(translations(e))]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert not untranslated, f"no zh_Hans translation for: {untranslated}"
    assert not fuzzy, f"fuzzy (guessed) zh_Hans translations: {fuzzy}"


def test_it_ships_the_compiled_catalogue_of_the_current_po():
    with MO.open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    stale = []
    for entry in read_po(PO):
        context = entry.get("msgctxt")
        if "msgid_plural" in entry:
            got = compiled.npgettext(context, entry["msgid"], entry["msgid_plural"], 1) if context else compiled.ngettext(
                entry["msgid"], entry["msgid_plural"], 1
            )
            wanted = entry["msgstr[0]"]
        else:
            got = compiled.pgettext(context, entry["msgid"]) if context else compiled.gettext(entry["msgid"])
            wanted = entry["msgstr"]
        if got != wanted:
            stale.append(entry["msgid"])
    assert not stale, f"django.mo is older than django.po (run compilemessages) for: {stale[:5]}"


@pytest.mark.skipif(not shutil.which("xgettext"), reason="GNU gettext is not installed (apt-get install gettext)")
def test_it_has_every_string_of_the_code_and_templates_in_the_catalogue(tmp_path):
    """makemessages on a copy of the project: a string missing from the catalogue comes out untranslated."""
    for folder in SOURCES:
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "manage.py", tmp_path)
    shutil.copytree(ROOT / CATALOGUE, tmp_path / CATALOGUE)
    # The copy's settings (its BASE_DIR, so its locale folder), not the installed project's.
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "DJANGO_SETTINGS_MODULE": "aquawar_site.settings", "DEBUG": "1"}
    env.pop("DATABASE_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "zh_Hans", "--no-obsolete"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    fresh = read_po(tmp_path / CATALOGUE / "django.po")
    missing = [e["msgid"] for e in fresh if not all(translations(e)) or "fuzzy" in e["flags"]]
    assert not missing, f"strings in the code with no translation (run makemessages, translate): {missing}"
    known = {(e.get("msgctxt"), e["msgid"]) for e in read_po(PO)}
    assert {(e.get("msgctxt"), e["msgid"]) for e in fresh} <= known
