import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DASHBOARD = fileURLToPath(new URL('../../apps/dashboard/', import.meta.url));
const VITE = fileURLToPath(new URL('../../node_modules/vite/bin/vite.js', import.meta.url));
/** What a build reads besides `src/`. */
const INPUTS = ['index.html', 'vite.config.ts', 'package.json', 'public'];

async function newestChange(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(path);
  const times = await Promise.all(entries.map((e) => newestChange(join(path, e))));
  return Math.max(info.mtimeMs, ...times);
}

/**
 * The dashboard's built folder, building it first (Vite, in a child process) when it is missing or older
 * than its sources: a fresh checkout's first `npm start` builds it, later ones reuse it.
 */
export async function ensureDashboardBuilt(log: (line: string) => void): Promise<string> {
  const dist = join(DASHBOARD, 'dist');
  const built = await newestChange(join(dist, 'index.html'));
  const sources = Math.max(
    ...(await Promise.all(['src', ...INPUTS].map((p) => newestChange(join(DASHBOARD, p))))),
  );
  if (built > sources) return dist;
  log('building the dashboard (vite build)…');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [VITE, 'build', '--logLevel', 'warn'], {
      cwd: DASHBOARD,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`the dashboard build failed (vite exited with ${String(code)})`));
    });
  });
  return dist;
}
