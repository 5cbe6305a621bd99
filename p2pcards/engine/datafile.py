"""Reading a game's data file, with an error a player can act on (never a traceback)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import ConfigError


def read_json(path: Path | str) -> Any:
    """The parsed JSON in ``path``; ``ConfigError`` naming the file (and line) if it cannot be
    read or is not valid JSON."""
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path.name}: not a UTF-8 text file") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path.name}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
