import { sql } from 'kysely';

import { newGeneration } from '../../db/new-generation.js';
import type { Db } from '../../db/database.js';

export interface NewConsoleSession {
  readonly id: string;
  readonly vmId: string;
  readonly clientOrganizationId: string;
  readonly agentId: string;
  readonly objectName: string;
  readonly tokenHash: Uint8Array;
}

/** Where a console session is on its way: what the dispatcher and the operator have said so far. */
export interface ConsoleSessionState {
  readonly id: string;
  /** The operator's VNCRequest phase: `Pending`, `Ready`, `Expired`, `Failed`, or '' before it spoke. */
  readonly phase: string;
  readonly message: string;
  /** Why the dispatcher could not reach the agent cluster; '' when it could. */
  readonly dispatchError: string;
  readonly ticketCiphertext: string | null;
  readonly passwordCiphertext: string | null;
  readonly expiresAt: Date | null;
  readonly finished: boolean;
}

export class VmConsoleRepository {
  constructor(private readonly db: Db) {}

  async insert(session: NewConsoleSession): Promise<void> {
    await this.db
      .insertInto('vm_console_sessions')
      .values({
        id: session.id,
        vm_id: session.vmId,
        client_organization_id: session.clientOrganizationId,
        agent_id: session.agentId,
        object_name: session.objectName,
        token_hash: session.tokenHash,
        updated_at: sql<Date>`now()`,
      })
      .execute();
  }

  async find(id: string): Promise<ConsoleSessionState | undefined> {
    const row = await this.db
      .selectFrom('vm_console_sessions')
      .select([
        'id',
        'observed_phase',
        'observed_message',
        'dispatch_error',
        'ticket_ciphertext',
        'password_ciphertext',
        'expires_at',
        'deleted_at',
      ])
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        phase: row.observed_phase,
        message: row.observed_message,
        dispatchError: row.dispatch_error,
        ticketCiphertext: row.ticket_ciphertext,
        passwordCiphertext: row.password_ciphertext,
        expiresAt: row.expires_at,
        finished: row.deleted_at !== null,
      }
    );
  }

  /** The session is given up: its VNCRequest is to be deleted. */
  async withdraw(id: string): Promise<void> {
    await this.db
      .updateTable('vm_console_sessions')
      .set({
        desired_state: 'ABSENT',
        ...newGeneration(),
      })
      .where('id', '=', id)
      .where('desired_state', '=', 'PRESENT')
      .where('deleted_at', 'is', null)
      .execute();
  }
}
