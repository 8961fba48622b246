import { execFileSync } from 'node:child_process';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import {
  checkNamesOnly,
  compileCloudInit,
  compileCloudInitDocument,
  type VariableResolver,
} from './cloud-init-compiler.js';
import { resolveVariable, type CloudInitValues } from './cloud-init-variables.js';

const VALUES: CloudInitValues = {
  hostname: 'web-1',
  sshAuthorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGs laptop', 'ssh-rsa AAAAB3NzaC1yc2E desk'],
  passwordHash: '$6$rounds=100000$abcdefgh$hash',
  ipv4: { address: '203.0.113.10/24', gateway: '203.0.113.1' },
  nameservers: ['203.0.113.53', '2001:db8::53'],
  macAddress: 'BC:24:11:00:00:2A',
  env: new Map([['REGION', 'eu-central']]),
  secrets: new Map([['API_KEY', 's3cret']]),
};

function resolverFor(values: Partial<CloudInitValues> = {}): VariableResolver {
  return (path) => resolveVariable(path, { ...VALUES, ...values });
}

function compiled(text: string, values: Partial<CloudInitValues> = {}): string {
  const result = compileCloudInitDocument('userData', text, resolverFor(values));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.output;
}

function problemsOf(text: string, resolve: VariableResolver = resolverFor()) {
  const result = compileCloudInitDocument('userData', text, resolve);
  if (result.ok) throw new Error(`compiled: ${result.output}`);
  return result.problems;
}

/** YAML 1.1, as cloud-init (PyYAML) reads it. */
function read(yaml: string): unknown {
  return parse(yaml, { version: '1.1' });
}

describe('substitution', () => {
  it('puts each variable in with its type: text, booleans and lists', () => {
    const output = compiled(`#cloud-config
hostname: {{ hostname }}
fqdn: {{ hostname }}.example.com
users:
  - name: ubuntu
    lock_passwd: {{ lock_passwd }}
    hashed_passwd: {{ password_hash }}
    ssh_authorized_keys: {{ ssh_authorized_keys }}
ssh_pwauth: {{ ssh_pwauth }}
write_files:
  - path: /etc/app.env
    content: |
      REGION={{ env.REGION }}
      API_KEY={{ secrets.API_KEY }}
runcmd: [echo, "{{ ipv4.address }} via {{ ipv4.gateway }}", {{ mac_address }}]
bootcmd: {{ nameservers }}
`);
    expect(output.startsWith('#cloud-config\n')).toBe(true);
    expect(read(output)).toEqual({
      hostname: 'web-1',
      fqdn: 'web-1.example.com',
      users: [
        {
          name: 'ubuntu',
          lock_passwd: false,
          hashed_passwd: VALUES.passwordHash,
          ssh_authorized_keys: VALUES.sshAuthorizedKeys,
        },
      ],
      ssh_pwauth: true,
      write_files: [{ path: '/etc/app.env', content: 'REGION=eu-central\nAPI_KEY=s3cret\n' }],
      runcmd: ['echo', '203.0.113.10/24 via 203.0.113.1', 'BC:24:11:00:00:2A'],
      bootcmd: VALUES.nameservers,
    });
  });

  it('locks the password and turns password logins off for a VM ordered without a password', () => {
    const output = compiled(
      '#cloud-config\nusers: [{name: u, hashed_passwd: {{ password_hash }}, lock_passwd: {{ lock_passwd }}}]\nssh_pwauth: {{ ssh_pwauth }}\n',
      { passwordHash: undefined },
    );
    expect(read(output)).toEqual({
      users: [{ name: 'u', hashed_passwd: '!', lock_passwd: true }],
      ssh_pwauth: false,
    });
  });

  it('keeps comments as written, the header included, and writes {{ literally from a quoted string', () => {
    const output = compiled(`#cloud-config
# hostname: {{ hostname }}
runcmd:
  - docker ps --format '{{ '{{' }}.Names}}' # {{.Names}} is no expression in a comment
`);
    expect(output).toContain('# hostname: {{ hostname }}');
    expect(read(output)).toEqual({ runcmd: ["docker ps --format '{{.Names}}'"] });
  });

  it('gives a list of addresses for templates shared by single- and dual-stack VMs', () => {
    const network = compileCloudInitDocument(
      'networkData',
      'version: 2\nethernets:\n  eth0:\n    match: {macaddress: {{ mac_address }}}\n    addresses: {{ addresses }}\n',
      resolverFor({ ipv6: { address: '2001:db8::10/64', gateway: '2001:db8::1' } }),
    );
    expect(network.ok && read(network.output)).toEqual({
      version: 2,
      ethernets: {
        eth0: {
          match: { macaddress: 'BC:24:11:00:00:2A' },
          addresses: ['203.0.113.10/24', '2001:db8::10/64'],
        },
      },
    });
  });

  it('compiles vendor data and network data only when the template has them', () => {
    const result = compileCloudInit(
      { userData: '#cloud-config\nhostname: {{ hostname }}\n', vendorData: '', networkData: '  \n' },
      resolverFor(),
    );
    expect(result).toEqual({ ok: true, output: { userData: '#cloud-config\nhostname: "web-1"\n' } });
  });
});

