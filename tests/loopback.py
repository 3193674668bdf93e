"""Loopback helpers for tests that run real servers: a free port, a clean stop."""

from __future__ import annotations

import socket
import subprocess


def free_port() -> int:
    """A port nothing listens on right now (bound, read, released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop(process: subprocess.Popen[bytes], grace: float = 5.0) -> None:
    """Terminate a server process, killing it if it does not exit within `grace` seconds."""
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
