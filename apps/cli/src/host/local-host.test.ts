import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { HostCommandError, type CommandResult } from './host.js';
import { LocalHost } from './local-host.js';
import type { RunOptions } from './process-runner.js';

interface Call extends RunOptions {
  readonly argv: readonly string[];
  /** For `install`: what the staged file held, and its mode, when root was asked to copy it. */
  readonly staged?: { readonly content: string; readonly mode: number };
}

/** A runner that records each call and answers from `answer` (exit 0, nothing printed, by default). */
function recorder(answer: (argv: readonly string[]) => Partial<CommandResult> = () => ({})) {
  const calls: Call[] = [];
  const runner = async (argv: readonly string[], options: RunOptions): Promise<CommandResult> => {
    const installed = argv.indexOf('install');
    let staged: Call['staged'];
    if (installed !== -1) {
      const from = argv.at(-2) ?? '';
      staged = { content: await readFile(from, 'utf8'), mode: (await stat(from)).mode & 0o777 };
    }
    calls.push({ argv, ...options, ...(staged === undefined ? {} : { staged }) });
    return { exitCode: 0, stdout: '', stderr: '', ...answer(argv) };
  };
  return { calls, argv: () => calls.map((c) => c.argv), runner };
}

const asRoot = (r: ReturnType<typeof recorder>) => new LocalHost({ runner: r.runner, uid: 0 });
const asUser = (r: ReturnType<typeof recorder>) => new LocalHost({ runner: r.runner, uid: 1000 });

const STAGED = expect.stringMatching(/^\/.*\/nr-[^/]+\/k3s\.service$/) as unknown;
const BESIDE = expect.stringMatching(/^\/etc\/systemd\/system\/\.k3s\.service\.nr-[0-9a-f]{8}$/) as unknown;

describe('LocalHost.run', () => {
  it('runs a root command as is when nr is root, with its env, stdin and the default timeout', async () => {
    const r = recorder();
    await asRoot(r).run({
      argv: ['kubectl', 'apply', '-f', '-'],
      asRoot: true,
      env: { KUBECONFIG: '/k' },
      stdin: 'x',
    });
    expect(r.calls).toEqual([
      { argv: ['kubectl', 'apply', '-f', '-'], env: { KUBECONFIG: '/k' }, stdin: 'x', timeoutMs: 120_000 },
    ]);
  });

  it('prefixes sudo -n to a root command when nr is not root', async () => {
    const r = recorder();
    await asUser(r).run({ argv: ['systemctl', 'daemon-reload'], asRoot: true, timeoutMs: 5000 });
    expect(r.calls).toEqual([
      {
        argv: ['sudo', '-n', '--', 'systemctl', 'daemon-reload'],
        env: {},
        stdin: undefined,
        timeoutMs: 5000,
      },
    ]);
  });

  it('has sudo keep the env by name, so that values never reach the command line', async () => {
    const r = recorder();
    await asUser(r).run({
      argv: ['sh', 'install.sh'],
      asRoot: true,
      env: { K3S_TOKEN: 's3cret', INSTALL_K3S_SKIP_START: 'true' },
    });
    expect(r.calls[0]?.argv).toEqual([
      'sudo',
      '-n',
      '--preserve-env=K3S_TOKEN,INSTALL_K3S_SKIP_START',
      '--',
      'sh',
      'install.sh',
    ]);
    expect(r.calls[0]?.env).toEqual({ K3S_TOKEN: 's3cret', INSTALL_K3S_SKIP_START: 'true' });
  });

  it('runs a command that does not need root without sudo', async () => {
    const r = recorder();
    await asUser(r).run({ argv: ['kubectl', 'version'] });
    expect(r.argv()).toEqual([['kubectl', 'version']]);
  });

  it('gives a non-zero exit as a result', async () => {
    const r = recorder(() => ({ exitCode: 1, stderr: 'no' }));
    expect(await asUser(r).run({ argv: ['false'] })).toEqual({ exitCode: 1, stdout: '', stderr: 'no' });
  });
});

