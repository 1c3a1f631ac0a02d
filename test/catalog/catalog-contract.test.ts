/**
 * The catalog's contract, for every entry (a new entry needs no new test): its example (each
 * media field given a sample file of its kind) passes the draft checks the engine runs; the
 * sandbox, over real HTTP in both answer profiles, completes it and the engine saves an output of
 * the entry's kind into a real library (the kind sniffed from the saved bytes); the CLI creates it
 * through the generic `create <entry id>` with the example's values (run in process); and it has a
 * price, or the CLI under a budget refuses it without --accept-unknown-price and says so.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { optionNameOf } from '../../src/cli/create-parser.ts';
import { exitCodeOf, main, messageOf } from '../../src/cli/main.ts';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import { checkDraftFields } from '../../src/core/engine/intake/task-drafts.ts';
import { LibraryStore } from '../../src/core/store/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { generateVideoMp4 } from '../../src/sandbox/media/index.ts';
import { encodeWav16 } from '../../src/sandbox/media/wav-encode.ts';
import { type InputMediaKind, TASK_TYPES, type TaskTypeEntry } from '../../src/shared/index.ts';
import { sniffFileType } from '../../src/shared/media/index.ts';
import { API_KEY, openEngine, removeDir, sandbox, tempDir, waitForState } from '../engine/engine-fixtures.ts';
import { FAST_POLLING } from '../support/fast-polling.ts';
import { writePicture } from '../support/pictures.ts';

const PROFILES = ['spec', 'hosted'] as const;
type Profile = (typeof PROFILES)[number];

let dir: string;
const sandboxes = {} as Record<Profile, Sandbox>;
const engines = {} as Record<Profile, TaskEngine>;
const samples = {} as Record<InputMediaKind, string>;

beforeAll(async () => {
  dir = await tempDir('mts-catalog-contract-');
  samples.image = await writePicture(join(dir, 'picture.jpg'), 240, 200, 'jpeg');
  samples.audio = join(dir, 'song.wav');
  const rate = 16_000;
  writeFileSync(
    samples.audio,
    encodeWav16(
      new Int16Array(rate * 3).map((_, i) => Math.round(Math.sin(i / 9) * 9000)),
      rate,
    ),
  );
  samples.video = join(dir, 'clip.mp4');
  writeFileSync(samples.video, generateVideoMp4({ prompt: 'a walk', seconds: 2 }));
  for (const profile of PROFILES) {
    sandboxes[profile] = await sandbox({ profile, timeScale: 0.002, concurrencyLimit: 50 });
    engines[profile] = await openEngine(join(dir, `lib-${profile}`), sandboxes[profile], {
      polling: FAST_POLLING,
    });
  }
  // the CLI's library has a budget, so a task without a known price is asked about first
  const store = LibraryStore.open(join(dir, 'lib-cli'));
  store.setSetting('budgetMicros', 50_000_000);
  store.close();
});

afterAll(async () => {
  for (const profile of PROFILES) {
    await engines[profile]?.close();
    await sandboxes[profile]?.stop();
  }
  await removeDir(dir);
});

/** The entry's example with each of its media fields (and any required one it lacks) given a sample file. */
function filledExample(entry: TaskTypeEntry): Record<string, unknown> {
  const input: Record<string, unknown> = { ...entry.example };
  for (const [field, rule] of Object.entries(entry.input.fields)) {
    if (rule.media && (field in input || rule.required)) input[field] = samples[rule.media];
  }
  return input;
}

/** The example's values as the generic create's options: `--negative-prompt TEXT`, `--face-enhance`. */
function optionsOf(input: Record<string, unknown>): string[] {
  return Object.entries(input).flatMap(([field, value]) => {
    const option = `--${optionNameOf(field)}`;
    if (typeof value === 'boolean') return [value ? option : `--no-${optionNameOf(field)}`];
    return [option, String(value)];
  });
}

/** Runs the CLI in this process, its output captured. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  let code: number;
  try {
    code = await main(['--library', join(dir, 'lib-cli'), '--json', ...args], {
      MEDIA_TASK_API_KEY: API_KEY,
      MEDIA_TASK_BASE_URL: sandboxes.spec.url,
    });
  } catch (e) {
    code = exitCodeOf(e);
    stderr += messageOf(e);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return { code, stdout, stderr };
}

/** The non-media fields of an input, as sent (media go as uploads or Base64). */
function withoutMedia(entry: TaskTypeEntry, input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([field]) => !entry.input.fields[field]?.media));
}

describe.each(TASK_TYPES.map((entry) => [entry.id, entry] as const))('catalog entry %s', (_id, entry) => {
  const draft = () => ({ model: entry.modelName, taskType: entry.taskType, input: filledExample(entry) });

  it('its example passes the draft checks the engine runs', () => {
    expect(() => checkDraftFields(draft(), entry)).not.toThrow();
  });

  it('a required media field left empty is refused in its own words, the ones its composer slot shows', () => {
    for (const [field, rule] of Object.entries(entry.input.fields)) {
      if (!rule.media || !rule.required) continue;
      expect(rule.missing, `${field}: its missing words`).toMatch(/^Add /);
      const input = { ...filledExample(entry), [field]: '' };
      expect(() => checkDraftFields({ ...draft(), input }, entry)).toThrow(`${field}: ${rule.missing}`);
    }
  });

  it.each(PROFILES)(
    'the sandbox (%s profile) completes it, and the library saves an output of its kind',
    async (profile) => {
      const engine = engines[profile];
      const queued = await engine.queueTask({ ...draft(), acceptUnknownPrice: true });
      const done = await waitForState(engine, queued.id, ['saved', 'failed'], 20_000);
      expect(done.state, done.error?.message).toBe('saved');
      expect(done.entryId).toBe(entry.id);
      const kinds = entry.outputFields?.map((f) => f.kind) ?? [entry.outputKind];
      expect(done.outputs.length).toBeGreaterThanOrEqual(kinds.length);
      const libraryDir = join(dir, `lib-${profile}`);
      done.outputs.forEach((output, i) => {
        const bytes = readFileSync(join(libraryDir, output.path as string));
        expect(sniffFileType(bytes.subarray(0, 4096))?.kind).toBe(kinds[i] ?? entry.outputKind);
      });
    },
  );

  it('the CLI creates it through create <entry id> with the example values, and it has a price or asks first', async () => {
    const args = ['create', entry.id, ...optionsOf(filledExample(entry))];
    const first = await cli(args);
    let task: { entryId: string; estimateMicros: number | null; request: { input: Record<string, unknown> } };
    if (first.code === 0) {
      task = JSON.parse(first.stdout).tasks[0];
      // queued under a budget without --accept-unknown-price: it has a price
      expect(task.estimateMicros).toBeGreaterThan(0);
    } else {
      expect(first.code, first.stderr).toBe(2);
      expect(first.stderr).toMatch(/--accept-unknown-price/);
      const accepted = await cli([...args, '--accept-unknown-price']);
      expect(accepted.code, accepted.stderr).toBe(0);
      task = JSON.parse(accepted.stdout).tasks[0];
      expect(task.estimateMicros).toBeNull();
    }
    expect(task.entryId).toBe(entry.id);
    expect(task.request.input).toMatchObject(withoutMedia(entry, filledExample(entry)));
  });
});
