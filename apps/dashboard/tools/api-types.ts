import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { startControlPlane } from '@noderings/control-plane';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';

/** The dashboard's wire types, generated from the control plane's OpenAPI document and committed. */
export const API_TYPES_FILE = fileURLToPath(new URL('../src/api/openapi.generated.ts', import.meta.url));

const HEADER = `/**
 * The control plane's /v1 and /api/v1/fleet shapes, generated from its OpenAPI document
 * (\`/openapi.json\`) by apps/dashboard/tools/api-types.ts. Do not edit: after a change to the API, run
 * \`npm run api-types -w @noderings/dashboard\`; a test fails while this file is stale.
 */
`;

/** The control plane's OpenAPI document, as a control plane on an in-memory database serves it. */
async function openApiDocument(): Promise<string> {
  const controlPlane = await startControlPlane({
    database: { inMemory: true },
    secretKey: randomBytes(32),
    logLevel: 'silent',
    preflightIntervalSeconds: 0,
    proxmoxInventoryIntervalSeconds: 0,
  });
  try {
    const answer = await fetch(`${controlPlane.url}/openapi.json`);
    if (!answer.ok) throw new Error(`GET /openapi.json answered ${String(answer.status)}`);
    return await answer.text();
  } finally {
    await controlPlane.close();
  }
}

/** The TypeScript the document turns into, formatted as the repository's Prettier settings say. */
export async function renderApiTypes(): Promise<string> {
  const ast = await openapiTS(await openApiDocument(), { immutable: true, alphabetize: true });
  const options = await resolveConfig(API_TYPES_FILE);
  return format(HEADER + astToString(ast), { ...options, filepath: API_TYPES_FILE });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(API_TYPES_FILE, await renderApiTypes());
  console.log(`wrote ${API_TYPES_FILE}`);
}
