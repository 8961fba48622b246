import type { ReactNode } from 'react';

/**
 * A wide table on a narrow screen scrolls on its own instead of the page; the region is focusable so a
 * keyboard can scroll it, and named after the table.
 */
export function TableScroll({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
