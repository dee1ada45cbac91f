"""The machine's addresses as the server names itself: what ``make run`` prints, and what
``ALLOWED_HOSTS`` and ``CSRF_TRUSTED_ORIGINS`` accept by default."""

import ipaddress

from config import network
from config.serve import banner, room_urls


def test_machine_addresses_are_neither_loopback_nor_link_local_ipv4_first():
    addresses = [ipaddress.ip_address(a) for a in network.machine_addresses()]
    assert not any(a.is_loopback or a.is_link_local for a in addresses)
    assert [a.version for a in addresses] == sorted(a.version for a in addresses)
    assert len(set(addresses)) == len(addresses)


def test_a_bind_serves_its_family_or_itself():
    everything = network.machine_addresses()
    assert network.served_addresses("::") == everything
    assert network.served_addresses("0.0.0.0") == [a for a in everything if ":" not in a]
    assert network.served_addresses("127.0.0.1") == []
    for address in everything:
        assert network.served_addresses(address) == [address]


def test_default_hosts_and_origins_name_every_address_with_ipv6_in_brackets():
    hosts = network.default_allowed_hosts()
    assert hosts[:3] == ["localhost", "127.0.0.1", "[::1]"]
    for address in network.machine_addresses():
        assert network.host_name(address) in hosts
    assert network.host_name("fd00::2") == "[fd00::2]"
    origins = network.default_trusted_origins(8000)
    assert origins == [f"http://{h}:8000" for h in hosts]
    assert network.default_trusted_origins(80)[0] == "http://localhost"


def test_only_addresses_the_server_accepts_are_printed():
    everything = network.served_addresses("0.0.0.0")
    assert room_urls("0.0.0.0", 8000, ["localhost"]) == []
    assert room_urls("0.0.0.0", 8000, network.default_allowed_hosts()) == [
        f"http://{a}:8000/" for a in everything]
    text = banner("127.0.0.1", 8000, [], qr=True)
    assert "http://127.0.0.1:8000/" in text and "No network address is served" in text
    assert "Scan" not in text and "Ctrl-C" in text and "make reset" in text
