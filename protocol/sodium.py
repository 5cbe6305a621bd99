"""The libsodium binding of the deck: the ristretto255 functions, through cffi in ABI mode.

PyNaCl (1.6) bundles libsodium but exposes no ristretto255 function, and its copy keeps those
symbols hidden, so the deck loads a libsodium of its own, in this order:

1. ``P2PCARDS_SODIUM=/path/to/libsodium.so`` when set (a library built for this machine);
2. the system's libsodium (Debian ``libsodium23``, 1.0.18 or later), found by
   ``ctypes.util.find_library("sodium")``: built with the assembly field arithmetic, about a
   quarter faster than the copy below, and nothing to write at start-up;
3. the copy bundled by the ``rbcl`` package (a dependency, so a plain ``pip install`` always
   works). ``rbcl`` writes its library to a fresh temporary file at import (``mkstemp``: one per
   process, safe with several processes) and never deletes it; once it is loaded we unlink that
   file (the mapping stays valid), so nothing is left behind in ``/tmp``.

``P2PCARDS_SODIUM=rbcl`` forces (3), e.g. to test it. A library without the ristretto255
functions (libsodium older than 1.0.18) is skipped. ``SOURCE`` says which one was loaded.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import os
import sys

from cffi import FFI

ffi = FFI()
ffi.cdef("""
int sodium_init(void);
const char *sodium_version_string(void);
int crypto_scalarmult_ristretto255(unsigned char *q, const unsigned char *n,
                                   const unsigned char *p);
int crypto_scalarmult_ristretto255_base(unsigned char *q, const unsigned char *n);
int crypto_core_ristretto255_is_valid_point(const unsigned char *p);
int crypto_core_ristretto255_add(unsigned char *r, const unsigned char *p, const unsigned char *q);
int crypto_core_ristretto255_sub(unsigned char *r, const unsigned char *p, const unsigned char *q);
int crypto_core_ristretto255_from_hash(unsigned char *p, const unsigned char *r);
""")

_NEEDED = ("crypto_scalarmult_ristretto255", "crypto_scalarmult_ristretto255_base",
           "crypto_core_ristretto255_is_valid_point", "crypto_core_ristretto255_add",
           "crypto_core_ristretto255_sub", "crypto_core_ristretto255_from_hash")


class SodiumMissing(ImportError):
    """No libsodium with the ristretto255 functions could be loaded."""


def _open(path: str):  # noqa: ANN202 - a cffi library object
    lib = ffi.dlopen(path)
    for name in _NEEDED:
        getattr(lib, name)  # AttributeError when the library is too old
    if lib.sodium_init() < 0:
        raise OSError("sodium_init failed")
    return lib


def _rbcl_path() -> str:
    import rbcl  # noqa: F401  (its import writes the library to a temporary file)
    return sys.modules["rbcl._sodium"].lib_path


def _load():  # noqa: ANN202
    want = os.environ.get("P2PCARDS_SODIUM", "")
    tried: list[str] = []
    if want and want != "rbcl":
        candidates = [want]
    elif want == "rbcl":
        candidates = []
    else:
        found = ctypes.util.find_library("sodium")
        candidates = [found] if found else []
    for path in candidates:
        try:
            lib = _open(path)
            return lib, f"{path} ({ffi.string(lib.sodium_version_string()).decode()})"
        except (OSError, AttributeError) as exc:
            tried.append(f"{path}: {exc}")
    if want and want != "rbcl":
        raise SodiumMissing(f"P2PCARDS_SODIUM={want}: not a libsodium with ristretto255 ({tried[-1]})")
    try:
        path = _rbcl_path()
    except Exception as exc:
        raise SodiumMissing("no libsodium with ristretto255 found: install the system's libsodium "
                            f"(1.0.18 or later) or the rbcl package ({type(exc).__name__}: {exc})"
                            ) from None
    try:
        lib = _open(path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)  # loaded: the mapping outlives the file
    return lib, f"rbcl ({ffi.string(lib.sodium_version_string()).decode()})"


lib, SOURCE = _load()
