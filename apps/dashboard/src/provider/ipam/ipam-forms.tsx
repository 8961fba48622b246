import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';

import { errorAt, fieldErrorsOf } from '../../api/api-error.js';
import type { IpamNetwork, IpamPrefix } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { focusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { FormError } from '../../ui/form-error.js';
import { SelectField, TextField } from '../../ui/form-field.js';
import {
  addressList,
  hasErrors,
  integerBetween,
  isAddressOrPrefix,
  listItems,
  maxLength,
  optional,
  required,
  validate,
  type FieldErrors,
} from '../../ui/form-validation.js';
import { Section } from '../../ui/page.js';
import { providerKeys } from '../provider-queries.js';

const EMPTY_NETWORK = { name: '', dnsServers: '', macAddressPrefix: '' };

export function CreateNetworkForm() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(EMPTY_NETWORK);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation({
    mutationFn: (body: { name: string; dnsServers: string[]; macAddressPrefix?: string }) =>
      api.post<{ network: IpamNetwork }>('/v1/ipam/networks', body),
    onSuccess: async ({ network }) => {
      announce(`Network ${network.name} created. Add its prefixes and assign its nodes.`);
      setValues(EMPTY_NETWORK);
      await queryClient.invalidateQueries({ queryKey: providerKeys.networks });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validate(values, {
      name: [required, maxLength(100)],
      dnsServers: [optional(addressList)],
      macAddressPrefix: [
        optional((v) =>
          /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){2}$/.test(v.trim())
            ? undefined
            : 'Use three octets like BC:24:11.',
        ),
      ],
    });
    setErrors(found);
    if (hasErrors(found)) focusFirstInvalid(formRef.current);
    else
      create.mutate({
        name: values.name.trim(),
        dnsServers: listItems(values.dnsServers),
        ...(values.macAddressPrefix.trim() !== '' && {
          macAddressPrefix: values.macAddressPrefix.trim().toUpperCase(),
        }),
      });
  };
  const apiErrors = fieldErrorsOf(create.error);
  return (
    <Section title="Create a network" id="create-network">
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Create network">
        <FormError error={create.error} fields={['name', 'dnsServers', 'macAddressPrefix']} />
        <TextField
          label="Network name"
          value={values.name}
          onChange={(e) => {
            setValues({ ...values, name: e.target.value });
          }}
          error={errors.name ?? apiErrors.name}
          required
        />
        <TextField
          label="DNS servers"
          hint="Addresses separated by commas; VMs get them through cloud-init."
          value={values.dnsServers}
          onChange={(e) => {
            setValues({ ...values, dnsServers: e.target.value });
          }}
          error={errors.dnsServers ?? errorAt(apiErrors, 'dnsServers')}
        />
        <TextField
          label="MAC prefix"
          hint="Optional; empty uses each node's prefix."
          value={values.macAddressPrefix}
          onChange={(e) => {
            setValues({ ...values, macAddressPrefix: e.target.value });
          }}
          error={errors.macAddressPrefix ?? apiErrors.macAddressPrefix}
        />
        <button type="submit" disabled={create.isPending}>
          Create network
        </button>
      </form>
    </Section>
  );
}

const EMPTY_PREFIX = {
  cidr: '',
  gateway: '',
  networkId: '',
  allocationStrategy: 'ALLOCATION_STRATEGY_FIRST_AVAILABLE',
  vmAssignmentPrefixLength: '',
  description: '',
  reservedIps: '',
};

type PrefixValues = typeof EMPTY_PREFIX;

function validatePrefix(values: PrefixValues): FieldErrors {
  return validate(values, {
    cidr: [
      required,
      (v) =>
        isAddressOrPrefix(v.trim()) && v.includes('/') ? undefined : 'Enter a prefix like 192.0.2.0/24.',
    ],
    gateway: [
      required,
      (v) =>
        isAddressOrPrefix(v.trim()) && !v.includes('/') ? undefined : 'Enter an address like 192.0.2.1.',
    ],
    vmAssignmentPrefixLength: [optional(integerBetween(1, 128))],
    description: [maxLength(500)],
    reservedIps: [optional(addressList)],
  });
}

export function CreatePrefixForm({ networks }: { readonly networks: readonly IpamNetwork[] }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(EMPTY_PREFIX);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api.post<{ prefix: IpamPrefix }>('/v1/ipam/prefixes', body),
    onSuccess: async ({ prefix }) => {
      announce(`Prefix ${prefix.cidr} added.`);
      setValues({ ...EMPTY_PREFIX, networkId: values.networkId });
      await queryClient.invalidateQueries({ queryKey: providerKeys.prefixes });
      await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validatePrefix(values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid(formRef.current);
      return;
    }
    create.mutate({
      cidr: values.cidr.trim(),
      gateway: values.gateway.trim(),
      allocationStrategy: values.allocationStrategy,
      networkId: values.networkId === '' ? null : values.networkId,
      ...(values.description.trim() !== '' && { description: values.description.trim() }),
      ...(values.vmAssignmentPrefixLength.trim() !== '' && {
        vmAssignmentPrefixLength: Number(values.vmAssignmentPrefixLength),
      }),
      reservedIps: listItems(values.reservedIps),
    });
  };
  const apiErrors = fieldErrorsOf(create.error);
  const text = (key: keyof PrefixValues, label: string, hint?: string) => (
    <TextField
      label={label}
      hint={hint}
      spellCheck={false}
      value={values[key]}
      onChange={(e) => {
        setValues({ ...values, [key]: e.target.value });
      }}
      error={errors[key] ?? errorAt(apiErrors, key)}
    />
  );
  return (
    <Section title="Add a prefix" id="create-prefix">
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Add prefix">
        <FormError error={create.error} fields={Object.keys(EMPTY_PREFIX)} />
        {text('cidr', 'Prefix (CIDR)', 'Like 192.0.2.0/24 or 2001:db8:100::/48.')}
        {text('gateway', 'Gateway')}
        <SelectField
          label="Network"
          value={values.networkId}
          placeholder="No network yet"
          options={networks.map((n) => ({ value: n.id, label: n.name }))}
          onChange={(e) => {
            setValues({ ...values, networkId: e.target.value });
          }}
          error={apiErrors.networkId}
        />
        <SelectField
          label="Allocation strategy"
          value={values.allocationStrategy}
          options={[
            { value: 'ALLOCATION_STRATEGY_FIRST_AVAILABLE', label: 'First available' },
            { value: 'ALLOCATION_STRATEGY_SEQUENTIAL', label: 'Sequential' },
            { value: 'ALLOCATION_STRATEGY_RANDOM', label: 'Random' },
            { value: 'ALLOCATION_STRATEGY_LAST_AVAILABLE', label: 'Last available' },
          ]}
          onChange={(e) => {
            setValues({ ...values, allocationStrategy: e.target.value });
          }}
        />
        {text(
          'vmAssignmentPrefixLength',
          'Prefix length per VM',
          'IPv6: 64 gives each VM a /64. Empty: single addresses.',
        )}
        {text('reservedIps', 'Reserved addresses', 'Addresses never given to VMs, separated by commas.')}
        {text('description', 'Description')}
        <button type="submit" disabled={create.isPending}>
          Add prefix
        </button>
      </form>
    </Section>
  );
}
