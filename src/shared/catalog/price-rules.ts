/**
 * A catalog entry's published price as data, and what one input costs under it. The service
 * prices in several units (field notes, catalog-families.md): per second of a song, per image
 * (x a count field such as `batch_size`), per task, per frame of a video, per megapixel of a
 * picture (rounded up), and in tiers by the output's size. Money is integer micro-dollars.
 * Whatever the rule needs and the input does not say (a video's frame count, a URL picture's
 * size) gives no estimate: never $0.
 */
import { countWord } from '../task/task-count-words.ts';

/** Pixels in a megapixel, as the service counts them (1024 x 1024 is 1 MP: z-image's 1 MP tier, Flux's cap). */
export const PIXELS_PER_MEGAPIXEL = 1024 * 1024;

export interface PriceTier {
  /** The largest output size of this tier in megapixels; null for "more". */
  maxMegapixels: number | null;
  micros: number;
}

export type PriceRule =
  /** Per started second of the number in `field` (ace-step's `duration`). */
  | { unit: 'second'; micros: number; field: string }
  /** Per image, times the whole number in `countField` when given (default 1). */
  | { unit: 'image'; micros: number; countField?: string }
  /** Per task, whatever its input. */
  | { unit: 'generation'; micros: number }
  /** Per frame of the video in `field`. */
  | { unit: 'frame'; micros: number; field: string }
  /** Per started megapixel of the picture in `field`. */
  | { unit: 'megapixel'; micros: number; field: string }
  /** By the output's size (`width` x `height` of the input), per image times `countField`. */
  | { unit: 'output-size'; tiers: readonly PriceTier[]; countField?: string };

/** What the app knows of a media input's contents, by input field (from the checked file or upload). */
export interface MediaFacts {
  width?: number | null;
  height?: number | null;
  frames?: number | null;
}
export type MediaFactsByField = Readonly<Record<string, MediaFacts>>;

export interface CostEstimate {
  /** null when no price is published, or the input lacks what the price needs. */
  micros: number | null;
  explanation: string;
}

/** `$0.0123`: at least two decimals, more only when needed (up to 4). */
export function formatUsd(micros: number): string {
  const usd = micros / 1_000_000;
  const text = usd.toFixed(4).replace(/0{1,2}$/, '');
  return `$${text}`;
}

function positiveCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function positiveNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/** The count a per-image price multiplies by: the field's whole number, 1 when absent, null when wrong. */
function countOf(input: Record<string, unknown>, field: string | undefined): number | null {
  if (field === undefined || input[field] === undefined || input[field] === null) return 1;
  return positiveCount(input[field]);
}

function images(n: number): string {
  return countWord(n, 'image');
}

function megapixels(width: number, height: number): number {
  return (width * height) / PIXELS_PER_MEGAPIXEL;
}

/** The estimate of one input under a price rule; `media` says what is known of its media inputs. */
export function estimatePrice(
  rule: PriceRule,
  input: Record<string, unknown>,
  media: MediaFactsByField = {},
): CostEstimate {
  const per = formatUsd('micros' in rule ? rule.micros : 0);
  switch (rule.unit) {
    case 'second': {
      const duration = positiveNumber(input[rule.field]);
      if (duration === null) return { micros: null, explanation: `${rule.field} is needed to price audio` };
      const seconds = Math.ceil(duration);
      return { micros: seconds * rule.micros, explanation: `${seconds} s x ${per}/s` };
    }
    case 'image': {
      if (rule.countField === undefined) return { micros: rule.micros, explanation: `${per} per image` };
      const n = countOf(input, rule.countField);
      if (n === null)
        return { micros: null, explanation: `${rule.countField} must be a whole number to price it` };
      return { micros: n * rule.micros, explanation: `${images(n)} x ${per}` };
    }
    case 'generation':
      return { micros: rule.micros, explanation: `${per} per generation` };
    case 'frame': {
      const frames = positiveCount(media[rule.field]?.frames);
      if (frames === null)
        return {
          micros: null,
          explanation: `${per} per frame: the frame count of ${rule.field} is not known yet`,
        };
      return { micros: frames * rule.micros, explanation: `${frames} frames x ${per}` };
    }
    case 'megapixel': {
      const width = positiveCount(media[rule.field]?.width);
      const height = positiveCount(media[rule.field]?.height);
      if (width === null || height === null)
        return {
          micros: null,
          explanation: `${per} per megapixel: the size of ${rule.field} is not known yet`,
        };
      const mp = Math.ceil(megapixels(width, height));
      return { micros: mp * rule.micros, explanation: `${mp} MP x ${per}` };
    }
    case 'output-size':
      return tieredEstimate(rule, input);
  }
}

type TieredRule = Extract<PriceRule, { unit: 'output-size' }>;

/** The input's size in megapixels; null when its `width` or `height` is missing. */
function sizeOf(input: Record<string, unknown>): number | null {
  const width = positiveCount(input.width);
  const height = positiveCount(input.height);
  return width === null || height === null ? null : megapixels(width, height);
}

/** The tier of a size in megapixels, if one holds it. */
function tierOf(rule: TieredRule, mp: number): PriceTier | undefined {
  return rule.tiers.find((t) => t.maxMegapixels === null || mp <= t.maxMegapixels);
}

function tieredEstimate(rule: TieredRule, input: Record<string, unknown>): CostEstimate {
  const mp = sizeOf(input);
  if (mp === null)
    return { micros: null, explanation: 'width and height are needed to price by output size' };
  const tier = tierOf(rule, mp);
  if (!tier) return { micros: null, explanation: `no price tier for ${mp.toFixed(2)} MP` };
  const n = countOf(input, rule.countField);
  if (n === null)
    return { micros: null, explanation: `${rule.countField} must be a whole number to price it` };
  const size = `${Number(mp.toFixed(2))} MP`;
  return { micros: n * tier.micros, explanation: `${images(n)} of ${size} x ${formatUsd(tier.micros)}` };
}

/**
 * The price of a rule in a few words, for a form: `$0.0015 per image`, `$0.0003 per frame`,
 * `$0.01 per megapixel` (what an input costs under it is `estimatePrice`'s explanation). A price
 * by the output's size is its tier's for the size `input` gives, else its least (`from $0.002
 * per image`): the size is not known yet.
 */
export function priceWords(rule: PriceRule, input: Record<string, unknown> = {}): string {
  switch (rule.unit) {
    case 'second':
    case 'image':
    case 'frame':
    case 'megapixel':
      return `${formatUsd(rule.micros)} per ${rule.unit}`;
    case 'generation':
      return `${formatUsd(rule.micros)} per task`;
    case 'output-size': {
      const mp = sizeOf(input);
      const tier = mp === null ? undefined : tierOf(rule, mp);
      if (tier) return `${formatUsd(tier.micros)} per image`;
      const least = Math.min(...rule.tiers.map((t) => t.micros));
      return `from ${formatUsd(least)} per image`;
    }
  }
}
