import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';

import { apiPath } from '../../api/api-client.js';
import { errorAt, fieldErrorsOf } from '../../api/api-error.js';
import type { OfferDetail, VirtualMachine } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { billingPeriodName, computeTypeName, distroName } from '../../format/display-names.js';
import { formatMoney } from '../../format/money.js';
import { paths } from '../../shell/navigation.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { focusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { FormError } from '../../ui/form-error.js';
import { SelectField, TextField } from '../../ui/form-field.js';
import { hasErrors, type FieldErrors } from '../../ui/form-validation.js';
import { Page, Section } from '../../ui/page.js';
import { QueryState } from '../../ui/query-state.js';
import { bandwidthLabel, specsLabel } from '../marketplace/marketplace-search.js';
import { useSshKeys } from '../ssh-keys/ssh-key-queries.js';
import { SignInChoice } from './sign-in-choice.js';
import {
  newIdempotencyKey,
  orderRequest,
  VM_PASSWORD_MIN_LENGTH,
  validateOrder,
  type OrderValues,
} from './order-form.js';

export function OrderPage() {
  const api = useApi();
  const { planId = '' } = useParams();
  // A plan sells in several regions: the offer (nodes, distros, capacity) is the chosen region's.
  const regionId = useSearchParams()[0].get('regionId') ?? undefined;
  const offer = useQuery({
    queryKey: ['marketplace-offer', planId, regionId],
    queryFn: () =>
      api.get<{ offer: OfferDetail }>(
        apiPath`/v1/marketplace/plans/${planId}`,
        regionId === undefined ? undefined : { regionId },
      ),
  });
  return (
    <Page title="Order a VM" actions={<Link to={paths.marketplace}>Back to the marketplace</Link>}>
      <QueryState query={offer} loadingLabel="Loading the offer…">
        {({ offer: detail }) => (
          <>
            <OfferSummary offer={detail} />
            {detail.hasCapacity ? (
              <OrderForm key={detail.regionId} offer={detail} />
            ) : (
              <p className="notice" role="status">
                This offer is out of stock right now.{' '}
                <Link to={paths.offers(detail.planCode)}>See other offers</Link>.
              </p>
            )}
          </>
        )}
      </QueryState>
    </Page>
  );
}

function OfferSummary({ offer }: { readonly offer: OfferDetail }) {
  return (
    <Section title={`${offer.planName} from ${offer.organizationName}`} id="offer">
      <dl className="facts">
        <dt>Size</dt>
        <dd>{specsLabel(offer)}</dd>
        <dt>Plan code</dt>
        <dd>
          <code>{offer.planCode}</code> ({computeTypeName(offer.computeType)})
        </dd>
        <dt>Location</dt>
        <dd>
          {offer.regionCity}, {offer.regionCountry}
        </dd>
        <dt>Price</dt>
        <dd>
          {formatMoney(offer.monthlyPrice.amount, offer.monthlyPrice.currency)} a month
          {offer.planPrices
            .filter((p) => p.billingPeriod !== 'BILLING_PERIOD_MONTH')
            .map((p) => ` · ${formatMoney(p.unitAmount, p.currency)} a ${billingPeriodName(p.billingPeriod)}`)
            .join('')}
        </dd>
        {Number(offer.setupFee) > 0 && (
          <>
            <dt>Setup fee</dt>
            <dd>{formatMoney(offer.setupFee, offer.monthlyPrice.currency)}</dd>
          </>
        )}
        <dt>Traffic</dt>
        <dd>{bandwidthLabel(offer)}</dd>
        <dt>IPv6</dt>
        <dd>{offer.ipv6Available ? 'Included' : 'Not available in this region'}</dd>
      </dl>
    </Section>
  );
}

const ORDER_FIELDS = ['hostname', 'regionId', 'distro', 'sshKeyIds', 'password'];

function OrderForm({ offer }: { readonly offer: OfferDetail }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { announce } = useAnnouncer();
  const formRef = useRef<HTMLFormElement>(null);
  const keys = useSshKeys();
  // One key for the life of this form: a double click or a retry after a lost answer is the same order.
  const [idempotencyKey] = useState(() => newIdempotencyKey());
  const [values, setValues] = useState<OrderValues>({
    hostname: '',
    regionId: offer.regionId,
    // The provider's first distro is a sensible default; every one is a choice away.
    distro: offer.distros[0] ?? '',
    signInMethod: 'ssh-key',
    sshKeyIds: [],
    password: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});

  const order = useMutation({
    mutationFn: (body: ReturnType<typeof orderRequest>) =>
      api.post<{ virtualMachine: VirtualMachine }>('/v1/virtual-machines', body),
    onSuccess: async ({ virtualMachine }) => {
      announce(`Ordered ${virtualMachine.hostname}.`);
      await queryClient.invalidateQueries({ queryKey: ['vms'] });
      void navigate(paths.vm(virtualMachine.id));
    },
  });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (order.isPending || order.isSuccess) return;
    const found = validateOrder(values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid(formRef.current);
      return;
    }
    order.mutate(orderRequest(values, offer.planId, idempotencyKey));
  };

  const apiErrors = fieldErrorsOf(order.error);
  return (
    <Section title="Your VM" id="order">
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Order VM" className="form-narrow">
        <FormError error={order.error} fields={ORDER_FIELDS} />
        <TextField
          label="Hostname"
          autoComplete="off"
          spellCheck={false}
          hint="Letters, digits and hyphens, like web-1."
          value={values.hostname}
          onChange={(e) => {
            setValues({ ...values, hostname: e.target.value });
          }}
          error={errors.hostname ?? apiErrors.hostname}
          required
        />
        <SelectField
          label="Region"
          value={values.regionId}
          options={offer.offeredRegions.map((r) => ({
            value: r.regionId,
            label: `${r.regionCity}, ${r.regionCountry}`,
          }))}
          onChange={(e) => {
            // Another region is another offer: its distros and capacity are read again.
            void navigate(paths.order(offer.planId, e.target.value), { replace: true });
          }}
          error={errors.regionId ?? apiErrors.regionId}
        />
        <SelectField
          label="Operating system"
          value={values.distro}
          placeholder={offer.distros.length === 0 ? 'No operating system offered' : undefined}
          options={offer.distros.map((d) => ({ value: d, label: distroName(d) }))}
          onChange={(e) => {
            setValues({ ...values, distro: e.target.value });
          }}
          error={errors.distro ?? apiErrors.distro}
          required
        />
        <SignInChoice
          values={values}
          onChange={(next) => {
            setValues({ ...values, ...next });
          }}
          keys={keys}
          errors={{
            sshKeyIds: errors.sshKeyIds ?? errorAt(apiErrors, 'sshKeyIds'),
            password: errors.password ?? apiErrors.password,
            confirmPassword: errors.confirmPassword,
          }}
          passwordMinLength={VM_PASSWORD_MIN_LENGTH}
        />
        <p className="order-total">
          Total:{' '}
          <strong>{formatMoney(offer.monthlyPrice.amount, offer.monthlyPrice.currency)} a month</strong>
        </p>
        <button type="submit" disabled={order.isPending || order.isSuccess}>
          {order.isPending ? 'Ordering…' : 'Order VM'}
        </button>
      </form>
    </Section>
  );
}
