"""Runners that execute the tasks of a flow."""

from .async_runner import AsyncRunner
from .base import Runner
from .sync import SyncRunner

__all__ = ["AsyncRunner", "Runner", "SyncRunner"]
