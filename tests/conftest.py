import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Tests never assert wall-clock time: hypothesis's per-example deadline would make property tests
# flaky on a loaded 2-core machine.
from hypothesis import HealthCheck, settings  # noqa: E402

# ...nor fail a property test because generating its inputs was slow on a loaded machine.
settings.register_profile("p2pcards", deadline=None, derandomize=False,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("p2pcards")


def pytest_collection_modifyitems(config, items):
    """With pytest-xdist (``./scripts/test`` runs two workers), the tests that browse or build a
    LAN run one after another in one worker: an mDNS browse must not see another test's table."""
    import pytest

    for item in items:
        if item.path.name in ("test_discovery.py", "test_lan.py"):
            item.add_marker(pytest.mark.xdist_group("lan"))
