/**
 * NATS subjects of the fleet transport. An agent publishes under `fleet.<its nkey public key>.<kind>`;
 * its NATS user JWT allows exactly that prefix, so a subject names its publisher and no agent can speak
 * for another. The control plane maps the key back to the agent record it currently belongs to.
 */

/** The JetStream stream that keeps every fleet message until the control plane has stored it. */
export const FLEET_STREAM = 'FLEET';
/** The durable consumer the control plane's replicas share (each message goes to one of them). */
export const FLEET_CONSUMER = 'control-plane';

export const MESSAGE_KINDS = ['heartbeat', 'metrics', 'logs'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

const USER_PUBLIC_KEY = /^U[A-Z2-7]{55}$/;

export function isUserPublicKey(value: string): boolean {
  return USER_PUBLIC_KEY.test(value);
}

export function fleetSubject(publicKey: string, kind: MessageKind): string {
  return `fleet.${publicKey}.${kind}`;
}

/** Everything an agent may publish to. */
export function agentPublishPermission(publicKey: string): string {
  return `fleet.${publicKey}.>`;
}

/** An agent's private reply inbox (for JetStream publish acknowledgements); nobody else may read it. */
export function agentInboxPrefix(publicKey: string): string {
  return `_INBOX_${publicKey}`;
}

export interface FleetSubject {
  readonly publicKey: string;
  readonly kind: MessageKind;
}

/** The publisher and kind of a fleet subject, or undefined for anything else. */
export function parseFleetSubject(subject: string): FleetSubject | undefined {
  const parts = subject.split('.');
  if (parts.length !== 3 || parts[0] !== 'fleet') return undefined;
  const [, publicKey = '', kind = ''] = parts;
  if (!isUserPublicKey(publicKey)) return undefined;
  const known = MESSAGE_KINDS.find((k) => k === kind);
  return known === undefined ? undefined : { publicKey, kind: known };
}
