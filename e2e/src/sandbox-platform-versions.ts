import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { PlatformVersions } from '@noderings/domain';
import { stringify } from 'yaml';

/** The k3s release the simulated one stands in for: the control plane's own default pin. */
const K3S_VERSION = 'v1.34.2+k3s1';
const CALICO_VERSION = 'v3.31.2';
/**
 * A simulated host's k3s runs k3s-sim for this file and reports the version it names on the second
 * line (`k3s version v…`), as the real binary's `--version` does.
 */
const SIMULATED_K3S = `#!/bin/sh
# k3s version ${K3S_VERSION}: simulated, published by the NodeRings sandbox (npm start) as its platform
# versions' k3s download, so that nr cluster register can fetch it and check its SHA-256. A simulated
# host runs k3s-sim for it; on a real machine it installs nothing.
echo "simulated k3s ${K3S_VERSION} (NodeRings sandbox): nothing was installed" >&2
exit 1
`;

const labels = (name: string) => ({ 'k8s-app': name });
/**
 * Calico's operator manifest as a simulated host can apply it: the namespaces, the Installation CRD, the
 * tigera operator, and the calico-node DaemonSet the operator would create from our Installation
 * (k3s-sim runs no process for their images and reports them ready).
 */
function simulatedCalicoManifest(): string {
  const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const workload = (kind: string, ns: string, name: string, image: string) => ({
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, namespace: ns },
    spec: {
      selector: { matchLabels: labels(name) },
      template: { metadata: { labels: labels(name) }, spec: { containers: [{ name, image }] } },
    },
  });
  const objects = [
    namespace('tigera-operator'),
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'installations.operator.tigera.io' },
      spec: {
        group: 'operator.tigera.io',
        names: {
          kind: 'Installation',
          listKind: 'InstallationList',
          plural: 'installations',
          singular: 'installation',
        },
        scope: 'Cluster',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
            },
          },
        ],
      },
    },
    workload('Deployment', 'tigera-operator', 'tigera-operator', `quay.io/tigera/operator:${CALICO_VERSION}`),
    namespace('calico-system'),
    workload('DaemonSet', 'calico-system', 'calico-node', `docker.io/calico/node:${CALICO_VERSION}`),
  ];
  return `# Calico ${CALICO_VERSION}, simulated (NodeRings sandbox)\n${objects.map((o) => stringify(o)).join('---\n')}`;
}

/**
 * The stack's images as a simulated host knows them: k3s-sim runs apps/operator for `…/proxmox-operator`,
 * apps/pve-exporter for `…/pve-exporter` and its Alloy stand-in for `…/alloy`. The digests name no image.
 */
function sandboxImage(name: string, version: string): PlatformVersions['components'][number] {
  const digest = createHash('sha256').update(`NodeRings sandbox ${name} (runs from source)`).digest('hex');
  return {
    name,
    version,
    image: `sandbox.noderings.invalid/${name}@sha256:${digest}`,
    checksumSha256: digest,
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Writes into `dir` the stand-ins of what `nr cluster register` downloads (a k3s "binary", Calico's
 * manifest) and the platform versions document that pins them by `file:` URLs and their real SHA-256,
 * with the operator's image; returns the document's path for the control plane. Written at every
 * start, so a reused data folder serves the same document.
 */
export async function writeSandboxPlatformVersions(
  dir: string,
): Promise<{ readonly file: string; readonly document: PlatformVersions }> {
  await mkdir(dir, { recursive: true });
  const k3s = join(dir, 'k3s');
  await writeFile(k3s, SIMULATED_K3S, { mode: 0o755 });
  const calico = join(dir, 'tigera-operator.yaml');
  const calicoManifest = simulatedCalicoManifest();
  await writeFile(calico, calicoManifest);
  const document: PlatformVersions = {
    channel: 'stable',
    components: [
      {
        name: 'k3s',
        version: K3S_VERSION,
        downloadUrl: pathToFileURL(k3s).href,
        checksumSha256: sha256(SIMULATED_K3S),
      },
      {
        name: 'calico',
        version: CALICO_VERSION,
        downloadUrl: pathToFileURL(calico).href,
        checksumSha256: sha256(calicoManifest),
      },
      sandboxImage('proxmox-operator', '0.1.0'),
      sandboxImage('pve-exporter', '0.1.0'),
      sandboxImage('alloy', 'v1.11.3'),
    ],
  };
  const file = join(dir, 'platform-versions.json');
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
  return { file, document };
}