describe('values stay data', () => {
  const attacks = [
    'x\nssh_pwauth: true',
    'a: b',
    '"\nroot: x\n"',
    "'; rm -rf / #",
    '|\n  injected',
    '---\nsecond: document',
    '...\n%YAML 1.1',
    'x\u2028ssh_pwauth: true',
    'x\u0085ssh_pwauth: true',
    'x\r\nssh_pwauth: true',
    '- item\n- another',
    '&anchor x',
    '*alias',
    '!!python/object/apply:os.system ["id"]',
    '{{ secrets.API_KEY }}',
    'yes',
    '=',
    '<<',
    '0o17',
    '~',
    '\u0000\u0007\u001b\u007f\u009f\ufeff\ufffe',
    '\ud800 lone surrogate',
    ' leading and trailing ',
    '\n\nblank lines\n\n',
    '\ttab first',
  ];
  /** Every place a value can go in a template, with the value the VM must read back there. */
  const contexts: { template: string; expected: (value: string) => unknown }[] = [
    { template: 'v: {{ secrets.V }}', expected: (v) => ({ v }) },
    { template: 'v: pre-{{ secrets.V }}-post', expected: (v) => ({ v: `pre-${v}-post` }) },
    { template: 'v: "pre {{ secrets.V }} post"', expected: (v) => ({ v: `pre ${v} post` }) },
    { template: "v: 'pre {{ secrets.V }} post'", expected: (v) => ({ v: `pre ${v} post` }) },
    {
      template: 'v: |\n  line one\n  {{ secrets.V }}\n  last\n',
      expected: (v) => ({ v: `line one\n${v}\nlast\n` }),
    },
    { template: 'v: >\n  folded {{ secrets.V }}\n', expected: (v) => ({ v: `folded ${v}\n` }) },
    { template: 'v: [a, {{ secrets.V }}, "b{{ secrets.V }}"]', expected: (v) => ({ v: ['a', v, `b${v}`] }) },
    { template: 'v: {k: {{ secrets.V }}}', expected: (v) => ({ v: { k: v } }) },
    { template: 'v:\n  - {{ secrets.V }}\n  - x', expected: (v) => ({ v: [v, 'x'] }) },
  ];

  function compileWith(value: string, template: string): string {
    return compiled(`#cloud-config\n${template}\n`, { secrets: new Map([['V', value]]), env: new Map() });
  }

  it.each(attacks)('reads %j back exactly, in every context, and adds no key', (value) => {
    for (const { template, expected } of contexts) {
      const output = compileWith(value, template);
      expect(read(output), `${template}\n---\n${output}`).toEqual(expected(value));
    }
  });

  const anyString = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({
      unit: fc.constantFrom(...Array.from('\n\r\t :#-"\'|>{}[],&*!%@`\\\u0085\u2028 ab')),
      maxLength: 30,
    }),
  );

  it('reads any string back exactly in every context', () => {
    fc.assert(
      fc.property(anyString, fc.constantFrom(...contexts), (value, { template, expected }) => {
        const output = compileWith(value, template);
        expect(read(output)).toEqual(expected(value));
      }),
      { numRuns: 400 },
    );
  });

  const pyyaml = pyYamlReader();
  it('reads the same with PyYAML, which cloud-init uses', () => {
    const cases = attacks.flatMap((value) =>
      contexts.map(({ template, expected }) => ({
        output: compileWith(value, template),
        expected: expected(value),
      })),
    );
    const samples = fc.sample(fc.tuple(anyString, fc.constantFrom(...contexts)), {
      numRuns: 300,
      seed: 7,
    });
    for (const [value, { template, expected }] of samples)
      cases.push({ output: compileWith(value, template), expected: expected(value) });
    const read = pyyaml(cases.map((c) => c.output));
    cases.forEach((c, i) => {
      expect(read[i], c.output).toEqual(c.expected);
    });
  });
});

