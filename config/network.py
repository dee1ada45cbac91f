"""This machine's network addresses: what the players' phones open, and what the server
accepts as its own name (``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS``).

Read from the interfaces (no packet is sent): every address of an interface that is up,
less loopback and link-local ones, IPv4 first.
"""

import ipaddress

import psutil

LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
"""The names of this machine that never need looking up."""


def machine_addresses() -> list[str]:
    """The IPv4 and IPv6 addresses (``"192.168.1.20"``, ``"fd00::2"``) of this machine's
    interfaces that are up, less loopback and link-local ones: IPv4 first, each once."""
    up = {name for name, stats in psutil.net_if_stats().items() if stats.isup}
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for name, addrs in psutil.net_if_addrs().items():
        if name not in up:
            continue
        for addr in addrs:
            try:
                ip = ipaddress.ip_address(addr.address.split("%", 1)[0])
            except ValueError:
                continue  # a hardware (MAC) address
            if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip in found):
                found.append(ip)
    found.sort(key=lambda ip: (ip.version, ip.packed))
    return [str(ip) for ip in found]


def host_name(address: str) -> str:
    """``address`` as it stands in a Host header and a URL: IPv6 in brackets."""
    return f"[{address}]" if ":" in address else address


def served_addresses(bind: str) -> list[str]:
    """The machine addresses a server bound to ``bind`` answers on: all of one family for a
    wildcard (``"0.0.0.0"`` IPv4, ``"::"`` both, as Linux binds it), else ``bind`` itself
    when it is one of them, else none."""
    addresses = machine_addresses()
    if bind == "0.0.0.0":
        return [a for a in addresses if ":" not in a]
    if bind == "::":
        return addresses
    return [a for a in addresses if a == bind]


def default_allowed_hosts() -> list[str]:
    """:data:`LOCAL_HOSTS` and every machine address, as ``ALLOWED_HOSTS`` takes them."""
    return LOCAL_HOSTS + [host_name(a) for a in machine_addresses()]


def default_trusted_origins(port: int) -> list[str]:
    """The ``http://`` origins of :func:`default_allowed_hosts` on ``port``."""
    suffix = "" if port == 80 else f":{port}"
    return [f"http://{host}{suffix}" for host in default_allowed_hosts()]
