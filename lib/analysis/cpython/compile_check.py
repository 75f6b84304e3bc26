"""Whether CPython compiles a module: the Syntax metric's last word (lib/analysis/cpython-check.ts).

Started once per Node process (python3 -I -S -c <this file's text>), it reads JSON lines
{"id": N, "source": TEXT, "filename": NAME} on stdin and answers each, in order, with one line
{"id": N, "ok": true} or {"id": N, "ok": false, "line": L, "column": C, "message": TEXT}.
compile(..., "exec", dont_inherit=True) runs the parser and the compiler, so compile-time errors
(`return` outside a function, `nonlocal` at module level, ...) are found as well as parse errors.
The source is never executed. The input is untrusted: the limits are set before any is read.
Exits at the end of its input (its parent gone) or on a line it cannot read.
"""

import json
import resource
import sys
import warnings

MEMORY_BYTES = int(sys.argv[1]) if len(sys.argv) > 1 else 512 * 1024 * 1024
CPU_SECONDS_PER_REQUEST = int(sys.argv[2]) if len(sys.argv) > 2 else 10
MAX_MESSAGE = 300


def limit(which, value):
    """Lowers a resource limit (soft and hard); a platform without it keeps its own."""
    try:
        resource.setrlimit(which, (value, value))
    except (ValueError, OSError):
        pass


def die_with_parent():
    """PR_SET_PDEATHSIG: killed when the Node process that started this one dies (Linux)."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError, ImportError):
        pass


def cpu_budget():
    """The CPU time (s) used so far plus one request's allowance: a runaway compile ends by SIGXCPU."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = int(used.ru_utime + used.ru_stime) + 1
    try:
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        soft = spent + CPU_SECONDS_PER_REQUEST
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    except (ValueError, OSError):
        pass


def verdict(source, filename):
    try:
        compile(source, filename, "exec", dont_inherit=True)
        return {"ok": True}
    except SyntaxError as error:  # IndentationError and TabError too: they keep their name
        kind = type(error).__name__
        message = error.msg if kind == "SyntaxError" else f"{kind}: {error.msg}"
        return {"ok": False, "line": error.lineno or 1, "column": error.offset or 1, "message": message[:MAX_MESSAGE]}
    except MemoryError:
        return {"ok": False, "line": 1, "column": 1, "message": "CPython ran out of memory compiling the file"}
    except (ValueError, RecursionError, OverflowError, UnicodeError) as error:
        return {"ok": False, "line": 1, "column": 1, "message": f"{type(error).__name__}: {error}"[:MAX_MESSAGE]}


def main():
    die_with_parent()
    limit(resource.RLIMIT_AS, MEMORY_BYTES)
    limit(resource.RLIMIT_FSIZE, 0)
    limit(resource.RLIMIT_CORE, 0)
    warnings.simplefilter("ignore")  # SyntaxWarning / DeprecationWarning: CPython still compiles
    out = sys.stdout
    for line in sys.stdin:
        try:
            request = json.loads(line)
            ident = request["id"]
            source = request["source"]
            filename = str(request.get("filename") or "<module>")
        except (ValueError, KeyError, TypeError):
            out.write(json.dumps({"id": None, "error": "unreadable request line"}) + "\n")
            out.flush()
            return
        cpu_budget()
        answer = verdict(source, filename)
        answer["id"] = ident
        out.write(json.dumps(answer) + "\n")
        out.flush()


main()
