import os
import sys

import pytest

HERE = os.path.dirname(__file__)
sys.path.insert(0, HERE)  # the from-spec builders: `from builders import ...`


@pytest.fixture
def write(tmp_path):
    """write(name, data) -> path of a file in the test's temp folder."""
    def _write(name: str, data: bytes) -> str:
        p = tmp_path / name
        p.write_bytes(data)
        return str(p)
    return _write
