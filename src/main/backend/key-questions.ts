/**
 * The questions about the API key that main asks in a native dialog (the page can neither see
 * nor answer them; security review, issue 17, items 1 and 9): whether to send the key to
 * addresses it is not tied to, and whether to store it without real encryption. A page call
 * can raise such a dialog only a few times a minute, so a hostile page cannot bury the user in
 * questions until one is answered yes by accident.
 */
import type { BoundKey, KeyAddress } from '../../core/settings/index.ts';
import type { ConfirmQuestion, Dialogs } from './backend-ports.ts';
import { StudioCallError } from './call-errors.ts';

/** Questions a page call may raise per minute. */
export const QUESTIONS_PER_MINUTE = 3;
const MINUTE_MS = 60_000;

/** The native questions a page call makes main ask, counted so it cannot ask more than a few a minute. */
export class PageQuestions {
  readonly #dialogs: Dialogs;
  readonly #now: () => number;
  /** When each question of the last minute was asked. */
  #askedAt: number[] = [];

  constructor(dialogs: Dialogs, now: () => number = Date.now) {
    this.#dialogs = dialogs;
    this.#now = now;
  }

  /** Asks in a native dialog; true when the user agrees. Throws, asking nothing, past the limit. */
  async ask(question: ConfirmQuestion): Promise<boolean> {
    const now = this.#now();
    this.#askedAt = this.#askedAt.filter((at) => now - at < MINUTE_MS);
    if (this.#askedAt.length >= QUESTIONS_PER_MINUTE) {
      throw new StudioCallError(
        'too-many-questions',
        `nothing was changed: the app has asked ${QUESTIONS_PER_MINUTE} times in the last minute; try again in a minute`,
      );
    }
    this.#askedAt.push(now);
    return this.#dialogs.confirm(question);
  }
}

const WHAT_WORDS: Record<KeyAddress['what'], string> = {
  tasks: 'Tasks',
  balance: 'Balance',
  history: 'Task history',
  running: 'Running tasks',
  uploads: 'Uploads',
};

function addressLines(addresses: readonly KeyAddress[], bound: BoundKey | null): string {
  return addresses
    .map((a) => {
      const added = bound?.addresses && !bound.addresses.includes(a.url) ? '   (new)' : '';
      return `${WHAT_WORDS[a.what]}: ${a.url}${added}`;
    })
    .join('\n');
}

/** The question before the key goes to addresses it is not tied to; every address in full. */
export function keyAddressesQuestion(wanted: readonly KeyAddress[], bound: BoundKey): ConfirmQuestion {
  const before =
    bound.addresses === null
      ? 'It was stored by an earlier version of the app, which did not tie it to the addresses it is sent to.'
      : bound.addresses.length === 0
        ? 'Until now it was sent nowhere.'
        : `Until now it was sent only to:\n${bound.addresses.join('\n')}`;
  return {
    title: 'Send your API key to these addresses?',
    message: `Your API key would be sent with every request to:\n${addressLines(wanted, bound)}\n\n${before}\n\nAgree only if you trust every address: whoever runs it can spend your balance.`,
    confirmLabel: 'Send the key there',
  };
}

/** The question before the key is stored where Linux has no keyring. */
export const WEAK_STORAGE_QUESTION: ConfirmQuestion = {
  title: 'Store the API key without encryption?',
  message:
    "This computer has no system keyring, so the key would be stored in the app's settings folder without real encryption: anyone who can read your files could read it. Store it anyway?",
  confirmLabel: 'Store without encryption',
};

/** The words for a list of addresses in a sentence. */
export function addressList(urls: readonly string[]): string {
  if (urls.length <= 1) return urls[0] ?? 'no address';
  return `${urls.slice(0, -1).join(', ')} and ${urls.at(-1)}`;
}
