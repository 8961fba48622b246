import { createHash } from 'node:crypto';
import type { FirewallRule, FirewallState } from '../cluster-state.js';
import type { ParamSpec } from '../param-schema.js';
import { die, paramError } from '../pve-error.js';
import { requirePrivilege, type ApiRequest, type Route, type SimCore } from '../sim-core.js';
import { DIGEST, NODE, OPTIONAL_STRING, VMID } from './common-params.js';
import { requireNode } from '../cluster-state.js';

const FW = { node: NODE, vmid: VMID } as const;
const POS: ParamSpec = { type: 'integer', minimum: 0 };
const PORT_LIST = /^(\d{1,5}(:\d{1,5})?|[a-z][a-z0-9-]*)(,(\d{1,5}(:\d{1,5})?|[a-z][a-z0-9-]*))*$/;
const ACTION = /^(ACCEPT|DROP|REJECT|[A-Za-z][A-Za-z0-9\-_]+)$/;

const RULE_FIELDS: Record<string, ParamSpec> = {
  type: { type: 'string', enum: ['in', 'out', 'group', 'forward'] },
  action: { type: 'string', pattern: ACTION, maxLength: 20 },
  enable: { type: 'integer', optional: true, minimum: 0 },
  proto: { type: 'string', optional: true },
  dport: { type: 'string', optional: true, pattern: PORT_LIST, requires: 'proto' },
  sport: { type: 'string', optional: true, pattern: PORT_LIST, requires: 'proto' },
  source: { type: 'string', optional: true, maxLength: 512 },
  dest: { type: 'string', optional: true, maxLength: 512 },
  macro: { type: 'string', optional: true, maxLength: 128 },
  iface: { type: 'string', optional: true, pattern: /^net\d+$/ },
  log: {
    type: 'string',
    optional: true,
    enum: ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug', 'nolog'],
  },
  comment: OPTIONAL_STRING,
  'icmp-type': OPTIONAL_STRING,
};
const OPTIONAL_RULE_FIELDS = Object.fromEntries(
  Object.entries(RULE_FIELDS).map(([k, v]) => [k, { ...v, optional: true }]),
);

const OPTION_FIELDS: Record<string, ParamSpec> = {
  enable: { type: 'boolean', optional: true },
  dhcp: { type: 'boolean', optional: true },
  ipfilter: { type: 'boolean', optional: true },
  macfilter: { type: 'boolean', optional: true },
  ndp: { type: 'boolean', optional: true },
  radv: { type: 'boolean', optional: true },
  policy_in: { type: 'string', optional: true, enum: ['ACCEPT', 'REJECT', 'DROP'] },
  policy_out: { type: 'string', optional: true, enum: ['ACCEPT', 'REJECT', 'DROP'] },
  log_level_in: RULE_FIELDS.log ?? OPTIONAL_STRING,
  log_level_out: RULE_FIELDS.log ?? OPTIONAL_STRING,
};

