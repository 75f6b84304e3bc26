/** Writes hand-made repositories as a DevEval `Source_Code` folder (`<Topic>/<repo>/<file>`) for tests. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Project path -> relative file path -> content. Returns the new folder; the caller removes it. */
export function writeSourceCode(prefix: string, projects: Record<string, Record<string, string>>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const [project, files] of Object.entries(projects)) {
    for (const [rel, content] of Object.entries(files)) {
      const target = path.join(root, project, rel);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
    }
  }
  return root;
}
