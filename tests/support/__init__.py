"""Test support shared by tests and benchmarks: an HTTP client, a real multi-worker server,
a TCP proxy to cut a database link, and the check of client answers against the store."""
