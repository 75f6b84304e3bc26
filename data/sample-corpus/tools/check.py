#!/usr/bin/env python3
"""Verify the sample corpus: data.jsonl against the sources, the tests, and the project layout.

Checks, in order:
  1. data.jsonl has exactly DevEval's keys (in DevEval's order) and is what make_metadata.py
     generates from tools/targets.json (so it is deterministic and up to date);
  2. for every sample: completion_path and project_path exist, namespace/type match the
     source, signature_position, body_position and indent match the `ast`, the target has a
     docstring that ends right before the body, and every dependency names a real definition
     of the right kind (intra_class / intra_file / cross_file) and covers what the syntax shows;
  3. every test id exists (file, class, method), passes on its own with
     `python3 -m unittest tests.test_x.Class.method` run from the project root, and actually
     calls the target function (traced with sys.setprofile in a separate run);
  4. every project's whole suite passes with `python3 -m unittest discover -s tests -t .`
     in under 2 seconds;
  5. corpus rules: exactly two samples whose target sits in a module-level conditional, both
     in one file; at least 35 file-context and 25 repository-context samples among the rest;
     5-20 modules per project and a leaf package of 2-9 source files; at least 10 target
     functions imported by other modules of their repository and some imported by none;
     every file ASCII, LF line endings, no tabs, no trailing whitespace, no __pycache__.

Usage: python3 tools/check.py [--jobs N] [--skip-tests]
Exit status 0 when everything is clean.
"""

import argparse
import ast
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

from corpus_lib import (
    CORPUS_DIR,
    DATA_PATH,
    DEPENDENCY_KINDS,
    DEVEVAL_KEYS,
    SOURCE_DIR,
    Repository,
    Target,
    import_bindings,
    list_projects,
    load_targets,
)
from make_metadata import generate, render

SUITE_LIMIT_SECONDS = 2.0
MIN_FILE_CONTEXT = 35
MIN_REPO_CONTEXT = 25
MIN_FUNCTIONS_WITH_DEPENDENTS = 10

TRACER = r"""
import io, json, os, sys, threading, unittest
root = os.path.realpath(os.getcwd())
sys.path.insert(0, root)
calls = set()
def profile(frame, event, arg):
    if event == "call":
        code = frame.f_code
        path = os.path.realpath(code.co_filename)
        if path.startswith(root):
            calls.add((path, code.co_firstlineno, code.co_name))
suite = unittest.defaultTestLoader.loadTestsFromName(sys.argv[1])
threading.setprofile(profile)
sys.setprofile(profile)
result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
sys.setprofile(None)
threading.setprofile(None)
print(json.dumps({"ok": result.wasSuccessful(), "run": result.testsRun, "calls": sorted(calls)}))
"""


class Report:
    def __init__(self):
        self.errors = []

    def error(self, message):
        self.errors.append(message)

    def check(self, condition, message):
        if not condition:
            self.error(message)
        return condition


def child_env():
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTHONPATH", None)
    return env


def dotted_test(test_id):
    path, _, rest = test_id.partition("::")
    return path[:-3].replace("/", ".") + "." + rest.replace("::", ".")


