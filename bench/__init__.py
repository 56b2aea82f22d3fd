"""wadkit's side-by-side benchmark suite (issue 11). Run `make bench` or
`python -m bench` from the repository root; docs/performance.md explains
the rows and shows a measured table."""
