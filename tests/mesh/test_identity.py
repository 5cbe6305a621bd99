import os
import stat

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from protocol.identity import HOME_ENV, KEY_FILE, Identity, IdentityError, data_dir, fingerprint


def test_created_once_then_loaded(tmp_path):
    home = tmp_path / "a" / "b"
    first = Identity.load_or_create(home)
    key = home / KEY_FILE
    assert key.exists()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    again = Identity.load_or_create(home)
    assert again.public_key == first.public_key
    assert again.fingerprint == first.fingerprint


def test_env_var_selects_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "env-home"))
    assert data_dir() == tmp_path / "env-home"
    ident = Identity.load_or_create()
    assert (tmp_path / "env-home" / KEY_FILE).exists()
    assert ident.home == tmp_path / "env-home"


def test_fingerprint_is_short_and_stable():
    ident = Identity.generate()
    fp = ident.fingerprint
    assert len(fp) == 9 and fp[4] == "-"
    assert fp == fingerprint(ident.public_key)
    assert fp != Identity.generate().fingerprint


def test_signatures_and_key_agreement():
    a, b = Identity.generate(), Identity.generate()
    assert a.x25519_shared(b.public_key) == b.x25519_shared(a.public_key)
    sig = a.sign(b"hello")
    from protocol.identity import verify

    assert verify(a.public_key, sig, b"hello")
    assert not verify(b.public_key, sig, b"hello")
    assert not verify(a.public_key, sig, b"hellO")


@pytest.mark.parametrize(
    "content, words",
    [
        (b"", "empty"),
        (b"this is not a key\n", "not a valid key file"),
        (b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "identity key"),
    ],
)
def test_bad_key_file_gets_a_clear_error(tmp_path, content, words):
    (tmp_path / KEY_FILE).write_bytes(content)
    os.chmod(tmp_path / KEY_FILE, 0o600)
    with pytest.raises(IdentityError) as e:
        Identity.load_or_create(tmp_path)
    assert words in str(e.value)
    assert str(tmp_path / KEY_FILE) in str(e.value)
    assert "move" in str(e.value)


def test_a_key_of_another_kind_is_refused(tmp_path):
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    pem = rsa_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    (tmp_path / KEY_FILE).write_bytes(pem)
    with pytest.raises(IdentityError, match="not an Ed25519 key"):
        Identity.load_or_create(tmp_path)


def test_unreadable_key_file(tmp_path):
    (tmp_path / KEY_FILE).mkdir()  # a directory where the key should be: unreadable as a file
    with pytest.raises(IdentityError, match="is a folder, not a key file"):
        Identity.load_or_create(tmp_path)


def test_data_dir_that_is_a_file(tmp_path):
    (tmp_path / "home").write_text("oops")
    with pytest.raises(IdentityError, match="is a file, not a folder: move it aside"):
        Identity.load_or_create(tmp_path / "home")


def test_a_key_that_links_to_an_endless_device_is_refused_without_reading_it(tmp_path):
    """Red team 6b: identity.pem -> /dev/zero read until memory ran out (MemoryError, crash.log)."""
    (tmp_path / KEY_FILE).symlink_to("/dev/zero")
    with pytest.raises(IdentityError, match="is a device, not a key file; move .* aside"):
        Identity.load_or_create(tmp_path)


def test_a_key_that_is_a_named_pipe_is_refused_at_once(tmp_path):
    """Red team 6b: identity.pem a FIFO: 'host' hung with no output, waiting for a writer."""
    import threading

    os.mkfifo(tmp_path / KEY_FILE)
    out: list[BaseException] = []

    def load():
        try:
            Identity.load_or_create(tmp_path)
        except BaseException as exc:  # noqa: BLE001 -- handed to the test
            out.append(exc)

    t = threading.Thread(target=load, daemon=True)
    t.start()
    t.join(5)
    assert not t.is_alive(), "loading the key waits on the pipe"
    assert isinstance(out[0], IdentityError) and "is a named pipe, not a key file" in str(out[0])


def test_a_huge_key_file_is_refused_without_reading_it_all(tmp_path):
    (tmp_path / KEY_FILE).write_bytes(b"-" * 10_000_000)
    with pytest.raises(IdentityError, match="not a key file"):
        Identity.load_or_create(tmp_path)


@pytest.mark.parametrize("make", ["file", "dangling link"])
def test_a_tables_folder_that_is_a_file_or_a_dangling_link_says_so(tmp_path, make):
    """Red team 6b: a file named 'tables' gave "cannot create the p2pcards data directory
    .../tables: File exists", naming the wrong folder, with a reason that reads as false."""
    from protocol.identity import ensure_dir

    tables = tmp_path / "tables"
    if make == "file":
        tables.write_text("x")
        words = f"p2pcards keeps its data in a folder at {tables}, but that is a file, not a folder"
    else:
        tables.symlink_to(tmp_path / "gone")
        words = f"{tables}, but that is a link to {tmp_path / 'gone'}, which does not exist"
    with pytest.raises(IdentityError) as e:
        ensure_dir(tables)
    assert words in str(e.value) and "File exists" not in str(e.value)
