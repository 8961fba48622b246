import { useState } from 'react';

/** Copies a text to the clipboard and says so; the text stays selectable where the clipboard is refused. */
export function CopyButton({ text, label }: { readonly text: string; readonly label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy-button">
      <button
        type="button"
        className="button-secondary button-small"
        onClick={() => {
          void copy();
        }}
      >
        {label}
      </button>
      <span role="status" className="copy-status">
        {state === 'copied'
          ? 'Copied.'
          : state === 'failed'
            ? 'Copying was refused: select the text instead.'
            : ''}
      </span>
    </span>
  );
}
