#!/usr/bin/env python3
"""A reference agent for the command contract (docs/external-agents.md), standard library only.

It talks to the model through the runner's gateway with the OpenAI chat-completions protocol,
offers three tools (bash, read_file, write_file), runs them in its workspace, and writes
$STUDIO_OUTPUT_DIR/trajectory.jsonl (one run-bundle step per line, appended as it goes, so a run
stopped at a limit keeps what happened) and $STUDIO_OUTPUT_DIR/result.json.

Copy it as the start of an adapter for your own framework: replace `run_agent` with a call into
the framework and map its messages and tool calls onto the same steps.
"""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from datetime import datetime, timezone

SYSTEM_PROMPT = (
    "You are a coding agent working in a Python repository (your current folder). "
    "Use the tools to inspect and change files, then answer with a short summary."
)
COMMAND_TIMEOUT_S = 120
MAX_OBSERVATION_CHARS = 16_000

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Run a shell command in the workspace; returns its output and exit status.",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string"}},
                "required": ["command"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a text file (path relative to the workspace).",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "write_file",
            "description": "Create or overwrite a text file (path relative to the workspace).",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                "required": ["path", "content"],
            },
        },
    },
]


def now():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Trajectory:
    """Steps in the run-bundle schema, one JSON object per line."""

    def __init__(self, path):
        self.file = open(path, "w", encoding="utf-8")
        self.count = 0

    def add(self, kind, **fields):
        self.count += 1
        step = {"id": f"s{self.count}", "kind": kind, "timestamp": now(), **fields}
        self.file.write(json.dumps(step) + "\n")
        self.file.flush()


def chat(config, messages):
    """One chat-completions call through the gateway; returns the parsed response."""
    body = json.dumps({"model": config["model"], "messages": messages, "tools": TOOLS}).encode()
    request = urllib.request.Request(
        config["base_url"].rstrip("/") + "/chat/completions",
        data=body,
        headers={"content-type": "application/json", "authorization": f"Bearer {config['api_key']}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        detail = error.read().decode("utf-8", "replace")[:500]
        raise RuntimeError(f"model call failed with HTTP {error.code}: {detail}") from None


def run_tool(name, args, call_id, trajectory):
    """Runs one tool call; records it and returns the text the model sees."""
    if name == "bash":
        command = str(args.get("command", ""))
        try:
            done = subprocess.run(
                ["bash", "-lc", command],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=COMMAND_TIMEOUT_S,
            )
            output, code, timed_out = done.stdout.decode("utf-8", "replace"), done.returncode, False
        except subprocess.TimeoutExpired as expired:
            output, code, timed_out = (expired.output or b"").decode("utf-8", "replace"), None, True
        trajectory.add("shell", callId=call_id, command=command, exitCode=code, output=output, timedOut=timed_out)
        return f"{output}\n[exit status {code}]"
    path = str(args.get("path", ""))
    if name == "read_file":
        trajectory.add("file_read", callId=call_id, path=path)
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    if name == "write_file":
        content = str(args.get("content", ""))
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(content)
        trajectory.add("file_write", callId=call_id, path=path)
        return f"wrote {len(content)} characters to {path}"
    raise ValueError(f"unknown tool {name}")


def run_agent(config, trajectory, usage):
    """The tool-calling loop; returns the final answer."""
    system = SYSTEM_PROMPT
    if config["guidelines"]:
        system += "\n\n" + config["guidelines"]
    messages = [{"role": "system", "content": system}, {"role": "user", "content": config["task"]}]
    trajectory.add("message", role="user", text=config["task"])
    for _ in range(config["max_steps"]):
        response = chat(config, messages)
        usage["modelCalls"] += 1
        usage["inputTokens"] += (response.get("usage") or {}).get("prompt_tokens", 0)
        usage["outputTokens"] += (response.get("usage") or {}).get("completion_tokens", 0)
        message = response["choices"][0]["message"]
        text = message.get("content") or ""
        calls = message.get("tool_calls") or []
        messages.append({"role": "assistant", "content": text, **({"tool_calls": calls} if calls else {})})
        if text:
            trajectory.add("message", role="assistant", text=text)
        if not calls:
            return text
        for call in calls:
            name, raw = call["function"]["name"], call["function"].get("arguments") or "{}"
            try:
                args = json.loads(raw)
            except json.JSONDecodeError:
                args = None
            trajectory.add("tool_call", tool=name, arguments=raw if args is None else args, callId=call["id"])
            try:
                if not isinstance(args, dict):
                    raise ValueError("the arguments are not a JSON object")
                result, is_error = run_tool(name, args, call["id"], trajectory), False
            except Exception as error:  # the model sees the failure, as with any tool error
                result, is_error = f"{type(error).__name__}: {error}", True
            if name != "bash" or is_error:  # a shell step already holds the command's output
                trajectory.add("observation", callId=call["id"], text=result, isError=is_error)
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result[-MAX_OBSERVATION_CHARS:]})
    raise RuntimeError(f"no answer within {config['max_steps']} model calls")


def main():
    env = os.environ
    if env.get("STUDIO_PROVIDER", "openai") != "openai":
        print("this agent speaks the OpenAI protocol: set provider to openai", file=sys.stderr)
        return 2
    guidelines_file = env.get("STUDIO_GUIDELINES_FILE")
    config = {
        "task": env["STUDIO_TASK"],
        "model": env["STUDIO_MODEL"],
        "base_url": env["STUDIO_BASE_URL"],
        "api_key": env["STUDIO_API_KEY"],
        "max_steps": int(env.get("STUDIO_MAX_STEPS", "30")),
        "guidelines": open(guidelines_file, encoding="utf-8").read() if guidelines_file else "",
    }
    output_dir = env["STUDIO_OUTPUT_DIR"]
    os.chdir(env["STUDIO_WORKSPACE"])
    trajectory = Trajectory(os.path.join(output_dir, "trajectory.jsonl"))
    usage = {"modelCalls": 0, "inputTokens": 0, "outputTokens": 0}
    answer, error = None, None
    try:
        answer = run_agent(config, trajectory, usage)
    except Exception as failure:
        error = str(failure)
        print(error, file=sys.stderr)
    with open(os.path.join(output_dir, "result.json"), "w", encoding="utf-8") as handle:
        json.dump({"finalAnswer": answer, "error": error, "costUsd": None, **usage}, handle)
    return 0 if error is None else 1


if __name__ == "__main__":
    sys.exit(main())
