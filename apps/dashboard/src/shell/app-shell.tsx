import { Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';

import type { Membership } from '../api/api-resources.js';
import { useSession } from '../auth/session-context.js';
import { organizationTypeName } from '../format/display-names.js';
import { Loading } from '../ui/query-state.js';
import { navigationFor } from './navigation.js';
import { OrganizationSwitcher } from './organization-switcher.js';

/**
 * The signed-in frame: a banner with the organisation switcher and sign-out, the navigation of the
 * organisation's type (behind a Menu button on narrow screens), and the main region.
 */
export function AppShell({
  organizations,
  current,
}: {
  readonly organizations: readonly Membership[];
  readonly current: Membership;
}) {
  const { session, signOut } = useSession();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  // The menu of a narrow screen closes once it has taken the user somewhere.
  useEffect(() => {
    setMenuOpen(false);
  }, [location.pathname]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="banner">
        <div className="banner-row">
          <button
            type="button"
            className="menu-button button-secondary"
            aria-expanded={menuOpen}
            aria-controls="main-navigation"
            onClick={() => {
              setMenuOpen((open) => !open);
            }}
          >
            Menu
          </button>
          <span className="brand">NodeRings</span>
          <span className="organization-kind">{organizationTypeName(current.type)}</span>
        </div>
        <div className="banner-row banner-account">
          <OrganizationSwitcher organizations={organizations} current={current} />
          <span className="account-email">{session?.email}</span>
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              void signOut();
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <div className="layout">
        <nav
          id="main-navigation"
          aria-label="Main"
          className={menuOpen ? 'navigation navigation-open' : 'navigation'}
        >
          {navigationFor(current.type).map((group) => (
            <div key={group.label} className="nav-group">
              <p className="nav-group-label" id={`nav-${group.label}`}>
                {group.label}
              </p>
              <ul aria-labelledby={`nav-${group.label}`}>
                {group.items.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to}>{item.label}</NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <main id="main" tabIndex={-1}>
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
