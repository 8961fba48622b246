import { describe, expect, it } from 'vitest';

import { computeTypeName, distroName, enumName, sshKeyTypeName } from './display-names.js';

describe('display names', () => {
  it('reads distros as people write them', () => {
    expect(distroName('DISTRO_UBUNTU_24_04')).toBe('Ubuntu 24.04');
    expect(distroName('DISTRO_ALMALINUX_10')).toBe('AlmaLinux 10');
    expect(distroName('something else')).toBe('something else');
  });

  it('reads enum values as words', () => {
    expect(enumName('SERVICE_STATUS_ONLINE', 'SERVICE_STATUS_')).toBe('Online');
    expect(computeTypeName('COMPUTE_TYPE_CPU_OPTIMIZED')).toBe('CPU optimized');
  });

  it('reads SSH key types as OpenSSH names them', () => {
    expect(sshKeyTypeName('SSH_KEY_TYPE_ED25519')).toBe('ed25519');
    expect(sshKeyTypeName('SSH_KEY_TYPE_RSA')).toBe('rsa');
  });
});
