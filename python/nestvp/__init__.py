"""Run the ``nestvp`` command line from Python and get its results as dicts.

Standard library only; :func:`to_frame` uses pandas when it is importable.

    >>> import nestvp
    >>> vp = nestvp.Nestvp()                       # finds the binary (see find_binary)
    >>> rec = vp.run("platforms/reference.yaml", {"l1.dec_policy": "cancel", "run.duration_s": 0.1})
    >>> rec["metrics"]["kvm_guest_exit"]

The records have the shapes docs/cli.md and docs/cmd-*.md describe: ``run`` returns a run
record, ``compare`` the ``{"label_a", "label_b", "a", "b", "difference_pct"}`` object and
``sweep`` one dict per CSV row.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

__all__ = [
    "Nestvp",
    "NestvpError",
    "UnknownCommandError",
    "BinaryNotFoundError",
    "find_binary",
    "flatten",
    "latency_cdf",
    "to_frame",
    "have_pandas",
]

Settings = Union[Mapping[str, Any], Iterable[str], None]

#: The repository root (this file is python/nestvp/__init__.py).
REPO_ROOT = Path(__file__).resolve().parents[2]

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


def find_binary(binary: Union[str, os.PathLike, None] = None) -> str:
    """Return the path of the ``nestvp`` binary.

    Looks, in order, at ``binary``, the ``NESTVP_BIN`` environment variable,
    ``build/nestvp`` in the repository this package lives in, and ``nestvp`` on PATH.
    An explicit ``binary`` or ``NESTVP_BIN`` that is not an executable is an error rather
    than a reason to look further.
    """
    for explicit, origin in ((binary, "argument"), (os.environ.get("NESTVP_BIN"), "NESTVP_BIN")):
        if explicit:
            path = shutil.which(str(explicit)) or (
                str(explicit) if os.access(str(explicit), os.X_OK) else None
            )
            if path is None or os.path.isdir(path):
                raise BinaryNotFoundError(f"nestvp binary from {origin} is not executable: {explicit}")
            return path
    built = REPO_ROOT / "build" / "nestvp"
    if built.is_file() and os.access(built, os.X_OK):
        return str(built)
    on_path = shutil.which("nestvp")
    if on_path:
        return on_path
    raise BinaryNotFoundError(
        f"no nestvp binary: pass one, set NESTVP_BIN, build {built} (make build) or put nestvp on PATH"
    )


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


def _number(text: str) -> Any:
    """CSV field -> int, float, bool or the text itself."""
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def read_csv(path: Union[str, os.PathLike]) -> List[Dict[str, Any]]:
    """Rows of a ``run``/``sweep``/``merge`` CSV, numbers converted (docs/cli.md layout)."""
    with open(path, newline="", encoding="utf-8") as f:
        return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(f)]


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


def flatten(record: Mapping[str, Any], sep: str = ".") -> Dict[str, Any]:
    """A nested record as one level: ``metrics.latencies.wake_latency_ns.all.p50`` etc.

    Lists (histograms, breakdowns, per-vCPU latencies) are kept as values, not expanded.
    """
    out: Dict[str, Any] = {}

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, Mapping):
            for k, v in value.items():
                walk(f"{prefix}{sep}{k}" if prefix else str(k), v)
        else:
            out[prefix] = value

    walk("", record)
    return out


def latency_cdf(record: Mapping[str, Any], kind: str) -> List[Tuple[float, float]]:
    """``[(latency ns, cumulative fraction)]`` from ``metrics.latencies.<kind>.histogram``."""
    hist = record["metrics"]["latencies"][kind]["histogram"]
    total = sum(count for _, count in hist)
    if total == 0:
        return []
    out, acc = [], 0
    for centre, count in hist:
        acc += count
        out.append((float(centre), acc / total))
    return out


def have_pandas() -> bool:
    """Whether pandas can be imported (it is optional)."""
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


def to_frame(records: Union[Mapping[str, Any], Iterable[Mapping[str, Any]]]):
    """A pandas DataFrame, one row per record (run records flattened, CSV rows as they are).

    Raises ImportError naming the Debian package when pandas is not installed.
    """
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError("to_frame needs pandas (Debian: apt-get install python3-pandas)") from e
    if isinstance(records, Mapping):
        records = [records]
    return pd.DataFrame([flatten(r) for r in records])
