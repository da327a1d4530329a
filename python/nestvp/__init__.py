"""Run the ``nestvp`` command line from Python and load its results as pandas DataFrames.

    >>> import nestvp
    >>> vp = nestvp.Nestvp()                       # finds the binary (see find_binary)
    >>> rec = vp.run("platforms/reference.yaml", {"l1.dec_policy": "cancel", "run.duration_s": 0.1})
    >>> rec["metrics"]["kvm_guest_exit"]
    >>> nestvp.load_sweep("vcpus.csv")             # a sweep CSV as a DataFrame

The records have the shapes docs/cli.md and docs/cmd-*.md describe: ``run`` returns a run
record, ``compare`` the ``{"label_a", "label_b", "a", "b", "difference_pct"}`` object and
``sweep`` one dict per CSV row. The loaders (``load_record``, ``load_sweep``,
``load_uncertainty``, ``load_trace_stats``) read result files into DataFrames; docs/python.md
lists their columns. The runner needs only the standard library; the loaders need pandas.

Modules: ``binary`` (finding the binary), ``runner`` (``Nestvp``), ``records`` (plain-dict
helpers), ``frames`` (the DataFrame loaders), ``errors``.
"""

from __future__ import annotations

__version__ = "0.2.0"

from .binary import REPO_ROOT, find_binary
from .errors import BinaryNotFoundError, FormatError, NestvpError, UnknownCommandError
from .frames import (
    have_pandas,
    latency_histogram,
    load_record,
    load_sweep,
    load_trace_stats,
    load_uncertainty,
    to_frame,
    vcpu_counters,
)
from .records import flatten, latency_cdf, read_csv
from .runner import Nestvp, Settings

__all__ = [
    "Nestvp",
    "NestvpError",
    "UnknownCommandError",
    "BinaryNotFoundError",
    "FormatError",
    "find_binary",
    "flatten",
    "latency_cdf",
    "read_csv",
    "to_frame",
    "have_pandas",
    "load_record",
    "load_sweep",
    "load_uncertainty",
    "load_trace_stats",
    "vcpu_counters",
    "latency_histogram",
]
