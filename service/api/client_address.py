"""The client's address behind reverse proxies: limits by address must count clients, not the
proxy every request comes through, and never an address a client wrote itself.

`CABOOSE_TRUSTED_PROXIES` names the proxies (`Settings.trusted_proxies`):
- the addresses or networks they connect from (`127.0.0.1`, `10.0.0.0/24,10.0.1.5`): only a
  request whose peer is one of them has its `X-Forwarded-For` read, from the right, past every
  trusted proxy, to the first address that is not one (that is the client); a request straight
  from anywhere else is its peer's, whatever it writes in the header;
- or how many proxies append to the header (`1`): the address that many hops back, whoever
  the peer is (werkzeug's `ProxyFix`). Use it only where nothing but those proxies can reach
  the API processes;
- `0` or unset: the header is ignored, every request is its peer's.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from werkzeug.middleware.proxy_fix import ProxyFix

from service.settings import Network, TrustedProxies, proxy_networks


def behind(app: Any, trusted: TrustedProxies) -> Any:
    """`app` (a WSGI application) seeing each request's client address as `trusted` says."""
    if isinstance(trusted, int):
        return ProxyFix(app, x_for=trusted, x_proto=trusted) if trusted else app
    return FromTrustedProxies(app, proxy_networks(trusted))


class FromTrustedProxies:
    """WSGI middleware: `REMOTE_ADDR` (and the scheme) from a trusted proxy's headers."""

    def __init__(self, app: Any, trusted: tuple[Network, ...]) -> None:
        self.app, self.trusted = app, trusted

    def is_trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address.split("%")[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.trusted if network.version == ip.version)

    def client(self, peer: str, forwarded: str) -> str:
        """The first address from the right that is not a trusted proxy; a hop that is no
        address at all stops the walk at the proxy that wrote it."""
        client = peer
        for hop in reversed([h.strip() for h in forwarded.split(",") if h.strip()]):
            if not self.is_trusted(client):
                break
            try:
                client = str(ipaddress.ip_address(hop))
            except ValueError:
                break
        return client

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        peer = environ.get("REMOTE_ADDR", "")
        if self.is_trusted(peer):
            environ["REMOTE_ADDR"] = self.client(peer, environ.get("HTTP_X_FORWARDED_FOR", ""))
            scheme = environ.get("HTTP_X_FORWARDED_PROTO", "").split(",")[-1].strip().lower()
            if scheme in ("http", "https"):
                environ["wsgi.url_scheme"] = scheme
        return self.app(environ, start_response)
