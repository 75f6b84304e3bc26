"""Tasks: named callables with requirements, retries and a timeout."""

import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Optional, Tuple

from .errors import TaskflowError

DEFAULT_RETRIES = 0


@dataclass
class Task:
    """A unit of work in a flow."""

    name: str
    func: Callable[..., Any]
    requires: Tuple[str, ...] = ()
    retries: int = DEFAULT_RETRIES
    timeout: Optional[float] = None
    tags: frozenset = field(default_factory=frozenset)

    def __post_init__(self):
        if self.retries < 0:
            raise TaskflowError(f"task {self.name!r}: retries must not be negative")
        self.requires = tuple(self.requires)
        if self.name in self.requires:
            raise TaskflowError(f"task {self.name!r} cannot require itself")

    @property
    def is_async(self) -> bool:
        """Whether the task function is a coroutine function."""
        return inspect.iscoroutinefunction(self.func)

    def bind_inputs(self, results: Dict[str, Any]) -> Dict[str, Any]:
        """Pick the results of the required tasks that the function accepts as keyword arguments."""
        parameters = inspect.signature(self.func).parameters
        takes_kwargs = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
        kwargs = {}
        for name in self.requires:
            if name not in results:
                raise TaskflowError(f"task {self.name!r} needs the result of {name!r}")
            if takes_kwargs or name in parameters:
                kwargs[name] = results[name]
        return kwargs

    def __call__(self, *args, **kwargs):
        return self.func(*args, **kwargs)


def task(
    _func: Optional[Callable] = None,
    *,
    name: Optional[str] = None,
    requires: Iterable[str] = (),
    retries: int = DEFAULT_RETRIES,
    timeout: Optional[float] = None,
    tags: Iterable[str] = (),
):
    """Decorator that turns a function into a Task; usable with or without arguments."""
    def wrap(func: Callable) -> Task:
        return Task(name or func.__name__, func, tuple(requires), retries, timeout, frozenset(tags))

    if _func is not None:
        return wrap(_func)
    return wrap
