/**
 * The secrets the backend holds (the API key, the built-in sandbox's key): every error, log
 * line and listener failure it lets go of is scrubbed of them first.
 */
import { createSecretScrubber } from '../../core/service/index.ts';

export class KnownSecrets {
  readonly #secrets = new Set<string>();

  add(secret: string): void {
    this.#secrets.add(secret);
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = createSecretScrubber(secret).text(out);
    return out;
  }
}