/** PyYAML's safe_load over many documents in one process (python3 with PyYAML: Debian's `python3-yaml`). */
function pyYamlReader(): (documents: string[]) => unknown[] {
  const script = `
import json, sys, yaml
docs = json.loads(sys.stdin.read())
out = []
for d in docs:
    try:
        out.append(yaml.safe_load(d))
    except Exception as e:
        out.append({"error": str(e)})
sys.stdout.write(json.dumps(out, ensure_ascii=True))
`;
  return (documents) =>
    JSON.parse(
      execFileSync('python3', ['-c', script], { input: JSON.stringify(documents), encoding: 'utf8' }),
    ) as unknown[];
}

describe('errors', () => {
  it('names an unknown variable with its line and column', () => {
    expect(problemsOf('#cloud-config\nhostname: web\nfqdn:   {{ host_name }}\n')).toEqual([
      { line: 3, column: 9, message: expect.stringContaining('unknown variable host_name') as unknown },
    ]);
  });

  it('reports a missing secret or variable, and says when the key is of the other kind', () => {
    expect(problemsOf('#cloud-config\na: {{ secrets.MISSING }}\nb: {{ env.API_KEY }}\n')).toEqual([
      { line: 2, column: 4, message: 'secrets.MISSING: the organization has no secret MISSING' },
      {
        line: 3,
        column: 4,
        message: 'env.API_KEY: API_KEY is a secret of the organization; write secrets.API_KEY',
      },
    ]);
  });

  it('refuses braces left open, with the position of the opening ones', () => {
    expect(problemsOf('#cloud-config\nruncmd:\n  - echo {{ hostname\n')).toEqual([
      { line: 3, column: 10, message: expect.stringContaining('not closed') as unknown },
    ]);
  });

  it('refuses anything but names and quoted strings between the braces', () => {
    for (const expression of [
      '{{ hostname | upper }}',
      "{{ ''.__class__ }}",
      '{{ secrets["API_KEY"] }}',
      '{{ }}',
      '{{ a() }}',
    ]) {
      expect(problemsOf(`#cloud-config\nx: ${expression}\n`), expression).toHaveLength(1);
    }
  });

  it('reaches nothing through prototype names', () => {
    for (const name of [
      'constructor',
      '__proto__',
      'toString',
      'env.constructor',
      'secrets.__proto__',
      'env',
      'hostname.length',
    ]) {
      const problems = problemsOf(`#cloud-config\nx: {{ ${name} }}\n`);
      expect(problems, name).toHaveLength(1);
      expect(problems[0]?.line).toBe(2);
    }
  });

  it('says which values a VM lacks', () => {
    expect(problemsOf('#cloud-config\nx: {{ ipv6.address }}\n')).toEqual([
      { line: 2, column: 4, message: 'ipv6.address: the VM has no IPv6 address' },
    ]);
  });

  it('refuses user data without the #cloud-config line, YAML errors at their position, and duplicate keys', () => {
    expect(problemsOf('hostname: {{ hostname }}\n')).toEqual([
      { line: 1, column: 1, message: 'must start with the line #cloud-config' },
    ]);
    const broken = problemsOf('#cloud-config\nruncmd: [a, {{ hostname }}\nfqdn: x\n');
    expect(broken.length).toBeGreaterThan(0);
    expect(broken[0]?.line).toBeGreaterThanOrEqual(2);
    expect(problemsOf('#cloud-config\na: 1\na: 2\n')[0]?.line).toBe(3);
    expect(problemsOf('#cloud-config\n- a\n')[0]?.message).toContain('mapping');
    expect(problemsOf('#cloud-config\na: 1\n---\nb: 2\n')[0]?.message).toBe('must be a single YAML document');
  });

  it('maps positions after earlier expressions back to the template', () => {
    const problems = problemsOf('#cloud-config\na: {{ hostname }} {{ hostname }} {{ nope }}\n');
    expect(problems).toEqual([{ line: 2, column: 34, message: expect.stringContaining('nope') as unknown }]);
  });

  it('refuses an expression as a key, a list inside text, or anywhere but a value or comment', () => {
    expect(problemsOf('#cloud-config\n{{ hostname }}: x\n')[0]?.message).toContain('cannot be a mapping key');
    expect(problemsOf('#cloud-config\nx: "keys {{ ssh_authorized_keys }}"\n')[0]?.message).toContain(
      'is a list',
    );
    expect(problemsOf('#cloud-config\nx: &{{ hostname }} y\n')[0]?.message).toContain(
      'can only stand in a value',
    );
  });

  it('refuses output too large for the VM secret', () => {
    const big = 'x'.repeat(200 * 1024);
    const problems = problemsOf(
      '#cloud-config\na: {{ secrets.A }}\nb: {{ secrets.A }}\n',
      resolverFor({ secrets: new Map([['A', big]]) }),
    );
    expect(problems[0]?.message).toContain('larger than');
  });

  it('wants network data to say its version', () => {
    const result = compileCloudInitDocument('networkData', 'ethernets: {}\n', checkNamesOnly);
    expect(!result.ok && result.problems[0]?.message).toContain('version');
    expect(
      compileCloudInitDocument('networkData', 'network:\n  version: 1\n  config: []\n', checkNamesOnly).ok,
    ).toBe(true);
  });

  it('collects the problems of every document with the document named', () => {
    const result = compileCloudInit(
      { userData: '#cloud-config\na: {{ nope }}\n', vendorData: 'b: 1\n', networkData: 'version: 2\n' },
      checkNamesOnly,
    );
    expect(!result.ok && result.problems.map((p) => [p.document, p.line])).toEqual([
      ['userData', 2],
      ['vendorData', 1],
    ]);
  });
});

describe('checking a template as it is saved', () => {
  it('accepts any organization key but no unknown name', () => {
    expect(
      compileCloudInitDocument(
        'userData',
        '#cloud-config\na: {{ secrets.NOT_YET_CREATED }}\nb: {{ ipv6.address }}\n',
        checkNamesOnly,
      ).ok,
    ).toBe(true);
    expect(
      compileCloudInitDocument('userData', '#cloud-config\na: {{ secrets.lower }}\n', checkNamesOnly).ok,
    ).toBe(false);
    expect(compileCloudInitDocument('userData', '#cloud-config\na: {{ hostnme }}\n', checkNamesOnly).ok).toBe(
      false,
    );
  });
});
