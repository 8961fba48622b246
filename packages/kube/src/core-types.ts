import type { KubeObject } from './kube-object.js';

// The few core kinds we use, as JSON on the wire: just the fields we read or write.

export interface Secret extends KubeObject {
  type?: string;
  /** Base64-encoded values. */
  data?: Record<string, string>;
  /** Plain values; write-only (the server folds them into `data`). */
  stringData?: Record<string, string>;
  immutable?: boolean;
}

export interface Namespace extends KubeObject {
  status?: { phase?: 'Active' | 'Terminating' };
}

export interface LeaseSpec {
  holderIdentity?: string | null;
  leaseDurationSeconds?: number | null;
  /** RFC 3339 with microseconds (MicroTime). */
  acquireTime?: string | null;
  renewTime?: string | null;
  leaseTransitions?: number | null;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

/** A core/v1 Event. */
export interface KubeEvent extends KubeObject {
  involvedObject: ObjectReference;
  type?: 'Normal' | 'Warning';
  reason?: string;
  message?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  reportingInstance?: string;
}
