import { readFile } from 'node:fs/promises';

/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on every common architecture). */
const USER_HZ = 100;

/** A process's resident memory now and at its peak, in MiB. */
export interface ResidentMemory {
  rssMiB: number;
  peakMiB: number;
}

/** A process's resident memory from /proc, or the reason it could not be read. */
export async function readResidentMemory(pid: number | undefined): Promise<ResidentMemory | string> {
  if (pid === undefined) return 'unknown';
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const mib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) / 1024;
    return { rssMiB: mib('VmRSS'), peakMiB: mib('VmHWM') };
  } catch (e: unknown) {
    return `unknown (${e instanceof Error ? e.message : String(e)})`;
  }
}

/** Resident memory as text for a report. */
export function formatResidentMemory(memory: ResidentMemory | string): string {
  if (typeof memory === 'string') return memory;
  return `${memory.rssMiB.toFixed(0)} MiB (peak ${memory.peakMiB.toFixed(0)} MiB)`;
}

/** CPU time the process has used so far, user and system. */
export async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (pid === undefined) return NaN;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces: utime and stime are the 14th and 15th overall.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}
