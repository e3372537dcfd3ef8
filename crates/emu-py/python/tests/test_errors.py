"""Bad input raises emu.ConfigError with the command line's message and where."""

import pytest

import emu

BAD_DIMENSIONS = '[network]\nkind = "hypercube"\ndimensions = "six"\n'


def test_a_bad_value_in_a_file_says_where(cli, tmp_path):
    (tmp_path / "t.toml").write_text(BAD_DIMENSIONS)
    with pytest.raises(emu.ConfigError) as info:
        emu.run(tmp_path / "t.toml", "uniform")
    e = info.value
    assert isinstance(e, ValueError) and isinstance(e, emu.EmuError)
    assert (e.line, e.column, e.key) == (3, 14, "network.dimensions")
    assert e.file == str(tmp_path / "t.toml")
    assert e.kind == "config"
    code, _, err = cli("-t", str(tmp_path / "t.toml"), "-p", "uniform", json_flag=False)
    assert code == 2
    assert err == f"error: {e}\n"


def test_text_input_is_named_for_messages():
    with pytest.raises(emu.ConfigError) as info:
        emu.run(BAD_DIMENSIONS, "uniform")
    assert str(info.value).startswith("<topology>:3:14: network.dimensions: the text \"six\"")
    assert info.value.file == "<topology>"


def test_a_bad_set_names_the_set(cli):
    with pytest.raises(emu.ConfigError) as info:
        emu.run("hypercube6", "uniform", set={"network.dimensions": 0})
    e = info.value
    assert e.sets == ["network.dimensions=0"] and e.file is None
    assert e.key == "network.dimensions" and e.kind == "build"
    code, _, err = cli("-t", "hypercube6", "-p", "uniform", "--set", "network.dimensions=0", json_flag=False)
    assert code == 2 and err == f"error: {e}\n"


@pytest.mark.parametrize(
    "topology,traffic,sets",
    [
        ("nosuch", "uniform", []),
        ("hypercube6", "uniform", ["bogus.key=1"]),
        ("hypercube6", "uniform", ["injection.load=nan"]),
        ("relay-ring", "uniform", []),
        ("hypercube6", "uniform", ["phases.measure_us=-1"]),
    ],
)
def test_every_message_is_the_command_line_s(cli, topology, traffic, sets):
    with pytest.raises(emu.ConfigError) as info:
        emu.run(topology, traffic, set=sets)
    args = [a for s in sets for a in ("--set", s)]
    code, _, err = cli("-t", topology, "-p", traffic, *args, json_flag=False)
    assert code == 2
    assert err == f"error: {info.value}\n"


def test_a_network_too_large_is_refused_before_it_is_built():
    with pytest.raises(emu.TooLargeError) as info:
        emu.run("hypercube10", "uniform", memory_limit=1000)
    assert isinstance(info.value, emu.ConfigError)
    assert info.value.kind == "too_large"
    assert "memory" in str(info.value)


def test_bad_options():
    with pytest.raises(emu.ConfigError, match="threads 0: give at least one thread"):
        emu.run("ring4", "uniform", threads=0)
    with pytest.raises(emu.ConfigError, match="seed -1"):
        emu.run("ring4", "uniform", seed=-1)
    with pytest.raises(emu.ConfigError, match="deadlock-window-us 0"):
        emu.run("ring4", "uniform", deadlock_window_us=0)
    with pytest.raises(TypeError):
        emu.run(42, "uniform")
