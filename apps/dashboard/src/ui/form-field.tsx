import { useId, type ComponentProps, type ReactNode } from 'react';

interface FieldFrame {
  readonly label: ReactNode;
  readonly error?: string | undefined;
  readonly hint?: ReactNode;
}

/** The ids that tie a control to its hint and error, for aria-describedby. */
function useFieldIds(hint: ReactNode, error: string | undefined) {
  const id = useId();
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  const errorId = error === undefined ? undefined : `${id}-error`;
  const describedBy = [hintId, errorId].filter((x) => x !== undefined).join(' ') || undefined;
  return { id, hintId, errorId, describedBy };
}

function FieldNotes(props: {
  readonly hint: ReactNode;
  readonly hintId: string | undefined;
  readonly error: string | undefined;
  readonly errorId: string | undefined;
}) {
  return (
    <>
      {props.hint !== undefined && (
        <p id={props.hintId} className="field-hint">
          {props.hint}
        </p>
      )}
      {props.error !== undefined && (
        <p id={props.errorId} className="field-error">
          {props.error}
        </p>
      )}
    </>
  );
}

export function TextField({ label, error, hint, ...input }: FieldFrame & ComponentProps<'input'>) {
  const ids = useFieldIds(hint, error);
  return (
    <div className="field">
      <label htmlFor={ids.id}>{label}</label>
      <input
        id={ids.id}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={ids.describedBy}
        {...input}
      />
      <FieldNotes hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}

export function TextAreaField({ label, error, hint, ...textarea }: FieldFrame & ComponentProps<'textarea'>) {
  const ids = useFieldIds(hint, error);
  return (
    <div className="field">
      <label htmlFor={ids.id}>{label}</label>
      <textarea
        id={ids.id}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={ids.describedBy}
        {...textarea}
      />
      <FieldNotes hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}

export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

export function SelectField({
  label,
  error,
  hint,
  options,
  placeholder,
  ...select
}: FieldFrame &
  ComponentProps<'select'> & { readonly options: readonly SelectOption[]; readonly placeholder?: string }) {
  const ids = useFieldIds(hint, error);
  return (
    <div className="field">
      <label htmlFor={ids.id}>{label}</label>
      <select
        id={ids.id}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={ids.describedBy}
        {...select}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}

export function CheckboxField({
  label,
  error,
  hint,
  ...input
}: FieldFrame & Omit<ComponentProps<'input'>, 'type'>) {
  const ids = useFieldIds(hint, error);
  return (
    <div className="field field-checkbox">
      <input
        id={ids.id}
        type="checkbox"
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={ids.describedBy}
        {...input}
      />
      <label htmlFor={ids.id}>{label}</label>
      <FieldNotes hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}
