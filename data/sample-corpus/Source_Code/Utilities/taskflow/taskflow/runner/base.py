"""Logic shared by the runners."""

from typing import Optional

from ..events import EventBus
from ..results import RunReport, TaskResult, TaskState
from ..task import Task


class Runner:
    """Base class of runners: events, skipping and the fail-fast switch."""

    def __init__(self, events: Optional[EventBus] = None, *, fail_fast: bool = False):
        self.events = events if events is not None else EventBus()
        self.fail_fast = fail_fast

    def blocking_requirement(self, task: Task, report: RunReport) -> Optional[str]:
        """Return the first required task that has not succeeded, or None when the task may run."""
        for name in task.requires:
            result = report.results.get(name)
            if result is None or not result.ok:
                return name
        return None

    def skip(self, task: Task, report: RunReport, reason: str) -> TaskResult:
        """Record the task as skipped and emit task_skipped."""
        result = TaskResult(task.name, TaskState.SKIPPED)
        report.results[task.name] = result
        self.events.emit("task_skipped", task=task.name, reason=reason)
        return result

    def run(self, flow) -> RunReport:
        """Run every task of the flow; implemented by subclasses."""
        raise NotImplementedError
