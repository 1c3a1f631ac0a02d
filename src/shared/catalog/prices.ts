/**
 * Cost estimates from the catalog's published prices (spec 8, field notes): the entry of the
 * request's model and task type, and its price rule (price-rules.ts). Money is kept in integer
 * micro-dollars (1 USD = 1,000,000) so sums never drift. An entry without a published price, or
 * a pair the catalog does not know, has no estimate: it is never counted as $0.
 */
import { catalogEntry, type ModelOverrides } from './entry-lookup.ts';
import { type CostEstimate, estimatePrice, type MediaFactsByField } from './price-rules.ts';
import { modelNameOf } from './task-types.ts';

export const MICROS_PER_USD = 1_000_000;

/**
 * The estimate of a create request, by the entry of its model and task type (`overrides` maps
 * an overridden model id back to its entry); `media` says what is known of its media inputs
 * (a picture's size, a video's frames).
 */
export function estimateCost(
  request: { model: string; task_type: string; input: Record<string, unknown> },
  media: MediaFactsByField = {},
  overrides: ModelOverrides = {},
): CostEstimate {
  const entry = catalogEntry(request.model, request.task_type, overrides);
  if (!entry) {
    const name = modelNameOf(request.model.trim());
    return { micros: null, explanation: `no published price for ${name} ${request.task_type}` };
  }
  if (!entry.price) return { micros: null, explanation: `no published price for ${entry.taskType}` };
  return estimatePrice(entry.price, request.input, media);
}
