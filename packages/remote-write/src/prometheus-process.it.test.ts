import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startPrometheus } from './prometheus-process.js';

describe('startPrometheus with the real binary', () => {
  it('starts on a free port, answers, and leaves nothing behind once stopped', async () => {
    const prometheus = await startPrometheus({ config: 'global:\n  scrape_interval: 1m\n' });
    try {
      expect(prometheus.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${prometheus.url}/-/healthy`)).status).toBe(200);
      expect(existsSync(prometheus.dataDir)).toBe(true);
    } finally {
      await prometheus.stop();
    }
    await prometheus.stop();
    expect(existsSync(prometheus.dataDir)).toBe(false);
    await expect(fetch(`${prometheus.url}/-/healthy`)).rejects.toThrow();
  });

  it('runs two at once, each on its own port', async () => {
    const [a, b] = await Promise.all([
      startPrometheus({ config: '' }),
      startPrometheus({ config: '', mode: 'agent' }),
    ]);
    try {
      expect(a.url).not.toBe(b.url);
      expect((await fetch(`${b.url}/-/ready`)).status).toBe(200);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('fails with what Prometheus said when it cannot start', async () => {
    await expect(startPrometheus({ config: 'scrape_configs: {' })).rejects.toThrow(
      /Prometheus exited \(\d+\) before it was ready:[\s\S]*Error loading config/,
    );
  });
});
