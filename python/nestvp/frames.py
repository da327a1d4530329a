"""Results as pandas DataFrames: run records, sweep CSVs, uncertainty outputs, trace-stats JSON.

pandas is imported when a loader is called, so the rest of the package works without it.
Every loader raises :class:`FormatError` naming the file and what is wrong with it, and
FileNotFoundError for a missing file.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any, Dict, List, Union

from .errors import FormatError
from .records import flatten

PathLike = Union[str, os.PathLike]
Source = Union[PathLike, Mapping[str, Any]]

#: The columns every run/sweep/merge CSV has after its setting columns (docs/cli.md).
SWEEP_FIRST_COLUMNS = ("sim_seconds", "sc_events", "partial", "kvm_guest_exit")
TRACE_STATS_SCHEMA = "nestvp-trace-stats/1"
INTERVAL_STATS = ("count", "min", "mean", "p50", "p90", "p99", "max")


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError("nestvp's DataFrame loaders need pandas "
                          "(Debian: apt-get install python3-pandas)") from e
    return pandas


def have_pandas() -> bool:
    """Whether pandas can be imported (the runner does not need it)."""
    try:
        _pandas()
    except ImportError:
        return False
    return True


def to_frame(records: Union[Mapping[str, Any], Iterable[Mapping[str, Any]]]):
    """A DataFrame, one row per record (run records flattened, CSV rows as they are).

    Raises ImportError naming the Debian package when pandas is not installed.
    """
    pd = _pandas()
    if isinstance(records, Mapping):
        records = [records]
    return pd.DataFrame([flatten(r) for r in records])


def _read_json(path: PathLike) -> Any:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FormatError(path, f"not JSON: line {e.lineno} column {e.colno}: {e.msg}") from None


def _is_record(obj: Any) -> bool:
    return (isinstance(obj, Mapping) and isinstance(obj.get("metrics"), Mapping)
            and "kvm_guest_exit" in obj["metrics"])


def _records_of(source: Source) -> List[tuple]:
    """``[(file, label, record)]`` of one run record, or of a compare output's two sides."""
    if isinstance(source, Mapping):
        where, obj = "<record>", source
    else:
        where, obj = str(source), _read_json(source)
    if _is_record(obj):
        return [(where, None, obj)]
    if isinstance(obj, Mapping) and _is_record(obj.get("a")) and _is_record(obj.get("b")):
        return [(where, obj.get("label_a", "a"), obj["a"]), (where, obj.get("label_b", "b"), obj["b"])]
    raise FormatError(where, "not a nestvp run record (no metrics.kvm_guest_exit) "
                             "nor a compare output (no records a and b)")


def load_record(source: Union[Source, Iterable[Source]]):
    """Run records as a DataFrame, one row per record.

    ``source`` is a ``run --json`` file, a ``compare --json`` file (two rows, its sides a
    and b), a record already loaded as a dict, or a list of these. Columns: ``file`` (the
    path, ``<record>`` for a dict), ``label`` (a compare side's label, else None), then the
    record flattened with :func:`flatten`: ``sim_seconds``, ``settings.l1.dec_policy``,
    ``metrics.kvm_guest_exit``, ``metrics.latencies.wake_latency_ns.all.p99``,
    ``metrics.vcpus.3.l1.guest_exits``, ``config.*`` ... (lists such as histograms stay
    one cell). Keys a record lacks are NaN in its row.
    """
    pd = _pandas()
    many = (isinstance(source, Iterable) and not isinstance(source, (str, bytes, Mapping))
            and not isinstance(source, os.PathLike))
    rows = []
    for s in (source if many else [source]):
        for where, label, rec in _records_of(s):
            rows.append({"file": where, "label": label, **flatten(rec)})
    if not rows:
        raise ValueError("load_record: no records given")
    return pd.DataFrame(rows)


def _record(source: Source) -> Mapping[str, Any]:
    found = _records_of(source)
    if len(found) != 1:
        raise FormatError(found[0][0], "a compare output holds two records; pass one of them")
    return found[0][2]


def vcpu_counters(source: Source):
    """A record's per-L2-vCPU counters (``metrics.vcpus``): one row per vCPU, index ``vcpu``
    (int, ascending), one column per counter (``l1.guest_exits``, ``l1.cedes`` ...), 0 where a
    vCPU has none. A record written before ``vcpus`` existed gives an empty frame."""
    pd = _pandas()
    vcpus = _record(source)["metrics"].get("vcpus", {})
    df = pd.DataFrame.from_dict({int(v): c for v, c in vcpus.items()}, orient="index")
    df = df.sort_index().fillna(0)
    df.index.name = "vcpu"
    return df.astype("int64") if len(df.columns) else df


