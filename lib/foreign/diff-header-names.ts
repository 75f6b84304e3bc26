/**
 * The file names in a unified diff's headers, as git and diffutils write them: the two names of a
 * `diff --git` line told apart, their `a/` `b/` (or other) prefixes dropped, `/dev/null` read as no
 * file, git's C-style quoting undone (git-diff(1), "core.quotePath"). Used by patch.ts.
 */

/** The two names of a `diff --git` line (quoted or not); null when they cannot be told apart. */
export function splitGitHeader(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const end = quotedEnd(rest);
    if (end === -1 || rest[end + 1] !== " ") return null;
    return [unquote(rest.slice(0, end + 1)), unquote(rest.slice(end + 2))];
  }
  if (rest.endsWith('"')) {
    const open = rest.lastIndexOf(' "');
    return open === -1 ? null : [rest.slice(0, open), unquote(rest.slice(open + 1))];
  }
  // Unquoted names may hold spaces: pick the split whose two sides name the same file.
  const candidates: [string, string][] = [];
  for (let at = rest.indexOf(" "); at !== -1; at = rest.indexOf(" ", at + 1)) {
    candidates.push([rest.slice(0, at), rest.slice(at + 1)]);
  }
  if (candidates.length === 1) return candidates[0]!;
  const rest1 = (name: string) => (name.includes("/") ? name.slice(name.indexOf("/")) : null);
  return candidates.find(([a, b]) => a === b || (rest1(a) !== null && rest1(a) === rest1(b))) ?? null;
}

/** git's source and destination prefixes, as the `diff --git` line shows them (`a/` `b/`, `i/` `w/`, none). */
export function prefixesOf(a: string, b: string): [string, string] {
  if (a === b) return ["", ""];
  const pa = a.slice(0, a.indexOf("/") + 1);
  const pb = b.slice(0, b.indexOf("/") + 1);
  return pa !== "" && pb !== "" && pa !== pb ? [pa, pb] : ["", ""];
}

export function withoutPrefix(name: string, prefix: string): string {
  return prefix !== "" && name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/** `diff -u`'s two names without their differing first folder (`a/x` `b/x`, `old/x` `new/x`). */
export function stripPair(a: string | null, b: string | null): [string | null, string | null] {
  const first = (n: string) => n.slice(0, n.indexOf("/") + 1);
  if (a !== null && b !== null) {
    const [pa, pb] = [first(a), first(b)];
    const pair = pa !== "" && pb !== "" && pa !== pb && a.slice(pa.length) === b.slice(pb.length);
    return pair ? [a.slice(pa.length), b.slice(pb.length)] : [a, b];
  }
  const strip = (n: string | null) => (n !== null && /^[ab]\//.test(n) ? n.slice(2) : n);
  return [strip(a), strip(b)];
}

/** A `---`/`+++` name: quoted or not, without a tab and what follows (diff's timestamp, git's padding); null for /dev/null. */
export function headerName(raw: string): string | null {
  const name = raw.startsWith('"') ? unquote(raw.slice(0, quotedEnd(raw) + 1)) : raw.split("\t")[0]!;
  return name === "/dev/null" ? null : name;
}

/** The index of the closing quote of a C-quoted string starting at 0, or -1. */
function quotedEnd(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/** git's C-style quoting (`"t\303\251st.py"`, octal escapes are UTF-8 bytes) undone; an unquoted name as it is. */
export function unquote(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"') || name.length < 2) return name;
  const bytes: number[] = [];
  const body = name.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      bytes.push(...Buffer.from(c, "utf8"));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(ESCAPES[body[i + 1] ?? ""] ?? 92);
      i++;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
