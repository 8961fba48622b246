import type { FirewallRule as RuleSetRule } from '@noderings/kube';
import type { FirewallRuleParams } from '@noderings/proxmox';

/** Every rule the operator writes carries a comment starting with this, so a foreign rule stands out. */
const MANAGED_COMMENT_PREFIX = 'nr:';

const SMTP_PORTS = '25,465,587';

/** Outbound SMTP, submission and SMTPS dropped: the rule every VM gets unless `smtpBlocked` is false. */
const SMTP_BLOCK_RULE: FirewallRuleParams = {
  type: 'out',
  action: 'DROP',
  enable: true,
  proto: 'tcp',
  dport: SMTP_PORTS,
  comment: `${MANAGED_COMMENT_PREFIX}smtp-block`,
};

export interface FirewallIntent {
  smtpBlocked: boolean;
  /** The referenced FirewallRuleSet's name and rules, when there is one to apply. */
  ruleSet?: { name: string; rules: readonly RuleSetRule[] };
}

/** The VM firewall's rules from top to bottom: the SMTP block first, then the ruleset's, in order. */
export function desiredFirewallRules(intent: FirewallIntent): FirewallRuleParams[] {
  const rules = intent.smtpBlocked ? [SMTP_BLOCK_RULE] : [];
  const { ruleSet } = intent;
  if (ruleSet !== undefined) rules.push(...ruleSet.rules.map((r, i) => compileRule(r, ruleSet.name, i)));
  return rules;
}

/** One ruleset rule as Proxmox takes it: CIDR lists joined by commas, ports with their protocol. */
export function compileRule(rule: RuleSetRule, ruleSetName: string, index: number): FirewallRuleParams {
  const label = `${MANAGED_COMMENT_PREFIX}${ruleSetName}#${index + 1}`;
  const comment = rule.comment?.trim();
  const params: FirewallRuleParams = {
    type: rule.direction,
    action: rule.action,
    enable: true,
    comment: comment === undefined || comment === '' ? label : `${label} ${comment}`,
  };
  if (rule.protocol !== undefined) params.proto = rule.protocol;
  if (rule.destinationPorts !== undefined) params.dport = rule.destinationPorts;
  if (rule.sourcePorts !== undefined) params.sport = rule.sourcePorts;
  const source = joinList(rule.sources);
  if (source !== undefined) params.source = source;
  const dest = joinList(rule.destinations);
  if (dest !== undefined) params.dest = dest;
  return params;
}

function joinList(cidrs: readonly string[] | undefined): string | undefined {
  return cidrs === undefined || cidrs.length === 0 ? undefined : cidrs.join(',');
}
