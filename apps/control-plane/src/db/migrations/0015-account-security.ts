import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // Sign-in attempts were counted after the password check, which parallel attempts raced past; the
    // throttle counters below replace them (decided and counted under a row lock).
    sql`DROP TABLE login_attempts`,
    // One counter per throttled key (sign-ins of an account from an address, registrations from an
    // address, …): what modules/auth/attempt-throttle.ts decides from.
    sql`CREATE TABLE auth_throttles (
      scope text NOT NULL,
      key text NOT NULL,
      attempts integer NOT NULL CHECK (attempts >= 0),
      window_started_at timestamptz NOT NULL,
      last_attempt_at timestamptz NOT NULL,
      next_attempt_at timestamptz NOT NULL,
      PRIMARY KEY (scope, key)
    )`,
    sql`CREATE INDEX auth_throttles_last_attempt ON auth_throttles (last_attempt_at)`,
    // Addresses (IPv4, or an IPv6 /64) an account has signed in from: they pass while strangers wait.
    sql`CREATE TABLE sign_in_addresses (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      address text NOT NULL,
      last_signed_in_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, address)
    )`,
    // An organisation's invitation to an email address, accepted or declined by whoever signs in with
    // it. The token's SHA-256 is kept for the emailed link; the token itself is never stored.
    sql`CREATE TABLE invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      email text NOT NULL CHECK (email = lower(email)),
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      token_hash bytea NOT NULL UNIQUE,
      invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
      declined_at timestamptz,
      revoked_at timestamptz,
      CHECK (num_nonnulls(accepted_at, declined_at, revoked_at) <= 1)
    )`,
    // One open invitation per organisation and email: inviting again replaces it.
    sql`CREATE UNIQUE INDEX invitations_open ON invitations (organization_id, email)
      WHERE accepted_at IS NULL AND declined_at IS NULL AND revoked_at IS NULL`,
    sql`CREATE INDEX invitations_invitee ON invitations (email)
      WHERE accepted_at IS NULL AND declined_at IS NULL AND revoked_at IS NULL`,
    sql`CREATE INDEX invitations_organization ON invitations (organization_id, created_at)`,
    // Who acted from which organisation, and through which route: for attempts recorded in the log of
    // the organisation whose object another organisation named.
    sql`ALTER TABLE audit_events ADD COLUMN actor_organization_id uuid`,
    sql`ALTER TABLE audit_events ADD COLUMN route text`,
  ]);
}
