"""Where a webhook may point. A seat chooses its webhook's URL, so without a check it could
make this server send requests into its own network (server-side request forgery):
loopback, private, link-local, multicast, reserved and unspecified addresses, IPv4 and
IPv6 alike, are refused unless the operator allows their networks
(`CABOOSE_WEBHOOK_ALLOW_NETWORKS`). An IPv6 address that carries an IPv4 address (IPv4-mapped,
6to4 `2002::/16`, Teredo's client, NAT64's `64:ff9b::/96`) counts as the IPv4 address it
reaches too, and a name that is the machine itself by definition (`localhost`, `*.localhost`,
in any case, with or without the final dot) is refused without asking any resolver.

The check is made when the webhook is set, for what can be known then, and again at
every delivery: the host is resolved once, every address it resolves to is checked, and
the connection goes to the checked address, so a name that resolves elsewhere the second
time (DNS rebinding) cannot slip through.
"""

from __future__ import annotations

import contextlib
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


class TargetUnresolved(TargetRefused):
    """A webhook's host that does not resolve (now): refused at a delivery, not when set."""


NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
LOCAL_NAMES = ("localhost",)
"""Names that are the machine itself whatever any resolver says (RFC 6761), with their subdomains."""


def carried(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address reaches, where it carries one."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None or address.sixtofour is not None:
        return address.ipv4_mapped or address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF) if address in NAT64 else None


def address_class(address: Address) -> str | None:
    """The class of address a webhook may not reach, or None for a public address."""
    inner = carried(address)
    if inner is None:
        return _class(address)
    # A mapped address is its IPv4 address; the others are refused for what they reach, else for what they are.
    return _class(inner) if inner == getattr(address, "ipv4_mapped", None) else _class(inner) or _class(address)


def _class(address: Address) -> str | None:
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
        inner = carried(address)
        candidates = [address, inner] if inner is not None else [address]
        if refused is not None and not any(c in n for c in candidates for n in self.allowed if n.version == c.version):
            shown = host if host == str(address) else f"{host} ({address})"
            raise TargetRefused(f"A webhook may not point at a {refused} address: {shown}. The server's operator can "
                                "allow such networks with CABOOSE_WEBHOOK_ALLOW_NETWORKS.", refused)

    def check_url(self, url: str) -> None:
        """At the time a webhook is set: refuse an address (literal, or what the name
        resolves to now) this server will not send to. A name that does not resolve yet
        is accepted; every delivery checks again."""
        with contextlib.suppress(TargetUnresolved):
            self.resolve(url)

    def resolve(self, url: str) -> Destination:
        """Resolve the URL's host once and check every address it has; the connection must
        go to the returned `address`."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise TargetRefused(f"A webhook is an http or https URL with a host, not {url!r}.")
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            raise TargetRefused(f"A webhook's port is a number from 1 to 65535: {parts.netloc!r} has none.") from None
        name = parts.hostname.rstrip(".").lower()
        if any(name == local or name.endswith("." + local) for local in LOCAL_NAMES):
            self.check_address(ipaddress.ip_address("127.0.0.1"), parts.hostname)
        try:
            found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as error:
            raise TargetUnresolved(f"The webhook's host {parts.hostname} does not resolve: {error}") from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found))
        for address in addresses:
            self.check_address(address, parts.hostname)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return Destination(parts.scheme, parts.hostname, port, str(addresses[0]), path)