def test_exists(root, test_id):
    path, _, rest = test_id.partition("::")
    parts = rest.split("::")
    full = os.path.join(root, path)
    if len(parts) != 2 or not os.path.isfile(full):
        return False
    with open(full, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == parts[0]:
            return any(isinstance(m, ast.FunctionDef) and m.name == parts[1] for m in node.body)
    return False


def run_unittest(root, dotted):
    proc = subprocess.run(
        [sys.executable, "-m", "unittest", dotted],
        cwd=root, env=child_env(), capture_output=True, text=True, timeout=60,
    )
    return proc.returncode == 0 and "Ran 1 test" in proc.stderr, proc.stderr


def run_traced(root, dotted):
    proc = subprocess.run(
        [sys.executable, "-c", TRACER, dotted],
        cwd=root, env=child_env(), capture_output=True, text=True, timeout=60,
    )
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {"ok": False, "run": 0, "calls": [], "stderr": proc.stderr}


def check_metadata(report, samples, targets):
    """Keys, regeneration, and per-sample agreement with the sources."""
    expected = render(generate(targets))
    with open(DATA_PATH, encoding="ascii") as handle:
        actual = handle.read()
    report.check(actual == expected, "data.jsonl differs from `make_metadata.py` output (regenerate it)")
    repos = {}
    located = {}
    by_namespace = {}
    for spec in targets:
        repo = repos.setdefault(spec["project"], Repository(spec["project"]))
        target = Target(repo, spec["file"], spec["name"])
        by_namespace[target.namespace] = target
    for sample in samples:
        ns = sample.get("namespace")
        report.check(tuple(sample) == DEVEVAL_KEYS, f"{ns}: keys are {list(sample)}")
        report.check(tuple(sample["dependency"]) == DEPENDENCY_KINDS, f"{ns}: dependency keys {list(sample['dependency'])}")
        report.check(tuple(sample["requirement"]) == ("Functionality", "Arguments"), f"{ns}: requirement keys")
        target = by_namespace.get(ns)
        if not report.check(target is not None, f"{ns}: no such target in targets.json"):
            continue
        located[ns] = target
        path = os.path.join(SOURCE_DIR, sample["completion_path"])
        report.check(os.path.isfile(path), f"{ns}: completion_path {sample['completion_path']} does not exist")
        report.check(os.path.isdir(os.path.join(SOURCE_DIR, sample["project_path"])), f"{ns}: project_path missing")
        report.check(sample["completion_path"].startswith(sample["project_path"] + "/"), f"{ns}: completion_path outside project_path")
        report.check(os.path.realpath(path) == os.path.realpath(target.path), f"{ns}: completion_path is not the target file")
        report.check(sample["type"] == target.type, f"{ns}: type {sample['type']} != {target.type}")
        # Positions, recomputed from scratch with the ast.
        node = target.node
        decorators = [d.lineno for d in node.decorator_list]
        sig_start = min(decorators + [node.lineno])
        report.check(sample["signature_position"][0] == sig_start, f"{ns}: signature starts at {sig_start}")
        report.check(sample["signature_position"] == target.signature_position, f"{ns}: signature_position")
        docstring = target.docstring_node
        if report.check(docstring is not None, f"{ns}: target has no docstring"):
            report.check(docstring.lineno == sample["signature_position"][1] + 1, f"{ns}: docstring does not follow the signature")
            report.check(sample["body_position"][0] == docstring.end_lineno + 1, f"{ns}: body does not start after the docstring")
            first = node.body[1]
            first_line = min([d.lineno for d in getattr(first, "decorator_list", [])] + [first.lineno])
            report.check(first_line == sample["body_position"][0], f"{ns}: gap between docstring and body")
        report.check(sample["body_position"][1] == node.end_lineno, f"{ns}: body ends at {node.end_lineno}")
        report.check(sample["indent"] == node.body[-1].col_offset == node.col_offset + 4, f"{ns}: indent {sample['indent']}")
        if not target.conditional:
            expected_indent = 8 if target.class_node is not None else 4
            report.check(sample["indent"] == expected_indent, f"{ns}: indent should be {expected_indent}")
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        sig_text = lines[sample["signature_position"][1] - 1].rstrip()
        report.check(sig_text.endswith(":") or ":" in sig_text, f"{ns}: signature does not end with ':'")
        def_line = lines[node.lineno - 1].strip()
        report.check(def_line.startswith(("def ", "async def ")), f"{ns}: def line is {def_line!r}")
        # Dependencies.
        repo = target.repo
        for kind in DEPENDENCY_KINDS:
            names = sample["dependency"][kind]
            report.check(names == sorted(set(names)), f"{ns}: {kind} not sorted/unique")
            for name in names:
                report.check(repo.exists(name), f"{ns}: dependency {name} does not exist")
                report.check(target.category(name) == kind, f"{ns}: {name} belongs in {target.category(name)}, not {kind}")
                report.check(name != ns, f"{ns}: depends on itself")
        auto = target.auto_dependencies()
        for kind in DEPENDENCY_KINDS:
            missing = set(auto[kind]) - set(sample["dependency"][kind]) - {ns}
            report.check(not missing, f"{ns}: {kind} misses {sorted(missing)}")
        report.check(bool(sample["requirement"]["Functionality"].strip()), f"{ns}: empty Functionality")
        arguments = sample["requirement"]["Arguments"].split("\n")
        report.check(all(line.startswith((":param ", ":return:")) for line in arguments), f"{ns}: Arguments lines")
        report.check(arguments[-1].startswith(":return:"), f"{ns}: Arguments must end with :return:")
        report.check(bool(sample["tests"]), f"{ns}: no tests")
    return located


def check_tests(report, samples, located, jobs):
    """Every test id exists, passes alone and calls its target."""
    jobs_list = []
    for sample in samples:
        root = os.path.join(SOURCE_DIR, sample["project_path"])
        for test_id in sample["tests"]:
            jobs_list.append((sample["namespace"], root, test_id))
    unique = sorted({(root, test_id) for _, root, test_id in jobs_list})

    def work(item):
        root, test_id = item
        if not test_exists(root, test_id):
            return item, False, "missing", None
        ok, stderr = run_unittest(root, dotted_test(test_id))
        traced = run_traced(root, dotted_test(test_id))
        return item, ok, stderr, traced

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        outcomes = {item: (ok, stderr, traced) for item, ok, stderr, traced in pool.map(work, unique)}
    for ns, root, test_id in jobs_list:
        ok, stderr, traced = outcomes[(root, test_id)]
        if stderr == "missing":
            report.error(f"{ns}: test {test_id} does not exist")
            continue
        if not report.check(ok, f"{ns}: {test_id} failed:\n{stderr[-1500:]}"):
            continue
        target = located.get(ns)
        if target is None or traced is None:
            continue
        first_lines = {target.node.lineno, min([d.lineno for d in target.node.decorator_list] + [target.node.lineno])}
        path = os.path.realpath(target.path)
        hit = any(p == path and line in first_lines and name == target.node.name for p, line, name in traced["calls"])
        report.check(traced["ok"] and traced["run"] == 1, f"{ns}: traced run of {test_id} failed")
        report.check(hit, f"{ns}: {test_id} never calls the target")
    return len(unique)


def check_suites(report):
    results = {}
    for project in list_projects():
        root = os.path.join(SOURCE_DIR, project)
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "unittest", "discover", "-s", "tests", "-t", "."],
            cwd=root, env=child_env(), capture_output=True, text=True, timeout=120,
        )
        elapsed = time.perf_counter() - started
        ran = 0
        for line in proc.stderr.splitlines():
            if line.startswith("Ran "):
                ran = int(line.split()[1])
        report.check(proc.returncode == 0, f"{project}: test suite failed:\n{proc.stderr[-2000:]}")
        report.check(elapsed < SUITE_LIMIT_SECONDS, f"{project}: test suite took {elapsed:.2f}s")
        report.check(ran > 0, f"{project}: no tests ran")
        results[project] = (ran, elapsed)
    return results


