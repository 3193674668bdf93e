"""Real read-only folders and real full disks for the tests (mounts need root; skip else)."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """`folder` read-only for this process, for real: a read-only bind mount when we run
    as root (root writes through file modes), else its modes without write bits."""
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")]}
        for path in modes:
            path.chmod(modes[path] & 0o555)
        try:
            yield
        finally:
            for path, mode in modes.items():
                path.chmod(mode)
        return
    bind = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if bind.returncode:
        pytest.skip("cannot make a read-only mount here")
    try:
        remount = ["mount", "-o", "remount,ro,bind", str(folder), str(folder)]
        if subprocess.run(remount, capture_output=True).returncode:
            pytest.skip("cannot make a read-only mount here")
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@contextlib.contextmanager
def tiny_disk(folder: Path, size: str) -> Iterator[None]:
    folder.mkdir(parents=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        yield
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=True)  # mapped files may stay open


def resize(folder: Path, size: str) -> None:
    """Give a `tiny_disk` more room (as when the user frees space)."""
    subprocess.run(["mount", "-o", f"remount,size={size}", str(folder)], check=True)
