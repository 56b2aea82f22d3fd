"""Whether the tests run against the ASan/UBSan build (`make sanitize`
preloads libasan), and what such a run cannot do."""
import os

import pytest

SANITIZED = "libasan" in os.environ.get("LD_PRELOAD", "")

# A test that forks the pytest worker itself (run_batch in process): the
# worker's other threads (xdist's) may hold a lock of the allocator at that
# moment; glibc's malloc takes its locks around fork(), gcc 12's ASan
# allocator does not, and the children then wait forever (seen in `make
# sanitize`: both forked workers stuck in SizeClassAllocator64::
# GetFromAllocator). The CLI pool tests fork from a fresh command and run
# in both builds.
forks_the_pytest_worker = pytest.mark.skipif(
    SANITIZED, reason="forks the multithreaded pytest worker: under gcc 12's ASan (no "
    "fork handlers for its allocator) a child can deadlock; the plain build runs it")
