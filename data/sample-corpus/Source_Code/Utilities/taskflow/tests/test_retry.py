import asyncio
import random
import unittest

from taskflow.retry import compute_delays, retry, retry_async


class TestComputeDelays(unittest.TestCase):
    def test_exponential(self):
        self.assertEqual(compute_delays(4, base=1.0, factor=2.0), [1.0, 2.0, 4.0, 8.0])

    def test_capped_and_zero(self):
        self.assertEqual(compute_delays(3, base=5.0, factor=3.0, max_delay=20.0), [5.0, 15.0, 20.0])
        self.assertEqual(compute_delays(0), [])

    def test_jitter_is_deterministic_with_rng(self):
        first = compute_delays(3, base=1.0, jitter=0.5, rng=random.Random(42))
        second = compute_delays(3, base=1.0, jitter=0.5, rng=random.Random(42))
        self.assertEqual(first, second)
        for delay, plain in zip(first, [1.0, 2.0, 4.0]):
            self.assertTrue(plain <= delay <= plain * 1.5)


class TestRetryDecorator(unittest.TestCase):
    def test_succeeds_after_failures(self):
        sleeps, seen, calls = [], [], []

        @retry(3, base=1.0, sleep=sleeps.append, on_retry=lambda n, exc: seen.append((n, str(exc))))
        def flaky(x, *, boom=2):
            """Fail a few times."""
            calls.append(x)
            if len(calls) <= boom:
                raise ValueError(f"fail {len(calls)}")
            return x * 2

        self.assertEqual(flaky(21), 42)
        self.assertEqual(sleeps, [1.0, 2.0])
        self.assertEqual(seen, [(1, "fail 1"), (2, "fail 2")])
        self.assertEqual(flaky.__name__, "flaky")
        self.assertEqual(flaky.retries, 3)

    def test_gives_up_and_filters_exceptions(self):
        @retry(2, exceptions=(KeyError,), sleep=lambda s: None)
        def always_key_error():
            raise KeyError("k")

        @retry(2, exceptions=(KeyError,), sleep=lambda s: None)
        def type_error():
            raise TypeError("t")

        with self.assertRaises(KeyError):
            always_key_error()
        with self.assertRaises(TypeError):
            type_error()


class TestRetryAsync(unittest.TestCase):
    def test_retries_coroutine(self):
        attempts = []

        async def flaky(value):
            attempts.append(value)
            if len(attempts) < 3:
                raise OSError("again")
            return value

        self.assertEqual(asyncio.run(retry_async(flaky, "ok", retries=3)), "ok")
        self.assertEqual(len(attempts), 3)

    def test_last_error_propagates(self):
        async def broken():
            raise OSError("down")

        with self.assertRaises(OSError):
            asyncio.run(retry_async(broken, retries=1))


if __name__ == "__main__":
    unittest.main()
