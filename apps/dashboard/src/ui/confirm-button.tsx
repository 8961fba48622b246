import { useId, useRef, useState, type ReactNode } from 'react';

import { messageOf } from '../api/api-error.js';

/**
 * A button that asks before it acts, in a modal dialog (the native <dialog>: focus moves into it, Escape
 * cancels, focus returns to the button). The dialog stays open with the error when the action fails.
 */
export function ConfirmButton({
  children,
  label,
  title,
  body,
  confirmLabel,
  onConfirm,
  className = 'button-danger',
  disabled,
}: {
  readonly children: ReactNode;
  /** The button's accessible name when its text alone is ambiguous ("Delete" in a table row). */
  readonly label?: string;
  readonly title: string;
  readonly body: ReactNode;
  readonly confirmLabel: string;
  readonly onConfirm: () => Promise<unknown>;
  readonly className?: string;
  readonly disabled?: boolean;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();
  const titleId = useId();

  const close = () => {
    dialogRef.current?.close();
    setError(undefined);
  };

  const confirm = async () => {
    setPending(true);
    setError(undefined);
    try {
      await onConfirm();
      dialogRef.current?.close();
    } catch (e: unknown) {
      setError(e);
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={label}
        disabled={disabled}
        onClick={() => {
          dialogRef.current?.showModal();
          // The safe choice takes focus, so Enter on a dialog opened by mistake destroys nothing.
          cancelRef.current?.focus();
        }}
      >
        {children}
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        className="dialog"
        onClose={() => {
          setError(undefined);
        }}
      >
        <h2 id={titleId}>{title}</h2>
        <div className="dialog-body">{body}</div>
        {error !== undefined && (
          <p className="form-error" role="alert">
            {messageOf(error)}
          </p>
        )}
        <div className="dialog-actions">
          <button
            type="button"
            className="button-danger"
            disabled={pending}
            onClick={() => {
              void confirm();
            }}
          >
            {pending ? 'Working…' : confirmLabel}
          </button>
          <button type="button" className="button-secondary" onClick={close} ref={cancelRef}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