def project_layout(report, project):
    repo = Repository(project)
    modules = repo.module_paths
    packages = defaultdict(list)
    subpackages = defaultdict(set)
    for name, path in modules.items():
        if os.path.basename(path) == "__init__.py":
            parent = name.rpartition(".")[0]
            if parent:
                subpackages[parent].add(name)
            packages[name].append(path)
        else:
            packages[name.rpartition(".")[0]].append(path)
    leaves = sorted(
        pkg for pkg in packages
        if pkg and "." in pkg and not subpackages.get(pkg) and 2 <= len(packages[pkg]) <= 9
    )
    top = [pkg for pkg in packages if pkg and "." not in pkg]
    report.check(5 <= len(modules) <= 20, f"{project}: {len(modules)} modules (want 5-20)")
    report.check(len(top) == 1, f"{project}: top-level packages {top}")
    report.check(any("." in pkg for pkg in packages), f"{project}: no subpackage")
    report.check(bool(leaves), f"{project}: no leaf package of 2-9 source files")
    report.check(os.path.isfile(os.path.join(repo.root, "README.md")), f"{project}: no README.md")
    report.check(os.path.isfile(os.path.join(repo.root, "tests", "__init__.py")), f"{project}: no tests/__init__.py")
    return repo, modules, {pkg: len(packages[pkg]) for pkg in leaves}


