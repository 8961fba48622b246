import {
  currencyCode,
  integerBetween,
  maxLength,
  moneyAmount,
  required,
  validate,
  type FieldErrors,
} from '../../ui/form-validation.js';

export interface PlanValues {
  readonly name: string;
  readonly computeType: string;
  readonly computeCategory: string;
  readonly vcpus: string;
  readonly ramGb: string;
  readonly diskGb: string;
  /** 0: unlimited traffic. */
  readonly bandwidthAllowanceGb: string;
  readonly monthlyPrice: string;
  readonly currency: string;
  /** Where the plan sells; each needs nodes of its own. */
  readonly regionIds: readonly string[];
  readonly nodeIds: readonly string[];
  readonly isPublic: boolean;
}

export const NEW_PLAN: PlanValues = {
  name: '',
  computeType: 'COMPUTE_TYPE_GENERAL_COMPUTE',
  computeCategory: 'COMPUTE_CATEGORY_SHARED_COMPUTE',
  vcpus: '2',
  ramGb: '4',
  diskGb: '40',
  bandwidthAllowanceGb: '0',
  monthlyPrice: '',
  currency: 'USD',
  regionIds: [],
  nodeIds: [],
  isPublic: true,
};

/**
 * The API's plan limits (those the marketplace filters take too). `nodeRegions` tells the region of each
 * node offered, so that a chosen region without a chosen node is named (it would never pass preflight).
 */
export function validatePlan(
  values: PlanValues,
  nodeRegions: ReadonlyMap<string, string> = new Map(),
  regionName: (regionId: string) => string = (id) => id,
): FieldErrors {
  const errors: Record<string, string> = validate(
    { ...values, regionIds: '', nodeIds: '', isPublic: '' },
    {
      name: [required, maxLength(100)],
      vcpus: [required, integerBetween(1, 512)],
      ramGb: [required, integerBetween(1, 4096)],
      diskGb: [required, integerBetween(1, 1_048_576)],
      bandwidthAllowanceGb: [required, integerBetween(0, 1_000_000_000)],
      monthlyPrice: [
        required,
        moneyAmount,
        (v) =>
          Number(v) > 0 ? undefined : 'A plan with no price cannot be sold; enter an amount above zero.',
      ],
      currency: [required, currencyCode],
    },
  );
  if (values.regionIds.length === 0) errors.regionIds = 'Choose at least one region.';
  else if (values.nodeIds.length === 0) errors.nodeIds = 'Choose the nodes VMs of this plan may run on.';
  else {
    const covered = new Set(values.nodeIds.map((id) => nodeRegions.get(id)));
    const bare = values.regionIds.filter((id) => nodeRegions.size > 0 && !covered.has(id));
    if (bare.length > 0)
      errors.nodeIds = `Choose at least one node in ${bare.map(regionName).join(', ')}: the plan sells there.`;
  }
  return errors;
}

/** `POST /v1/plans`: a monthly subscription price; traffic counted per month. */
export function planRequest(values: PlanValues) {
  return {
    name: values.name.trim(),
    computeType: values.computeType,
    computeCategory: values.computeCategory,
    vcpus: Number(values.vcpus),
    ramGb: Number(values.ramGb),
    diskGb: Number(values.diskGb),
    bandwidthAllowanceGb: Number(values.bandwidthAllowanceGb),
    bandwidthPeriod: 'BILLING_PERIOD_MONTH',
    billingType: 'BILLING_TYPE_SUBSCRIPTION',
    planPrices: [
      {
        billingPeriod: 'BILLING_PERIOD_MONTH',
        currency: values.currency.trim(),
        unitAmount: values.monthlyPrice.trim(),
      },
    ],
    regionIds: [...values.regionIds],
    nodeIds: [...values.nodeIds],
    isPublic: values.isPublic,
  };
}
