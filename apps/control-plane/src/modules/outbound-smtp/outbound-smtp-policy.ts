/** What a provider decided for one VM's outbound SMTP; INHERIT follows the provider's default. */
export const SMTP_OUTBOUND_VM_ACTIONS = [
  'SMTP_OUTBOUND_VM_ACTION_INHERIT',
  'SMTP_OUTBOUND_VM_ACTION_ALLOW',
  'SMTP_OUTBOUND_VM_ACTION_BLOCK',
] as const;
export type SmtpOutboundVmAction = (typeof SMTP_OUTBOUND_VM_ACTIONS)[number];

/** A provider that never chose blocks: spam from a new VM is the provider's abuse risk. */
export const BLOCK_BY_DEFAULT = true;

/** Whether the VM's outbound SMTP (TCP 25, 465, 587) is dropped (DESIGN §3.3). */
export function effectiveSmtpBlocked(blockByDefault: boolean, action: SmtpOutboundVmAction): boolean {
  switch (action) {
    case 'SMTP_OUTBOUND_VM_ACTION_ALLOW':
      return false;
    case 'SMTP_OUTBOUND_VM_ACTION_BLOCK':
      return true;
    case 'SMTP_OUTBOUND_VM_ACTION_INHERIT':
      return blockByDefault;
  }
}
