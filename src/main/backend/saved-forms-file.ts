/**
 * The composer's forms on disk (issue 17, item 12): one JSON file in the app's data folder,
 * written whole each time (a new owner-only temporary file, flushed, then renamed over the old
 * one, so a crash leaves the last complete version), writes one after another, and checked with
 * the shared schema when read back. A file that cannot be read is moved aside
 * (`composer-forms.json.damaged-<time>`) and reported in plain words; the composer then starts
 * empty. These are the user's words, not library records: they belong to this computer's user,
 * whatever library is open.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../../core/library/index.ts';
import { type SavedForms, SavedFormsSchema } from '../../shared/index.ts';

export const SAVED_FORMS_FILE_NAME = 'composer-forms.json';

export type SavedFormsReading = { forms: SavedForms | null; problem: string | null };

export class SavedFormsFile {
  readonly #dir: string;
  readonly #file: string;
  readonly #now: () => number;
  /** The write under way (each write waits for the one before). */
  #writing: Promise<void> = Promise.resolve();
  #count = 0;

  constructor(userDataDir: string, now: () => number = Date.now) {
    this.#dir = userDataDir;
    this.#file = join(userDataDir, SAVED_FORMS_FILE_NAME);
    this.#now = now;
  }

  get path(): string {
    return this.#file;
  }

  /** The forms kept last time; null when there is no file. A damaged file is moved aside and reported. */
  async read(): Promise<SavedFormsReading> {
    await this.#writing;
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { forms: null, problem: null };
      return { forms: null, problem: `Your saved drafts could not be read (${(err as Error).message}).` };
    }
    let why: string;
    try {
      const parsed = SavedFormsSchema.safeParse(JSON.parse(text));
      if (parsed.success) return { forms: parsed.data, problem: null };
      const issue = parsed.error.issues[0];
      why = `${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'not a saved draft'}`;
    } catch {
      why = 'it is not valid JSON';
    }
    const aside = `${this.#file}.damaged-${this.#now()}`;
    try {
      await rename(this.#file, aside);
    } catch {
      return { forms: null, problem: `Your saved drafts were damaged (${why}) and could not be set aside.` };
    }
    return {
      forms: null,
      problem: `Your saved drafts were damaged (${why}), so the composer starts empty; the damaged file was kept as ${aside}.`,
    };
  }

  /** Writes the forms whole, after any write under way. */
  write(forms: SavedForms): Promise<void> {
    const next = this.#writing.then(() => this.#writeNow(forms));
    // a failed write does not stop the next one
    this.#writing = next.catch(() => undefined);
    return next;
  }

  async #writeNow(forms: SavedForms): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    this.#count += 1;
    const tmp = `${this.#file}.tmp-${process.pid}-${this.#count}`;
    await rm(tmp, { force: true });
    // a new owner-only file: never written through a link or a file left at the temporary name
    const handle = await open(tmp, 'wx', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(`${JSON.stringify(forms)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(tmp, this.#file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
}