def latency_histogram(source: Source, kind: str):
    """``metrics.latencies.<kind>.histogram`` of a record: columns ``ns`` (bin centre),
    ``count`` and ``cdf`` (cumulative fraction, 1 at the last bin), ascending ``ns``."""
    pd = _pandas()
    rec = _record(source)
    kinds = rec["metrics"].get("latencies", {})
    if kind not in kinds:
        raise KeyError(f"no latency {kind!r} in the record; it has {', '.join(kinds) or 'none'}")
    df = pd.DataFrame(kinds[kind]["histogram"], columns=["ns", "count"]).astype(
        {"ns": "float64", "count": "int64"})
    total = df["count"].sum()
    df["cdf"] = df["count"].cumsum() / total if total else 0.0
    return df


def _csv_header(path: PathLike) -> List[str]:
    with open(path, newline="", encoding="utf-8") as f:
        header = next(csv.reader(f), None)
    if not header:
        raise FormatError(path, "empty file, expected a CSV header line")
    return header


def _read_csv(path: PathLike):
    # Non-finite numbers are written as null (docs/cli.md); no other text means NaN, so
    # that a setting value such as "none" or "NA" stays a string.
    return _pandas().read_csv(path, keep_default_na=False, na_values=["null"])


def load_sweep(path: PathLike):
    """A ``sweep --csv``, ``merge --csv``, ``run --csv`` or ``uncertainty --points-csv`` file
    as a DataFrame, one row per point, in the file's order.

    Columns are the file's (docs/cli.md, "CSV layout"): the setting or grid columns first,
    then ``sim_seconds``, ``sc_events``, ``partial`` (bool), ``kvm_guest_exit``, ``gsb_recv``
    ... ``<kind>.p99`` ..., ``exits_by_reason.<reason>``, ``counters.<name>``. Numbers are
    int64 or float64 (``null`` is NaN), settings keep their text. ``df.attrs["grid"]`` lists
    the setting columns.
    """
    header = _csv_header(path)
    missing = [c for c in SWEEP_FIRST_COLUMNS if c not in header]
    if missing:
        raise FormatError(path, f"not a nestvp sweep CSV: no column {', '.join(missing)} "
                                f"(header starts {','.join(header[:5])})")
    df = _read_csv(path)
    df.attrs["grid"] = header[: header.index("sim_seconds")]
    return df


_TARGET = re.compile(r"^(?P<metric>\S+) \[(?P<pair>.*)\]$")
_RATIO = re.compile(r"^ratio (?P<metric>\S+) (?P<pair>\S+/\S+)$")


def _target_columns(target: str) -> Dict[str, Any]:
    """``"kvm_guest_exit [cancel]"`` -> metric, pair ``cancel``, ratio False;
    ``"ratio kvm_guest_exit cancel/no-cancel"`` -> pair ``cancel/no-cancel``, ratio True."""
    for pattern, ratio in ((_RATIO, True), (_TARGET, False)):
        m = pattern.match(target)
        if m:
            return {"metric": m["metric"], "pair": m["pair"], "ratio": ratio}
    return {"metric": target, "pair": None, "ratio": False}


def _uncertainty_json(path: PathLike):
    pd = _pandas()
    data = _read_json(path)
    if not isinstance(data, Mapping) or not isinstance(data.get("targets"), list) \
            or not isinstance(data.get("keys"), list):
        raise FormatError(path, "not an uncertainty --json summary (no targets and keys lists)")
    rows = []
    for i, t in enumerate(data["targets"]):
        if not isinstance(t, Mapping) or "target" not in t:
            raise FormatError(path, f"targets[{i}]: expected an object with a target")
        row = {"target": t["target"], **_target_columns(t["target"])}
        row.update({k: v for k, v in t.items() if k not in ("target", "half", "shares")})
        row.update({f"half.{k}": v for k, v in t.get("half", {}).items()})
        shares = {s["key"]: s for s in t.get("shares", [])}
        for key in data["keys"]:
            s = shares.get(key, {})
            row[f"share.{key}"] = s.get("share", float("nan"))
            row[f"rho.{key}"] = s.get("rho", float("nan"))
        rows.append(row)
    df = pd.DataFrame(rows)
    df.attrs.update({k: v for k, v in data.items() if k != "targets"})
    df.attrs["kind"] = "summary"
    return df


