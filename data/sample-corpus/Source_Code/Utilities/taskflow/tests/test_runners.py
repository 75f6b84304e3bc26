import asyncio
import threading
import time
import unittest

from taskflow import AsyncRunner, Flow, SyncRunner
from taskflow.errors import TaskFailed
from taskflow.events import EventBus
from taskflow.results import RunReport, TaskState
from taskflow.runner.base import Runner
from taskflow.task import Task


def make_flow(fail_transform=False):
    flow = Flow("etl")

    @flow.task
    def extract():
        return [1, 2, 3]

    @flow.task(requires=["extract"])
    def transform(extract):
        if fail_transform:
            raise RuntimeError("bad data")
        return [x * 10 for x in extract]

    @flow.task(requires=["extract"])
    async def count(extract):
        await asyncio.sleep(0)
        return len(extract)

    @flow.task(requires=["transform", "count"])
    def load(**results):
        return sorted(results)

    return flow


class TestRunnerBase(unittest.TestCase):
    def test_blocking_requirement(self):
        runner = Runner()
        report = RunReport()
        item = Task("t", print, requires=("a", "b"))
        self.assertEqual(runner.blocking_requirement(item, report), "a")
        runner.skip(Task("a", print), report, "testing")
        self.assertEqual(runner.blocking_requirement(item, report), "a")
        self.assertIsNone(runner.blocking_requirement(Task("free", print), report))
        self.assertEqual(runner.events.history[-1], ("task_skipped", {"task": "a", "reason": "testing"}))
        with self.assertRaises(NotImplementedError):
            runner.run(Flow())


class TestSyncRunner(unittest.TestCase):
    def test_run_flow(self):
        events = EventBus()
        report = SyncRunner(events).run(make_flow())
        self.assertTrue(report.succeeded)
        self.assertEqual(report["transform"].value, [10, 20, 30])
        self.assertEqual(report["count"].value, 3)
        self.assertEqual(report["load"].value, ["count", "transform"])
        self.assertEqual(events.names()[0], "flow_started")
        self.assertEqual(events.history[-1], ("flow_finished", {"flow": "etl", "succeeded": True}))

    def test_failure_skips_dependents(self):
        report = SyncRunner().run(make_flow(fail_transform=True))
        self.assertEqual(report["transform"].state, TaskState.FAILED)
        self.assertEqual(report["load"].state, TaskState.SKIPPED)
        self.assertEqual(report["count"].state, TaskState.SUCCESS)

    def test_fail_fast(self):
        with self.assertRaises(TaskFailed) as ctx:
            SyncRunner(fail_fast=True).run(make_flow(fail_transform=True))
        self.assertEqual(ctx.exception.name, "transform")

    def test_run_task_retries(self):
        calls, sleeps = [], []

        def flaky():
            calls.append(1)
            if len(calls) < 3:
                raise OSError("flaky")
            return "done"

        events = EventBus()
        runner = SyncRunner(events, backoff=0.5, sleep=sleeps.append)
        report = RunReport()
        result = runner.run_task(Task("flaky", flaky, retries=3), report)
        self.assertEqual((result.state, result.value, result.attempts, result.error), (TaskState.SUCCESS, "done", 3, None))
        self.assertEqual(sleeps, [0.5, 1.0])
        self.assertEqual(events.names().count("task_retried"), 2)
        self.assertIs(report["flaky"], result)

    def test_run_task_exhausts_retries(self):
        runner = SyncRunner(sleep=lambda seconds: None)
        result = runner.run_task(Task("broken", lambda: 1 / 0, retries=1), RunReport())
        self.assertEqual((result.state, result.attempts), (TaskState.FAILED, 2))
        self.assertIsInstance(result.error, ZeroDivisionError)


class TestAsyncRunner(unittest.TestCase):
    def test_run_flow(self):
        report = AsyncRunner().run(make_flow())
        self.assertTrue(report.succeeded)
        self.assertEqual(report["load"].value, ["count", "transform"])

    def test_failure_and_fail_fast(self):
        report = AsyncRunner().run(make_flow(fail_transform=True))
        self.assertEqual(report["load"].state, TaskState.SKIPPED)
        with self.assertRaises(TaskFailed):
            AsyncRunner(fail_fast=True).run(make_flow(fail_transform=True))
        with self.assertRaises(ValueError):
            AsyncRunner(concurrency=0)

    def test_concurrency_limit(self):
        flow = Flow("wide")
        for index in range(6):
            async def work(index=index):
                await asyncio.sleep(0.01)
                return index

            flow.add(Task(f"t{index}", work))
        runner = AsyncRunner(concurrency=2)
        report = runner.run(flow)
        self.assertEqual(report.values(), {f"t{i}": i for i in range(6)})
        self.assertEqual(runner.max_running, 2)

    def test_call_sync_async_and_timeout(self):
        caller = threading.get_ident()
        thread_task = Task("sync", lambda x: (x, threading.get_ident() != caller))
        self.assertEqual(asyncio.run(AsyncRunner.call(thread_task, {"x": 1})), (1, True))

        async def slow():
            await asyncio.sleep(1)

        with self.assertRaises(asyncio.TimeoutError):
            asyncio.run(AsyncRunner.call(Task("slow", slow, timeout=0.01), {}))

    def test_run_task_retries_timeouts(self):
        attempts = []

        async def sometimes_slow():
            attempts.append(time.perf_counter())
            if len(attempts) == 1:
                await asyncio.sleep(1)
            return "fast"

        async def main():
            runner = AsyncRunner()
            report = RunReport()
            result = await runner.run_task(Task("s", sometimes_slow, retries=1, timeout=0.05), report, asyncio.Semaphore(1))
            return runner, result

        runner, result = asyncio.run(main())
        self.assertEqual((result.state, result.value, result.attempts), (TaskState.SUCCESS, "fast", 2))
        self.assertEqual(runner.events.names(), ["task_started", "task_retried", "task_succeeded"])
        self.assertEqual(runner._running, 0)


if __name__ == "__main__":
    unittest.main()
