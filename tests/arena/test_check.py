"""``atlas check``'s verdicts on a good bot and on each kind of broken one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from atlas.arena.check import check_bot
from atlas.maps import parse_map

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bots"
BROKEN = Path(__file__).resolve().parent / "broken_bots"
TRON = parse_map("7 5\n#######\n#1    #\n#  #  #\n#    2#\n#######\n", game="tron")


def test_a_good_bot_is_ok_and_its_exchange_is_shown():
    report = check_bot(
        "tron", f"cmd:{sys.executable} {EXAMPLES / 'tron_bot.py'}", TRON, time_limit=5.0
    )
    assert report.ok and report.verdict == "ok"
    sent = [t for d, t in report.transcript if d == "sent"]
    got = [t for d, t in report.transcript if d == "received"]
    assert sent[0].startswith("7 5\n#######\n#1    #")  # the official board bytes
    assert got[0].strip() in ("1", "2", "3", "4") and len(sent) <= 3
    assert report.to_json()["status"] == "ok"


@pytest.mark.parametrize(
    "script, status", [("crashes.py", "crashed"), ("garbage.py", "invalid")]
)
def test_a_broken_bot_gets_its_verdict_and_turn(script, status):
    report = check_bot("tron", f"cmd:{sys.executable} {BROKEN / script}", TRON, time_limit=5.0)
    assert not report.ok
    assert report.verdict.startswith(f"{status} at turn ")
    assert report.record.statuses[0].turn is not None
    if script == "crashes.py":
        assert "deliberate crash of a broken test bot" in report.stderr