def load_uncertainty(path: PathLike):
    """An ``uncertainty`` output as a DataFrame (docs/cmd-uncertainty.md); the kind is found
    from the content and kept in ``df.attrs["kind"]``:

    - ``--json`` (``"summary"``): one row per target: ``target`` (as written,
      ``kvm_guest_exit [cancel]``, ``ratio kvm_guest_exit cancel/no-cancel``), ``metric``,
      ``pair`` (the paired value, or ``last/first`` for a ratio), ``ratio`` (bool), ``n``,
      ``p5``, ``median``, ``p95``, ``p5_se``, ``p95_se``, ``noise_n``, ``noise_sd``,
      ``half.n``, ``half.p5`` ..., then ``share.<key>`` (share of variance) and ``rho.<key>``
      (signed rank correlation) per sampled key. The other fields (``samples``,
      ``sim_seconds``, ``count_scale``, ``keys`` ...) are in ``df.attrs``.
    - ``--csv`` (``"summary"``): its columns ``target``, ``n``, ``p5``, ``median``, ``p95``,
      ``share.<key>``, plus ``metric``, ``pair`` and ``ratio`` as above.
    - ``--points-csv`` (``"points"``): one row per run, as :func:`load_sweep` reads it
      (``df.attrs["grid"]``: the sampled keys, then the paired key).
    """
    with open(path, "rb") as f:
        start = f.read(64).lstrip()
    if start.startswith(b"{"):
        return _uncertainty_json(path)
    header = _csv_header(path)
    if header[:5] == ["target", "n", "p5", "median", "p95"]:
        df = _read_csv(path)
        extra = _pandas().DataFrame([_target_columns(t) for t in df["target"]], index=df.index)
        df = df.iloc[:, :1].join(extra).join(df.iloc[:, 1:])
        df.attrs["kind"] = "summary"
        return df
    if "sim_seconds" in header:
        df = load_sweep(path)
        df.attrs["kind"] = "points"
        return df
    raise FormatError(path, "not an uncertainty output: neither its --json, its --csv "
                            "(target,n,p5,median,p95,...) nor its --points-csv")


def _need(path: PathLike, data: Mapping[str, Any], key: str, kind: type, what: str) -> Any:
    if key not in data:
        raise FormatError(path, f"no {key} ({what})")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise FormatError(path, f"{key}: expected {what}, got {json.dumps(value)[:60]}")
    return value


def _counts(path: PathLike, data: Mapping[str, Any], key: str) -> Dict[str, int]:
    counts = _need(path, data, key, Mapping, "an object of counts")
    for name, n in counts.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise FormatError(path, f"{key}.{name}: expected a count, got {json.dumps(n)[:60]}")
    return dict(counts)


def _vcpu(path: PathLike, where: str, v: str) -> int:
    try:
        return int(v)
    except ValueError:
        raise FormatError(path, f"{where}: vCPU {v!r} is not a number") from None


