import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = new URL('../../', import.meta.url);

/**
 * tsx as a loader (`node --import TSX_LOADER main.ts`) rather than its CLI: the CLI would run the program
 * in a grandchild that a signal or kill would miss.
 */
export const TSX_LOADER = pathToFileURL(
  fileURLToPath(new URL('node_modules/tsx/dist/loader.mjs', ROOT)),
).href;

/**
 * Preloaded into a child (`--import STOP_WITH_PARENT`) whose stdin is a pipe from its parent: the system
 * closes it when the parent ends however it ends (SIGKILL included), and the child then stops as it does
 * on SIGTERM, so no child outlives its parent. Unreferenced, so that it never keeps a stopping child alive.
 */
export const STOP_WITH_PARENT = `data:text/javascript,${encodeURIComponent(
  "process.stdin.on('end', () => process.kill(process.pid, 'SIGTERM')).on('error', () => {}).resume().unref();",
)}`;

/** A file of this repository, as a path: `repoPath('apps/operator/src/main.ts')`. */
export function repoPath(relative: string): string {
  return fileURLToPath(new URL(relative, ROOT));
}
