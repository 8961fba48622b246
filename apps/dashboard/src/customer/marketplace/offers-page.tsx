import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';

import type { MarketplaceOffer } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatMoney } from '../../format/money.js';
import { paths } from '../../shell/navigation.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { bandwidthLabel, filtersFromSearch, offerQuery, specsLabel } from './marketplace-search.js';

/** Every provider's offer of one SKU, as the search filtered them, cheapest first. */
export function OffersPage() {
  const api = useApi();
  const { planCode = '' } = useParams();
  const [search] = useSearchParams();
  const filters = filtersFromSearch(search);
  const query = offerQuery(filters, planCode);
  const offers = useQuery({
    queryKey: ['marketplace-offers', query],
    queryFn: () =>
      api.get<{ providers: MarketplaceOffer[]; totalCount: number }>('/v1/marketplace/providers', query),
  });
  const first = offers.data?.providers[0];
  const backTo = `${paths.marketplace}${search.toString() === '' ? '' : `?${search.toString()}`}`;

  return (
    <Page
      title={`Offers for ${planCode}`}
      description={first === undefined ? undefined : specsLabel(first)}
      actions={<Link to={backTo}>Back to the marketplace</Link>}
    >
      <Section title="Offers" id="offers">
        <QueryState query={offers} loadingLabel="Loading offers…">
          {(data) =>
            data.providers.length === 0 ? (
              <EmptyState>
                <p>No provider offers this plan under your filters any more.</p>
              </EmptyState>
            ) : (
              <TableScroll label="Offers">
                <table>
                  <caption className="visually-hidden">Offers for {planCode}, by price</caption>
                  <thead>
                    <tr>
                      <th scope="col">Provider</th>
                      <th scope="col">Plan</th>
                      <th scope="col">Location</th>
                      <th scope="col">Monthly price</th>
                      <th scope="col">Traffic</th>
                      <th scope="col">IPv6</th>
                      <th scope="col">Availability</th>
                      <th scope="col">
                        <span className="visually-hidden">Order</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.providers.map((offer) => (
                      <tr key={`${offer.planId} ${offer.planRegions[0]?.regionId ?? ''}`}>
                        <th scope="row">{offer.organizationName}</th>
                        <td>{offer.planName}</td>
                        <td>{offer.planRegions.map((r) => `${r.city}, ${r.country}`).join('; ')}</td>
                        <td>
                          {formatMoney(offer.monthlyPrice.amount, offer.monthlyPrice.currency)}
                          {Number(offer.setupFee) > 0 && (
                            <span className="muted">
                              {' '}
                              + {formatMoney(offer.setupFee, offer.monthlyPrice.currency)} setup
                            </span>
                          )}
                        </td>
                        <td>{bandwidthLabel(offer)}</td>
                        <td>{offer.ipv6AvailableInFilteredRegion ? 'Yes' : 'No'}</td>
                        <td>
                          <StatusBadge tone={offer.hasCapacityInFilteredRegion ? 'good' : 'bad'}>
                            {offer.hasCapacityInFilteredRegion ? 'In stock' : 'Out of stock'}
                          </StatusBadge>
                        </td>
                        <td>
                          {offer.hasCapacityInFilteredRegion ? (
                            <Link
                              className="button-link"
                              to={paths.order(offer.planId, offer.planRegions[0]?.regionId)}
                              aria-label={`Order ${offer.planName} from ${offer.organizationName} in ${offer.planRegions.map((r) => r.city).join(', ')}`}
                            >
                              Order
                            </Link>
                          ) : (
                            <span className="muted">Unavailable</span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </QueryState>
      </Section>
    </Page>
  );
}
