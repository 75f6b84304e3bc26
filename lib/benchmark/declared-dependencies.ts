/**
 * The third-party packages a repository declares, as the top-level names they are imported by.
 * delete_irrelevant_file calls an import resolvable when it reaches the workspace, the standard
 * library or one of these (docs/benchmark.md): Flower's `import prometheus_client` is its own
 * business, declared in its setup.py, not a sign of a planted file.
 *
 * Read without running anything: setup.py (string literals of `install_requires`,
 * `extras_require`, `tests_require`, `setup_requires` and other `*require*` lists), setup.cfg
 * (`[options] install_requires`, `[options.extras_require]`), pyproject.toml (`[project]
 * dependencies`, `[project.optional-dependencies]`, `[tool.poetry.*dependencies]` keys) and
 * requirements*.txt at the root or in requirements/.
 */
import type { WorkspaceFiles } from "./workspace-files";

/**
 * Distributions whose import name is not their normalised name. Only well-known ones: a
 * distribution not listed is imported by its name with `-` and `.` read as `_`, in lower case.
 */
export const IMPORT_NAME_OF_DISTRIBUTION: Readonly<Record<string, readonly string[]>> = {
  pyyaml: ["yaml"],
  beautifulsoup4: ["bs4"],
  python_dateutil: ["dateutil"],
  pillow: ["PIL"],
  scikit_learn: ["sklearn"],
  scikit_image: ["skimage"],
  prometheus_client: ["prometheus_client"],
  djangorestframework: ["rest_framework"],
  pyjwt: ["jwt"],
  opencv_python: ["cv2"],
  opencv_python_headless: ["cv2"],
  protobuf: ["google"],
  google_cloud_storage: ["google"],
  python_magic: ["magic"],
  pymysql: ["pymysql"],
  mysqlclient: ["MySQLdb"],
  psycopg2_binary: ["psycopg2"],
  pyopenssl: ["OpenSSL"],
  pycryptodome: ["Crypto"],
  attrs: ["attr", "attrs"],
  setuptools: ["setuptools", "pkg_resources"],
  typing_extensions: ["typing_extensions"],
  msgpack_python: ["msgpack"],
  pyserial: ["serial"],
  pyzmq: ["zmq"],
  dnspython: ["dns"],
  python_slugify: ["slugify"],
  lru_dict: ["lru"],
  py_lru_cache: ["lru"],
  gitpython: ["git"],
  pygithub: ["github"],
  ruamel_yaml: ["ruamel"],
  sqlalchemy_utils: ["sqlalchemy_utils"],
};

/**
 * Distributions a well-known one always installs, so code that declares the first may import the
 * second (pandas code imports numpy without declaring it). Normalised distribution names.
 */
export const INSTALLED_WITH: Readonly<Record<string, readonly string[]>> = {
  pandas: ["numpy", "python_dateutil", "pytz"],
  scipy: ["numpy"],
  matplotlib: ["numpy"],
  scikit_learn: ["numpy", "scipy"],
  requests: ["urllib3", "idna", "certifi", "charset_normalizer"],
  flask: ["werkzeug", "jinja2", "itsdangerous", "click", "markupsafe"],
  jinja2: ["markupsafe"],
  django: ["asgiref", "sqlparse"],
  djangorestframework: ["django"],
  celery: ["kombu", "billiard", "vine", "click"],
  sqlalchemy: ["greenlet"],
  boto3: ["botocore", "s3transfer", "jmespath"],
};

/** PEP 503 normalisation, with `_` as the separator so it reads like an import name. */
export function normalizedDistribution(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-_.]+/g, "_");
}

/** The import names of a distribution: the table's, else the normalised name. */
export function importNamesOf(distribution: string): string[] {
  const normalized = normalizedDistribution(distribution);
  return [...(IMPORT_NAME_OF_DISTRIBUTION[normalized] ?? [normalized])];
}

