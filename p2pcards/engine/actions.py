"""Actions: what a player decides. One generic, hashable, JSON-friendly type for every game."""

from __future__ import annotations

from typing import Any


def _freeze(v: Any) -> Any:
    if isinstance(v, list | tuple):
        if not any(isinstance(x, list | tuple | dict) for x in v):
            return tuple(v)
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        raise TypeError("action arguments are scalars or lists, not dicts")
    return v


def _thaw(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_thaw(x) for x in v]
    return v


class Action:
    """``Action("play", slots=(3, 7), number=9)``: a kind and named scalar/list arguments.

    Hashable and comparable, so legal-action lists can be searched and deduplicated; lists become
    tuples inside, and JSON lists again on the way out."""

    __slots__ = ("kind", "args", "_hash")

    def __init__(self, kind: str, **args: Any) -> None:
        self.kind = kind
        if not args:
            self.args: tuple[tuple[str, Any], ...] = ()
        elif len(args) == 1:
            ((k, v),) = args.items()
            self.args = ((k, _freeze(v) if isinstance(v, list | tuple | dict) else v),)
        else:
            self.args = tuple(sorted((k, _freeze(v) if isinstance(v, list | tuple | dict) else v)
                                     for k, v in args.items()))
        self._hash = hash((kind, self.args))

    def __getattr__(self, name: str) -> Any:
        for k, v in object.__getattribute__(self, "args"):
            if k == name:
                return v
        raise AttributeError(f"action {self.kind!r} has no argument {name!r}")

    def get(self, name: str, default: Any = None) -> Any:
        for k, v in self.args:
            if k == name:
                return v
        return default

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self.kind == other.kind and self.args == other.args

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        inner = "".join(f", {k}={v!r}" for k, v in self.args)
        return f"Action({self.kind!r}{inner})"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **{k: _thaw(v) for k, v in self.args}}

    @classmethod
    def from_json(cls, d: Any) -> Action:
        if not isinstance(d, dict) or not isinstance(d.get("kind"), str):
            raise ValueError(f"malformed action {d!r}")
        args = {k: v for k, v in d.items() if k != "kind"}
        for k, v in args.items():
            if isinstance(v, dict):
                raise ValueError(f"malformed action argument {k!r}")
        try:
            return cls(d["kind"], **args)
        except TypeError:  # a dict nested in a list argument: not an action anybody could send
            raise ValueError(f"malformed action {d!r}"[:200]) from None
