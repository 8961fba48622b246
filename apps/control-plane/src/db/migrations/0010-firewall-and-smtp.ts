import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // A customer's firewall rulesets; (id, organization_id) is unique so that rules can refer to both.
    sql`CREATE TABLE firewall_rulesets (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id),
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT firewall_rulesets_name UNIQUE (organization_id, name),
      CONSTRAINT firewall_rulesets_tenant UNIQUE (id, organization_id)
    )`,
    // Named sets of CIDR prefixes (canonical spelling) that rules refer to.
    sql`CREATE TABLE firewall_address_groups (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id),
      name text NOT NULL,
      prefixes text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT firewall_address_groups_name UNIQUE (organization_id, name)
    )`,
    // A rule as the API takes it (jsonb), matched in position order within its direction; positions are
    // dense from 0. The unique constraint is checked at commit, so that a move can renumber in any order.
    // vm_tags (every tag the rule names) finds the rules a VM's tags matter to.
    sql`CREATE TABLE firewall_rules (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      ruleset_id uuid NOT NULL,
      organization_id uuid NOT NULL,
      direction text NOT NULL
        CHECK (direction IN ('FIREWALL_DIRECTION_INGRESS', 'FIREWALL_DIRECTION_EGRESS')),
      position integer NOT NULL CHECK (position >= 0),
      rule jsonb NOT NULL,
      vm_tags text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (ruleset_id, organization_id) REFERENCES firewall_rulesets (id, organization_id)
        ON DELETE CASCADE,
      CONSTRAINT firewall_rules_position UNIQUE (ruleset_id, direction, position) DEFERRABLE INITIALLY DEFERRED
    )`,
    sql`CREATE INDEX firewall_rules_organization ON firewall_rules (organization_id)`,
    // Which address groups each rule names: a group cannot be deleted while a rule names it.
    sql`CREATE TABLE firewall_rule_address_groups (
      rule_id uuid NOT NULL REFERENCES firewall_rules (id) ON DELETE CASCADE,
      address_group_id uuid NOT NULL REFERENCES firewall_address_groups (id),
      PRIMARY KEY (rule_id, address_group_id)
    )`,
    sql`CREATE INDEX firewall_rule_address_groups_group ON firewall_rule_address_groups (address_group_id)`,
    // At most one ruleset per VM.
    sql`CREATE TABLE firewall_attachments (
      vm_id uuid PRIMARY KEY REFERENCES virtual_machines (id) ON DELETE CASCADE,
      ruleset_id uuid NOT NULL REFERENCES firewall_rulesets (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE INDEX firewall_attachments_ruleset ON firewall_attachments (ruleset_id)`,
    // A provider's outbound SMTP default; no row: blocked.
    sql`CREATE TABLE outbound_smtp_defaults (
      organization_id uuid PRIMARY KEY REFERENCES organizations (id),
      block_by_default boolean NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    // A provider's decision for one VM; no row: the VM inherits the default.
    sql`CREATE TABLE outbound_smtp_vm_policies (
      vm_id uuid PRIMARY KEY REFERENCES virtual_machines (id) ON DELETE CASCADE,
      action text NOT NULL
        CHECK (action IN ('SMTP_OUTBOUND_VM_ACTION_ALLOW', 'SMTP_OUTBOUND_VM_ACTION_BLOCK')),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
  ]);
}
