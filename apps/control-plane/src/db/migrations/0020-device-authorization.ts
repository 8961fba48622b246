import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // A device's request to sign a user in (RFC 8628): the device polls with its device code (only its
    // SHA-256 is kept) while the user enters the user code in the dashboard and approves or denies it.
    sql`CREATE TABLE device_authorizations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      device_code_hash bytea NOT NULL UNIQUE,
      user_code text NOT NULL,
      client_id text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'redeemed')),
      user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      interval_seconds integer NOT NULL,
      last_polled_at timestamptz,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status IN ('approved', 'redeemed')) = (user_id IS NOT NULL) OR status = 'denied')
    )`,
    // A user code names one request while it can still be approved.
    sql`CREATE UNIQUE INDEX device_authorizations_pending_user_code ON device_authorizations (user_code)
      WHERE status = 'pending'`,
    // What lets a device get a new access token without the user: rotated on every use, revoked with its
    // session. Only the SHA-256 is kept.
    sql`CREATE TABLE refresh_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      token_hash bytea NOT NULL UNIQUE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      client_id text NOT NULL,
      access_token_id uuid NOT NULL REFERENCES access_tokens (id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE INDEX refresh_tokens_access_token ON refresh_tokens (access_token_id)`,
  ]);
}
