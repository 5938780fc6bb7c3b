"""Where a webhook may point. A seat chooses its webhook's URL, so without a check it could
make this server send requests into its own network (server-side request forgery):
loopback, private, link-local, multicast, reserved and unspecified addresses, IPv4 and
IPv6 alike (an IPv4-mapped IPv6 address counts as the IPv4 address it maps), are refused
unless the operator allows their networks (`CABOOSE_WEBHOOK_ALLOW_NETWORKS`).

The check is made when the webhook is set, for what can be known then, and again at
every delivery: the host is resolved once, every address it resolves to is checked, and
the connection goes to the checked address, so a name that resolves elsewhere the second
time (DNS rebinding) cannot slip through.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class TargetRefused(ValueError):
    """A webhook target this server will not send to; `address_class` names why."""

    def __init__(self, message: str, address_class: str | None = None) -> None:
        super().__init__(message)
        self.message, self.address_class = message, address_class


def address_class(address: Address) -> str | None:
    """The class of address a webhook may not reach, or None for a public address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    for name, found in (("unspecified", address.is_unspecified), ("loopback", address.is_loopback),
                        ("link-local", address.is_link_local), ("multicast", address.is_multicast),
                        ("reserved", address.is_reserved), ("private", address.is_private)):
        if found:
            return name
    # Whatever else is not globally reachable (shared address space, documentation ranges).
    return None if address.is_global else "reserved"


@dataclass(frozen=True)
class Destination:
    """A checked webhook target: the host as the URL names it, and the address to connect to."""

    scheme: str
    host: str
    port: int
    address: str
    path: str


@dataclass(frozen=True)
class WebhookTargets:
    allowed: tuple[Network, ...] = ()

    @classmethod
    def allowing(cls, networks: Iterable[str] | str) -> WebhookTargets:
        """From CIDR networks, as a list or comma-separated (`127.0.0.0/8,::1/128`)."""
        items = networks.split(",") if isinstance(networks, str) else networks
        try:
            return cls(tuple(ipaddress.ip_network(n.strip(), strict=False) for n in items if n.strip()))
        except ValueError as error:
            raise ValueError(f"CABOOSE_WEBHOOK_ALLOW_NETWORKS: {error}") from None

    def check_address(self, address: Address, host: str) -> None:
        refused = address_class(address)
        mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
        candidates = [address, mapped] if mapped is not None else [address]
        if refused is not None and not any(c in n for c in candidates for n in self.allowed if n.version == c.version):
            shown = host if host == str(address) else f"{host} ({address})"
            raise TargetRefused(f"A webhook may not point at a {refused} address: {shown}. The server's operator can "
                                "allow such networks with CABOOSE_WEBHOOK_ALLOW_NETWORKS.", refused)

    def check_url(self, url: str) -> None:
        """At the time a webhook is set: refuse an address (literal, or what the name
        resolves to now) this server will not send to. A name that does not resolve yet
        is accepted; every delivery checks again."""
        try:
            self.resolve(url)
        except TargetRefused as error:
            if error.address_class is not None:
                raise

    def resolve(self, url: str) -> Destination:
        """Resolve the URL's host once and check every address it has; the connection must
        go to the returned `address`."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise TargetRefused(f"A webhook is an http or https URL with a host, not {url!r}.")
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as error:
            raise TargetRefused(f"The webhook's host {parts.hostname} does not resolve: {error}") from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found))
        for address in addresses:
            self.check_address(address, parts.hostname)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return Destination(parts.scheme, parts.hostname, port, str(addresses[0]), path)
