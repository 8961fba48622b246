import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { HostSignals } from '@noderings/fleet';

const MACHINE_ID = /^[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A machine-id or DMI uuid as the fleet contract takes it, lower-case; undefined when it is neither. */
function machineId(text: string | undefined): string | undefined {
  const value = text?.trim().toLowerCase();
  return value !== undefined && MACHINE_ID.test(value) ? value : undefined;
}

function systemUuid(text: string | undefined): string | undefined {
  const value = text?.trim().toLowerCase();
  // An all-zero uuid is what DMI reports when the firmware sets none.
  return value !== undefined && UUID.test(value) && !/^[0-]+$/.test(value) ? value : undefined;
}

function signals(id: string | undefined, uuid: string | undefined): HostSignals {
  return {
    ...(id === undefined ? {} : { machineId: id }),
    ...(uuid === undefined ? {} : { systemUuid: uuid }),
  };
}

/** `/etc/machine-id` and DMI `product_uuid` under `hostRoot` (`/` when unset); unreadable ones are left out. */
export async function readHostSignalFiles(hostRoot: string | undefined): Promise<HostSignals> {
  const root = hostRoot ?? '/';
  const read = (path: string): Promise<string | undefined> =>
    readFile(join(root, path), 'utf8').catch(() => undefined);
  const [id, uuid] = await Promise.all([read('etc/machine-id'), read('sys/class/dmi/id/product_uuid')]);
  return signals(machineId(id), systemUuid(uuid));
}

/**
 * The host's signals as the kubelet reports them: the `machine_id` and `system_uuid` labels of
 * `machine_cpu_cores` in `/metrics/cadvisor`'s text. Nothing for text without that line.
 */
export function hostSignalsFromCadvisor(text: string): HostSignals {
  const start = text.search(/^machine_cpu_cores\{/m);
  if (start < 0) return {};
  const end = text.indexOf('\n', start);
  const labels = parseLabels(text.slice(start + 'machine_cpu_cores{'.length, end < 0 ? undefined : end));
  return signals(machineId(labels.get('machine_id')), systemUuid(labels.get('system_uuid')));
}

/** `a="x",b="y\"z"}…`: the labels up to the closing brace, with the text format's escapes. */
function parseLabels(text: string): Map<string, string> {
  const labels = new Map<string, string>();
  const label = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?/y;
  let match: RegExpExecArray | null;
  while ((match = label.exec(text)) !== null) {
    const [, name = '', value = ''] = match;
    labels.set(
      name,
      value.replace(/\\(.)/g, (_all, c: string) => (c === 'n' ? '\n' : c)),
    );
  }
  return labels;
}

/** Fills what the files left out from the kubelet's values. */
export function mergeHostSignals(primary: HostSignals, fallback: HostSignals): HostSignals {
  return signals(primary.machineId ?? fallback.machineId, primary.systemUuid ?? fallback.systemUuid);
}

/** A stored signal that differs from this host's: the state was made on another host. */
export function differingHostSignal(
  stored: HostSignals,
  current: HostSignals,
):
  | { readonly signal: 'machine-id' | 'DMI product_uuid'; readonly stored: string; readonly current: string }
  | undefined {
  const pairs = [
    ['machine-id', stored.machineId, current.machineId],
    ['DMI product_uuid', stored.systemUuid, current.systemUuid],
  ] as const;
  for (const [signal, a, b] of pairs) {
    if (a !== undefined && b !== undefined && a.toLowerCase() !== b.toLowerCase())
      return { signal, stored: a, current: b };
  }
  return undefined;
}
