import type { SeededRandom } from './seeded-random.js';

/** The alphabet of `k8s.io/apimachinery/pkg/util/rand`: no vowels and no look-alike digits. */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** `rand.SafeEncodeString`: each byte mapped into the alphabet, so no bad words come out. */
function safeEncodeString(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += ALPHANUMS.charAt(text.charCodeAt(i) % ALPHANUMS.length);
  return out;
}

/**
 * A `pod-template-hash` (or Argo's `rollouts-pod-template-hash`): the decimal FNV-32a of the template,
 * safe-encoded, so 1–10 characters from `4 5 6 7 8 9 b c d f`.
 */
export function podTemplateHash(fnv: number): string {
  return safeEncodeString(String(fnv >>> 0));
}

/** The suffix `generateName` gets (`rand.String(5)`). */
export function randomSuffix(random: SeededRandom, length = 5): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMS.charAt(random.int(0, ALPHANUMS.length - 1));
  return out;
}
