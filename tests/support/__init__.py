"""Test support shared by tests and benchmarks: an HTTP client, a real multi-worker server,
and the check of client answers against the store."""
