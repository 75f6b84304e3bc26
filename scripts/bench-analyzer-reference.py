"""Times the reference implementation's comparison for npm run bench:analyzer, in this one process.

Usage: python3 bench-analyzer-reference.py REFERENCE_DIR, then on stdin one JSON line per message:
first {"call": "module:function"}, then one list of pairs [{"original", "modified", "target"}, ...]
per repetition. REFERENCE_DIR goes first on sys.path; the function is called as
function(original, modified, target) on every pair of a repetition, and the repetition's pairs/s
is printed as one line. The benchmark sends a repetition after each of its own, so both sides
run on the machine as it is at that moment.
"""
import importlib
import json
import sys
import time


def main() -> None:
    sys.path.insert(0, sys.argv[1])
    request = json.loads(sys.stdin.readline())
    module_name, function_name = request["call"].split(":")
    compare = getattr(importlib.import_module(module_name), function_name)
    print("ready", flush=True)
    for line in sys.stdin:
        pairs = json.loads(line)
        started = time.perf_counter()
        for pair in pairs:
            compare(pair["original"], pair["modified"], pair["target"])
        print(json.dumps(len(pairs) / (time.perf_counter() - started)), flush=True)


if __name__ == "__main__":
    main()
