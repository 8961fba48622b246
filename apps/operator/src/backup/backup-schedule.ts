/** `<vm>-YYYYMMDD-HHMM` (UTC): one name per slot, so a slot never gets two backups. */
export function scheduledBackupName(vmName: string, run: Date): string {
  const stamp = run.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `${vmName}-${stamp}`;
}
