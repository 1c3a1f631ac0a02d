/** A number in [0, 1) fixed by a text, from the media room's seeded generator and hash. */
import { hashText, seededRandom } from './media/index.ts';

/** The same task id always gets the same spread. */
export function unitFromText(text: string): number {
  return seededRandom(hashText(text))();
}
