import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Tests never assert wall-clock time: hypothesis's per-example deadline would make property tests
# flaky on a loaded 2-core machine.
import contextlib  # noqa: E402

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

# ...nor fail a property test because generating its inputs was slow on a loaded machine.
settings.register_profile("p2pcards", deadline=None, derandomize=False,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("p2pcards")


def _remember_scrypt() -> None:
    """Each seat stretches the table code with scrypt (50 ms of CPU a time: the transport key and
    the table's code key, ``protocol/tablecode.py``), and a test that seats a whole table in one
    process stretched the same code for every seat: 0.3 s of CPU for a table of three, in some
    400 tests. scrypt is a pure function: here the first seat's answer is kept and handed to the
    others (the same bytes; a wrong code still gets a wrong key). The programs the tests start
    (``p2pcards`` runs, bot processes) stretch their codes themselves."""
    import hashlib
    import threading

    real = hashlib.scrypt
    known: dict = {}
    locks: dict = {}
    guard = threading.Lock()

    def scrypt(password, *, salt, n, r, p, maxmem=0, dklen=64):
        key = (bytes(password), bytes(salt), n, r, p, maxmem, dklen)
        with guard:
            lock = locks.setdefault(key, threading.Lock())
        with lock:  # seats deriving the same key side by side: one computes, the others wait
            if key not in known:
                known[key] = real(password, salt=salt, n=n, r=r, p=p, maxmem=maxmem, dklen=dklen)
            return known[key]

    hashlib.scrypt = scrypt


_remember_scrypt()


def pytest_collection_modifyitems(config, items):
    """With pytest-xdist (``./scripts/test`` runs four workers), the mDNS tests on loopback run
    one after another in one worker (``test_discovery*.py``): a browse must not see another
    test's table (a CI run failed when a spoof test's forged table showed up in the pick test's
    list). The namespace
    LAN tests (``test_lan.py``) need no such care: each builds its own LAN, with names unique to
    it, in network namespaces of its own (its mDNS never reaches loopback), so they spread over
    the workers. The tests marked ``slow`` (whole matches between processes: ``test_lan.py``,
    ``test_network_match.py``, and single tests of 10 s or more on a quiet machine) are the
    longest and go first, so that no worker is left with one at the end; the mDNS group (about
    100 s of waiting, one worker's whole share) goes before them, for the same reason (xdist
    hands out a group where its first test stands)."""
    import pytest

    for item in items:
        if item.path.name.startswith("test_discovery"):  # every file that announces on loopback
            item.add_marker(pytest.mark.xdist_group("mdns"))
    items.sort(key=lambda item: (not item.path.name.startswith("test_discovery"),
                                 item.get_closest_marker("slow") is None))  # stable: order kept
    _name_the_groups(config, items)


def _name_the_groups(config, items) -> None:
    """``--dist loadgroup`` sends the tests of one group to one worker by the ``@group`` suffix
    xdist adds to each node id; under pytest 9.2 (structured node ids) xdist 3.8 writes the
    suffix where pytest no longer reads it (pytest-dev/pytest-xdist#1386), and every group was
    silently spread over all the workers: the mDNS tests ran side by side, and each module that
    plays its game once per worker (``xdist_group`` in test_transcript_fuzz.py and the audit
    tests) played it on every worker, some several times (a module fixture is rebuilt whenever
    the worker's tests leave and re-enter the module). Here the suffix goes where pytest reads
    it, on xdist workers with loadgroup only, and only when xdist has not put it there."""
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # an older pytest: xdist's own suffix works there
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid.rpartition("]")[2] and hasattr(item, "_id"):
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


@pytest.fixture(autouse=True)
def _own_data_folder(monkeypatch, tmp_path_factory):
    """Every test gets a data folder of its own (``P2PCARDS_HOME``), so that nothing a test plays
    lands in the data folder of whoever runs the suite: a local game played through the command
    line is saved there (``local-*.game``), and before this, each run of the suite left about 60
    such files in the runner's own ``tables/``. A test that names its own folder sets it again."""
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path_factory.mktemp("home")))


@pytest.fixture(autouse=True)
def _mdns_closed(request, monkeypatch):
    """A discovery test closes every zeroconf it opens (an announcement, a browse, a forged
    answer), and so sends its goodbyes. One left open answers for what it announced as long as
    its event loop runs, and keeps its sockets on 5353 (where they can take unicast answers meant
    for a later browse) until it is collected. It fails the test that left it, naming what it
    still announced."""
    if not request.node.path.name.startswith("test_discovery"):
        yield
        return
    from zeroconf import Zeroconf

    opened: list = []
    real_start = Zeroconf.start

    def start(self):
        opened.append(self)
        return real_start(self)

    monkeypatch.setattr(Zeroconf, "start", start)
    yield
    left = [z for z in opened if not z.done]
    names = sorted(i.name for z in left for i in z.registry.async_get_service_infos())
    for z in left:  # its loop is gone: close its sockets now, not whenever it is collected
        z.done = True
        engine = z.engine
        for sock in [getattr(engine, "_listen_socket", None),
                     *(getattr(engine, "_respond_sockets", None) or [])]:
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.close()
    assert not left, (f"{len(left)} zeroconf instance(s) left open by this test, announcing "
                      f"{names or 'nothing'}")
