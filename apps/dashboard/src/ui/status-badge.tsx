import type { ReactNode } from 'react';

export type Tone = 'good' | 'bad' | 'busy' | 'neutral';

/** A state as words first; the colour only repeats what the words say. */
export function StatusBadge({ tone, children }: { readonly tone: Tone; readonly children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
