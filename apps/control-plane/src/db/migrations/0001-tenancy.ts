import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    sql`CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL UNIQUE CHECK (email = lower(email)),
      password_hash text NOT NULL,
      is_staff boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE TABLE organizations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      type text NOT NULL CHECK (type IN ('ORGANIZATION_TYPE_PROVIDER', 'ORGANIZATION_TYPE_CLIENT')),
      is_verified boolean NOT NULL DEFAULT false,
      verified_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE TABLE memberships (
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, user_id)
    )`,
    sql`CREATE INDEX memberships_user ON memberships (user_id, created_at)`,
    sql`CREATE TABLE service_accounts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      role text NOT NULL CHECK (role IN ('admin', 'member')),
      is_active boolean NOT NULL DEFAULT true,
      allowed_ips text[] NOT NULL DEFAULT '{}',
      last_used_at timestamptz,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE UNIQUE INDEX service_accounts_name ON service_accounts (organization_id, name) WHERE deleted_at IS NULL`,
    sql`CREATE TABLE access_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      token_hash bytea NOT NULL UNIQUE,
      kind text NOT NULL CHECK (kind IN ('session', 'service_account', 'agent')),
      user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      service_account_id uuid REFERENCES service_accounts (id) ON DELETE CASCADE,
      agent_id uuid,
      organization_id uuid REFERENCES organizations (id) ON DELETE CASCADE,
      name text,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      last_used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((kind = 'session') = (user_id IS NOT NULL)),
      CHECK ((kind = 'service_account') = (service_account_id IS NOT NULL)),
      CHECK ((kind = 'agent') = (agent_id IS NOT NULL))
    )`,
    sql`CREATE INDEX access_tokens_service_account ON access_tokens (service_account_id) WHERE service_account_id IS NOT NULL`,
    sql`CREATE TABLE login_attempts (
      id bigserial PRIMARY KEY,
      email text NOT NULL,
      ip text NOT NULL,
      succeeded boolean NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE INDEX login_attempts_email ON login_attempts (email, created_at)`,
    sql`CREATE INDEX login_attempts_ip ON login_attempts (ip, created_at)`,
    sql`CREATE TABLE secrets (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      key text NOT NULL,
      ciphertext text NOT NULL,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, key)
    )`,
    sql`CREATE TABLE environment_variables (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      key text NOT NULL,
      value text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, key)
    )`,
    sql`CREATE TABLE ssh_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name text NOT NULL,
      public_key text NOT NULL,
      key_type text NOT NULL,
      fingerprint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, fingerprint)
    )`,
    sql`CREATE TABLE audit_events (
      id bigserial PRIMARY KEY,
      organization_id uuid,
      actor_kind text NOT NULL,
      actor_id uuid,
      action text NOT NULL,
      target_type text,
      target_id text,
      status_code integer NOT NULL,
      request_id text NOT NULL,
      ip text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE INDEX audit_events_organization ON audit_events (organization_id, id DESC)`,
  ]);
}
