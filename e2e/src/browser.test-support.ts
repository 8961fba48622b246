import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; CI installs it when missing). */
const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of each page a journey visits, kept as test artifacts (not in git). */
const ARTIFACTS = fileURLToPath(new URL('../../.artifacts/screenshots/', import.meta.url));

/** Headless Chromium driven by playwright-core; `--no-sandbox` because CI runs as root. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/** Saves a full-page screenshot as `.artifacts/screenshots/<name>.png`; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
