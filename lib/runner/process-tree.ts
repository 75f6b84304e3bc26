/**
 * Resident memory of a process and all its descendants, read from /proc. The sandbox polls it to
 * stop an agent that grows past its memory limit: `ulimit -v` cannot be used for the agent
 * process itself, because Node and other JIT runtimes reserve far more address space than they use.
 */
import fs from "node:fs/promises";

const PAGE_BYTES = 4096;

interface ProcStat {
  pid: number;
  ppid: number;
  rssPages: number;
}

/** `/proc/PID/stat`: the command name is in parentheses and may hold spaces, so split after the last ')'. */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  // After ")": state(3) ppid(4) ... rss(24); index 0 here is field 3.
  const fields = text.slice(close + 2).split(" ");
  const ppid = Number(fields[1]);
  const rssPages = Number(fields[21]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isFinite(rssPages)) return null;
  return { pid, ppid, rssPages };
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

/** Bytes resident in `rootPid` and every descendant (0 when it is gone or /proc is unreadable). */
export async function treeRssBytes(rootPid: number): Promise<number> {
  const processes = await allProcesses();
  const children = new Map<number, ProcStat[]>();
  for (const p of processes) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const root = processes.find((p) => p.pid === rootPid);
  if (!root) return 0;
  let pages = 0;
  const queue = [root];
  for (let p = queue.pop(); p !== undefined; p = queue.pop()) {
    pages += p.rssPages;
    queue.push(...(children.get(p.pid) ?? []));
  }
  return pages * PAGE_BYTES;
}
