"""Times the reference implementation's comparison for npm run bench:analyzer, in this one process.

Usage: python3 bench-analyzer-reference.py REFERENCE_DIR < pairs.json, where pairs.json is
{"call": "module:function", "repetitions": [[{"original", "modified", "target"}, ...], ...]}.
REFERENCE_DIR goes first on sys.path; the function is called as function(original, modified, target)
on every pair. Prints the pairs/s of each repetition as a JSON list.
"""
import importlib
import json
import sys
import time


def main() -> None:
    sys.path.insert(0, sys.argv[1])
    request = json.load(sys.stdin)
    module_name, function_name = request["call"].split(":")
    compare = getattr(importlib.import_module(module_name), function_name)
    rates = []
    for pairs in request["repetitions"]:
        started = time.perf_counter()
        for pair in pairs:
            compare(pair["original"], pair["modified"], pair["target"])
        rates.append(len(pairs) / (time.perf_counter() - started))
    print(json.dumps(rates))


if __name__ == "__main__":
    main()
