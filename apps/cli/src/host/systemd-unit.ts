import type { ServiceState, ServiceUnit } from './host.js';

/** Where `LocalHost` installs a unit, and the only place it removes one from. */
export function unitPath(name: string): string {
  return `/etc/systemd/system/${name}.service`;
}

/** The properties `serviceState` asks `systemctl show` for. */
export const STATE_PROPERTIES = 'LoadState,ActiveState';

/**
 * The unit file's text. Every value is escaped for systemd (specifiers, `$` expansion in ExecStart,
 * C-style escapes inside double quotes), so what the unit runs is exactly `execStart`.
 */
export function renderServiceUnit(unit: ServiceUnit): string {
  checkUnit(unit);
  const environment = Object.entries(unit.environment ?? {}).map(
    ([name, value]) => `Environment=${quoted(escapeSpecifiers(`${name}=${value}`))}`,
  );
  return [
    '[Unit]',
    `Description=${escapeSpecifiers(unit.description)}`,
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    `Type=${unit.type ?? 'exec'}`,
    `ExecStart=${unit.execStart.map(execWord).join(' ')}`,
    ...environment,
    'Restart=always',
    'RestartSec=5s',
    // k3s leaves its containers' processes running across its own restarts: only the main one is killed.
    'KillMode=process',
    'Delegate=yes',
    'LimitNOFILE=1048576',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}

/** What `systemctl show --property=LoadState,ActiveState` printed (`Key=value` lines, in any order). */
export function parseServiceState(shown: string): ServiceState {
  const properties = new Map<string, string>();
  for (const line of shown.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) properties.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  const load = properties.get('LoadState');
  const active = properties.get('ActiveState');
  if (load === undefined || active === undefined) {
    throw new Error(`systemctl show printed no LoadState and ActiveState: ${JSON.stringify(shown)}`);
  }
  if (load === 'not-found') return 'not-found';
  // A unit file systemd could not parse cannot run.
  if (load === 'error' || load === 'bad-setting') return 'failed';
  return ACTIVE_STATES[active] ?? 'inactive';
}

const ACTIVE_STATES: Readonly<Record<string, ServiceState>> = {
  active: 'active',
  reloading: 'active',
  refreshing: 'active',
  activating: 'activating',
  // On its way down: whoever waits for the service to run should not count it as running.
  deactivating: 'inactive',
  inactive: 'inactive',
  maintenance: 'inactive',
  failed: 'failed',
};

const UNIT_NAME = /^[A-Za-z0-9:_.@-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// systemd unquotes and unescapes a word; these need neither.
const PLAIN_WORD = /^[A-Za-z0-9_./:=@+,-]+$/;

function checkUnit(unit: ServiceUnit): void {
  if (!UNIT_NAME.test(unit.name) || unit.name.endsWith('.service')) {
    throw new Error(
      `a unit name is letters, digits and ":_.@-" without ".service", not ${JSON.stringify(unit.name)}`,
    );
  }
  if (/[\p{Cc}]/u.test(unit.description)) {
    throw new Error(`the description of ${unit.name} must be one line without control characters`);
  }
  const program = unit.execStart[0];
  if (program?.startsWith('/') !== true) {
    throw new Error(
      `the program ExecStart of ${unit.name} runs must be an absolute path, not ${JSON.stringify(program)}`,
    );
  }
  for (const name of Object.keys(unit.environment ?? {})) {
    if (!ENV_NAME.test(name)) throw new Error(`${JSON.stringify(name)} is not an environment variable name`);
  }
}

function escapeSpecifiers(text: string): string {
  return text.replace(/%/g, '%%');
}

function execWord(word: string): string {
  const escaped = escapeSpecifiers(word).replace(/\$/g, '$$$$');
  return PLAIN_WORD.test(escaped) ? escaped : quoted(escaped);
}

function quoted(text: string): string {
  const escaped = text.replace(/[\\"\p{Cc}]/gu, (c) => {
    if (c === '\\' || c === '"') return `\\${c}`;
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return `"${escaped}"`;
}
