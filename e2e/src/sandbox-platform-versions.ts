import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { PlatformVersions } from '@noderings/domain';

/** The k3s release the simulated one stands in for: the control plane's own default pin. */
const K3S_VERSION = 'v1.34.2+k3s1';
const SIMULATED_K3S = `#!/bin/sh
# A simulated k3s ${K3S_VERSION}, published by the NodeRings sandbox (npm start) as its platform
# versions' k3s download, so that nr cluster register can fetch it and check its SHA-256. It installs nothing.
echo "simulated k3s ${K3S_VERSION} (NodeRings sandbox): nothing was installed" >&2
`;

/**
 * Writes into `dir` a small stand-in for the k3s binary and the platform versions document that pins it
 * by a `file:` URL and its real SHA-256, and returns the document's path for the control plane. Both are
 * written at every start, so a reused data folder serves the same document.
 */
export async function writeSandboxPlatformVersions(
  dir: string,
): Promise<{ readonly file: string; readonly document: PlatformVersions }> {
  await mkdir(dir, { recursive: true });
  const k3s = join(dir, 'k3s');
  await writeFile(k3s, SIMULATED_K3S, { mode: 0o755 });
  const document: PlatformVersions = {
    channel: 'stable',
    components: [
      {
        name: 'k3s',
        version: K3S_VERSION,
        downloadUrl: pathToFileURL(k3s).href,
        checksumSha256: createHash('sha256').update(SIMULATED_K3S).digest('hex'),
      },
    ],
  };
  const file = join(dir, 'platform-versions.json');
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
  return { file, document };
}
