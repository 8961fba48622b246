import { describe, expect, it } from 'vitest';
import { startPrometheus } from './prometheus-process.js';

describe('startPrometheus', () => {
  it('says how to install Prometheus when the binary is missing', async () => {
    await expect(startPrometheus({ config: '', binary: '/nonexistent/prometheus' })).rejects.toThrow(
      'Prometheus is not installed at /nonexistent/prometheus: install it with `apt-get install prometheus`.',
    );
  });
});
