"""What the solver's measurements share: a mean with its standard error (the paired comparisons
of the strength tools and of the Out Of This World search), and a module constant set from the
command line (``paired.py --set module.NAME=value`` in each game's package)."""

from __future__ import annotations

import ast
import importlib


def mean_se(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error (``nan`` with fewer than two values)."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, float("nan")
    return mean, (sum((x - mean) ** 2 for x in xs) / (n - 1) / n) ** 0.5


def set_constant(package: str, spec: str) -> None:
    """``module.NAME=value`` or ``module.Class.NAME=value`` under ``package``; the value is read
    as a Python literal, else kept as text. An unknown name exits with a message."""
    name, value = spec.split("=", 1)
    mod, *path = name.split(".")
    try:
        obj = importlib.import_module(f"{package}.{mod}")
        for attr in path[:-1]:
            obj = getattr(obj, attr)
    except (ImportError, AttributeError):
        raise SystemExit(f"no constant {name}") from None
    if not path or not hasattr(obj, path[-1]):
        raise SystemExit(f"no constant {name}")
    try:
        v = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        v = value
    setattr(obj, path[-1], v)
