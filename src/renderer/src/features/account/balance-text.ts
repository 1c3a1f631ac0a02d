/** The balance at the service in words. Pure. */

/** `$12.34`; under $10 up to four decimals when they are not zeros (`$9.985`, `$9.50`). */
function usdText(usd: number): string {
  return `$${usd.toFixed(usd < 10 ? 4 : 2).replace(/(\.\d\d\d*?)0+$/, '$1')}`;
}

/** `$12.34 left` (or the credits when the service gives no dollar figure), or null when unknown. */
export function balanceText(
  view: { balanceUsd: number | null; credits: number | null } | null,
): string | null {
  if (!view) return null;
  if (view.balanceUsd !== null) return `${usdText(view.balanceUsd)} left`;
  if (view.credits !== null) return `${view.credits.toLocaleString()} credits left`;
  return null;
}
