import { useId, useRef } from 'react';

import { lineRange, type DocumentProblem } from './cloud-init-problems.js';

/**
 * A YAML document in a textarea with a line-number gutter (hidden from screen readers) that marks the
 * lines the API found problems on. Each problem is listed under the editor, in words, with a button that
 * puts the cursor on its line.
 */
export function DocumentEditor({
  label,
  hint,
  value,
  onChange,
  problems,
  rows = 18,
}: {
  readonly label: string;
  readonly hint?: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly problems: readonly DocumentProblem[];
  readonly rows?: number;
}) {
  const id = useId();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const gutterRef = useRef<HTMLDivElement>(null);
  const lineCount = Math.max(rows, value.split('\n').length);
  const problemLines = new Set(problems.map((p) => p.line).filter((l) => l !== undefined));
  const describedBy = [
    hint === undefined ? undefined : `${id}-hint`,
    problems.length > 0 ? `${id}-problems` : undefined,
  ]
    .filter((x) => x !== undefined)
    .join(' ');

  const goTo = (line: number) => {
    const textarea = textareaRef.current;
    if (textarea === null) return;
    const [start, end] = lineRange(textarea.value, line);
    textarea.focus();
    textarea.setSelectionRange(start, end);
  };

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint !== undefined && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <div className={problems.length > 0 ? 'editor editor-invalid' : 'editor'}>
        <div className="editor-gutter" ref={gutterRef} aria-hidden="true">
          {Array.from({ length: lineCount }, (_, i) => (
            <div key={i} className={problemLines.has(i + 1) ? 'gutter-line gutter-problem' : 'gutter-line'}>
              {problemLines.has(i + 1) ? `! ${i + 1}` : i + 1}
            </div>
          ))}
        </div>
        <textarea
          id={id}
          ref={textareaRef}
          className="editor-text"
          rows={rows}
          wrap="off"
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          value={value}
          aria-invalid={problems.length > 0 ? true : undefined}
          aria-describedby={describedBy === '' ? undefined : describedBy}
          onChange={(e) => {
            onChange(e.target.value);
          }}
          onScroll={(e) => {
            if (gutterRef.current !== null) gutterRef.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
      </div>
      {problems.length > 0 && (
        <ul className="editor-problems" id={`${id}-problems`}>
          {problems.map((p, i) => (
            <li key={i}>
              <span className="field-error">
                {p.line === undefined ? p.message : `Line ${p.line}, column ${p.column ?? 1}: ${p.message}`}
              </span>
              {p.line !== undefined && (
                <button
                  type="button"
                  className="button-secondary button-small"
                  onClick={() => {
                    goTo(p.line ?? 1);
                  }}
                  aria-label={`Go to line ${p.line} of ${label}`}
                >
                  Go to line {p.line}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
