/**
 * Moves focus to the form's first invalid control once React has marked it, so a keyboard user lands
 * there; an invalid group (a fieldset of radio buttons) hands focus to its first input.
 */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => {
    const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    const target =
      invalid instanceof HTMLFieldSetElement ? invalid.querySelector<HTMLElement>('input') : invalid;
    target?.focus();
  });
}
