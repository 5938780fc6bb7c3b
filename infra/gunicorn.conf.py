"""gunicorn for real deployments: `gunicorn -c infra/gunicorn.conf.py 'service.wsgi:app'`.

Workers are stateless: every one talks to the same event store (set CABOOSE_DB to a
PostgreSQL URL when running more than one host), and optimistic concurrency in the
store keeps two workers from storing conflicting moves.
"""

import multiprocessing
import os

bind = os.environ.get("CABOOSE_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("CABOOSE_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("CABOOSE_THREADS", "4"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 30
max_requests = 10000
max_requests_jitter = 500
accesslog = "-"
