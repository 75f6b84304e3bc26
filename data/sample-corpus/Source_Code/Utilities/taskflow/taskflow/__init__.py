"""taskflow: task DAGs with synchronous and asyncio runners."""

from taskflow.flow import Flow
from taskflow.retry import retry
from taskflow.runner import AsyncRunner, SyncRunner
from taskflow.task import Task, task

__version__ = "2.1.0"

__all__ = ["AsyncRunner", "Flow", "SyncRunner", "Task", "retry", "task"]
