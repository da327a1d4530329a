"""Where the ``nestvp`` binary is."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Optional, Union

from .errors import BinaryNotFoundError


def _checkout_root() -> Optional[Path]:
    """The repository root when this package is its python/nestvp, else None (installed)."""
    here = Path(__file__).resolve().parent
    root = here.parents[1]
    if here.name == "nestvp" and here.parent.name == "python" and (root / "CMakeLists.txt").is_file():
        return root
    return None


#: The repository root when the package is used from a checkout; None when installed.
REPO_ROOT: Optional[Path] = _checkout_root()


def find_binary(binary: Union[str, os.PathLike, None] = None) -> str:
    """Return the path of the ``nestvp`` binary.

    Looks, in order, at ``binary``, the ``NESTVP_BIN`` environment variable, then, only
    when the package runs from a checkout (not installed), ``build/nestvp`` in it, and
    last ``nestvp`` on PATH. An explicit ``binary`` or ``NESTVP_BIN`` that is not an
    executable is an error rather than a reason to look further.
    """
    for explicit, origin in ((binary, "argument"), (os.environ.get("NESTVP_BIN"), "NESTVP_BIN")):
        if explicit:
            path = shutil.which(str(explicit)) or (
                str(explicit) if os.access(str(explicit), os.X_OK) else None
            )
            if path is None or os.path.isdir(path):
                raise BinaryNotFoundError(f"nestvp binary from {origin} is not executable: {explicit}")
            return path
    built = REPO_ROOT / "build" / "nestvp" if REPO_ROOT is not None else None
    if built is not None and built.is_file() and os.access(built, os.X_OK):
        return str(built)
    on_path = shutil.which("nestvp")
    if on_path:
        return on_path
    where = f", build {built} (make build)" if built is not None else ""
    raise BinaryNotFoundError(
        f"no nestvp binary: pass one, set NESTVP_BIN{where} or put nestvp on PATH"
    )
