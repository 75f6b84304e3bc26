/** Hand-made repositories in temporary folders, and copies of real ones, for the Code-KIT tools' tests. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function makeRepo(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "codekit-"));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** A copy of a real repository to write in (its original is never touched). */
export function copyRepo(source: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "codekit-real-"));
  fs.cpSync(source, root, { recursive: true, verbatimSymlinks: true });
  return root;
}

export const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), "utf8");

export const SMALL_REPO: Record<string, string> = {
  "pkg/__init__.py": 'from .util import helper\n__all__ = ["helper"]\n',
  "pkg/base.py": "class Base:\n    pass\n",
  "pkg/util.py": `import os
from .base import Base


def helper(x):
    """Double x."""
    return x * 2


def unused():
    return os.getcwd()


class Box(Base):
    @property
    def value(self):
        return self._v

    @value.setter
    def value(self, v):
        self._v = v

    def size(self):
        return helper(1)
`,
  "app.py": `import pkg.util
from pkg import helper
import pkg.util as u


def main():
    a = helper(2)
    b = pkg.util.helper(3)
    return u.helper(a + b)
`,
  "other.py": "from pkg.util import Box\n\n\ndef make():\n    return Box().size()\n",
};
