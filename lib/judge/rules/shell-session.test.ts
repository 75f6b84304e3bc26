import { describe, expect, it } from "vitest";
import { ShellSession, changeDirectory } from "./shell-session";
import { simpleCommands } from "./shell-parse";

describe("changeDirectory", () => {
  it("moves every candidate directory", () => {
    expect(changeDirectory(["/ws"], "pkg")).toEqual(["/ws/pkg"]);
    expect(changeDirectory(["/ws/pkg", "/ws"], "..")).toEqual(["/ws", "/"]);
    expect(changeDirectory(["/ws"], undefined)).toEqual(["~"]);
    expect(changeDirectory(["/ws"], "-")).toEqual(["/ws"]);
  });
});

describe("ShellSession", () => {
  it("keeps the directory between steps when the shell persists", () => {
    const session = new ShellSession("/ws", true);
    session.end(["/ws/pkg"]);
    expect(session.start()).toEqual(["/ws/pkg"]);
  });
  it("starts every command afresh when it does not, or in the call's workdir", () => {
    const session = new ShellSession("/ws", false);
    session.end(["/ws/pkg"]);
    expect(session.start()).toEqual(["/ws"]);
    expect(session.start("pkg/sub")).toEqual(["/ws/pkg/sub"]);
    expect(session.start("/elsewhere")).toEqual(["/elsewhere"]);
  });
  it("keeps both readings when the framework is unknown", () => {
    const session = new ShellSession("/ws", null);
    session.end(["/ws/pkg"]);
    expect(session.start()).toEqual(["/ws/pkg", "/ws"]);
  });
});

describe("simpleCommands", () => {
  const shape = (command: string) =>
    simpleCommands(command).map((c) => ({ words: c.words.join(" "), joinedBy: c.joinedBy, depth: c.depth }));

  it("splits on operators and unquoted newlines, keeps subshell depth, drops comments", () => {
    expect(shape("cd pkg && cat a.py # look\n(cd x; cat y) | wc -l")).toEqual([
      { words: "cd pkg", joinedBy: null, depth: 0 },
      { words: "cat a.py", joinedBy: "&&", depth: 0 },
      { words: "cd x", joinedBy: ";", depth: 1 },
      { words: "cat y", joinedBy: ";", depth: 1 },
      { words: "wc -l", joinedBy: "|", depth: 0 },
    ]);
  });
  it("takes a here-document for the command's stdin", () => {
    const [python, next] = simpleCommands("python - <<'EOF'\nprint(open('a.py').read())\nEOF\ncat b.py");
    expect(python).toMatchObject({ words: ["python", "-"], stdin: "print(open('a.py').read())\n", redirects: [] });
    expect(next?.words).toEqual(["cat", "b.py"]);
  });
  it("keeps descriptors with their redirections, variables as written, globs marked", () => {
    const [command] = simpleCommands("cat $HOME/x pkg/*.py 2>/dev/null >> ~/.log");
    expect(command).toMatchObject({
      words: ["cat", "$HOME/x", "pkg/*.py"],
      globs: ["pkg/*.py"],
      redirects: [
        { op: ">", fd: 2, target: "/dev/null" },
        { op: ">>", target: "~/.log" },
      ],
    });
  });
  it("leaves quoted # and << alone", () => {
    expect(simpleCommands("grep -n 'a # b << c' f")[0]?.words).toEqual(["grep", "-n", "a # b << c", "f"]);
  });
});
