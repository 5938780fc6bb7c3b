"""A static file's cost to the server: the same app served with and without the middleware
that answers static files from memory (`service/static_files.py`), each by waitress on
loopback, one keep-alive connection, rounds taken in turn.

    .venv/bin/python benchmarks/bench_static.py [--rounds 6] [--requests 500] [--path /replay/static/js/main.js]
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import threading
import time
from pathlib import Path

from waitress.server import create_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.api import create_app
from service.application import Caboose
from service.settings import RateLimits, Settings


def per_request(port: int, path: str, requests: int) -> float:
    """ms per request over one connection, after a warm-up."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    for _ in range(30):
        connection.request("GET", path)
        connection.getresponse().read()
    started = time.perf_counter()
    for _ in range(requests):
        connection.request("GET", path)
        connection.getresponse().read()
    connection.close()
    return (time.perf_counter() - started) / requests * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--path", default="/replay/static/js/main.js")
    args = parser.parse_args()
    app = create_app(Caboose(Settings(db="memory", rate_limits=RateLimits.every("1000000/minute"))))
    # The app's own WSGI callable under the middleware is Flask's, static route and all.
    apps = {"through Flask": app.wsgi_app.app, "from memory": app}  # type: ignore[attr-defined]
    servers = {name: create_server(wsgi, host="127.0.0.1", port=0, threads=8) for name, wsgi in apps.items()}
    for server in servers.values():
        threading.Thread(target=server.run, daemon=True).start()
    ports = {name: server.effective_port for name, server in servers.items()}
    times: dict[str, list[float]] = {name: [] for name in apps}
    for _ in range(args.rounds):
        for name, port in ports.items():
            times[name].append(per_request(port, args.path, args.requests))
    for server in servers.values():
        server.close()
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"{name}: {median[name]:.3f} ms a request (median of {args.rounds} rounds: {', '.join(f'{v:.3f}' for v in values)})")
    print(f"from memory : through Flask = {median['from memory'] / median['through Flask']:.2f}")


if __name__ == "__main__":
    main()
