import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Tests never assert wall-clock time: hypothesis's per-example deadline would make property tests
# flaky on a loaded 2-core machine.
from hypothesis import settings  # noqa: E402

settings.register_profile("p2pcards", deadline=None, derandomize=False)
settings.load_profile("p2pcards")
