import unittest

from taskflow.events import EventBus
from taskflow.results import RunReport, TaskResult, TaskState, summarize


class TestEventBus(unittest.TestCase):
    def test_subscribe_and_emit(self):
        bus = EventBus()
        received = []

        @bus.subscribe("task_started")
        def on_start(event, **payload):
            received.append((event, payload["task"]))

        bus.subscribe("*", lambda event, **payload: received.append(("any", event)))
        self.assertEqual(bus.emit("task_started", task="a"), 2)
        self.assertEqual(bus.emit("flow_finished", flow="f"), 1)
        self.assertEqual(received, [("task_started", "a"), ("any", "task_started"), ("any", "flow_finished")])
        self.assertEqual(bus.names(), ["task_started", "flow_finished"])

    def test_unknown_events_and_unsubscribe(self):
        bus = EventBus(record=False)
        with self.assertRaises(ValueError):
            bus.subscribe("nope", print)
        with self.assertRaises(ValueError):
            bus.emit("nope")
        handler = bus.subscribe("task_failed", lambda event, **payload: None)
        self.assertTrue(bus.unsubscribe("task_failed", handler))
        self.assertFalse(bus.unsubscribe("task_failed", handler))
        self.assertEqual(bus.emit("task_failed", task="x"), 0)
        self.assertEqual(bus.history, [])


class TestResults(unittest.TestCase):
    def test_report_and_summary(self):
        report = RunReport()
        report.results["b"] = TaskResult("b", TaskState.SUCCESS, value=2, attempts=1, duration=0.1234567)
        report.results["a"] = TaskResult("a", TaskState.SUCCESS, value=1)
        report.results["c"] = TaskResult("c", TaskState.FAILED, error=ValueError("x"))
        report.results["d"] = TaskResult("d", TaskState.SKIPPED)
        self.assertFalse(report.succeeded)
        self.assertEqual(report.failed(), ["c"])
        self.assertEqual(report.values(), {"b": 2, "a": 1})
        self.assertEqual(summarize(report), "success: 2 (a, b)\nfailed: 1 (c)\nskipped: 1 (d)")
        self.assertEqual(report["b"].to_dict(), {"name": "b", "state": "success", "attempts": 1, "duration": 0.123457, "error": None})
        self.assertEqual(report["c"].to_dict()["error"], "ValueError('x')")

    def test_empty_summary(self):
        self.assertEqual(summarize(RunReport()), "")
        self.assertTrue(RunReport().succeeded)


if __name__ == "__main__":
    unittest.main()