export function firewallRoutes(): Route[] {
  const base = '/nodes/:node/qemu/:vmid/firewall';
  return [
    {
      method: 'GET',
      path: `${base}/rules`,
      params: { properties: FW },
      handler: (core, req) => {
        const fw = firewallFor(core, req, 'VM.Audit');
        const digest = firewallDigest(fw);
        return fw.rules.map((r, pos) => ({ pos, ...r, digest }));
      },
    },
    {
      method: 'POST',
      path: `${base}/rules`,
      params: { properties: { ...FW, ...RULE_FIELDS, pos: { ...POS, optional: true }, digest: DIGEST } },
      handler: (core, req) => {
        const fw = firewallFor(core, req, 'VM.Config.Network');
        assertFirewallDigest(fw, req);
        fw.rules.unshift(ruleFrom(req.params, { type: '', action: '', enable: 0 }));
        core.changed();
        return null;
      },
    },
    {
      method: 'GET',
      path: `${base}/rules/:pos`,
      params: { properties: { ...FW, pos: POS } },
      handler: (core, req) => {
        const fw = firewallFor(core, req, 'VM.Audit');
        const pos = req.params.pos as number;
        return { pos, ...ruleAt(fw, pos) };
      },
    },
    {
      method: 'PUT',
      path: `${base}/rules/:pos`,
      params: {
        properties: {
          ...FW,
          ...OPTIONAL_RULE_FIELDS,
          pos: POS,
          moveto: { ...POS, optional: true },
          digest: DIGEST,
          delete: OPTIONAL_STRING,
        },
      },
      handler: (core, req) => {
        const fw = firewallFor(core, req, 'VM.Config.Network');
        assertFirewallDigest(fw, req);
        const pos = req.params.pos as number;
        const rule = ruleAt(fw, pos);
        const moveto = req.params.moveto as number | undefined;
        if (moveto !== undefined) {
          fw.rules.splice(pos, 1);
          // PVE inserts before the rule that was at `moveto` before the move.
          fw.rules.splice(moveto > pos ? moveto - 1 : moveto, 0, rule);
        } else {
          const updated = ruleFrom(req.params, rule);
          for (const key of String(req.params.delete ?? '')
            .split(/[,;\s]+/)
            .filter(Boolean)) {
            if (key === 'type' || key === 'action')
              throw paramError({ delete: `unable to delete required property '${key}'` });
            Reflect.deleteProperty(updated, key);
          }
          if (updated.dport !== undefined && updated.proto === undefined) {
            throw paramError({ proto: `missing property - 'dport' requires this property` });
          }
          fw.rules[pos] = updated;
        }
        core.changed();
        return null;
      },
    },
    {
      method: 'DELETE',
      path: `${base}/rules/:pos`,
      params: { properties: { ...FW, pos: POS, digest: DIGEST } },
      handler: (core, req) => {
        const fw = firewallFor(core, req, 'VM.Config.Network');
        assertFirewallDigest(fw, req);
        const pos = req.params.pos as number;
        ruleAt(fw, pos);
        fw.rules.splice(pos, 1);
        core.changed();
        return null;
      },
    },
    {
      method: 'GET',
      path: `${base}/options`,
      params: { properties: FW },
      handler: (core, req) => {
        const fw = firewallFor(core, req, 'VM.Audit');
        return { ...fw.options, digest: firewallDigest(fw) };
      },
    },
    {
      method: 'PUT',
      path: `${base}/options`,
      params: { properties: { ...FW, ...OPTION_FIELDS, digest: DIGEST, delete: OPTIONAL_STRING } },
      handler: (core, req) => {
        const fw = firewallFor(core, req, 'VM.Config.Network');
        assertFirewallDigest(fw, req);
        for (const [key, value] of Object.entries(req.params)) {
          if (value === undefined || !(key in OPTION_FIELDS)) continue;
          fw.options[key] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
        }
        for (const key of String(req.params.delete ?? '')
          .split(/[,;\s]+/)
          .filter(Boolean)) {
          Reflect.deleteProperty(fw.options, key);
        }
        core.changed();
        return null;
      },
    },
  ];
}

/** The API does not check that the VM exists: the firewall file stands on its own. */
function firewallFor(core: SimCore, req: ApiRequest, privilege: string): FirewallState {
  requireNode(core.state, req.params.node as string);
  const vmid = req.params.vmid as number;
  requirePrivilege(req, `/vms/${vmid}`, privilege);
  core.state.firewalls[vmid] ??= { rules: [], options: {} };
  return core.state.firewalls[vmid];
}

function ruleAt(fw: FirewallState, pos: number): FirewallRule {
  const rule = fw.rules[pos];
  if (!rule) throw die(`no rule at position ${pos}`);
  return rule;
}

function ruleFrom(params: Record<string, unknown>, base: FirewallRule): FirewallRule {
  const rule: FirewallRule = { ...base };
  for (const key of Object.keys(RULE_FIELDS)) {
    const value = params[key];
    if (value === undefined) continue;
    (rule as unknown as Record<string, unknown>)[key] =
      key === 'enable' ? (Number(value) > 0 ? 1 : 0) : value;
  }
  return rule;
}

function firewallDigest(fw: FirewallState): string {
  return createHash('sha1').update(JSON.stringify(fw)).digest('hex');
}

function assertFirewallDigest(fw: FirewallState, req: ApiRequest): void {
  const digest = req.params.digest as string | undefined;
  if (digest !== undefined && digest !== firewallDigest(fw)) {
    throw die('detected modified configuration - file changed by other user? Try again.');
  }
}
