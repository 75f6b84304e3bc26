#!/usr/bin/env python3
"""Generate data/sample-corpus/data.jsonl (DevEval format) from tools/targets.json.

targets.json is a hand-written list of targets. Each entry names a project, a file, a function
(`func`) or method (`Class.method`), the requirement (functionality sentence and argument lines),
the test node ids, and optionally `extra_dependency` for dependencies that the syntax alone
does not reveal (for example a method called on an attribute whose type is a repository class).

Everything else is computed with `ast`/`tokenize` from the source:
  - namespace (module path relative to the package root, `src/` excluded) and type;
  - signature_position: first decorator line (or def line) to the line of the header's colon;
  - body_position: line after the function's docstring to the function's last line;
  - indent: column of the body's first statement;
  - dependency: module-level names of the same file, names imported from other modules of the
    repository (resolved to where they are defined), attributes of imported repository modules
    and classes, and self/cls attributes, merged with `extra_dependency`.

Usage:
  python3 tools/make_metadata.py            # write data.jsonl
  python3 tools/make_metadata.py --stdout   # print instead of writing
  python3 tools/make_metadata.py --probe Topic/repo path/to/file.py
                                            # show positions and computed dependencies of every
                                            # function and method of a file (authoring aid)
"""

import argparse
import ast
import json
import sys

from corpus_lib import (
    DATA_PATH,
    FUNCTION_NODES,
    Repository,
    Target,
    build_sample,
    iter_module_statements,
    load_targets,
)


def generate(targets):
    repos = {}
    samples = []
    seen = set()
    for spec in targets:
        sample, _target = build_sample(spec, repos)
        if sample["namespace"] in seen:
            raise SystemExit(f"duplicate target {sample['namespace']}")
        seen.add(sample["namespace"])
        samples.append(sample)
    samples.sort(key=lambda sample: (sample["project_path"], sample["namespace"]))
    return samples


def render(samples):
    return "".join(json.dumps(sample, ensure_ascii=True) + "\n" for sample in samples)


def probe(project, rel_file):
    repo = Repository(project)
    path = f"{repo.root}/{rel_file}"
    module = repo.module(repo.module_name(path))
    names = []
    for stmt, _conditional in iter_module_statements(module.tree):
        if isinstance(stmt, FUNCTION_NODES):
            names.append(stmt.name)
        elif isinstance(stmt, ast.ClassDef):
            names.extend(f"{stmt.name}.{m.name}" for m in stmt.body if isinstance(m, FUNCTION_NODES))
    for name in dict.fromkeys(names):
        target = Target(repo, rel_file, name)
        has_doc = target.docstring_node is not None
        positions = f"sig={target.signature_position} body={target.body_position if has_doc else '-'}"
        print(f"{target.namespace} [{target.type}{', conditional' if target.conditional else ''}] {positions}")
        for kind, deps in target.auto_dependencies().items():
            if deps:
                print(f"    {kind}: {', '.join(deps)}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stdout", action="store_true", help="print the JSON lines instead of writing data.jsonl")
    parser.add_argument("--probe", nargs=2, metavar=("PROJECT", "FILE"), help="inspect the functions of one file")
    args = parser.parse_args(argv)
    if args.probe:
        probe(*args.probe)
        return 0
    samples = generate(load_targets())
    text = render(samples)
    if args.stdout:
        sys.stdout.write(text)
    else:
        with open(DATA_PATH, "w", encoding="ascii", newline="\n") as handle:
            handle.write(text)
        print(f"wrote {len(samples)} samples to {DATA_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
