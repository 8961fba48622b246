import { useId } from 'react';
import { Link, useNavigate } from 'react-router';

import type { Membership } from '../api/api-resources.js';
import { useSession } from '../auth/session-context.js';
import { organizationTypeName } from '../format/display-names.js';
import { homeFor, paths } from './navigation.js';

/** Chooses the organisation every call acts in (X-Organization-ID); each type has its own pages. */
export function OrganizationSwitcher({
  organizations,
  current,
}: {
  readonly organizations: readonly Membership[];
  readonly current: Membership;
}) {
  const { switchOrganization } = useSession();
  const navigate = useNavigate();
  const id = useId();
  return (
    <div className="organization-switcher">
      <label htmlFor={id}>Organisation</label>
      <select
        id={id}
        value={current.id}
        onChange={(event) => {
          const next = organizations.find((o) => o.id === event.target.value);
          if (next === undefined) return;
          switchOrganization(next.id);
          void navigate(homeFor(next.type));
        }}
      >
        {organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name} ({organizationTypeName(o.type)})
          </option>
        ))}
      </select>
      <Link to={paths.newOrganization} className="small-link">
        New organisation
      </Link>
    </div>
  );
}
