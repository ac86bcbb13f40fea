"""The scheduler address check: a pure function of the string, no lookup, no connection."""

from __future__ import annotations

import socket
from ipaddress import IPv4Address

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.scheduler_address import (
    SchedulerAddress,
    SchedulerAddressError,
    check_scheduler_address,
    exposure,
    is_loopback,
)


@pytest.fixture(autouse=True)
def no_network(monkeypatch) -> None:
    """Any name lookup or socket fails the test: the check decides from the string alone."""

    def refuse(*args, **kwargs):
        raise AssertionError("the address check touched the network")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "gethostbyname", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)


@pytest.mark.parametrize(
    ("address", "who"),
    [
        ("tcp://127.0.0.1:8786", "any user of this machine"),
        ("tcp://127.9.8.7:1", "any user of this machine"),
        ("tcp://localhost:65535", "any user of this machine"),
        ("tcp://[::1]:8786", "any user of this machine"),
        ("tcp://10.0.0.5:8786", "anyone on the network"),
        ("tcp://192.168.1.2:8786", "anyone on the network"),
        ("tcp://0.0.0.0:8786", "anyone on the network"),
        ("tcp://scheduler.example.org:8786", "anyone on the network"),
        ("tcp://127.0.0.1.example.org:8786", "anyone on the network"),  # a name, not loopback
        ("tcp://[2001:db8::1]:8786", "anyone on the network"),
    ],
)
def test_plain_tcp_needs_insecure_even_on_loopback(address: str, who: str) -> None:
    """A loopback port is open to every user of the machine: no host makes tcp:// safe."""
    with pytest.raises(SchedulerAddressError, match=rf"plain tcp://.*{who} .*insecure") as refused:
        check_scheduler_address(address)
    assert "run code in this process and forge its rows" in str(refused.value)
    checked = check_scheduler_address(address, insecure=True)
    assert checked.scheme == "tcp" and who in exposure(checked)


def test_tls_is_allowed_anywhere() -> None:
    checked = check_scheduler_address("tls://scheduler.example.org:8786")
    assert checked == SchedulerAddress("tls", "scheduler.example.org", 8786) and checked.tls


@pytest.mark.parametrize(
    "address",
    [
        "udp://127.0.0.1:8786",
        "inproc://127.0.0.1:8786",
        "ws://127.0.0.1:8786",
        "tcp://127.0.0.1",
        "tcp://127.0.0.1:0",
        "tcp://127.0.0.1:70000",
        "tcp://127.0.0.1:8786/path",
        "127.0.0.1:8786",
        "",
    ],
)
def test_malformed_addresses_are_refused(address: str) -> None:
    with pytest.raises(SchedulerAddressError, match="allowed: an address tls://host:port"):
        check_scheduler_address(address, insecure=True)


@given(st.integers(0, 2**32 - 1), st.integers(1, 65535), st.booleans())
def test_an_ipv4_literal_is_this_machine_exactly_when_it_is_in_127(
    ip: int, port: int, tls: bool
) -> None:
    host = str(IPv4Address(ip))
    address = f"{'tls' if tls else 'tcp'}://{host}:{port}"
    assert is_loopback(host) == host.startswith("127.")
    if tls:
        assert check_scheduler_address(address) == SchedulerAddress("tls", host, port)
    else:
        with pytest.raises(SchedulerAddressError, match="insecure"):
            check_scheduler_address(address)
        checked = check_scheduler_address(address, insecure=True)
        assert checked == SchedulerAddress("tcp", host, port)
        assert ("this machine" in exposure(checked)) == host.startswith("127.")
