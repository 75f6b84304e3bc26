"""Task results, run reports and their summaries."""

import enum
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


class TaskState(enum.Enum):
    """The outcome of a task."""

    PENDING = "pending"
    SUCCESS = "success"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass
class TaskResult:
    """What happened when a task ran."""

    name: str
    state: TaskState = TaskState.PENDING
    value: Any = None
    error: Optional[BaseException] = None
    attempts: int = 0
    duration: float = 0.0

    @property
    def ok(self) -> bool:
        """Whether the task succeeded."""
        return self.state is TaskState.SUCCESS

    def to_dict(self) -> Dict[str, Any]:
        """Return a JSON-friendly view of the result (without the value)."""
        return {
            "name": self.name,
            "state": self.state.value,
            "attempts": self.attempts,
            "duration": round(self.duration, 6),
            "error": repr(self.error) if self.error is not None else None,
        }


@dataclass
class RunReport:
    """The results of one run of a flow, keyed by task name."""

    results: Dict[str, TaskResult] = field(default_factory=dict)

    @property
    def succeeded(self) -> bool:
        """Whether every task that ran succeeded."""
        return all(result.ok for result in self.results.values())

    def failed(self) -> List[str]:
        """Return the names of the failed tasks, sorted."""
        return sorted(name for name, result in self.results.items() if result.state is TaskState.FAILED)

    def values(self) -> Dict[str, Any]:
        """Return the values of the successful tasks."""
        return {name: result.value for name, result in self.results.items() if result.ok}

    def __getitem__(self, name: str) -> TaskResult:
        return self.results[name]


def summarize(report: RunReport) -> str:
    """Return one line per state, such as 'success: 2 (a, b)', in the order of TaskState."""
    groups: Dict[TaskState, List[str]] = {}
    for name in sorted(report.results):
        groups.setdefault(report.results[name].state, []).append(name)
    lines = []
    for state in TaskState:
        names = groups.get(state)
        if names:
            lines.append(f"{state.value}: {len(names)} ({', '.join(names)})")
    return "\n".join(lines)
