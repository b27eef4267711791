"""The `cubebot` dispatcher: subcommands are discovered, misuse is one line and exit 2."""

import pytest

from cubebot.robot.cli import main as cli


def test_every_command_module_registers_a_runner():
    parser = cli.build_parser()
    assert cli.command_modules(), "no subcommands found"
    actions = [a for a in parser._actions if a.dest == "command"]
    assert actions and actions[0].choices


def test_unknown_subcommand_is_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["no-such-command"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no-such-command" in err


def test_no_subcommand_prints_help_and_returns_2(capsys):
    assert cli.main([]) == 2
    assert "usage" in capsys.readouterr().err
