import type { Migration } from 'kysely/migration';

import * as tenancy from './0001-tenancy.js';
import * as infrastructure from './0002-infrastructure.js';
import * as ipam from './0003-ipam.js';
import * as templates from './0004-templates.js';
import * as plans from './0005-plans.js';
import * as placement from './0006-placement.js';
import * as ipAllocationOrdinal from './0007-ip-allocation-ordinal.js';
import * as preflight from './0008-preflight.js';
import * as virtualMachines from './0009-virtual-machines.js';
import * as firewallAndSmtp from './0010-firewall-and-smtp.js';
import * as snapshotsBackupsConsole from './0011-snapshots-backups-console.js';
import * as vmReinstall from './0012-vm-reinstall.js';
import * as metrics from './0013-metrics.js';
import * as fleet from './0014-fleet.js';
import * as accountSecurity from './0015-account-security.js';
import * as prefixAddressSpace from './0016-prefix-address-space.js';
import * as orderRefusalsAndPlanRegions from './0017-order-refusals-and-plan-regions.js';
import * as proxmoxInventoryAndOrderFailures from './0018-proxmox-inventory-and-order-failures.js';
import * as orderCloudInitRequest from './0019-order-cloud-init-request.js';
import * as deviceAuthorization from './0020-device-authorization.js';

/** Every migration, by name; names sort in the order they run. Never edit one that has shipped: add another. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-tenancy': { up: tenancy.up },
  '0002-infrastructure': { up: infrastructure.up },
  '0003-ipam': { up: ipam.up },
  '0004-templates': { up: templates.up },
  '0005-plans': { up: plans.up },
  '0006-placement': { up: placement.up },
  '0007-ip-allocation-ordinal': { up: ipAllocationOrdinal.up },
  '0008-preflight': { up: preflight.up },
  '0009-virtual-machines': { up: virtualMachines.up },
  '0010-firewall-and-smtp': { up: firewallAndSmtp.up },
  '0011-snapshots-backups-console': { up: snapshotsBackupsConsole.up },
  '0012-vm-reinstall': { up: vmReinstall.up },
  '0013-metrics': { up: metrics.up },
  '0014-fleet': { up: fleet.up },
  '0015-account-security': { up: accountSecurity.up },
  '0016-prefix-address-space': { up: prefixAddressSpace.up },
  '0017-order-refusals-and-plan-regions': { up: orderRefusalsAndPlanRegions.up },
  '0018-proxmox-inventory-and-order-failures': { up: proxmoxInventoryAndOrderFailures.up },
  '0019-order-cloud-init-request': { up: orderCloudInitRequest.up },
  '0020-device-authorization': { up: deviceAuthorization.up },
};
