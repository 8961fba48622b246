/** An API amount (a decimal string, up to 6 places) in its currency: "12.000000" USD → "$12.00". */
export function formatMoney(amount: string, currency: string): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency}`;
  try {
    return new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 6,
    }).format(value);
  } catch {
    // Not an ISO 4217 code Intl knows: say the amount and the code as they are.
    return `${value.toFixed(2)} ${currency}`;
  }
}
