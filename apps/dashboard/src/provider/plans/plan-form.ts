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
  readonly regionId: string;
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
  regionId: '',
  nodeIds: [],
  isPublic: true,
};

/** The API's plan limits (those the marketplace filters take too). */
export function validatePlan(values: PlanValues): FieldErrors {
  const errors: Record<string, string> = validate(
    { ...values, nodeIds: '', isPublic: '' },
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
      regionId: [(v) => (v === '' ? 'Choose a region.' : undefined)],
    },
  );
  if (values.regionId !== '' && values.nodeIds.length === 0)
    errors.nodeIds = 'Choose the nodes VMs of this plan may run on.';
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
    regionId: values.regionId,
    nodeIds: [...values.nodeIds],
    isPublic: values.isPublic,
  };
}