def importers(repo, namespace):
    """Modules of the repository (tests excluded) that import the given function."""
    owner = namespace.rpartition(".")[0]
    found = set()
    for name in repo.module_paths:
        if name == owner:
            continue
        module = repo.module(name)
        bindings = {}
        for node in ast.walk(module.tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                bindings.update(import_bindings(node, module.package_name))
        if any(repo.resolve(target) == namespace for target in bindings.values()):
            found.add(name)
    return found


def check_hygiene(report):
    bad = []
    for dirpath, dirnames, filenames in os.walk(CORPUS_DIR):
        for dirname in dirnames:
            if dirname in ("__pycache__", ".pytest_cache", ".mypy_cache"):
                bad.append(os.path.join(dirpath, dirname) + " (cache directory)")
        for filename in filenames:
            path = os.path.join(dirpath, filename)
            with open(path, "rb") as handle:
                data = handle.read()
            rel = os.path.relpath(path, CORPUS_DIR)
            if any(byte > 127 for byte in data):
                bad.append(f"{rel}: non-ASCII bytes")
            if b"\r" in data:
                bad.append(f"{rel}: CR characters")
            if b"\t" in data:
                bad.append(f"{rel}: tab characters")
            if data and not data.endswith(b"\n"):
                bad.append(f"{rel}: no final newline")
            if any(line.rstrip(b" ") != line for line in data.split(b"\n")):
                bad.append(f"{rel}: trailing spaces")
    for item in bad:
        report.error(item)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Verify the sample corpus.")
    parser.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 2))
    parser.add_argument("--skip-tests", action="store_true", help="skip running the per-sample tests")
    args = parser.parse_args(argv)
    report = Report()
    started = time.perf_counter()

    targets = load_targets()
    with open(DATA_PATH, encoding="ascii") as handle:
        samples = [json.loads(line) for line in handle]
    located = check_metadata(report, samples, targets)

    conditional = [s for s in samples if located.get(s["namespace"]) is not None and located[s["namespace"]].conditional]
    kept = [s for s in samples if s not in conditional]
    report.check(len(conditional) == 2, f"{len(conditional)} conditional samples (want exactly 2)")
    report.check(len({s["completion_path"] for s in conditional}) == 1, "conditional samples are not in one file")
    file_context = [s for s in kept if not s["dependency"]["cross_file"]]
    repo_context = [s for s in kept if s["dependency"]["cross_file"]]
    report.check(len(file_context) >= MIN_FILE_CONTEXT, f"only {len(file_context)} file-context samples")
    report.check(len(repo_context) >= MIN_REPO_CONTEXT, f"only {len(repo_context)} repository-context samples")

    layouts = {}
    for project in list_projects():
        layouts[project] = project_layout(report, project)
    projects_with_samples = {s["project_path"] for s in samples}
    report.check(projects_with_samples == set(layouts), "some project has no sample")

    functions = [s for s in samples if s["type"] == "function"]
    dependents = {}
    for sample in functions:
        repo = layouts[sample["project_path"]][0]
        dependents[sample["namespace"]] = importers(repo, sample["namespace"])
    non_init = {ns: {m for m in mods if not repo_is_init(layouts, ns, m)} for ns, mods in dependents.items()}
    with_dependents = sorted(ns for ns, mods in non_init.items() if mods)
    without = sorted(ns for ns, mods in dependents.items() if not mods)
    report.check(len(with_dependents) >= MIN_FUNCTIONS_WITH_DEPENDENTS,
                 f"only {len(with_dependents)} target functions are imported by other modules")
    report.check(len(without) >= 3, f"only {len(without)} target functions have no importer")

    check_hygiene(report)

    suites = {}
    n_tests = 0
    if not args.skip_tests:
        n_tests = check_tests(report, samples, located, args.jobs)
        suites = check_suites(report)

    # Summary.
    print(f"samples: {len(samples)} total; {len(kept)} kept + {len(conditional)} dropped (module-level conditional)")
    for sample in conditional:
        print(f"  dropped: {sample['namespace']} ({sample['completion_path']})")
    print(f"kept: {len(file_context)} file-context, {len(repo_context)} repository-context; "
          f"{sum(s['type'] == 'function' for s in kept)} functions, {sum(s['type'] == 'method' for s in kept)} methods")
    per_project = Counter(s["project_path"] for s in samples)
    for project in sorted(layouts):
        repo, modules, leaves = layouts[project]
        kept_here = [s for s in kept if s["project_path"] == project]
        fc = sum(not s["dependency"]["cross_file"] for s in kept_here)
        ran = suites.get(project)
        suite = f", suite {ran[0]} tests in {ran[1]:.2f}s" if ran else ""
        print(f"  {project}: {per_project[project]} samples ({fc} file / {len(kept_here) - fc} repo), "
              f"{len(modules)} modules, leaf packages {leaves}{suite}")
    print(f"target functions imported by other modules (excluding __init__ re-exports): {len(with_dependents)}; "
          f"imported by none: {len(without)}")
    if not args.skip_tests:
        print(f"test ids run individually (plain and traced): {n_tests}")
    print(f"checked in {time.perf_counter() - started:.1f}s")
    if report.errors:
        print(f"\n{len(report.errors)} problem(s):")
        for message in report.errors:
            print(f"  - {message}")
        return 1
    print("OK: corpus is clean")
    return 0


def repo_is_init(layouts, namespace, module_name):
    repo = layouts[namespace_project(layouts, namespace)][0]
    return os.path.basename(repo.module_paths[module_name]) == "__init__.py"


def namespace_project(layouts, namespace):
    top = namespace.split(".")[0]
    for project, (repo, _modules, _leaves) in layouts.items():
        if top in {name.split(".")[0] for name in repo.module_paths}:
            return project
    raise KeyError(namespace)


if __name__ == "__main__":
    sys.exit(main())
