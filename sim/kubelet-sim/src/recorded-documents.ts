import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Captured answers of a real kubelet, served byte for byte instead of the simulated node's. */
export interface RecordedDocuments {
  summary: string;
  cadvisor: string;
  pods: string;
}

const RECORDED_FILES: Record<keyof RecordedDocuments, string> = {
  summary: 'stats-summary.json',
  cadvisor: 'metrics-cadvisor.txt',
  pods: 'pods.json',
};

/** Reads `stats-summary.json`, `metrics-cadvisor.txt` and `pods.json` from `dir`, as they are. */
export async function readRecordedDocuments(dir: string): Promise<RecordedDocuments> {
  const read = (file: string): Promise<string> => readFile(join(dir, file), 'utf8');
  const [summary, cadvisor, pods] = await Promise.all([
    read(RECORDED_FILES.summary),
    read(RECORDED_FILES.cadvisor),
    read(RECORDED_FILES.pods),
  ]);
  return { summary, cadvisor, pods };
}
