"""A user's persistent identity: one Ed25519 key per user (per data directory).

The key lives in ``<data dir>/identity.pem`` (PKCS#8 PEM, unencrypted, file mode 0600). The data
directory is ``$P2PCARDS_HOME`` when that is set (tests, or several peers on one machine), else the
platformdirs user data dir for "p2pcards" (``~/.local/share/p2pcards`` on Linux).

The same key signs every envelope and, converted to X25519 (libsodium's Ed25519→Curve25519 map),
decrypts the private payloads sent to this user. Its *fingerprint* is a short human string (two
groups of four Crockford base-32 characters over SHA-256 of the public key) that players read to
each other to be sure they are at the same table as who they think.
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat
from pathlib import Path

import platformdirs
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from nacl import bindings as sodium
from nacl.exceptions import CryptoError

log = logging.getLogger("p2pcards.identity")

HOME_ENV = "P2PCARDS_HOME"
KEY_FILE = "identity.pem"
MAX_KEY_BYTES = 64 * 1024  # a PEM Ed25519 key is 119 bytes: anything far larger is not one
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class IdentityError(Exception):
    """The identity key cannot be loaded or created; the message says why and what to do."""


def data_dir(home: str | os.PathLike[str] | None = None) -> Path:
    """The p2pcards data directory: ``home`` if given, else ``$P2PCARDS_HOME``, else the
    platformdirs user data dir. Not created here."""
    if home is not None:
        return _expanded(Path(home), "the data folder")
    env = os.environ.get(HOME_ENV)
    if env:
        return _expanded(Path(env), HOME_ENV)
    try:
        found = Path(platformdirs.user_data_dir("p2pcards", appauthor=False))
    except RuntimeError:  # no HOME, and this user has no entry in the password database
        found = None
    if found is None or not found.is_absolute():
        raise IdentityError("p2pcards cannot tell where your home folder is (HOME is not set, "
                            f"or not a full path): set HOME, or {HOME_ENV} to a folder for "
                            "p2pcards' data")
    return found


def _expanded(path: Path, what: str) -> Path:
    """``path`` with a leading ``~`` or ``~user`` expanded; an ``IdentityError`` in words when
    that home folder is unknown (``~bob`` with no user bob, or ``~`` with no home)."""
    try:
        return path.expanduser()
    except RuntimeError:
        raise IdentityError(f"{what} is {str(path)!r}, but the home folder of "
                            f"{path.parts[0]!r} is unknown: give a full path") from None


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (mode 0700) and its parents if needed; a clear ``IdentityError`` if not:
    the data directory or a folder in it (``tables``) that is a file or a dangling link is
    called what it is."""
    if path.is_symlink() and not path.exists():
        raise IdentityError(f"p2pcards keeps its data in a folder at {path}, but that is a link "
                            f"to {os.readlink(path)}, which does not exist: move the link aside")
    if path.exists() and not path.is_dir():
        raise IdentityError(f"p2pcards keeps its data in a folder at {path}, but that is a file, "
                            "not a folder: move it aside")
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as e:
        raise IdentityError(
            f"cannot create the p2pcards data folder {path}: {e.strerror or e}"
        ) from None
    return path


def b32(data: bytes, chars: int) -> str:
    """``chars`` Crockford base-32 characters from the leading bits of ``data``."""
    n = int.from_bytes(data, "big")
    bits = len(data) * 8
    return "".join(CROCKFORD[(n >> (bits - 5 * (i + 1))) & 31] for i in range(chars))


def fingerprint(public_key: bytes) -> str:
    """Short human fingerprint of an Ed25519 public key, e.g. ``K7QF-2M9X`` (40 bits)."""
    digest = hashlib.sha256(b"p2pcards/v1/fingerprint\n" + public_key).digest()
    s = b32(digest, 8)
    return f"{s[:4]}-{s[4:]}"


def public_key_from_hex(key_hex: str) -> bytes:
    """Validate a hex Ed25519 public key (32 bytes, a usable X25519 point too)."""
    try:
        raw = bytes.fromhex(key_hex)
    except (ValueError, TypeError):
        raise ValueError("public key is not hex") from None
    if len(raw) != 32:
        raise ValueError("public key is not 32 bytes")
    try:
        Ed25519PublicKey.from_public_bytes(raw)
        sodium.crypto_sign_ed25519_pk_to_curve25519(raw)
    except (ValueError, CryptoError, RuntimeError):
        raise ValueError("public key is not a valid Ed25519 point") from None
    return raw


# SHA-256 digests of (key, signature, data) whose signature checked out, oldest first
_VERIFIED: dict[bytes, None] = {}
VERIFIED_KEPT = 8192  # (about 1 MB)


