"""``Nestvp``: runs the binary's commands as subprocesses and returns their results."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from .binary import find_binary
from .errors import NestvpError, UnknownCommandError
from .records import read_csv

Settings = Union[Mapping[str, Any], Iterable[str], None]


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _settings_args(flag: str, settings: Settings) -> List[str]:
    """``{"a": 1}`` or ``["a=1"]`` -> ``[flag, "a=1"]``; keeps the order given."""
    if settings is None:
        return []
    if isinstance(settings, Mapping):
        pairs = [f"{k}={_value(v)}" for k, v in settings.items()]
    elif isinstance(settings, str):
        pairs = [settings]
    else:
        pairs = list(settings)
    out: List[str] = []
    for p in pairs:
        if "=" not in p:
            raise ValueError(f"{flag} needs KEY=VALUE, got {p!r}")
        out += [flag, p]
    return out


class Nestvp:
    """One ``nestvp`` binary; each method runs one command as a subprocess.

    ``cwd`` is the working folder of the commands (relative platform paths are taken from
    it); ``timeout`` is in seconds of wall time per command.
    """

    def __init__(
        self,
        binary: Union[str, os.PathLike, None] = None,
        cwd: Union[str, os.PathLike, None] = None,
        timeout: Optional[float] = None,
    ) -> None:
        self.binary = find_binary(binary)
        self.cwd = None if cwd is None else str(cwd)
        self.timeout = timeout

    def call(self, command: str, *args: str) -> subprocess.CompletedProcess:
        """Run ``nestvp COMMAND ARGS...``; return the completed process (text stdout/stderr).

        Raises :class:`UnknownCommandError` if the binary does not know ``command`` and
        :class:`NestvpError` on any other non-zero exit.
        """
        argv = [self.binary, command, *map(str, args)]
        env = dict(os.environ)
        env.setdefault("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1")
        proc = subprocess.run(
            argv, cwd=self.cwd, env=env, capture_output=True, text=True, timeout=self.timeout
        )
        if proc.returncode != 0:
            # Both the hand-written parser and CLI11 say "unknown"/"not expected" and name it.
            low = proc.stderr.lower()
            unknown = command.lower() in low and (
                "unknown command" in low or "unknown subcommand" in low or "not expected" in low
            )
            cls = UnknownCommandError if unknown else NestvpError
            raise cls(argv, proc.returncode, proc.stdout, proc.stderr)
        return proc

    def _with_json(self, command: str, args: List[str], required: bool = True) -> Any:
        with tempfile.TemporaryDirectory(prefix="nestvp-py-") as tmp:
            out = os.path.join(tmp, "out.json")
            proc = self.call(command, *args, "--json", out)
            if not os.path.exists(out):
                if required:
                    raise NestvpError([self.binary, command, *args], 0, proc.stdout,
                                      f"nestvp {command} wrote no JSON to {out}")
                return proc.stdout
            with open(out, encoding="utf-8") as f:
                return json.load(f)

    def run(self, platform: Union[str, os.PathLike], settings: Settings = None,
            extra_args: Sequence[str] = ()) -> Dict[str, Any]:
        """``nestvp run PLATFORM --set ...``; returns the run record (docs/cli.md)."""
        args = [str(platform), *_settings_args("--set", settings), "--quiet", *extra_args]
        return self._with_json("run", args)

    def compare(self, a: Union[str, os.PathLike], b: Union[str, os.PathLike, None] = None,
                settings: Settings = None, vs: Settings = None, jobs: Optional[int] = None,
                extra_args: Sequence[str] = ()) -> Dict[str, Any]:
        """``nestvp compare A [B] --set ... --vs ...``; returns
        ``{"label_a", "label_b", "a": run record, "b": run record, "difference_pct"}``."""
        args = [str(a)] + ([str(b)] if b is not None else [])
        args += _settings_args("--set", settings) + _settings_args("--vs", vs) + ["--quiet"]
        if jobs is not None:
            args += ["-j", str(jobs)]
        return self._with_json("compare", args + list(extra_args))

    def sweep(self, platform: Union[str, os.PathLike], grid: Mapping[str, Sequence[Any]],
              settings: Settings = None, jobs: Optional[int] = None,
              extra_args: Sequence[str] = ()) -> List[Dict[str, Any]]:
        """``nestvp sweep PLATFORM --grid KEY=V1,V2 ...``; returns the CSV rows as dicts
        (grid keys first, then the metrics; point order, first grid key slowest)."""
        if not grid:
            raise ValueError("sweep needs at least one grid axis")
        args = [str(platform)]
        for key, values in grid.items():
            vals = [values] if isinstance(values, str) else list(values)
            args += ["--grid", f"{key}={','.join(_value(v) for v in vals)}"]
        args += _settings_args("--set", settings) + ["--quiet"]
        if jobs is not None:
            args += ["-j", str(jobs)]
        with tempfile.TemporaryDirectory(prefix="nestvp-py-") as tmp:
            out = os.path.join(tmp, "sweep.csv")
            self.call("sweep", *args, "--csv", out, *extra_args)
            return read_csv(out)

    def uncertainty(self, *args: str, json_output: bool = True) -> Any:
        """``nestvp uncertainty ARGS...``, passed through as given.

        With ``json_output`` adds ``--json FILE`` and returns the parsed JSON (or stdout if the
        command wrote none); otherwise returns stdout. Raises :class:`UnknownCommandError`
        with the binary's message if this build has no ``uncertainty`` command.
        """
        if json_output:
            return self._with_json("uncertainty", list(args), required=False)
        return self.call("uncertainty", *args).stdout

    def params(self, prefix: str = "") -> List[Dict[str, str]]:
        """``nestvp params [PREFIX] --markdown``: one dict per key (``key``, ``type``,
        ``default``, ``unit``, ``range``, ``description``), code quotes removed."""
        text = self.call("params", *([prefix] if prefix else []), "--markdown").stdout
        rows = [_md_cells(l) for l in text.splitlines() if l.startswith("|")]
        if len(rows) < 2:
            return []
        names = [n.lower() for n in rows[0]]
        return [dict(zip(names, r)) for r in rows[2:]]


def _md_cells(line: str) -> List[str]:
    """Cells of a Markdown table row: split on unescaped '|', '\\|' unescaped, `code` unquoted."""
    cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    out = []
    for c in cells:
        c = c.strip().replace("\\|", "|")
        if len(c) >= 2 and c[0] == c[-1] == "`":
            c = c[1:-1]
        out.append(c)
    return out
