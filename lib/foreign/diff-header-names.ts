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
  const space = rest.indexOf(" ");
  if (space !== -1 && rest.indexOf(" ", space + 1) === -1) return [rest.slice(0, space), rest.slice(space + 1)];
  return sameFileSplit(rest, " ");
}

const BINARY_START = "Binary files ";
const BINARY_END = " differ";

/**
 * The two names of a `Binary files A and B differ` line (diff -r, git); null for any other line.
 * A name may hold " and ": a side that is /dev/null, or else the split whose two sides name the
 * same file, wins; else the first.
 */
export function splitBinaryDiffers(line: string): [string, string] | null {
  if (!line.startsWith(BINARY_START) || !line.endsWith(BINARY_END)) return null;
  const rest = line.slice(BINARY_START.length, line.length - BINARY_END.length);
  if (rest.startsWith("/dev/null and ")) return ["/dev/null", rest.slice("/dev/null and ".length)];
  if (rest.endsWith(" and /dev/null")) return [rest.slice(0, -" and /dev/null".length), "/dev/null"];
  const same = sameFileSplit(rest, " and ");
  if (same !== null && same[0] !== "" && same[1] !== "") return same;
  const first = rest.indexOf(" and ", 1);
  return first === -1 || first + " and ".length >= rest.length
    ? null
    : [rest.slice(0, first), rest.slice(first + " and ".length)];
}

/**
 * The split of `text` at one of its `separator`s whose two sides name the same file: equal, or
 * equal from their first `/` (`a/x b/x`, `old/x new/x`); null if none. Linear in the text: each
 * side's first `/` is found once, not once per separator.
 */
function sameFileSplit(text: string, separator: string): [string, string] | null {
  const leftSlash = text.indexOf("/");
  let rightSlash = -1;
  for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, at + 1)) {
    const right = at + separator.length;
    if (rightSlash < right) {
      rightSlash = text.indexOf("/", right);
      if (rightSlash === -1) rightSlash = Infinity;
    }
    const [a, b] = [text.slice(0, at), text.slice(right)];
    if (a === b) return [a, b];
    const fromSlash = leftSlash !== -1 && leftSlash < at && rightSlash !== Infinity;
    if (fromSlash && text.slice(leftSlash, at) === text.slice(rightSlash)) return [a, b];
  }
  return null;
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