def verify(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s Ed25519 signature of ``data``.

    libsodium checks it: 62 us a signature here, where OpenSSL (``cryptography``) took 121 us.
    Both refuse a signature whose S is not reduced; libsodium also refuses a key or an R of small
    order, which no honest signer makes (a roster key of small order is refused when it is read,
    ``public_key_from_hex``). A signature that checked out is remembered by the SHA-256 of key,
    signature and data (fixed lengths for the first two, so nothing else hashes alike): a program
    checks each envelope it takes in twice, before it spends anything on it
    (``mesh.prefilter``) and as it files it (``envelope.check_signature``), and the same
    envelope again when another copy of it comes. Only a signature that checked out is kept, and
    a hit needs a SHA-256 collision to be wrong. On a busy table the signature checks were a
    fifth of the program's CPU (measured 5 Dec 2026: 44,424 checks, 5.9 s of 28 s)."""
    if not isinstance(public_key, bytes) or not isinstance(signature, bytes) or \
            not isinstance(data, bytes) or len(public_key) != 32 or len(signature) != 64:
        return False
    digest = hashlib.sha256(public_key + signature + data).digest()
    if digest in _VERIFIED:
        return True
    try:
        sodium.crypto_sign_open(signature + data, public_key)
    except (CryptoError, ValueError):
        return False
    if len(_VERIFIED) >= VERIFIED_KEPT:
        del _VERIFIED[next(iter(_VERIFIED))]
    _VERIFIED[digest] = None
    return True


def x25519_public(public_key: bytes) -> bytes:
    """The X25519 public key matching an Ed25519 public key (libsodium's birational map)."""
    return sodium.crypto_sign_ed25519_pk_to_curve25519(public_key)


class Identity:
    """An Ed25519 key pair, optionally backed by a key file in a data directory."""

    def __init__(self, private_key: Ed25519PrivateKey, home: Path | None = None) -> None:
        self._key = private_key
        self.home = home
        #: what the player should be told about the key file as it was loaded (others could
        #: read it), or ``None``
        self.note: str | None = None
        self.public_key: bytes = private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        seed = private_key.private_bytes(
            serialization.Encoding.Raw,
            serialization.PrivateFormat.Raw,
            serialization.NoEncryption(),
        )
        self._x25519_private = sodium.crypto_sign_ed25519_sk_to_curve25519(seed + self.public_key)
        self.x25519_public = x25519_public(self.public_key)

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def generate(cls, home: Path | None = None) -> Identity:
        """A fresh key, not saved anywhere (tests, throw-away bots)."""
        return cls(Ed25519PrivateKey.generate(), home)

    @classmethod
    def load_or_create(cls, home: str | os.PathLike[str] | None = None) -> Identity:
        """Load the user's key from the data dir, creating the dir and the key on first use."""
        directory = ensure_dir(data_dir(home))
        path = directory / KEY_FILE
        if path.exists():
            return cls.load(path, home=directory)
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process created it first: use theirs
            return cls.load(path, home=directory)
        except OSError as e:
            raise IdentityError(
                f"cannot create the identity key {path}: {e.strerror or e}"
            ) from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(pem)
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            raise IdentityError(
                f"cannot write the identity key {path}: {e.strerror or e}"
            ) from None
        log.info("created a new identity %s in %s", fingerprint(cls(key).public_key), path)
        return cls(key, directory)

    @classmethod
    def load(cls, path: Path, home: Path | None = None) -> Identity:
        hint = f"move {path} aside to start over with a new identity"
        try:
            # opened without waiting (a named pipe would block until a writer came) and read
            # only if it is a file, up to a bound (a link to /dev/zero never ends)
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            try:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode):
                    what = "a folder" if stat.S_ISDIR(st.st_mode) else \
                        "a named pipe" if stat.S_ISFIFO(st.st_mode) else \
                        "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else \
                        "not a regular file"
                    raise IdentityError(f"the identity key {path} is {what}, not a key file; {hint}")
                if st.st_size > MAX_KEY_BYTES:
                    raise IdentityError(f"the identity key {path} is {st.st_size:,} bytes, not a "
                                        f"key file (a key is a few hundred bytes); {hint}")
                mode = st.st_mode
                data = os.read(fd, MAX_KEY_BYTES + 1)
            finally:
                os.close(fd)
        except OSError as e:
            raise IdentityError(f"cannot read the identity key {path}: {e.strerror or e}") from None
        if len(data) > MAX_KEY_BYTES:
            raise IdentityError(f"the identity key {path} is not a key file (over "
                                f"{MAX_KEY_BYTES:,} bytes); {hint}")
        note = None
        if mode & (stat.S_IRWXG | stat.S_IRWXO):  # others could sign as this user: say so
            try:
                os.chmod(path, 0o600)
                note = (f"your identity key {path} could be read by other users of this machine "
                        f"(mode {mode & 0o777:o}); it is private now (0600). Anyone who copied "
                        f"it can sign as you: if that may have happened, {hint}")
            except OSError as e:
                note = (f"your identity key {path} can be read by other users of this machine "
                        f"(mode {mode & 0o777:o}) and could not be made private "
                        f"({e.strerror or e}): run chmod 600 {path}")
            log.warning("%s", note)
        if not data.strip():
            raise IdentityError(f"the identity key {path} is empty; {hint}")
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except TypeError:
            raise IdentityError(f"the identity key {path} is password-protected; {hint}") from None
        except (ValueError, UnicodeError) as e:
            raise IdentityError(
                f"the identity key {path} is not a valid key file ({e}); {hint}"
            ) from None
        except Exception as e:  # unsupported algorithms and other backend errors
            raise IdentityError(f"the identity key {path} cannot be loaded ({e}); {hint}") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise IdentityError(f"the identity key {path} is not an Ed25519 key; {hint}")
        me = cls(key, home if home is not None else path.parent)
        me.note = note
        return me

    # -- use ---------------------------------------------------------------------------------

    @property
    def key_hex(self) -> str:
        return self.public_key.hex()

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)

    def x25519_shared(self, peer_public_key: bytes) -> bytes:
        """X25519 of our converted private key with a peer's (converted) Ed25519 public key.
        Symmetric: ``a.x25519_shared(B) == b.x25519_shared(A)``."""
        try:
            point = x25519_public(peer_public_key)
            shared = sodium.crypto_scalarmult(self._x25519_private, point)
        except (CryptoError, RuntimeError):
            raise ValueError("peer key is not usable for key agreement") from None
        if shared == bytes(32):
            raise ValueError("peer key gives an all-zero shared secret")
        return shared

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"
