import { isIP } from 'node:net';
import selfsigned from 'selfsigned';

export interface ServingCertificate {
  /** The serving certificate followed by the CA that signed it, as the kubelet writes `kubelet.crt`. */
  chainPem: string;
  keyPem: string;
}

const HOUR_MS = 3_600_000;
const YEAR_MS = 365 * 24 * HOUR_MS;

/**
 * The certificate a kubelet makes for itself when it has none (`certutil.GenerateSelfSignedCertKey`):
 * a throwaway CA `<node>-ca@<unix seconds>` signing `<node>@<unix seconds>`, valid from an hour ago for
 * a year. Besides the node name it names 127.0.0.1, ::1 and localhost, so that tests can verify it.
 */
export async function generateServingCertificate(
  nodeName: string,
  nowMs: number,
): Promise<ServingCertificate> {
  const unix = Math.floor(nowMs / 1000);
  // Validity follows the real clock, which TLS peers check, whatever the simulated one says.
  const notBeforeDate = new Date(Date.now() - HOUR_MS);
  const notAfterDate = new Date(notBeforeDate.getTime() + YEAR_MS);
  const keyOptions = {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
  } as const;
  const ca = await selfsigned.generate([{ name: 'commonName', value: `${nodeName}-ca@${unix}` }], {
    ...keyOptions,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true, critical: true },
    ],
  });
  const nodeSan = isIP(nodeName) ? { type: 7 as const, ip: nodeName } : { type: 2 as const, value: nodeName };
  const leaf = await selfsigned.generate([{ name: 'commonName', value: `${nodeName}@${unix}` }], {
    ...keyOptions,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          nodeSan,
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { chainPem: `${leaf.cert.trim()}\n${ca.cert.trim()}\n`, keyPem: leaf.private };
}
