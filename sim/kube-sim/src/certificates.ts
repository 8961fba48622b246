import selfsigned from 'selfsigned';

interface KeyPair {
  cert: string;
  key: string;
}

export interface ServingCertificates {
  ca: KeyPair;
  server: KeyPair;
}

const VALIDITY_MS = 2 * 365 * 86_400_000;

/** A self-signed CA and a server certificate it signs for 127.0.0.1, ::1 and localhost, as a cluster's CA would. */
export async function generateServingCertificates(): Promise<ServingCertificates> {
  const notAfterDate = new Date(Date.now() + VALIDITY_MS);
  const ca = await selfsigned.generate([{ name: 'commonName', value: 'kube-sim-ca' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await selfsigned.generate([{ name: 'commonName', value: 'kube-apiserver' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: 'kubernetes.default.svc' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { ca: { cert: ca.cert, key: ca.private }, server: { cert: server.cert, key: server.private } };
}
