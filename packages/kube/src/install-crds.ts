import type { CustomResourceDefinition } from './crd-manifests.js';
import { loadCrds } from './crd-manifests.js';
import type { ResourceClient } from './resource-client.js';

/**
 * Creates our CRDs, or replaces them where they exist, so the cluster serves exactly the schemas in
 * `crds/`. Returns what the server holds afterwards.
 */
export async function installCrds(
  client: ResourceClient<CustomResourceDefinition>,
  crds: readonly CustomResourceDefinition[] = loadCrds(),
): Promise<CustomResourceDefinition[]> {
  const installed: CustomResourceDefinition[] = [];
  for (const crd of crds) {
    const name = crd.metadata?.name;
    if (name === undefined) throw new TypeError('A CRD manifest has no metadata.name');
    const existing = await client.find({ name });
    installed.push(
      existing === undefined
        ? await client.create(crd)
        : await client.replace({
            ...crd,
            metadata: { ...crd.metadata, resourceVersion: existing.metadata?.resourceVersion },
          }),
    );
  }
  return installed;
}
