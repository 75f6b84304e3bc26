"""Retry helpers with exponential backoff."""

import asyncio
import functools
import random
import time
from typing import Callable, List, Optional, Tuple, Type

MAX_DELAY = 30.0


def compute_delays(
    retries: int,
    base: float = 0.1,
    factor: float = 2.0,
    max_delay: float = MAX_DELAY,
    jitter: float = 0.0,
    rng: Optional[random.Random] = None,
) -> List[float]:
    """Return the wait before each retry: base * factor ** attempt, capped, plus optional jitter."""
    rng = rng or random.Random(0)
    delays = []
    for attempt in range(retries):
        delay = min(base * factor ** attempt, max_delay)
        if jitter:
            delay += rng.uniform(0, jitter * delay)
        delays.append(delay)
    return delays


def retry(
    retries: int = 3,
    *,
    exceptions: Tuple[Type[BaseException], ...] = (Exception,),
    base: float = 0.1,
    factor: float = 2.0,
    sleep: Callable[[float], None] = time.sleep,
    on_retry: Optional[Callable[[int, BaseException], None]] = None,
):
    """Decorator: call the function again when it raises one of the exceptions, backing off exponentially."""
    delays = compute_delays(retries, base, factor)

    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for attempt, delay in enumerate(delays + [None]):
                try:
                    return func(*args, **kwargs)
                except exceptions as exc:
                    if delay is None:
                        raise
                    if on_retry is not None:
                        on_retry(attempt + 1, exc)
                    sleep(delay)

        wrapper.retries = retries
        return wrapper

    return decorator


async def retry_async(func, *args, retries: int = 3, exceptions=(Exception,), base: float = 0.0, factor: float = 2.0, **kwargs):
    """Await func(*args, **kwargs), retrying when it raises one of the exceptions."""
    for delay in compute_delays(retries, base, factor):
        try:
            return await func(*args, **kwargs)
        except exceptions:
            await asyncio.sleep(delay)
    return await func(*args, **kwargs)
