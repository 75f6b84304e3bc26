"""Run the tasks of a flow concurrently with asyncio, layer by layer."""

import asyncio
import time
from typing import Any, Dict, Optional

from ..errors import TaskFailed
from ..events import EventBus
from ..graph.toposort import layers
from ..results import RunReport, TaskResult, TaskState
from ..retry import compute_delays
from ..task import Task
from .base import Runner


class AsyncRunner(Runner):
    """Run the tasks of each layer concurrently, at most `concurrency` at a time."""

    def __init__(
        self,
        events: Optional[EventBus] = None,
        *,
        concurrency: int = 4,
        fail_fast: bool = False,
        backoff: float = 0.0,
    ):
        super().__init__(events, fail_fast=fail_fast)
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.concurrency = concurrency
        self.backoff = backoff
        self.max_running = 0
        self._running = 0

    @staticmethod
    async def call(task: Task, kwargs: Dict[str, Any]) -> Any:
        """Call the task function, awaiting coroutines and running plain functions in a thread, within the timeout."""
        if task.is_async:
            pending = task.func(**kwargs)
        else:
            pending = asyncio.to_thread(task.func, **kwargs)
        if task.timeout is not None:
            return await asyncio.wait_for(pending, task.timeout)
        return await pending

    async def run_task(self, task: Task, report: RunReport, semaphore: asyncio.Semaphore) -> TaskResult:
        """Run one task under the semaphore, with its retries, and record its result."""
        result = TaskResult(task.name)
        report.results[task.name] = result
        kwargs = task.bind_inputs(report.values())
        delays = compute_delays(task.retries, base=self.backoff)
        async with semaphore:
            self._running += 1
            self.max_running = max(self.max_running, self._running)
            started = time.perf_counter()
            self.events.emit("task_started", task=task.name)
            try:
                for attempt in range(task.retries + 1):
                    result.attempts = attempt + 1
                    try:
                        result.value = await self.call(task, kwargs)
                    except Exception as exc:
                        result.error = exc
                        if attempt < task.retries:
                            self.events.emit("task_retried", task=task.name, attempt=attempt + 1, error=exc)
                            await asyncio.sleep(delays[attempt])
                            continue
                        result.state = TaskState.FAILED
                        self.events.emit("task_failed", task=task.name, error=exc)
                    else:
                        result.state = TaskState.SUCCESS
                        result.error = None
                        self.events.emit("task_succeeded", task=task.name, value=result.value)
                    break
            finally:
                self._running -= 1
                result.duration = time.perf_counter() - started
        return result

    async def run_async(self, flow) -> RunReport:
        """Run the flow layer by layer; the runnable tasks of a layer run concurrently."""
        report = RunReport()
        semaphore = asyncio.Semaphore(self.concurrency)
        self.events.emit("flow_started", flow=flow.name)
        for layer in layers(flow.dag):
            runnable = []
            for name in layer:
                task = flow.tasks[name]
                blocker = self.blocking_requirement(task, report)
                if blocker is None:
                    runnable.append(task)
                else:
                    self.skip(task, report, f"requirement {blocker!r} did not succeed")
            results = await asyncio.gather(*(self.run_task(task, report, semaphore) for task in runnable))
            failures = [result for result in results if not result.ok]
            if failures and self.fail_fast:
                raise TaskFailed(failures[0].name, failures[0].error)
        self.events.emit("flow_finished", flow=flow.name, succeeded=report.succeeded)
        return report

    def run(self, flow) -> RunReport:
        """Run the flow from synchronous code."""
        return asyncio.run(self.run_async(flow))
