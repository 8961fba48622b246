import { useEffect, type ReactNode } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';

import type { OrganizationType } from '../api/api-resources.js';
import { useCurrentOrganization } from '../auth/current-organization.js';
import { NewOrganizationPage } from '../auth/new-organization-page.js';
import { useSession } from '../auth/session-context.js';
import { organizationTypeName } from '../format/display-names.js';
import { Page } from '../ui/page.js';
import { LoadError, Loading } from '../ui/query-state.js';
import { AppShell } from './app-shell.js';
import { homeFor, paths } from './navigation.js';

/** Every page behind sign-in: without a session, the sign-in page (and back here afterwards, unless signed out). */
export function SignedInLayout() {
  const { session, signedOutReason } = useSession();
  const location = useLocation();
  // After a deliberate sign-out the next sign-in starts afresh (it may be someone else's).
  if (session === undefined)
    return signedOutReason === 'signed-out' ? (
      <Navigate to={paths.login} replace />
    ) : (
      <Navigate to={paths.login} replace state={{ from: `${location.pathname}${location.search}` }} />
    );
  return <OrganizationGate />;
}

function StandaloneFrame({ children }: { readonly children: ReactNode }) {
  return (
    <div className="auth-page">
      <main id="main" className="auth-card">
        {children}
      </main>
    </div>
  );
}

/** Waits for the user's organisations, so that no call goes out naming the wrong one. */
function OrganizationGate() {
  const { session, adoptOrganization } = useSession();
  const { organizations, current, isPending, error } = useCurrentOrganization();
  const mismatch = current !== undefined && current.id !== session?.organizationId;

  useEffect(() => {
    if (mismatch) adoptOrganization(current.id);
  }, [mismatch, current, adoptOrganization]);

  if (isPending)
    return (
      <StandaloneFrame>
        <Loading label="Loading your organisations…" />
      </StandaloneFrame>
    );
  if (error !== null)
    return (
      <StandaloneFrame>
        <LoadError error={error} />
      </StandaloneFrame>
    );
  if (current === undefined)
    return (
      <StandaloneFrame>
        <NewOrganizationPage firstOne />
      </StandaloneFrame>
    );
  if (mismatch)
    return (
      <StandaloneFrame>
        <Loading />
      </StandaloneFrame>
    );
  return <AppShell organizations={organizations} current={current} />;
}

/** `/`: the home of the current organisation's type. */
export function HomeRedirect() {
  const { current } = useCurrentOrganization();
  return current === undefined ? <Loading /> : <Navigate to={homeFor(current.type)} replace />;
}

/** Pages of one organisation type; the other type is told where to go instead of seeing refusals. */
export function RequireOrganizationType({ type }: { readonly type: OrganizationType }) {
  const { current } = useCurrentOrganization();
  if (current === undefined) return <Loading />;
  if (current.type === type) return <Outlet />;
  return (
    <Page title="Not available for this organisation">
      <p>
        This page is for {organizationTypeName(type).toLowerCase()} organisations, and {current.name} is a{' '}
        {organizationTypeName(current.type).toLowerCase()} organisation. Switch organisation in the banner, or
        go to <Link to={homeFor(current.type)}>your start page</Link>.
      </p>
    </Page>
  );
}

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>
        There is no page at this address. <Link to="/">Go to your start page</Link>.
      </p>
    </Page>
  );
}
