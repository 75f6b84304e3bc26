/**
 * Resident memory and task count of a process and all its descendants, read from /proc. The
 * sandbox polls them to stop an agent that grows past its memory or process limit: `ulimit -v`
 * cannot be used for the agent process itself, because Node and other JIT runtimes reserve far
 * more address space than they use.
 */
import fs from "node:fs/promises";

const PAGE_BYTES = 4096;

interface ProcStat {
  pid: number;
  ppid: number;
  rssPages: number;
  /** Threads of the process: the kernel's process limits (pids.max, RLIMIT_NPROC) count each. */
  threads: number;
}

/** `/proc/PID/stat`: the command name is in parentheses and may hold spaces, so split after the last ')'. */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  // After ")": state(3) ppid(4) ... num_threads(20) ... rss(24); index 0 here is field 3.
  const fields = text.slice(close + 2).split(" ");
  const ppid = Number(fields[1]);
  const threads = Number(fields[17]);
  const rssPages = Number(fields[21]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isFinite(rssPages)) return null;
  return { pid, ppid, rssPages, threads: Number.isInteger(threads) && threads > 0 ? threads : 1 };
}

async function allProcesses(): Promise<ProcStat[]> {
  let names: string[];
  try {
    names = await fs.readdir("/proc");
  } catch {
    return [];
  }
  const stats = await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map((name) =>
        fs.readFile(`/proc/${name}/stat`, "utf8").then(
          (text) => parseProcStat(text),
          () => null, // the process ended between readdir and read
        ),
      ),
  );
  return stats.filter((s): s is ProcStat => s !== null);
}

export interface TreeUsage {
  rssBytes: number;
  /** Tasks (threads) in the tree, as the kernel counts them against a process limit. */
  tasks: number;
}

/** Usage of `rootPid` and every descendant (zeros when it is gone or /proc is unreadable). */
export async function treeUsage(rootPid: number): Promise<TreeUsage> {
  const processes = await allProcesses();
  const children = new Map<number, ProcStat[]>();
  for (const p of processes) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const root = processes.find((p) => p.pid === rootPid);
  const usage = { rssBytes: 0, tasks: 0 };
  if (!root) return usage;
  const queue = [root];
  for (let p = queue.pop(); p !== undefined; p = queue.pop()) {
    usage.rssBytes += p.rssPages * PAGE_BYTES;
    usage.tasks += p.threads;
    queue.push(...(children.get(p.pid) ?? []));
  }
  return usage;
}
