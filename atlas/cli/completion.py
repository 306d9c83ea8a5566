"""``atlas completion SHELL``: a shell completion script."""

from __future__ import annotations

import argparse

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "print a shell completion script"
#: What ``atlas completion --help`` says first.
DESCRIPTION = """\
Print a completion script for atlas (needs the 'completion' extra: pip install
'atlas-gridgames[completion]'). Bash: atlas completion bash >
~/.local/share/bash-completion/completions/atlas
"""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas completion``."""
    p.add_argument(
        "shell",
        choices=("bash", "zsh", "tcsh"),
        metavar="SHELL",
        help="the shell: bash, zsh or tcsh",
    )


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Print the completion script of the whole parser, its help texts filled in."""
    from . import build_parser

    try:
        import shtab
    except ImportError:
        fail("shell completion needs shtab: pip install 'atlas-gridgames[completion]'")
        return 2  # pragma: no cover - fail exits
    parser = build_parser()
    common.fill_facts(parser)
    print(shtab.complete(parser, shell=args.shell))
    return 0
