"""``--param KEY=VALUE``: the value is JSON when it reads as JSON, else the text itself;
a parameter the game does not have is refused before the game."""

from __future__ import annotations

import pytest

from atlas.cli import main
from atlas.sim.records import load_record

ISO = "isolation 4 3 queen\n1..#\n....\n#..2\n"


@pytest.mark.parametrize("value", ["knight", '"knight"'])
def test_a_word_is_text_and_a_json_string_the_same(tmp_path, capsys, value):
    path = tmp_path / "m.txt"
    path.write_text(ISO)
    record = tmp_path / "g.json"
    argv = ["play", "isolation", str(path), "random", "random", "--record", str(record)]
    assert main([*argv, "--param", f"variant={value}", "--time", "5"]) == 0
    assert load_record(record).params["variant"] == "knight"


def test_an_unknown_parameter_exits_2_before_the_game(tmp_path, capsys):
    path = tmp_path / "m.txt"
    path.write_text(ISO)
    record = tmp_path / "g.json"
    argv = ["play", "isolation", str(path), "random", "random", "--record", str(record)]
    assert main([*argv, "--param", "speed=3"]) == 2
    err = capsys.readouterr().err
    assert err == "atlas: error: unknown isolation parameter 'speed'; expected variant\n"
    assert not record.exists()