describe('LocalHost files as root', () => {
  let folder = '';
  afterEach(async () => {
    if (folder !== '') await rm(folder, { recursive: true, force: true });
  });

  it('writes a file with its mode whatever the umask, creating its folders 0755, and leaves nothing beside it', async () => {
    folder = await mkdtemp(join(tmpdir(), 'nr-local-host-'));
    const host = asRoot(recorder());
    const path = join(folder, 'rancher', 'k3s', 'config.yaml');
    await host.writeFile(path, 'token: a\n', 0o600);
    await host.writeFile(path, new TextEncoder().encode('token: b\n'), 0o640);
    expect(await readFile(path, 'utf8')).toBe('token: b\n');
    expect(await host.modeOf(path)).toBe(0o640);
    expect(await host.modeOf(join(folder, 'rancher'))).toBe(0o755);
    expect(await readdir(join(folder, 'rancher', 'k3s'))).toEqual(['config.yaml']);
    expect(await host.readFile(path)).toBe('token: b\n');
  });

  it('reads, stats and removes nothing where there is nothing', async () => {
    folder = await mkdtemp(join(tmpdir(), 'nr-local-host-'));
    const host = asRoot(recorder());
    expect(await host.readFile(join(folder, 'none'))).toBeUndefined();
    expect(await host.readFile(join(folder, 'none', 'deeper'))).toBeUndefined();
    expect(await host.modeOf(join(folder, 'none'))).toBeUndefined();
    await host.remove(join(folder, 'none'));
  });

  it('removes a folder with what is in it', async () => {
    folder = await mkdtemp(join(tmpdir(), 'nr-local-host-'));
    await writeFile(join(folder, 'a'), 'a');
    await asRoot(recorder()).remove(folder);
    await expect(stat(folder)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a relative path and /', async () => {
    const host = asRoot(recorder());
    await expect(host.remove('/')).rejects.toThrow(/absolute and not \//);
    await expect(host.readFile('etc/os-release')).rejects.toThrow(/absolute/);
  });
});

describe('LocalHost files as a sudo user', () => {
  it('stages the content 0600, has root install it beside the destination, then renames it over', async () => {
    const r = recorder();
    await asUser(r).writeFile('/etc/rancher/k3s/config.yaml', 'token: a\n', 0o600);
    const staged = expect.stringMatching(/\/nr-[^/]+\/config\.yaml$/) as unknown;
    const beside = expect.stringMatching(/^\/etc\/rancher\/k3s\/\.config\.yaml\.nr-[0-9a-f]{8}$/) as unknown;
    expect(r.argv()).toEqual([
      ['sudo', '-n', '--', 'install', '-D', '-m', '0600', '-o', 'root', '-g', 'root', '--', staged, beside],
      ['sudo', '-n', '--', 'mv', '-f', '-T', '--', beside, '/etc/rancher/k3s/config.yaml'],
    ]);
    expect(r.calls[0]?.staged).toEqual({ content: 'token: a\n', mode: 0o600 });
    expect(r.calls[0]?.argv[13]).toBe(r.calls[1]?.argv[7]);
    // The staging folder is gone.
    await expect(stat(r.calls[0]?.argv[12] ?? '')).rejects.toThrow(/ENOENT/);
  });

  it('removes the copy and throws HostCommandError when the rename fails', async () => {
    const r = recorder((argv) =>
      argv[3] === 'mv' ? { exitCode: 1, stderr: 'mv: cannot overwrite directory' } : {},
    );
    const written = asUser(r).writeFile('/etc/k3s', 'x', 0o644);
    await expect(written).rejects.toThrow(HostCommandError);
    await expect(written).rejects.toThrow(/mv -f -T -- .* exited 1: mv: cannot overwrite directory/);
    expect(r.argv()[2]).toEqual(['sudo', '-n', '--', 'rm', '-f', '--', r.calls[1]?.argv[7]]);
  });

  it('throws HostCommandError with the command and what sudo said when sudo wants a password', async () => {
    const r = recorder(() => ({ exitCode: 1, stderr: 'sudo: a password is required\n' }));
    const error = await asUser(r)
      .writeFile('/etc/k3s', 'x', 0o644)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostCommandError);
    const { command } = error as HostCommandError;
    expect(command.asRoot).toBe(true);
    expect(command.argv.slice(0, 4)).toEqual(['install', '-D', '-m', '0644']);
    expect((error as HostCommandError).result.stderr).toBe('sudo: a password is required\n');
    expect((error as Error).message).toMatch(
      /^sudo install -D -m 0644 .* exited 1: sudo: a password is required$/,
    );
  });

  it('removes through sudo rm -rf', async () => {
    const r = recorder();
    await asUser(r).remove('/var/lib/rancher');
    expect(r.argv()).toEqual([['sudo', '-n', '--', 'rm', '-rf', '--', '/var/lib/rancher']]);
  });
});

describe('LocalHost services', () => {
  const unit = {
    name: 'k3s',
    description: 'Lightweight Kubernetes',
    type: 'notify' as const,
    execStart: [
      '/usr/local/bin/k3s',
      'server',
      '--disable=traefik',
      '--node-label',
      'noderings.io/agent=Frankfurt 1',
    ],
    environment: { K3S_KUBECONFIG_MODE: '600', NO_PROXY: 'localhost,127.0.0.1' },
  };

  it('installs a unit: the file 0644, daemon-reload, enable', async () => {
    const r = recorder();
    await asUser(r).installService(unit);
    expect(r.argv()).toEqual([
      ['sudo', '-n', '--', 'install', '-D', '-m', '0644', '-o', 'root', '-g', 'root', '--', STAGED, BESIDE],
      ['sudo', '-n', '--', 'mv', '-f', '-T', '--', BESIDE, '/etc/systemd/system/k3s.service'],
      ['sudo', '-n', '--', 'systemctl', 'daemon-reload'],
      ['sudo', '-n', '--', 'systemctl', 'enable', 'k3s'],
    ]);
    expect(r.calls[0]?.staged?.content).toBe(
      [
        '[Unit]',
        'Description=Lightweight Kubernetes',
        'After=network-online.target',
        'Wants=network-online.target',
        '',
        '[Service]',
        'Type=notify',
        'ExecStart=/usr/local/bin/k3s server --disable=traefik --node-label "noderings.io/agent=Frankfurt 1"',
        'Environment="K3S_KUBECONFIG_MODE=600"',
        'Environment="NO_PROXY=localhost,127.0.0.1"',
        'Restart=always',
        'RestartSec=5s',
        'KillMode=process',
        'Delegate=yes',
        'LimitNOFILE=1048576',
        '',
        '[Install]',
        'WantedBy=multi-user.target',
        '',
      ].join('\n'),
    );
  });

  it('says Type=exec when the unit does not say', async () => {
    const r = recorder();
    await asUser(r).installService({
      name: 'nr-agent',
      description: 'd',
      execStart: ['/usr/bin/sleep', 'infinity'],
    });
    expect(r.calls[0]?.staged?.content).toContain(
      '\nType=exec\nExecStart=/usr/bin/sleep infinity\nRestart=always\n',
    );
  });

  it('starts with enable --now and stops with stop, through sudo when not root', async () => {
    const user = recorder();
    await asUser(user).startService('k3s');
    await asUser(user).stopService('k3s');
    expect(user.argv()).toEqual([
      ['sudo', '-n', '--', 'systemctl', 'enable', '--now', 'k3s'],
      ['sudo', '-n', '--', 'systemctl', 'stop', 'k3s'],
    ]);
    const root = recorder();
    await asRoot(root).startService('k3s');
    await asRoot(root).stopService('k3s');
    expect(root.argv()).toEqual([
      ['systemctl', 'enable', '--now', 'k3s'],
      ['systemctl', 'stop', 'k3s'],
    ]);
  });

  it('removes a unit: disable --now, the file, daemon-reload', async () => {
    const r = recorder();
    await asUser(r).removeService('k3s');
    expect(r.argv()).toEqual([
      ['sudo', '-n', '--', 'test', '-e', '/etc/systemd/system/k3s.service'],
      ['sudo', '-n', '--', 'systemctl', 'disable', '--now', 'k3s'],
      ['sudo', '-n', '--', 'rm', '-rf', '--', '/etc/systemd/system/k3s.service'],
      ['sudo', '-n', '--', 'systemctl', 'daemon-reload'],
    ]);
  });

  it('removes nothing when there is no unit file', async () => {
    const r = recorder(() => ({ exitCode: 1 }));
    await asUser(r).removeService('k3s');
    expect(r.argv()).toEqual([['sudo', '-n', '--', 'test', '-e', '/etc/systemd/system/k3s.service']]);
  });

  it('reads the state from systemctl show, without sudo', async () => {
    const r = recorder(() => ({ stdout: 'LoadState=loaded\nActiveState=activating\n' }));
    expect(await asUser(r).serviceState('k3s')).toBe('activating');
    expect(r.argv()).toEqual([['systemctl', 'show', 'k3s', '--property=LoadState,ActiveState']]);
  });

  it('throws HostCommandError with the command and stderr when systemctl fails', async () => {
    const r = recorder(() => ({
      exitCode: 1,
      stderr: 'System has not been booted with systemd as init system (PID 1).\n',
    }));
    const error = await asRoot(r)
      .stopService('k3s')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostCommandError);
    expect((error as HostCommandError).command).toEqual({ argv: ['systemctl', 'stop', 'k3s'], asRoot: true });
    expect((error as Error).message).toBe(
      'sudo systemctl stop k3s exited 1: System has not been booted with systemd as init system (PID 1).',
    );
  });
});

