"""Exceptions raised by taskflow."""

from typing import Iterable


class TaskflowError(Exception):
    """Base class of all taskflow errors."""


class CycleError(TaskflowError):
    """The dependencies contain a cycle."""

    def __init__(self, nodes: Iterable[str]):
        self.nodes = list(nodes)
        super().__init__("dependency cycle: " + " -> ".join(self.nodes))


class MissingDependencyError(TaskflowError):
    """A task requires a task that is not part of the flow."""

    def __init__(self, task: str, dependency: str):
        self.task = task
        self.dependency = dependency
        super().__init__(f"task {task!r} requires unknown task {dependency!r}")


class DuplicateTaskError(TaskflowError):
    """Two tasks of one flow have the same name."""


class TaskFailed(TaskflowError):
    """A task failed and the runner was told to stop at the first failure."""

    def __init__(self, name: str, cause: BaseException):
        self.name = name
        self.cause = cause
        super().__init__(f"task {name!r} failed: {cause!r}")
