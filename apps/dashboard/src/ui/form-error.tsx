import { ApiError, fieldErrorsOf, isUnder, messageOf } from '../api/api-error.js';

/**
 * A refused submission's message (role=alert), plus any field violation the form has no input for, so
 * nothing the API said is lost. Fields with an input show their violation beside it.
 */
export function FormError({
  error,
  fields = [],
  within,
}: {
  readonly error: unknown;
  /** The field paths the form shows next to its inputs. */
  readonly fields?: readonly string[];
  readonly within?: string;
}) {
  if (error === null || error === undefined) return null;
  const unplaced =
    error instanceof ApiError
      ? Object.entries(fieldErrorsOf(error, within)).filter(
          ([field]) => !fields.some((shown) => isUnder(field, shown)),
        )
      : [];
  return (
    <div className="form-error" role="alert">
      <p>{messageOf(error)}</p>
      {unplaced.length > 0 && (
        <ul>
          {unplaced.map(([field, description]) => (
            <li key={field}>
              <code>{field}</code> {description}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
