"""A small synchronous event bus for run notifications."""

from collections import defaultdict
from typing import Any, Callable, Dict, List, Optional, Tuple

EVENT_TYPES = (
    "flow_started",
    "task_started",
    "task_succeeded",
    "task_failed",
    "task_retried",
    "task_skipped",
    "flow_finished",
)

WILDCARD = "*"


class EventBus:
    """Dispatch named events to subscribed handlers, optionally keeping a history."""

    def __init__(self, *, record: bool = True):
        self._handlers: Dict[str, List[Callable[..., Any]]] = defaultdict(list)
        self.history: List[Tuple[str, Dict[str, Any]]] = []
        self.record = record

    def subscribe(self, event: str, handler: Optional[Callable[..., Any]] = None):
        """Register a handler for an event, or for all events with '*'; usable as a decorator."""
        if event != WILDCARD and event not in EVENT_TYPES:
            raise ValueError(f"unknown event {event!r}")

        def register(func):
            self._handlers[event].append(func)
            return func

        return register(handler) if handler is not None else register

    def unsubscribe(self, event: str, handler: Callable[..., Any]) -> bool:
        """Remove a handler; return whether it was subscribed."""
        handlers = self._handlers.get(event, [])
        if handler in handlers:
            handlers.remove(handler)
            return True
        return False

    def emit(self, event: str, **payload: Any) -> int:
        """Call the handlers of the event, then the wildcard handlers; return how many were called."""
        if event not in EVENT_TYPES:
            raise ValueError(f"unknown event {event!r}")
        if self.record:
            self.history.append((event, dict(payload)))
        handlers = list(self._handlers.get(event, [])) + list(self._handlers.get(WILDCARD, []))
        for handler in handlers:
            handler(event, **payload)
        return len(handlers)

    def names(self) -> List[str]:
        """Return the names of the recorded events, in order."""
        return [name for name, _ in self.history]