/** The distribution a requirement line names (`foo[bar]>=1.0; python_version<"3"` -> `foo`), or null. */
export function requirementName(line: string): string | null {
  const text = line.replace(/\s#.*$/, "").trim();
  if (text === "" || text.startsWith("#") || text.startsWith("-") || text.includes("://")) return null;
  return /^([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(text)?.[1] ?? null;
}

/** The top-level import names of every distribution the repository declares. */
export function declaredImportNames(files: WorkspaceFiles): Set<string> {
  const text = (file: string) => files.get(file)?.data.toString("utf8") ?? null;
  const distributions: string[] = [];
  const setupPy = text("setup.py");
  if (setupPy !== null) distributions.push(...fromSetupPy(setupPy));
  const setupCfg = text("setup.cfg");
  if (setupCfg !== null) distributions.push(...fromSetupCfg(setupCfg));
  const pyproject = text("pyproject.toml");
  if (pyproject !== null) distributions.push(...fromPyproject(pyproject));
  for (const file of files.keys()) {
    if (/^(requirements[^/]*\.txt|requirements\/[^/]+\.txt)$/.test(file)) {
      distributions.push(...(text(file) ?? "").split(/\r?\n/).flatMap((l) => requirementName(l) ?? []));
    }
  }
  const names = new Set<string>();
  const add = (distribution: string) => {
    for (const name of importNamesOf(distribution)) names.add(name);
    for (const along of INSTALLED_WITH[normalizedDistribution(distribution)] ?? []) add(along);
  };
  for (const d of distributions) add(d);
  return names;
}

/** String literals of the bracketed value after every `...require...=` (or `:`), dict keys left out. */
function fromSetupPy(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\b\w*require\w*['"]?\s*[=:]\s*(?=[[({])/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const value = bracketed(source, start);
    for (const literal of value.matchAll(/(['"])((?:(?!\1)[^\\\n])*)\1(\s*:)?/g)) {
      if (literal[3]) continue;
      const name = requirementName(literal[2] ?? "");
      if (name) found.push(name);
    }
  }
  return found;
}

/** The text from an opening bracket at `start` to its match (strings are not special: requirements hold no brackets). */
function bracketed(source: string, start: number): string {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === "[" || c === "(" || c === "{") depth++;
    else if (c === "]" || c === ")" || c === "}") depth--;
    if (depth === 0) return source.slice(start, i + 1);
  }
  return source.slice(start);
}

/** `[options] install_requires` (a multi-line value) and every value of `[options.extras_require]`. */
function fromSetupCfg(source: string): string[] {
  const found: string[] = [];
  let section = "";
  let collecting = false;
  for (const raw of source.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = header[1]!.trim();
      collecting = false;
      continue;
    }
    const continuation = /^\s+\S/.test(raw);
    const entry = /^([A-Za-z0-9_.-]+)\s*[=:]\s*(.*)$/.exec(raw);
    if (entry && !continuation) {
      collecting =
        (section === "options" && ["install_requires", "tests_require"].includes(entry[1]!)) ||
        section === "options.extras_require";
      if (collecting) found.push(...(requirementName(entry[2] ?? "") ?? []));
    } else if (collecting && continuation) {
      found.push(...(requirementName(raw) ?? []));
    }
  }
  return found;
}

/** `[project]` dependencies, `[project.optional-dependencies]` arrays, poetry dependency tables' keys. */
function fromPyproject(source: string): string[] {
  const found: string[] = [];
  let table = "";
  const lines = source.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      table = header[1]!.trim();
      continue;
    }
    const key = /^\s*"?([A-Za-z0-9_.-]+)"?\s*=\s*(.*)$/.exec(line);
    if (!key) continue;
    const arrayOf = (value: string) => {
      let text = value;
      while (!text.includes("]") && i + 1 < lines.length) text += `\n${lines[++i]}`;
      for (const literal of text.matchAll(/(['"])((?:(?!\1)[^\\\n])*)\1/g)) {
        found.push(...(requirementName(literal[2] ?? "") ?? []));
      }
    };
    if (table === "project" && key[1] === "dependencies") arrayOf(key[2] ?? "");
    else if (table === "project.optional-dependencies" && (key[2] ?? "").trimStart().startsWith("[")) {
      arrayOf(key[2] ?? "");
    } else if (/^tool\.poetry\.(.+\.)?(dev-)?dependencies$/.test(table) && key[1] !== "python") found.push(key[1]!);
  }
  return found;
}
