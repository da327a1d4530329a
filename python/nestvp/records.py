"""Run records and CSVs as plain Python values (standard library only)."""

from __future__ import annotations

import csv
import os
from typing import Any, Dict, List, Mapping, Tuple, Union


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
