import { useId } from 'react';

import type { OrganizationType } from '../api/api-resources.js';

const CHOICES: readonly { value: OrganizationType; label: string; hint: string }[] = [
  {
    value: 'ORGANIZATION_TYPE_CLIENT',
    label: 'Customer: I buy VMs',
    hint: 'Compare plans from many providers and run your VMs in one place.',
  },
  {
    value: 'ORGANIZATION_TYPE_PROVIDER',
    label: 'Provider: I sell VMs',
    hint: 'Connect your Proxmox infrastructure and list plans on the marketplace.',
  },
];

/** Provider or customer, as radio buttons in a named group. */
export function OrganizationTypeChoice({
  value,
  onChange,
  error,
}: {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error?: string | undefined;
}) {
  const id = useId();
  return (
    <fieldset
      className="field choice-group"
      aria-invalid={error === undefined ? undefined : true}
      aria-describedby={error === undefined ? undefined : `${id}-error`}
    >
      <legend>Organisation type</legend>
      {CHOICES.map((choice) => (
        <div key={choice.value} className="choice">
          <input
            type="radio"
            id={`${id}-${choice.value}`}
            name={`${id}-organization-type`}
            value={choice.value}
            checked={value === choice.value}
            onChange={() => {
              onChange(choice.value);
            }}
            aria-describedby={`${id}-${choice.value}-hint`}
          />
          <label htmlFor={`${id}-${choice.value}`}>{choice.label}</label>
          <p className="field-hint" id={`${id}-${choice.value}-hint`}>
            {choice.hint}
          </p>
        </div>
      ))}
      {error !== undefined && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
