"""Flows: tasks wired into a DAG by their requirements."""

from typing import Callable, Dict, Iterable, Optional

from taskflow.errors import DuplicateTaskError, MissingDependencyError
from taskflow.graph.dag import DAG
from taskflow.graph.visualize import to_dot as render_dot
from taskflow.results import RunReport
from taskflow.runner.base import Runner
from taskflow.runner.sync import SyncRunner
from taskflow.task import Task
from taskflow.task import task as make_task


class Flow:
    """A named set of tasks."""

    def __init__(self, name: str = "flow", tasks: Iterable[Task] = ()):
        self.name = name
        self.tasks: Dict[str, Task] = {}
        for item in tasks:
            self.add(item)

    def add(self, item: Task) -> Task:
        """Add a task; task names must be unique within the flow."""
        if item.name in self.tasks:
            raise DuplicateTaskError(f"flow {self.name!r} already has a task {item.name!r}")
        self.tasks[item.name] = item
        return item

    def task(self, _func: Optional[Callable] = None, **options):
        """Decorator: make a task of the function (see taskflow.task.task) and add it to the flow."""

        def wrap(func: Callable) -> Task:
            return self.add(make_task(func, **options))

        return wrap(_func) if _func is not None else wrap

    @property
    def dag(self) -> DAG:
        """The dependency graph of the tasks; unknown requirements raise MissingDependencyError."""
        graph = DAG()
        for name, item in sorted(self.tasks.items()):
            graph.add_node(name)
            for required in item.requires:
                if required not in self.tasks:
                    raise MissingDependencyError(name, required)
                graph.add_edge(required, name)
        return graph

    def subflow(self, *targets: str) -> "Flow":
        """Return a flow with the target tasks and everything they require, directly or not."""
        graph = self.dag
        names = set()
        for target in targets:
            if target not in self.tasks:
                raise KeyError(target)
            names.add(target)
            names |= graph.ancestors(target)
        return Flow(f"{self.name}[{','.join(targets)}]", [self.tasks[name] for name in sorted(names)])

    def run(self, runner: Optional[Runner] = None) -> RunReport:
        """Run the flow with the runner, a SyncRunner by default."""
        return (runner or SyncRunner()).run(self)

    def to_dot(self, **options) -> str:
        """Render the dependency graph in Graphviz DOT syntax."""
        return render_dot(self.dag, self.name, **options)
