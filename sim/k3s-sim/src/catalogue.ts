import { fileURLToPath } from 'node:url';

/**
 * The images k3s-sim can run, by the last segment of their repository (`…/proxmox-operator:1.2` and
 * `…/proxmox-operator@sha256:…` both name `proxmox-operator`): which program of this repository is the
 * image's entrypoint, and the line it prints once it serves. Any other image has no process here and is
 * reported available as soon as it is applied (a stand-in), which k3s-sim's README says.
 */
export interface CatalogueEntry {
  readonly main: string;
  /** The line it prints once it serves; a first capture group, if any, is the `host:port` it bound. */
  readonly started: RegExp;
  /** Whether it takes `--kubeconfig FILE` (it gets `KUBECONFIG` either way). */
  readonly kubeconfigFlag: boolean;
}

const repoFile = (relative: string): string =>
  fileURLToPath(new URL(`../../../${relative}`, import.meta.url));

const CATALOGUE: Readonly<Record<string, CatalogueEntry>> = {
  'proxmox-operator': {
    main: repoFile('apps/operator/src/main.ts'),
    started: /(?:"metrics":"http:\/\/([^"/]+)"[^\n]*)?"msg":"operator started"/,
    kubeconfigFlag: true,
  },
  'pve-exporter': {
    main: repoFile('apps/pve-exporter/src/main.ts'),
    started: /pve-exporter serving http:\/\/(\S+?)\/pve /,
    kubeconfigFlag: false,
  },
  // Alloy itself is a Go binary; this stand-in runs the part of its configuration the stack renders.
  alloy: {
    main: repoFile('sim/k3s-sim/src/alloy-standin.ts'),
    started: /alloy-standin: started/,
    kubeconfigFlag: false,
  },
};

/** `registry.example/noderings/proxmox-operator@sha256:…` → `proxmox-operator`. */
function imageName(image: string): string {
  const withoutDigest = image.split('@')[0] ?? image;
  const last = withoutDigest.split('/').pop() ?? withoutDigest;
  return last.split(':')[0] ?? last;
}

export function catalogueEntry(image: string): CatalogueEntry | undefined {
  return CATALOGUE[imageName(image)];
}

/** tsx as a loader, so that a program of this repository runs from source in its own process. */
export const TSX_LOADER = new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
