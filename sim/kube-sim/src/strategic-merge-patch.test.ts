import { describe, expect, it } from 'vitest';
import { strategicMergePatch } from './strategic-merge-patch.js';

const deployment = {
  spec: {
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      spec: {
        containers: [
          {
            name: 'agent',
            image: 'agent:1',
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
            ports: [{ containerPort: 8080, protocol: 'TCP' }],
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
          },
        ],
        volumes: [{ name: 'data', emptyDir: {} }],
        tolerations: [{ key: 'a', operator: 'Exists' }],
      },
    },
  },
};

describe('strategicMergePatch of a pod template', () => {
  it('merges containers by name, and their env, ports and volume mounts by their keys', () => {
    const patched = strategicMergePatch(deployment, {
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'agent',
                env: [{ name: 'B', value: '3' }],
                ports: [{ containerPort: 9090 }],
                volumeMounts: [{ name: 'cache', mountPath: '/data' }],
              },
              { name: 'sidecar', image: 'sidecar:1' },
            ],
            volumes: [{ name: 'cache', emptyDir: {} }],
          },
        },
      },
    });
    expect(patched).toMatchObject({
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'agent',
                image: 'agent:1',
                env: [
                  { name: 'A', value: '1' },
                  { name: 'B', value: '3' },
                ],
                ports: [{ containerPort: 8080 }, { containerPort: 9090 }],
                volumeMounts: [{ name: 'cache', mountPath: '/data' }],
              },
              { name: 'sidecar', image: 'sidecar:1' },
            ],
            volumes: [{ name: 'data' }, { name: 'cache' }],
          },
        },
      },
    });
  });

  it('replaces tolerations, which have no merge key', () => {
    const patched = strategicMergePatch(deployment, {
      spec: { template: { spec: { tolerations: [{ operator: 'Exists' }] } } },
    });
    expect(patched).toMatchObject({
      spec: { template: { spec: { tolerations: [{ operator: 'Exists' }] } } },
    });
  });

  it('keys a Service’s ports by port, not by container port', () => {
    const service = { spec: { ports: [{ name: 'http', port: 80, targetPort: 8080 }] } };
    expect(strategicMergePatch(service, { spec: { ports: [{ port: 80, targetPort: 9090 }] } })).toEqual({
      spec: { ports: [{ name: 'http', port: 80, targetPort: 9090 }] },
    });
  });

  it('drops the keys `$retainKeys` does not list, as kubectl apply sends it for a strategy change', () => {
    const patched = strategicMergePatch(deployment, {
      spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } },
    });
    expect((patched as typeof deployment).spec.strategy).toEqual({ type: 'Recreate' });
  });
});
