import type { Command } from '../command.js';
import { agentCreate } from './agent-create.js';
import { agentDelete } from './agent-delete.js';
import { agentGet } from './agent-get.js';
import { agentList } from './agent-list.js';
import { agentUpdate } from './agent-update.js';
import { authSetToken } from './auth-set-token.js';
import { authStatus } from './auth-status.js';
import { clusterDeregister } from './cluster-deregister.js';
import { clusterHealth } from './cluster-health.js';
import { clusterInfo } from './cluster-info.js';
import { clusterLogs } from './cluster-logs.js';
import { clusterManifests } from './cluster-manifests.js';
import { clusterRegister } from './cluster-register.js';
import { clusterStatus } from './cluster-status.js';
import { clusterVerify } from './cluster-verify.js';
import { login } from './login.js';
import { logout } from './logout.js';

/** Every command, in the order the usage text lists them. */
export const COMMANDS: readonly Command[] = [
  login,
  authSetToken,
  authStatus,
  logout,
  agentCreate,
  agentList,
  agentGet,
  agentUpdate,
  agentDelete,
  clusterRegister,
  clusterStatus,
  clusterInfo,
  clusterHealth,
  clusterLogs,
  clusterVerify,
  clusterManifests,
  clusterDeregister,
];
