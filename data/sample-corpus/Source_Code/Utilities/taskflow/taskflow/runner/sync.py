"""Run the tasks of a flow one after the other, in dependency order."""

import asyncio
import time
from typing import Callable, Optional

from ..errors import TaskFailed
from ..events import EventBus
from ..graph.toposort import topological_sort
from ..results import RunReport, TaskResult, TaskState
from ..retry import compute_delays
from ..task import Task
from .base import Runner


class SyncRunner(Runner):
    """Run tasks sequentially in the calling thread."""

    def __init__(
        self,
        events: Optional[EventBus] = None,
        *,
        fail_fast: bool = False,
        backoff: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        super().__init__(events, fail_fast=fail_fast)
        self.backoff = backoff
        self.sleep = sleep

    def run_task(self, task: Task, report: RunReport) -> TaskResult:
        """Run one task with its retries (coroutine functions in a fresh event loop) and record its result."""
        result = TaskResult(task.name)
        report.results[task.name] = result
        kwargs = task.bind_inputs(report.values())
        delays = compute_delays(task.retries, base=self.backoff)
        started = time.perf_counter()
        self.events.emit("task_started", task=task.name)
        for attempt in range(task.retries + 1):
            result.attempts = attempt + 1
            try:
                if task.is_async:
                    result.value = asyncio.run(task.func(**kwargs))
                else:
                    result.value = task.func(**kwargs)
            except Exception as exc:
                result.error = exc
                if attempt < task.retries:
                    self.events.emit("task_retried", task=task.name, attempt=attempt + 1, error=exc)
                    self.sleep(delays[attempt])
                    continue
                result.state = TaskState.FAILED
                self.events.emit("task_failed", task=task.name, error=exc)
            else:
                result.state = TaskState.SUCCESS
                result.error = None
                self.events.emit("task_succeeded", task=task.name, value=result.value)
            break
        result.duration = time.perf_counter() - started
        return result

    def run(self, flow) -> RunReport:
        """Run the tasks of the flow in topological order, skipping those whose requirements failed."""
        report = RunReport()
        self.events.emit("flow_started", flow=flow.name)
        for name in topological_sort(flow.dag):
            task = flow.tasks[name]
            blocker = self.blocking_requirement(task, report)
            if blocker is not None:
                self.skip(task, report, f"requirement {blocker!r} did not succeed")
                continue
            result = self.run_task(task, report)
            if not result.ok and self.fail_fast:
                raise TaskFailed(task.name, result.error)
        self.events.emit("flow_finished", flow=flow.name, succeeded=report.succeeded)
        return report
