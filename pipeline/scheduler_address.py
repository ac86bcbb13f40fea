"""Which Dask scheduler addresses a run may use, decided from the address string alone.

Dask moves pickled objects both ways, and unpickling runs code: whoever runs the scheduler, or
any worker it accepts, can run code in this process and hand back rows of their choosing. So an
address must be ``tls://`` (mutual TLS: this process and every worker hold certificates signed
by the run's CA, see :mod:`pipeline.parallel`). Plain ``tcp://`` authenticates nobody, and a
port on the loopback interface is open to every user of this machine, so it needs an explicit
``insecure = true`` (``--insecure``) whatever the host. The check never resolves a name or
opens a connection: only ``localhost`` and loopback IP literals count as this machine (for the
warning's wording), since a name's answer can change between the check and the connection.
"""

from __future__ import annotations

import ipaddress
import re
from typing import NamedTuple

from pipeline.errors import UserError

SCHEMES = ("tcp", "tls")
MAX_PORT = 65535
ALLOWED = "an address tls://host:port, or tcp://host:port with insecure = true (--insecure)"
_ADDRESS = re.compile(
    r"(?P<scheme>[a-z]+)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]+):(?P<port>\d{1,5})\Z"
)


class SchedulerAddressError(UserError):
    """The address is malformed, or plain tcp:// without ``insecure``."""


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


def exposure(address: SchedulerAddress) -> str:
    """Who can reach a plain ``tcp://`` scheduler, and what that lets them do here."""
    who = "any user of this machine" if is_loopback(address.host) else "anyone on the network"
    return (
        f"{who} who can reach port {address.port} of {address.host} can run code in this "
        "process and forge its rows"
    )


def check_scheduler_address(address: str, insecure: bool = False) -> SchedulerAddress:
    """The parsed address, or :class:`SchedulerAddressError` saying why it is refused."""
    match = _ADDRESS.match(address)
    if not match or match["scheme"] not in SCHEMES or not 1 <= int(match["port"]) <= MAX_PORT:
        raise SchedulerAddressError(f"got {address!r}; allowed: {ALLOWED}")
    checked = SchedulerAddress(match["scheme"], match["host"], int(match["port"]))
    if not checked.tls and not insecure:
        raise SchedulerAddressError(
            f"{address} is plain tcp://, which authenticates nobody: {exposure(checked)}; use "
            "tls:// with certificates (tls_ca, tls_cert, tls_key), --backend dask without a "
            "scheduler for a private cluster on this machine, or set insecure = true "
            "(--insecure) to accept that"
        )
    return checked
