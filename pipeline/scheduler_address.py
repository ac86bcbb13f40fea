"""Which Dask scheduler addresses a run may use, decided from the address string alone.

Dask moves pickled objects both ways: whoever runs the scheduler, or any worker it accepts, can
run code in this process and hand back rows of their choosing. So an address must be either
``tls://`` (mutual TLS: this process and every worker hold certificates signed by the run's CA,
see :mod:`pipeline.parallel`), or plain ``tcp://`` on this machine's loopback interface. Plain
``tcp://`` to another machine needs an explicit ``insecure = true`` (``--insecure``). The check
never resolves a name or opens a connection: only ``localhost`` and loopback IP literals count
as this machine, since a name's answer can change between the check and the connection.
"""

from __future__ import annotations

import ipaddress
import re
from typing import NamedTuple

from pipeline.errors import UserError

SCHEMES = ("tcp", "tls")
MAX_PORT = 65535
ALLOWED = "an address tls://host:port, or tcp://host:port on 127.0.0.1 / [::1] / localhost"
_ADDRESS = re.compile(
    r"(?P<scheme>[a-z]+)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]+):(?P<port>\d{1,5})\Z"
)


class SchedulerAddressError(UserError):
    """The address is malformed, or plain tcp:// to another machine without ``insecure``."""


class SchedulerAddress(NamedTuple):
    """A checked address: its scheme (``tcp`` or ``tls``), host and port."""

    scheme: str
    host: str
    port: int

    @property
    def tls(self) -> bool:
        return self.scheme == "tls"


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine without a name lookup: ``localhost`` or a loopback IP
    literal (``127.0.0.0/8``, ``[::1]``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_scheduler_address(address: str, insecure: bool = False) -> SchedulerAddress:
    """The parsed address, or :class:`SchedulerAddressError` saying why it is refused."""
    match = _ADDRESS.match(address)
    if not match or match["scheme"] not in SCHEMES or not 1 <= int(match["port"]) <= MAX_PORT:
        raise SchedulerAddressError(f"got {address!r}; allowed: {ALLOWED}")
    checked = SchedulerAddress(match["scheme"], match["host"], int(match["port"]))
    if not checked.tls and not insecure and not is_loopback(checked.host):
        raise SchedulerAddressError(
            f"{address} is plain tcp:// to another machine: whoever runs that scheduler or its "
            "workers could run code in this process and forge its rows; use tls:// with "
            "certificates (tls_ca, tls_cert, tls_key), or set insecure = true (--insecure) only "
            "on a network where every machine is yours"
        )
    return checked
