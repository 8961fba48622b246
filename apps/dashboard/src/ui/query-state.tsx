import type { ReactNode } from 'react';

import { messageOf } from '../api/api-error.js';

/** Shown while something loads; a status region, so screen readers hear it once. */
export function Loading({ label = 'Loading…' }: { readonly label?: string }) {
  return (
    <p className="loading" role="status">
      {label}
    </p>
  );
}

/** A read that failed, in the API's words, with a way to try again. */
export function LoadError({ error, retry }: { readonly error: unknown; readonly retry?: () => void }) {
  return (
    <div className="load-error" role="alert">
      <p>{messageOf(error)}</p>
      {retry !== undefined && (
        <button type="button" className="button-secondary" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Nothing to list yet, and what to do about it. */
export function EmptyState({ children }: { readonly children: ReactNode }) {
  return <div className="empty-state">{children}</div>;
}

/**
 * The three states of a read in one place: loading, failed (with retry) or its content. Keeps every page
 * saying the same thing the same way.
 */
export function QueryState<T>({
  query,
  loadingLabel,
  children,
}: {
  readonly query: {
    readonly data: T | undefined;
    readonly error: unknown;
    readonly isPending: boolean;
    readonly refetch: () => unknown;
  };
  readonly loadingLabel?: string;
  readonly children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.error !== null && query.error !== undefined)
    return (
      <LoadError
        error={query.error}
        retry={() => {
          void query.refetch();
        }}
      />
    );
  return <Loading {...(loadingLabel !== undefined && { label: loadingLabel })} />;
}

interface Read<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly refetch: () => unknown;
}

type DataOf<Q extends readonly Read<unknown>[]> = {
  readonly [K in keyof Q]: Q[K] extends Read<infer T> ? T : never;
};

/**
 * Several reads a page needs together: the first failure (with retry), loading until every one has
 * data, then the content with all their data in the order given.
 */
export function QueriesState<const Q extends readonly Read<unknown>[]>({
  queries,
  loadingLabel,
  children,
}: {
  readonly queries: Q;
  readonly loadingLabel?: string;
  readonly children: (...data: DataOf<Q>) => ReactNode;
}) {
  const failed = queries.find((q) => q.error !== null && q.error !== undefined);
  if (failed !== undefined)
    return (
      <LoadError
        error={failed.error}
        retry={() => {
          void failed.refetch();
        }}
      />
    );
  if (queries.some((q) => q.data === undefined))
    return <Loading {...(loadingLabel !== undefined && { label: loadingLabel })} />;
  // Every read has data here, so the tuple holds each one's data type.
  return <>{children(...(queries.map((q) => q.data) as unknown as DataOf<Q>))}</>;
}
