import type { Db } from '../../db/database.js';

/** Why an agent credential was minted, recorded as the access token's name. */
export type AgentCredentialPurpose = 'install' | 'peering';

export interface NewAgentCredential {
  readonly tokenHash: Buffer;
  readonly expiresAt: Date;
  readonly purpose: AgentCredentialPurpose;
}

/** Install tokens and the agent-scoped access tokens they turn into. Only token hashes are stored. */
export class AgentTokenRepository {
  constructor(private readonly db: Db) {}

  async insertInstallToken(input: {
    agentId: string;
    tokenHash: Buffer;
    expiresAt: Date;
    now: Date;
  }): Promise<void> {
    await this.db
      .insertInto('install_tokens')
      .values({
        agent_id: input.agentId,
        token_hash: input.tokenHash,
        expires_at: input.expiresAt,
        created_at: input.now,
      })
      .execute();
  }

  /**
   * Spends an install token and mints the agent's credential, all or nothing. The token is claimed by a
   * single conditional UPDATE, so of two concurrent redeems exactly one finds it unused. Undefined (and
   * nothing written) when the token is unknown, another agent's, expired or already used.
   */
  async redeemInstallToken(input: {
    agentId: string;
    installTokenHash: Buffer;
    now: Date;
    credential: NewAgentCredential;
  }): Promise<{ organizationId: string } | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const claimed = await tx
        .updateTable('install_tokens')
        .set({ used_at: input.now })
        .where('token_hash', '=', input.installTokenHash)
        .where('agent_id', '=', input.agentId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', input.now)
        .returning('agent_id')
        .executeTakeFirst();
      if (claimed === undefined) return undefined;
      const agent = await tx
        .selectFrom('agents')
        .select('organization_id')
        .where('id', '=', input.agentId)
        .executeTakeFirstOrThrow();
      await insertCredential(tx, {
        agentId: input.agentId,
        organizationId: agent.organization_id,
        now: input.now,
        ...input.credential,
      });
      return { organizationId: agent.organization_id };
    });
  }

  async insertAgentCredential(
    input: NewAgentCredential & { agentId: string; organizationId: string; now: Date },
  ): Promise<void> {
    await insertCredential(this.db, input);
  }
}

async function insertCredential(
  db: Db,
  input: NewAgentCredential & { agentId: string; organizationId: string; now: Date },
): Promise<void> {
  await db
    .insertInto('access_tokens')
    .values({
      kind: 'agent',
      agent_id: input.agentId,
      organization_id: input.organizationId,
      name: `agent-${input.purpose}`,
      token_hash: input.tokenHash,
      expires_at: input.expiresAt,
      created_at: input.now,
    })
    .execute();
}
