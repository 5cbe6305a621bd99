"""The libsodium binding of the deck: the ristretto255 functions, through ctypes.

PyNaCl (1.6) bundles libsodium but exposes no ristretto255 function, and its copy keeps those
symbols hidden, so the deck loads a libsodium of its own, in this order:

1. ``P2PCARDS_SODIUM=/path/to/libsodium.so`` when set (a library built for this machine);
2. the system's libsodium (Debian ``libsodium23``, 1.0.18 or later): ``libsodium.so.23`` or
   ``libsodium.so`` through the dynamic loader, else ``ctypes.util.find_library("sodium")``. It
   is built with the assembly field arithmetic, about a quarter faster than the copy below, and
   there is nothing to write at start-up;
3. the copy bundled by the ``rbcl`` package (a dependency, so a plain ``pip install`` always
   works). ``rbcl`` writes its library to a fresh temporary file at import (``mkstemp``: one per
   process, safe with several processes) and never deletes it; once it is loaded we unlink that
   file (the mapping stays valid), so nothing is left behind in ``/tmp``.

``P2PCARDS_SODIUM=rbcl`` forces (3), e.g. to test it. A library without the ristretto255
functions (libsodium older than 1.0.18) is skipped. ``SOURCE`` says which one was loaded.

Why ctypes and not cffi: cffi's ABI mode parses its declarations with pycparser at import
(about 30 ms of the program's start-up), and a ctypes call costs no more here (a multiplication
0.051 ms either way). ctypes releases the GIL during each call, so worker threads run libsodium
in parallel. Every function takes its points and scalars as 32-byte ``bytes`` (the callers in
``protocol.group`` check the lengths) and writes its result into a 32-byte buffer.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys

_P = ctypes.c_char_p
#: name -> argument count (every argument a byte pointer; every result an int, except from_hash)
_NEEDED = {"crypto_scalarmult_ristretto255": 3, "crypto_scalarmult_ristretto255_base": 2,
           "crypto_core_ristretto255_is_valid_point": 1, "crypto_core_ristretto255_add": 3,
           "crypto_core_ristretto255_sub": 3, "crypto_core_ristretto255_from_hash": 2}


class SodiumMissing(ImportError):
    """No libsodium with the ristretto255 functions could be loaded."""


def _open(path: str | None, handle: ctypes.CDLL | None = None) -> ctypes.CDLL:
    lib = handle if handle is not None else ctypes.CDLL(path)
    for name, n in _NEEDED.items():
        f = getattr(lib, name)  # AttributeError when the library is too old
        f.argtypes = (_P,) * n
        f.restype = None if name.endswith("from_hash") else ctypes.c_int
    lib.sodium_version_string.restype = ctypes.c_char_p
    lib.sodium_version_string.argtypes = ()
    if lib.sodium_init() < 0:
        raise OSError("sodium_init failed")
    return lib


def _version(lib: ctypes.CDLL) -> str:
    return lib.sodium_version_string().decode()


def _system_candidates() -> list[str]:
    names = ["libsodium.so.23", "libsodium.so.26", "libsodium.so"]
    for name in names:
        with contextlib.suppress(OSError):
            ctypes.CDLL(name)
            return [name]
    from ctypes import util  # slower (it may run ldconfig): only when the plain names fail
    found = util.find_library("sodium")
    return [found] if found else []


def _load() -> tuple[ctypes.CDLL, str]:
    want = os.environ.get("P2PCARDS_SODIUM", "")
    tried: list[str] = []
    candidates = [want] if want and want != "rbcl" else [] if want == "rbcl" else _system_candidates()
    for path in candidates:
        try:
            lib = _open(path)
            return lib, f"{path} ({_version(lib)})"
        except (OSError, AttributeError) as exc:
            tried.append(f"{path}: {exc}")
    if want and want != "rbcl":
        raise SodiumMissing(f"P2PCARDS_SODIUM={want}: not a libsodium with ristretto255 ({tried[-1]})")
    try:
        import rbcl  # noqa: F401  (its import writes the library to a temporary file and loads it)
        mod = sys.modules["rbcl._sodium"]
        path, handle = mod.lib_path, mod._sodium
    except Exception as exc:
        raise SodiumMissing("no libsodium with ristretto255 found: install the system's libsodium "
                            f"(1.0.18 or later) or the rbcl package ({type(exc).__name__}: {exc})"
                            ) from None
    try:
        lib = _open(path, handle)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)  # loaded: the mapping outlives the file
    return lib, f"rbcl ({_version(lib)})"


lib, SOURCE = _load()


BUF32 = ctypes.c_char * 32


def buf() -> ctypes.Array[ctypes.c_char]:
    """A fresh 32-byte output buffer (read it with ``.raw``): the array type is made once
    (``create_string_buffer`` looks it up and audits on every call, a few microseconds each)."""
    return BUF32()
