"""From-spec byte builders for test fixtures. Plain Python + struct; they
never call wadkit's C writers, so a fixture is an independent witness."""
