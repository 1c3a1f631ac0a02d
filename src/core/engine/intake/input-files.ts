/**
 * The library's input files as the engine keeps them: one file per content,
 * `inputs/<sha256>.<ext>` (library/library-copy.ts writes them), shared by every task that uses the
 * same bytes. A local file is hashed and copied only when the library lacks those bytes; Base64
 * is decoded and written the same way, so no task row carries a whole picture. An input the
 * library already holds (a re-run's draft names the library's copy) is taken from its record:
 * nothing is read, copied or checked again but the rules of the field it goes to.
 *
 * A file is removed when the last task that refers to it is deleted. While a task is being
 * queued, the files it will refer to are held (pinned), so a deletion running meanwhile never
 * removes one; the check "held or referred to?" and the removal happen in one synchronous step.
 */
import { unlinkSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { mediaKindOfMime, type TaskInput } from '../../../shared/index.ts';
import {
  dimensionProblem,
  type InputRule,
  inputProblem,
  maxBytesFor,
  type SniffedType,
  typeProblem,
  UnsafePathError,
  type ValidatedInput,
} from '../../inputs/index.ts';
import {
  decodeBase64Input,
  hasInputFile,
  INPUTS_FOLDER,
  isContentInputPath,
  type KeptInput,
  keepFileInput,
  keepInputBytes,
  refuseLinksBelow,
} from '../../library/index.ts';
import type { LibraryStore } from '../../store/index.ts';

/** A local file's own name as given (`party.jpg`), either separator: at most 255 characters. */
function ownName(path: string): string | null {
  const name = path.trim().split(/[\\/]/).pop() ?? '';
  return name === '' ? null : name.slice(0, 255);
}

/** The input files one queueing holds until its task is recorded (or it failed). */
export class InputHold {
  readonly #files: InputFiles;
  readonly #paths: string[] = [];
  #released = false;

  constructor(files: InputFiles) {
    this.#files = files;
  }

  /** The content paths held, in the order they were taken. */
  get paths(): readonly string[] {
    return this.#paths;
  }

  hold(path: string): void {
    if (this.#released) throw new Error('this hold on input files was released');
    this.#files.pin(path);
    this.#paths.push(path);
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    for (const path of this.#paths) this.#files.unpin(path);
  }
}

export class InputFiles {
  readonly #libraryDir: string;
  readonly #store: LibraryStore;
  /** Content path → how many queueings hold it now. */
  readonly #pins = new Map<string, number>();

  constructor(libraryDir: string, store: LibraryStore) {
    this.#libraryDir = libraryDir;
    this.#store = store;
  }

  hold(): InputHold {
    return new InputHold(this);
  }

  pin(path: string): void {
    this.#pins.set(path, (this.#pins.get(path) ?? 0) + 1);
  }

  unpin(path: string): void {
    const n = (this.#pins.get(path) ?? 0) - 1;
    if (n > 0) this.#pins.set(path, n);
    else this.#pins.delete(path);
  }

  /**
   * The input a draft value stands for when it names one of the library's input files that a task
   * already records (a re-run's draft): that record, for `rule.field`, once the field's rules hold
   * for the recorded type, size and dimensions (a refusal throws InputValidationError). The file
   * is held by `hold`. Null for any other value: it is validated and kept as usual.
   */
  async knownInput(value: string, rule: InputRule, hold: InputHold): Promise<TaskInput | null> {
    const stored = await this.#storedPathOf(value);
    if (stored === null) return null;
    const record = this.#store.fileInputRecord(stored);
    if (!record || record.mime === null || record.size === null) return null;
    const refusal = recordedProblem(record, rule);
    if (refusal !== null) throw inputProblem(rule.field, refusal);
    hold.hold(stored);
    if (!(await hasInputFile(this.#libraryDir, stored, record.size))) {
      return null; // gone or changed meanwhile: validated and copied again from the value
    }
    return { ...record, field: rule.field };
  }

  /**
   * Keeps one validated value: a local file or Base64 becomes the library file of its content
   * (written only when the library lacks it), held by `hold`; a URL stays as given.
   */
  async keep(v: ValidatedInput, text: string, hold: InputHold): Promise<TaskInput> {
    if (v.source === 'url') {
      return {
        field: v.field,
        source: 'url',
        value: v.url,
        mime: null,
        size: null,
        sha256: null,
        width: null,
        height: null,
      };
    }
    const { path, hash } =
      v.source === 'file'
        ? await keepFileInput(this.#libraryDir, v, (stored) => hold.hold(stored))
        : await this.keepBase64(text, v.mime, hold);
    return {
      field: v.field,
      source: 'file',
      value: path,
      mime: v.mime,
      size: hash.size,
      sha256: hash.sha256,
      width: v.width ?? null,
      height: v.height ?? null,
      // the name the user knows it by (the copy is named by its hash); Base64 has only the name
      // its bytes came under before, if the library holds them
      name: v.source === 'file' ? ownName(text) : (this.#store.fileInputRecord(path)?.name ?? null),
    };
  }

  /**
   * Writes the bytes of Base64 text (raw or a `data:` URI) as the library file of their content,
   * unless the library holds it already. `mime`, when given, is what validation sniffed: the
   * decoded bytes must agree.
   */
  async keepBase64(
    text: string,
    mime: string | null,
    hold: InputHold,
  ): Promise<KeptInput & { mime: string }> {
    const { bytes, type } = decodeBase64Input(text);
    if (type === null || (mime !== null && type.mime !== mime)) {
      throw new Error(`the Base64 data is ${type?.mime ?? 'of no known media type'}, not ${mime ?? 'media'}`);
    }
    const { path, hash } = await keepInputBytes(this.#libraryDir, bytes, type.ext, (stored) =>
      hold.hold(stored),
    );
    return { path, hash, mime: type.mime };
  }

  /**
   * Removes those of `paths` (content paths; others are left to the task's own folders) that no
   * task refers to and no queueing holds. Returns one line per file it left for another reason
   * (a link where the input folder should be), for the log.
   */
  async removeUnused(paths: readonly string[]): Promise<string[]> {
    const candidates = [...new Set(paths)].filter(isContentInputPath);
    if (candidates.length === 0) return [];
    let root: string;
    try {
      root = await realpath(this.#libraryDir);
      await refuseLinksBelow(root, join(root, INPUTS_FOLDER));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      if (err instanceof UnsafePathError) return [`input files were left: ${err.message}`];
      throw err;
    }
    for (const path of candidates) {
      // one synchronous step: nothing can start to use the file between the check and the removal
      if (this.#pins.has(path) || this.#store.fileInputUses(path) > 0) continue;
      try {
        unlinkSync(join(root, ...path.split('/'))); // a link is removed, never followed
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    return [];
  }

  /** The content path a value names inside the library's input folder, or null. */
  async #storedPathOf(value: string): Promise<string | null> {
    if (!isAbsolute(value)) return null;
    const roots = [this.#libraryDir];
    const real = await realpath(this.#libraryDir).catch(() => null);
    if (real !== null && real !== this.#libraryDir) roots.push(real);
    for (const root of roots) {
      const rel = relative(root, value).split(sep).join('/');
      if (isContentInputPath(rel)) return rel;
    }
    return null;
  }
}

/** Whether a recorded input suits a field's rules (type, size, image sides); the problem, or null. */
function recordedProblem(record: TaskInput, rule: InputRule): string | null {
  const mime = record.mime ?? '';
  const ext = record.value.slice(record.value.lastIndexOf('.') + 1);
  const kind = mediaKindOfMime(mime);
  const subject = 'the library’s copy';
  const type: SniffedType | null = kind === 'file' ? null : { mime, ext, kind };
  const wrongType = typeProblem(subject, type, rule);
  if (wrongType !== null) return wrongType;
  const size = record.size ?? 0;
  if (size > maxBytesFor(rule)) return `${subject} is ${size} bytes; the limit is ${maxBytesFor(rule)}`;
  if (rule.kind === 'image' && record.width !== null && record.height !== null)
    return dimensionProblem(record.width, record.height, rule);
  return null;
}
