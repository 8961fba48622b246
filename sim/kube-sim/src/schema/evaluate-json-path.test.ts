import { describe, expect, it } from 'vitest';
import { evaluateJsonPath } from './evaluate-json-path.js';

const vm = {
  metadata: {
    name: 'nr-1',
    creationTimestamp: '2025-01-01T00:00:00Z',
    labels: { 'app.kubernetes.io/name': 'vm' },
  },
  spec: { vmid: 101, disks: [{ size: 32 }, { size: 64 }] },
  status: { phase: 'Running' },
};

describe('evaluateJsonPath', () => {
  it('follows dotted fields', () => {
    expect(evaluateJsonPath(vm, '.status.phase')).toBe('Running');
    expect(evaluateJsonPath(vm, '.spec.vmid')).toBe(101);
    expect(evaluateJsonPath(vm, '.metadata.creationTimestamp')).toBe('2025-01-01T00:00:00Z');
    expect(evaluateJsonPath(vm, '{.metadata.name}')).toBe('nr-1');
  });

  it('indexes arrays, quotes keys and fans out on *', () => {
    expect(evaluateJsonPath(vm, '.spec.disks[1].size')).toBe(64);
    expect(evaluateJsonPath(vm, '.spec.disks[-1].size')).toBe(64);
    expect(evaluateJsonPath(vm, ".metadata.labels['app.kubernetes.io/name']")).toBe('vm');
    expect(evaluateJsonPath(vm, '.spec.disks[*].size')).toEqual([32, 64]);
  });

  it('yields undefined for missing fields and malformed paths', () => {
    expect(evaluateJsonPath(vm, '.status.message')).toBeUndefined();
    expect(evaluateJsonPath(vm, '.spec.vmid.x')).toBeUndefined();
    expect(evaluateJsonPath(vm, '.spec.disks[9]')).toBeUndefined();
    expect(evaluateJsonPath(vm, 'status..phase')).toBeUndefined();
    expect(evaluateJsonPath(null, '.a')).toBeUndefined();
  });
});
