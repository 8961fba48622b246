import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';

import { fieldErrorsOf } from '../../api/api-error.js';
import type { HypervisorNode, Platform, Region } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { focusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { FormError } from '../../ui/form-error.js';
import { SelectField, TextField } from '../../ui/form-field.js';
import { hasErrors, type FieldErrors } from '../../ui/form-validation.js';
import { Section } from '../../ui/page.js';
import { providerKeys } from '../provider-queries.js';
import { NEW_NODE, nodeRequest, validateNode, type NodeValues } from './node-form.js';

const FIELDS = Object.keys(NEW_NODE);

export function AddNodeForm({
  platforms,
  regions,
}: {
  readonly platforms: readonly Platform[];
  readonly regions: readonly Region[];
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<NodeValues>(NEW_NODE);
  const [errors, setErrors] = useState<FieldErrors>({});
  const add = useMutation({
    mutationFn: (body: ReturnType<typeof nodeRequest>) =>
      api.post<{ node: HypervisorNode }>('/v1/node', body),
    onSuccess: async ({ node }) => {
      announce(`Node ${node.name} added. Its inventory appears with the next metrics.`);
      setValues({ ...NEW_NODE, platformId: values.platformId, regionId: values.regionId });
      await queryClient.invalidateQueries({ queryKey: providerKeys.nodes });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validateNode(values);
    setErrors(found);
    if (hasErrors(found)) {
      // The provisioning settings may be folded away; open them so the invalid field can take focus.
      formRef.current?.querySelector('details')?.setAttribute('open', '');
      focusFirstInvalid(formRef.current);
    } else add.mutate(nodeRequest(values));
  };
  const apiErrors = fieldErrorsOf(add.error);
  const field = (
    key: keyof NodeValues,
    label: string,
    extra: { hint?: string; inputMode?: 'numeric' } = {},
  ) => (
    <TextField
      label={label}
      value={values[key]}
      onChange={(e) => {
        setValues({ ...values, [key]: e.target.value });
      }}
      error={errors[key] ?? apiErrors[key]}
      spellCheck={false}
      {...extra}
    />
  );
  return (
    <Section title="Add a node" id="add-node">
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Add node">
        <FormError error={add.error} fields={FIELDS} />
        <SelectField
          label="Platform"
          value={values.platformId}
          placeholder={platforms.length === 0 ? 'Create a platform first' : 'Choose a platform'}
          options={platforms.map((p) => ({ value: p.id, label: p.name }))}
          onChange={(e) => {
            setValues({ ...values, platformId: e.target.value });
          }}
          error={errors.platformId ?? apiErrors.platformId}
          required
        />
        {field('name', 'Node name', { hint: 'Exactly as Proxmox shows it (pvesh get /nodes).' })}
        <SelectField
          label="Region"
          value={values.regionId}
          placeholder={regions.length === 0 ? 'Create a region first' : 'Choose a region'}
          options={regions.map((r) => ({
            value: r.id,
            label: `${r.cityCountry.cityName}, ${r.cityCountry.countryName} (${r.datacenter.name})`,
          }))}
          onChange={(e) => {
            setValues({ ...values, regionId: e.target.value });
          }}
          error={errors.regionId ?? apiErrors.regionId}
          required
        />
        {field('vmStorageDestination', 'VM disk storage', {
          hint: 'A Proxmox storage ID such as local-lvm.',
        })}
        {field('backupStorageDestination', 'Backup storage', { hint: 'A Proxmox storage ID such as local.' })}
        <SelectField
          label="Backup compression"
          value={values.backupStorageCompression}
          options={[
            { value: 'BACKUP_STORAGE_COMPRESSION_NONE', label: 'None' },
            { value: 'BACKUP_STORAGE_COMPRESSION_LZO', label: 'LZO' },
            { value: 'BACKUP_STORAGE_COMPRESSION_GZIP', label: 'Gzip' },
            { value: 'BACKUP_STORAGE_COMPRESSION_ZSTD', label: 'Zstd' },
          ]}
          onChange={(e) => {
            setValues({ ...values, backupStorageCompression: e.target.value });
          }}
        />
        {field('vmidSeed', 'VMID seed', {
          hint: 'The first VM ID for customer VMs on this node.',
          inputMode: 'numeric',
        })}
        <SelectField
          label="Compute type"
          value={values.computeType}
          options={[
            { value: 'NODE_COMPUTE_TYPE_SHARED', label: 'Shared' },
            { value: 'NODE_COMPUTE_TYPE_DEDICATED', label: 'Dedicated (CPU is never oversold)' },
          ]}
          onChange={(e) => {
            setValues({ ...values, computeType: e.target.value });
          }}
        />
        {field('cpuOverallocatePercent', 'CPU overallocation (%)', { inputMode: 'numeric' })}
        {field('memoryOverallocatePercent', 'Memory overallocation (%)', { inputMode: 'numeric' })}
        {field('storageOverallocatePercent', 'Storage overallocation (%)', { inputMode: 'numeric' })}
        <details>
          <summary>VM provisioning settings</summary>
          {field('networkBridge', 'Network bridge')}
          {field('networkName', 'Net device')}
          <SelectField
            label="NIC model"
            value={values.networkModel}
            options={['virtio', 'e1000', 'rtl8139', 'vmxnet3'].map((m) => ({ value: m, label: m }))}
            onChange={(e) => {
              setValues({ ...values, networkModel: e.target.value });
            }}
          />
          {field('networkVlanId', 'VLAN ID', { hint: '0 for untagged.', inputMode: 'numeric' })}
          {field('macAddressPrefix', 'MAC prefix')}
          {field('proxmoxCpuType', 'Proxmox CPU type')}
        </details>
        <button type="submit" disabled={add.isPending}>
          Add node
        </button>
      </form>
    </Section>
  );
}
