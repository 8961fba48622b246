import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db } from '../../db/database.js';
import { BackupDispatch } from './backup-dispatch.js';
import { ConsoleDispatch } from './console-dispatch.js';
import type { ResourceKind } from './resource-kind.js';
import { SnapshotDispatch } from './snapshot-dispatch.js';

/** Every kind of a VM's resources the dispatcher carries to the VM's agent cluster besides the VM itself. */
export function vmResourceKinds(db: Db, secretBox: Pick<SecretBox, 'seal'>): ResourceKind[] {
  return [new SnapshotDispatch(db), new BackupDispatch(db), new ConsoleDispatch(db, secretBox)];
}
