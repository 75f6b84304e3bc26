/**
 * Collecting a bundle's members as a reader finds them, enforcing the limits and the path rules
 * on each member's declared size, before its bytes are read or inflated.
 */
import path from "node:path";
import { BundleError } from "./errors";
import { explainUnsafeRelativePath } from "@/lib/util/relative-path";
import type { BundleFiles, ReadLimits } from "./read";
import type { InflateBudget } from "./budget";
import { DEFAULT_MAX_JSON_BYTES, isJsonMember, jsonBudgetError } from "./json-budget";

export class MemberCollector {
  readonly files: BundleFiles = new Map();
  private readonly links = new Map<string, string>();
  private total = 0;
  private jsonTotal = 0;

  /** `budget` for an archive: the declared sizes are held to its ratio limit as well. */
  constructor(
    private readonly label: string,
    private readonly limits: ReadLimits,
    private readonly budget?: InflateBudget,
  ) {}

  checkName(name: string): string {
    // `tar -C run -czf run.tgz .` writes `./manifest.json`: a leading `./` is harmless, drop it.
    const clean = name.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
    const problem = explainUnsafeRelativePath(clean);
    if (problem) throw new BundleError({ bundle: this.label, member: name }, `member name ${problem}`);
    return clean;
  }

  /** Called with the size a header declares, before the member's bytes are read. */
  checkSize(name: string, size: number): void {
    if (size > this.limits.maxMemberBytes) {
      throw new BundleError(
        { bundle: this.label, member: name },
        `member is ${size} bytes, over the limit of ${this.limits.maxMemberBytes} (STUDIO_BUNDLE_MAX_MEMBER_BYTES)`,
        "TOO_LARGE",
      );
    }
    this.total += size;
    if (this.total > this.limits.maxBundleBytes) {
      throw new BundleError(
        { bundle: this.label, member: name },
        `bundle exceeds ${this.limits.maxBundleBytes} bytes in all (STUDIO_BUNDLE_MAX_BYTES)`,
        "TOO_LARGE",
      );
    }
    this.budget?.checkDeclared(this.total, name);
    // The JSON budget (json-budget.ts) on declared sizes too, so JSON built to fill the parser's
    // heap is refused before it is even held: a 71 MB upload of it peaked 173 MiB over the
    // server's RSS when refused only after reading (parseBundle checks it again on the bytes).
    if (isJsonMember(name)) {
      this.jsonTotal += size;
      const max = this.limits.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
      if (this.jsonTotal > max) {
        throw jsonBudgetError(this.label, name, this.jsonTotal, max, this.limits.maxJsonBytesSetBy);
      }
    }
  }

  add(name: string, data: Buffer): void {
    const clean = this.checkName(name);
    this.checkUnique(clean);
    this.checkCount();
    this.files.set(clean, data);
  }

  /** A link inside an archive; `fromRoot` for hard links, whose target is archive-relative. */
  addLink(name: string, target: string, fromRoot: boolean): void {
    const clean = this.checkName(name);
    this.checkUnique(clean);
    if (target.startsWith("/")) {
      throw new BundleError({ bundle: this.label, member: clean }, `link points to an absolute path "${target}"`);
    }
    this.checkCount();
    const resolved = path.posix.normalize(
      fromRoot ? target.replace(/^(\.\/)+/, "") : path.posix.join(path.posix.dirname(clean), target),
    );
    if (resolved === ".." || resolved.startsWith("../") || resolved === ".") {
      throw new BundleError({ bundle: this.label, member: clean }, `link escapes the bundle (-> "${target}")`);
    }
    this.links.set(clean, resolved);
  }

  private checkUnique(clean: string): void {
    if (this.files.has(clean) || this.links.has(clean)) {
      throw new BundleError({ bundle: this.label, member: clean }, "member appears twice");
    }
  }

  private checkCount(): void {
    if (this.files.size + this.links.size >= this.limits.maxMembers) {
      throw new BundleError({ bundle: this.label }, `more than ${this.limits.maxMembers} members`, "TOO_LARGE");
    }
  }

  finish(): BundleFiles {
    for (const [name, target] of this.links) {
      const data = this.files.get(target);
      if (!data) {
        throw new BundleError(
          { bundle: this.label, member: name },
          `link points to "${target}", which is not a file in the bundle`,
        );
      }
      // A link's bytes count against the limits like a copy would: it becomes a member of its own.
      this.checkSize(name, data.length);
      this.files.set(name, data);
    }
    return stripSingleTopFolder(this.files);
  }
}

/** An archive made with `tar czf x.tgz run-1/` holds `run-1/manifest.json`: accept that layout. */
function stripSingleTopFolder(files: BundleFiles): BundleFiles {
  if (files.has("manifest.json")) return files;
  const tops = new Set([...files.keys()].map((name) => name.split("/")[0]));
  const [top] = tops;
  if (tops.size !== 1 || top === undefined || !files.has(`${top}/manifest.json`)) return files;
  const stripped: BundleFiles = new Map();
  for (const [name, data] of files) stripped.set(name.slice(top.length + 1), data);
  return stripped;
}
