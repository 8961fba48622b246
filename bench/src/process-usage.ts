import { readFile } from 'node:fs/promises';

/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on every common architecture). */
const USER_HZ = 100;

/** A process's resident memory now and at its peak, from /proc, as text for a report. */
export async function residentMemory(pid: number | undefined): Promise<string> {
  if (pid === undefined) return 'unknown';
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const mib = (field: string) =>
      (Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) / 1024).toFixed(0);
    return `${mib('VmRSS')} MiB (peak ${mib('VmHWM')} MiB)`;
  } catch (e: unknown) {
    return `unknown (${e instanceof Error ? e.message : String(e)})`;
  }
}

/** CPU time the process has used so far, user and system. */
export async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (pid === undefined) return NaN;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces: utime and stime are the 14th and 15th overall.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}
