"""The package's exceptions."""

from __future__ import annotations

import re
from typing import Sequence

# Lines the SystemC library prints on stderr at start-up; left out of exception messages.
_BANNER = re.compile(r"^\s*(SystemC \d|Copyright \(c\)|ALL RIGHTS RESERVED)")


class BinaryNotFoundError(FileNotFoundError):
    """No ``nestvp`` binary was found in any of the places :func:`find_binary` looks."""


class NestvpError(RuntimeError):
    """The binary exited with a non-zero code; carries its command line, code and output."""

    def __init__(self, args: Sequence[str], returncode: int, stdout: str, stderr: str) -> None:
        self.args_list = list(args)
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        super().__init__(
            f"{' '.join(self.args_list)} exited with {returncode}:\n{self.message}".rstrip()
        )

    @property
    def message(self) -> str:
        """The binary's stderr without the SystemC banner."""
        lines = [l for l in self.stderr.splitlines() if not _BANNER.match(l)]
        return "\n".join(lines).strip()


class UnknownCommandError(NestvpError):
    """The binary does not know the command (e.g. ``uncertainty`` on an older build)."""


class FormatError(ValueError):
    """A result file is not what its loader reads; the message names the file and the problem."""

    def __init__(self, path: object, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")
