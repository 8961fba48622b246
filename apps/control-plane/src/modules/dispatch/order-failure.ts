/**
 * The reasons the operator gives for failing an order for good (its condition reasons, see
 * apps/operator/src/error-mapping.ts), and whether each is tied to the node the order was placed on: such
 * an order is placed once on another node. The others would fail anywhere, or are
 * about the whole Proxmox instance or what the control plane sent. A reason not listed is not node-tied.
 */
const TERMINAL_REASONS: Readonly<Record<string, { readonly nodeTied: boolean }>> = {
  // Proxmox has no such node (any more).
  NodeNotFound: { nodeTied: true },
  // The template registered for the node is not on it (deleted since the inventory was read).
  TemplateNotFound: { nodeTied: true },
  // The node's VM storage, or any storage for the cloud-init seed, is not there.
  StorageNotFound: { nodeTied: true },
  NoIsoStorage: { nodeTied: true },
  // A guest NodeRings did not create holds the VMID there; the move takes another VMID.
  VmidConflict: { nodeTied: true },
  // Proxmox refused the clone or the config there: what the spec takes from the node (storage, bridge,
  // CPU type) is the likeliest cause. Sizes it refuses fail on the other node too, and that is final.
  ProxmoxRejectedSpec: { nodeTied: true },
  // The operator's options, or the Proxmox instance as a whole: every node behind it fails alike.
  InvalidOptions: { nodeTied: false },
  InstanceNotFound: { nodeTied: false },
  InstanceInvalid: { nodeTied: false },
  // What the control plane sent: the same on any node.
  CloudInitSecretNotFound: { nodeTied: false },
  CloudInitSecretInvalid: { nodeTied: false },
  VmidOutOfRange: { nodeTied: false },
};

export function isNodeTiedFailure(reason: string): boolean {
  return Object.hasOwn(TERMINAL_REASONS, reason) && TERMINAL_REASONS[reason]?.nodeTied === true;
}
