"""gunicorn for real deployments: `gunicorn -c infra/gunicorn.conf.py 'service.wsgi:app'`.

Workers are stateless: every one talks to the same event store (set CABOOSE_DB to a
PostgreSQL URL when running more than one host), and optimistic concurrency in the
store keeps two workers from storing conflicting moves. The tables are made before the
workers start (`on_starting` below, or `caboose db upgrade`); workers never make them.
"""

import multiprocessing
import os

bind = os.environ.get("CABOOSE_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("CABOOSE_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("CABOOSE_THREADS", "4"))
# A live stream (GET …/stream) holds one of its worker's threads while it is open, and a
# worker accepts requests whatever its threads are doing: so each worker takes at most this
# many streams (503 beyond), keeping the rest of its threads for requests. Read by the
# workers' stream feed (service/feed.py). For S streams a worker: CABOOSE_THREADS=S+4, CABOOSE_STREAMS=S.
os.environ.setdefault("CABOOSE_STREAMS", str(max(1, threads // 2)))
worker_class = "gthread"
timeout = 30
graceful_timeout = 30
max_requests = 10000
max_requests_jitter = 500
accesslog = os.environ.get("CABOOSE_ACCESS_LOG", "-") or None
"""Where each request is logged: `-` (stdout, the default), a file, or empty for nowhere."""
logger_class = "service.access_log.RedactingLogger"
"""The access log never keeps a token, even one a request names in its address."""
# gunicorn's control socket (gunicorn ≥ 27) has one default path per user, which several
# masters on one host (infra/Procfile's API processes) would each take over: off unless named.
control_socket_disable = not os.environ.get("CABOOSE_CONTROL_SOCKET")
if not control_socket_disable:
    control_socket = os.environ["CABOOSE_CONTROL_SOCKET"]


def on_starting(server: object) -> None:
    """Create or upgrade every table once, in the master, before any worker forks: workers
    that each made tables at once raced on PostgreSQL's catalogue. Running `caboose db
    upgrade` before starting the workers does the same; a deployment that does so (`infra/run`
    for its several API processes) sets CABOOSE_UPGRADE_ON_START=0."""
    if os.environ.get("CABOOSE_UPGRADE_ON_START", "1") == "0":
        return
    from service.databases import databases, upgrade_databases

    upgrade_databases(*databases())


def post_worker_init(worker: object) -> None:
    """A worker that stops (a graceful stop, or `max_requests` reached) ends its live
    streams within a second, and their clients reconnect elsewhere with Last-Event-ID,
    instead of holding it for the whole `graceful_timeout`."""
    from service.feed import serve_while

    serve_while(lambda: bool(getattr(worker, "alive", False)))