def load_trace_stats(path: PathLike) -> Dict[str, Any]:
    """A ``trace-stats --json`` file (schema ``nestvp-trace-stats/1``) as a dict of DataFrames:

    - ``events``: ``event``, ``count``, ``known`` (False for the file's ``unknown_events``),
      the known events first, each group in the file's order;
    - ``exits_by_trap``: ``trap``, ``exits``;
    - ``exits_by_vcpu``: ``vcpu`` (int, ascending), ``exits``;
    - ``exit_rate``: ``t_s`` (start of the bin: ``t0_s + i * bin_s``), ``per_s``;
    - ``intervals``: ``kind`` (``enter_to_exit`` or ``exit_to_enter``), ``vcpu`` (int),
      ``count``, ``min``, ``mean``, ``p50``, ``p90``, ``p99``, ``max`` (ns), by kind then vCPU;
    - ``hcalls_by_opcode``: ``opcode`` (text, ``0x480``), ``calls`` (``powerpc:hcall_entry``);
    - ``malformed_lines``: ``line``, ``why`` (the first few the command listed).

    The last two are empty when the file has no such section. Every frame's ``attrs`` holds
    the file's ``schema``, ``source``, ``lines``, ``span_s``, ``first_s`` (when given) and
    ``exit_rate.bin_s`` as ``bin_s``.
    """
    pd = _pandas()
    data = _read_json(path)
    if not isinstance(data, Mapping):
        raise FormatError(path, "not a trace-stats JSON (expected an object)")
    schema = data.get("schema")
    if schema != TRACE_STATS_SCHEMA:
        raise FormatError(path, f"schema is {json.dumps(schema)}, this reader knows "
                                f"{TRACE_STATS_SCHEMA!r}")
    source = _need(path, data, "source", Mapping, "an object with path and format")
    lines = _counts(path, data, "lines")
    span = _need(path, data, "span_s", (int, float), "a number of seconds")
    events = _counts(path, data, "events")
    unknown = _counts(path, data, "unknown_events")
    by_trap = _counts(path, data, "exits_by_trap")
    by_vcpu = _counts(path, data, "exits_by_vcpu")
    rate = _need(path, data, "exit_rate", Mapping, "an object with bin_s, t0_s and per_s")
    bin_s = _need(path, rate, "bin_s", (int, float), "exit_rate.bin_s in seconds")
    t0 = _need(path, rate, "t0_s", (int, float), "exit_rate.t0_s in seconds")
    per_s = _need(path, rate, "per_s", list, "exit_rate.per_s, a list of rates")
    for i, x in enumerate(per_s):
        if not isinstance(x, (int, float)) or isinstance(x, bool):
            raise FormatError(path, f"exit_rate.per_s[{i}]: expected a rate, got {json.dumps(x)[:60]}")
    intervals = _need(path, data, "intervals_ns", Mapping, "enter_to_exit and exit_to_enter")
    hcalls = _counts(path, data, "hcalls_by_opcode") if "hcalls_by_opcode" in data else {}
    malformed = _need(path, data, "malformed_lines", list, "a list of {line, why}") \
        if "malformed_lines" in data else []
    for i, m in enumerate(malformed):
        if not isinstance(m, Mapping) or not isinstance(m.get("line"), int) or "why" not in m:
            raise FormatError(path, f"malformed_lines[{i}]: expected {{line, why}}")

    interval_rows = []
    for kind in ("enter_to_exit", "exit_to_enter"):
        per_vcpu = _need(path, intervals, kind, Mapping, f"intervals_ns.{kind} per vCPU")
        for v, stats in per_vcpu.items():
            where = f"intervals_ns.{kind}.{v}"
            if not isinstance(stats, Mapping):
                raise FormatError(path, f"{where}: expected an object of statistics")
            lacking = [s for s in INTERVAL_STATS if s not in stats]
            if lacking:
                raise FormatError(path, f"{where}: no {', '.join(lacking)}")
            interval_rows.append({"kind": kind, "vcpu": _vcpu(path, where, v),
                                  **{s: stats[s] for s in INTERVAL_STATS}})
    frames = {
        "events": pd.DataFrame(
            [(e, n, True) for e, n in events.items()] + [(e, n, False) for e, n in unknown.items()],
            columns=["event", "count", "known"]),
        "exits_by_trap": pd.DataFrame(list(by_trap.items()), columns=["trap", "exits"]),
        "exits_by_vcpu": pd.DataFrame(
            sorted((_vcpu(path, "exits_by_vcpu", v), n) for v, n in by_vcpu.items()),
            columns=["vcpu", "exits"]),
        "exit_rate": pd.DataFrame({"t_s": [t0 + i * bin_s for i in range(len(per_s))],
                                   "per_s": per_s}, dtype="float64"),
        "intervals": pd.DataFrame(interval_rows, columns=["kind", "vcpu", *INTERVAL_STATS])
                       .sort_values(["kind", "vcpu"], kind="stable").reset_index(drop=True),
    }
    frames["hcalls_by_opcode"] = pd.DataFrame(list(hcalls.items()), columns=["opcode", "calls"])
    frames["malformed_lines"] = pd.DataFrame([(m["line"], m["why"]) for m in malformed],
                                             columns=["line", "why"])
    ints = {"events": "count", "exits_by_trap": "exits", "exits_by_vcpu": "exits",
            "hcalls_by_opcode": "calls", "malformed_lines": "line"}
    for name, column in ints.items():  # int64 also when empty
        frames[name] = frames[name].astype({column: "int64"})
    frames["intervals"] = frames["intervals"].astype({"vcpu": "int64", "count": "int64"})
    meta = {"schema": schema, "source": dict(source), "lines": lines, "span_s": span, "bin_s": bin_s}
    if "first_s" in data:
        meta["first_s"] = data["first_s"]
    for df in frames.values():
        df.attrs.update(meta)
    return frames