describe('LocalHost facts', () => {
  it('lists the interfaces ip -j prints', async () => {
    const shown = [
      {
        ifname: 'lo',
        flags: ['LOOPBACK', 'UP', 'LOWER_UP'],
        operstate: 'UNKNOWN',
        addr_info: [{ family: 'inet', local: '127.0.0.1' }],
      },
      {
        ifname: 'ens18',
        flags: ['BROADCAST', 'UP'],
        operstate: 'UP',
        addr_info: [{ family: 'inet', local: '203.0.113.7' }],
      },
    ];
    const r = recorder(() => ({ stdout: JSON.stringify(shown) }));
    expect(await asUser(r).networkInterfaces()).toEqual([
      { name: 'lo', up: true, loopback: true, ipv4: ['127.0.0.1'] },
      { name: 'ens18', up: true, loopback: false, ipv4: ['203.0.113.7'] },
    ]);
    expect(r.argv()).toEqual([['ip', '-j', '-4', 'address', 'show']]);
  });

  it('is root without asking when uid is 0', async () => {
    const r = recorder();
    expect(await asRoot(r).privilege()).toBe('root');
    expect(r.calls).toEqual([]);
  });

  it('tells passwordless sudo, sudo with a password, and no sudo apart', async () => {
    const sudo = recorder();
    expect(await asUser(sudo).privilege()).toBe('sudo');
    expect(sudo.argv()).toEqual([['sudo', '-n', 'true']]);

    const password = recorder((argv) =>
      argv[0] === 'sudo' ? { exitCode: 1 } : { stdout: 'ubuntu adm cdrom sudo lxd\n' },
    );
    expect(await asUser(password).privilege()).toBe('sudo-password');
    expect(password.argv()).toEqual([
      ['sudo', '-n', 'true'],
      ['id', '-Gn'],
    ]);

    const none = recorder((argv) => (argv[0] === 'sudo' ? { exitCode: 1 } : { stdout: 'bob users\n' }));
    expect(await asUser(none).privilege()).toBe('none');

    const noSudo = new LocalHost({
      uid: 1000,
      runner: () => Promise.reject(new Error('could not run sudo: ENOENT')),
    });
    expect(await noSudo.privilege()).toBe('none');
  });

  it('reads the memory /proc/meminfo gives', async () => {
    const memory = await new LocalHost().memory();
    // libuv reads MemTotal from the same file.
    expect(memory.totalBytes).toBe(totalmem());
    expect(memory.availableBytes).toBeGreaterThan(0);
    expect(memory.availableBytes).toBeLessThanOrEqual(memory.totalBytes);
  });

  it('counts the CPUs nr may use as nproc does', async () => {
    expect(await new LocalHost().cpuCount()).toBe(Number(execFileSync('nproc', { encoding: 'utf8' })));
  });

  it('reads this machine’s os-release', async () => {
    const release = await new LocalHost().osRelease();
    expect(release?.id).toMatch(/^[a-z0-9._-]+$/);
    expect(release?.prettyName).not.toBe('');
  });

  it('gives the free disk space df gives an unprivileged user', async () => {
    const df = Number(
      execFileSync('df', ['--output=avail', '-B1', tmpdir()], { encoding: 'utf8' }).split('\n')[1],
    );
    const free = await new LocalHost().freeDiskBytes(tmpdir());
    expect(Math.abs(free - df)).toBeLessThan(64 * 1024 * 1024);
    await expect(new LocalHost().freeDiskBytes('/nr-no-such-folder')).rejects.toThrow(/ENOENT/);
  });

  it('finds a TCP port taken, by a listener on all IPv6 and IPv4 addresses, and free once it is closed', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, resolve));
    const { port } = server.address() as AddressInfo;
    const host = new LocalHost();
    expect(await host.portFree(port, 'tcp')).toBe(false);
    await new Promise((resolve) => server.close(resolve));
    expect(await host.portFree(port, 'tcp')).toBe(true);
  });

  it('finds a UDP port taken and free once it is closed', async () => {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const { port } = socket.address();
    const host = new LocalHost();
    expect(await host.portFree(port, 'udp')).toBe(false);
    // The TCP port of the same number is another port.
    expect(await host.portFree(port, 'tcp')).toBe(true);
    await new Promise<void>((resolve) => socket.close(resolve));
    expect(await host.portFree(port, 'udp')).toBe(true);
  });

  it('resolves a name, and gives undefined for one that does not resolve', async () => {
    const host = new LocalHost();
    expect(await host.resolve('localhost')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]),
    );
    expect(await host.resolve('nr-test.invalid')).toBeUndefined();
  });
});
