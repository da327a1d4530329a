#!/usr/bin/env python3
"""Write nestvp(1) in roff from the help text the binary prints.

    scripts/gen-manpage.py build/nestvp build/nestvp.1

Takes `nestvp --help` (the command list), `nestvp --version` and `nestvp CMD --help` for
every listed command, so the page says what the binary says and nothing else. The help
text goes in verbatim (no-fill) blocks: its layout is kept whatever parser prints it.
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
from typing import List, Tuple

ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def helptext(binary: str, *args: str) -> str:
    """stdout of `binary args`; help may exit non-zero on some parsers, text is what counts."""
    proc = subprocess.run([binary, *args], capture_output=True, text=True, env=ENV)
    text = proc.stdout.strip() or proc.stderr.strip()
    if not text:
        sys.exit(f"gen-manpage: '{binary} {' '.join(args)}' printed nothing (exit {proc.returncode})")
    return text


def commands(top: str) -> List[Tuple[str, str]]:
    """(name, summary) of each command listed under a 'commands:' heading of the help."""
    out, inside = [], False
    for line in top.splitlines():
        if re.match(r"^\s*(sub)?commands\s*:\s*$", line, re.I):
            inside = True
            continue
        if inside:
            m = re.match(r"^\s+([a-z][a-z0-9-]*)\s+(.*\S)?\s*$", line)
            if m:
                out.append((m.group(1), m.group(2) or ""))
            elif line.strip():
                inside = False
    if not out:
        sys.exit("gen-manpage: no 'commands:' list in the top-level help")
    return out


def roff_text(s: str) -> str:
    """Escape running text: backslashes, and control characters at line start."""
    s = s.replace("\\", "\\e")
    return "\n".join(("\\&" + l) if l.startswith((".", "'")) else l for l in s.splitlines())


def verbatim(s: str) -> str:
    return ".nf\n" + roff_text(s) + "\n.fi"


def main() -> int:
    if len(sys.argv) != 3:
        sys.exit("usage: gen-manpage.py NESTVP_BINARY OUT.1")
    binary, out = sys.argv[1], sys.argv[2]
    top = helptext(binary, "--help")
    version = helptext(binary, "--version").splitlines()[0]
    cmds = commands(top)
    # SOURCE_DATE_EPOCH keeps the page byte-identical across rebuilds when set.
    when = datetime.datetime.utcfromtimestamp(int(os.environ.get("SOURCE_DATE_EPOCH", "0")) or
                                              datetime.datetime.utcnow().timestamp())
    page = [
        f'.TH NESTVP 1 "{when:%Y-%m-%d}" "{roff_text(version)}" "User Commands"',
        ".SH NAME",
        "nestvp \\- POWER decrementer and nested-virtualization virtual platform",
        ".SH SYNOPSIS",
    ]
    for name, _ in cmds:
        page += [f".B nestvp {name}", ".RI [ options ]", ".br"]
    page += [".B nestvp", "\\-\\-help | \\-\\-version", ".SH DESCRIPTION", verbatim(top),
             ".SH COMMANDS"]
    for name, summary in cmds:
        page += [f".SS {name}", roff_text(summary), ".PP", verbatim(helptext(binary, name, "--help"))]
    page += [
        ".SH EXIT STATUS",
        "0 success; 1 the run failed or a result could not be written; 2 bad command line or "
        "platform file; 130 interrupted by SIGINT, SIGTERM or SIGHUP (partial results written).",
        ".SH SEE ALSO",
        "docs/cli.md and docs/cmd-*.md in the nestvp sources; "
        "scripts/nestvp-completion.bash for bash completion.",
    ]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(page) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
