"""The HTTP face of api.py: `citewise serve` (FastAPI + uvicorn). No logic of its own."""

from citewise.server.app import create_app

__all__ = ["create_app"]
