"""The WSGI entry point for gunicorn and other servers (settings from the environment)."""

from service.api import create_app

app = create_app()
