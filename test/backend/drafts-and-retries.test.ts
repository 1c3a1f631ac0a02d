/**
 * Nothing the user did is lost or paid for twice (issue 17, items 12 and 13), through
 * `backend.handle` on real files and a real SQLite library:
 * - the composer's forms are kept in a file of the app's data folder (owner-only, written through
 *   a temporary file) and read back after a restart (a new backend over the same folder); a local
 *   file is kept only while given to the app, and after a restart comes back only as the
 *   library's copy of the same bytes, else empty with its name and a note; a damaged file is
 *   reported in plain words and kept aside; "One task per line" is kept per tab;
 * - "Retry the failed ones" queues each failure of a batch once, as a new batch of re-runs of
 *   them, and refuses the failures already retried, also when asked twice at once.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVED_FORMS_FILE_NAME } from '../../src/main/backend/saved-forms-file.ts';
import type {
  BatchRetryView,
  BatchSummary,
  BatchView,
  SavedFormsInput,
  SavedFormsView,
  SavedSlot,
  Task,
} from '../../src/shared/index.ts';
import {
  type Harness,
  openBackend,
  removeDir,
  SONG,
  savedTask,
  tempDir,
  waitUntil,
  writePng,
} from './backend-fixtures.ts';

let dir: string;
let h: Harness;

beforeAll(async () => {
  dir = await tempDir();
  h = await openBackend(dir);
});

afterAll(async () => {
  await h?.backend.close();
  await removeDir(dir);
});

/** A backend started again over the same data folder (the app quit and opened). */
async function restart(): Promise<void> {
  await h.backend.close();
  h = await openBackend(dir);
}

const EMPTY: SavedSlot = { value: '', label: '', origin: null, result: null, note: null };
const TABS = ['song', 'faceSwap', 'imageEdit', 'fromResult', 'other'] as const;
const perTab = <T>(value: T) =>
  Object.fromEntries(TABS.map((t) => [t, value])) as Record<(typeof TABS)[number], T>;

/** Forms as the first version wrote them (no Image, Video or 3D tab, none of their slots). */
function forms(patch: Partial<SavedFormsInput> = {}): SavedFormsInput {
  return {
    version: 1,
    tab: 'song',
    song: {
      stylePrompt: 'dream pop',
      negativePrompt: '',
      lyrics: '[verse]\nkept across a restart',
      duration: 42,
    },
    faceSwap: { mode: 'one', swapFacesIndex: '0', targetFacesIndex: '0' },
    imageEdit: { prompt: 'make it night', negativePrompt: '', seed: '', steps: '', flowShift: '' },
    fromResult: { operation: 'extend', values: {} },
    other: { model: 'image-gen', taskType: 'txt2img', modelId: '', json: '{}' },
    common: perTab({ title: '', webhookEndpoint: '', webhookSecret: '' }),
    slots: {
      style_audio: EMPTY,
      target_image: EMPTY,
      swap_image: EMPTY,
      image1: EMPTY,
      image2: EMPTY,
      image3: EMPTY,
      source_audio: EMPTY,
      source_image: EMPTY,
    },
    parent: perTab(null),
    batch: {
      variations: perTab(1),
      songSplit: false,
      extra: { target_image: [], source_image: [] },
    },
    ...patch,
  };
}

const fileSlot = (path: string): SavedSlot => ({
  value: path,
  label: path.split('/').pop() ?? path,
  origin: 'file',
  result: null,
  note: null,
});

describe('the composer forms kept across restarts', () => {
  it('starts with none; keeps what was typed in an owner-only file, and a given file only', async () => {
    expect(await h.ok<SavedFormsView>('compose.loadForms')).toEqual({ forms: null, problem: null });
    const given = await writePng(join(dir, 'given.png'), 64, 64);
    const used = await writePng(join(dir, 'used-by-a-task.png'), 72, 64);
    const other = join(dir, 'never-given.png');
    await writePng(other, 40, 40);
    h.backend.grantDroppedFile(given);
    h.backend.grantDroppedFile(used);
    const draft = forms({
      slots: {
        ...forms().slots,
        target_image: fileSlot(given),
        swap_image: fileSlot(used),
        image1: fileSlot(other),
      },
    });
    expect(await h.ok('compose.saveForms', draft)).toEqual({ saved: true });
    const file = join(dir, SAVED_FORMS_FILE_NAME);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('kept across a restart');
    // a path the user never gave the app is not kept: the window cannot make main remember it
    expect(text).not.toContain(other);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    // no temporary file left behind
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);

    const read = await h.ok<SavedFormsView>('compose.loadForms');
    expect(read.problem).toBeNull();
    expect(read.forms?.song.lyrics).toBe('[verse]\nkept across a restart');
    expect(read.forms?.slots.target_image.value).toBe(given);
    expect(read.forms?.slots.image1).toMatchObject({ value: '', origin: null });
    expect(read.forms?.slots.image1.note).toMatch(/not given to the app; drop it here again/);
  });

  it('after a restart: the words are back; a file comes back only as the library copy of its bytes', async () => {
    const used = join(dir, 'used-by-a-task.png');
    const given = join(dir, 'given.png');
    // a task used one of the two pictures: the library holds a copy of its bytes
    const task = await h.ok<Task>('tasks.queue', {
      model: 'image-toolkit',
      taskType: 'upscale',
      input: { image: used, scale: 2 },
    });
    await savedTask(h, task.id);
    await restart();

    const read = await h.ok<SavedFormsView>('compose.loadForms');
    expect(read.problem).toBeNull();
    expect(read.forms?.song).toMatchObject({ stylePrompt: 'dream pop', duration: 42 });
    const swap = read.forms?.slots.swap_image;
    expect(swap?.origin).toBe('library');
    expect(swap?.value.startsWith(h.backend.libraryDir())).toBe(true);
    expect(swap?.label).toBe('used-by-a-task.png');
    // the window may check (and queue) the library's copy
    const check = await h.ok<{ ok: boolean }>('media.check', {
      field: 'swap_image',
      value: swap?.value,
      kind: 'image',
      faceSwap: true,
    });
    expect(check.ok).toBe(true);
    // the other was never copied: empty, with its name and what to do
    const target = read.forms?.slots.target_image;
    expect(target).toMatchObject({ value: '', label: 'given.png', origin: null });
    expect(target?.note).toBe(
      'given.png is not read again after a restart until you give it to the app: drop it here again (or browse for it).',
    );
    // and the window still cannot name it
    const refused = await h.ok<{ ok: boolean; message: string }>('media.check', {
      field: 'target_image',
      value: given,
      kind: 'image',
    });
    expect(refused.ok).toBe(false);
  });

  it('a typed webhook secret is never kept: not in the file, not given back; the form says to type it again', async () => {
    const secret = 'whsec-typed-in-the-composer-7f3a';
    const common = {
      ...perTab({ title: '', webhookEndpoint: '', webhookSecret: '' }),
      song: { title: 'hooked', webhookEndpoint: 'https://hooks.example.com/media', webhookSecret: secret },
      // a secret without an endpoint is not sent anyway: nothing to type again
      other: { title: '', webhookEndpoint: '', webhookSecret: `${secret}-other` },
    };
    expect(await h.ok('compose.saveForms', forms({ common }))).toEqual({ saved: true });
    const file = join(dir, SAVED_FORMS_FILE_NAME);
    expect(readFileSync(file, 'utf8')).not.toContain(secret);
    const read = await h.ok<SavedFormsView>('compose.loadForms');
    expect(JSON.stringify(read)).not.toContain(secret);
    expect(read.forms?.common.song).toEqual({
      title: 'hooked',
      webhookEndpoint: 'https://hooks.example.com/media',
      webhookSecret: '',
      webhookSecretNotKept: true,
    });
    expect(read.forms?.common.other).toEqual({ title: '', webhookEndpoint: '', webhookSecret: '' });
    // a file an earlier version wrote, with the secret in it: never given back either
    writeFileSync(file, JSON.stringify(forms({ common })));
    await restart();
    const old = await h.ok<SavedFormsView>('compose.loadForms');
    expect(old.problem).toBeNull();
    expect(JSON.stringify(old)).not.toContain(secret);
    expect(old.forms?.common.song).toMatchObject({ webhookSecret: '', webhookSecretNotKept: true });
  });

  it('"One task per line" is kept per tab across a restart; a file without it reads as off', async () => {
    const batch = {
      variations: perTab(1),
      songSplit: false,
      extra: { target_image: [], source_image: [] },
      promptLines: { song: true, image: true, other: false },
    };
    expect(await h.ok('compose.saveForms', forms({ batch }))).toEqual({ saved: true });
    await restart();
    const read = await h.ok<SavedFormsView>('compose.loadForms');
    expect(read.problem).toBeNull();
    expect(read.forms?.batch.promptLines).toEqual({ song: true, image: true, other: false });
    // a tab the composer does not have is refused like any bad field
    const bad = await h.call('compose.saveForms', {
      ...forms(),
      batch: { ...batch, promptLines: { lyrics: true } },
    });
    expect(bad.ok).toBe(false);
    // an earlier version's file (no promptLines) is read as it was
    writeFileSync(join(dir, SAVED_FORMS_FILE_NAME), JSON.stringify(forms()));
    const old = await h.ok<SavedFormsView>('compose.loadForms');
    expect(old.problem).toBeNull();
    expect(old.forms?.batch.promptLines ?? {}).toEqual({});
  });

  it('a damaged file is reported in plain words and kept aside; the composer starts empty', async () => {
    const file = join(dir, SAVED_FORMS_FILE_NAME);
    writeFileSync(file, '{"version":1,"tab":"song","song":{"lyrics":');
    const read = await h.ok<SavedFormsView>('compose.loadForms');
    expect(read.forms).toBeNull();
    expect(read.problem).toMatch(
      /^Your saved drafts were damaged \(it is not valid JSON\), so the composer starts empty; the damaged file was kept as .*composer-forms\.json\.damaged-\d+\.$/,
    );
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir).some((f) => f.startsWith(`${SAVED_FORMS_FILE_NAME}.damaged-`))).toBe(true);
    // a file of the wrong shape too, naming what is wrong
    writeFileSync(file, JSON.stringify({ ...forms(), tab: 'lyrics' }));
    const wrong = await h.ok<SavedFormsView>('compose.loadForms');
    expect(wrong.problem).toMatch(/^Your saved drafts were damaged \(tab: /);
    expect(await h.ok<SavedFormsView>('compose.loadForms')).toEqual({ forms: null, problem: null });
    // what the window sends is checked like any call
    const bad = await h.call('compose.saveForms', { ...forms(), song: { lyrics: 3 } });
    expect(bad.ok).toBe(false);
  });
});

describe('retrying the failures of a batch', () => {
  const summaryOf = async (batchId: string) =>
    (await h.ok<BatchSummary[]>('tasks.batches', { batchId }))[0] as BatchSummary;

  async function failedBatch(count: number): Promise<BatchView> {
    h.backend.builtInSandbox()?.setFaults({ taskFailureRate: 1, seed: 5 });
    const drafts = Array.from({ length: count }, (_, i) => ({
      ...SONG,
      title: `Failing ${i + 1}`,
      input: { ...SONG.input, duration: 5 + i },
    }));
    const batch = await h.ok<BatchView>('tasks.queueBatch', { drafts });
    await waitUntil(async () => (await summaryOf(batch.batchId)).failed === count, 'the batch to fail');
    h.backend.builtInSandbox()?.setFaults({});
    return batch;
  }

  it('queues each failure once as a new batch of re-runs, then refuses them', async () => {
    const batch = await failedBatch(2);
    expect(await summaryOf(batch.batchId)).toMatchObject({ failed: 2, retried: 0 });
    const retry = await h.ok<BatchRetryView>('tasks.retryFailed', { batchId: batch.batchId });
    expect(retry.batchId).toBe(batch.batchId);
    expect(retry.retryBatchId).not.toBe(batch.batchId);
    expect(retry.alreadyRetried).toBe(0);
    expect(retry.tasks.map((t) => [t.parentId, t.parentOutput, t.batchId, t.title])).toEqual(
      batch.tasks.map((t) => [t.id, null, retry.retryBatchId, t.title]),
    );
    expect(await summaryOf(batch.batchId)).toMatchObject({ failed: 2, retried: 2 });
    // the window learns each failure's retry
    const retries = await h.ok<Task[]>('tasks.retries', { ids: batch.tasks.map((t) => t.id) });
    expect(retries.map((t) => t.id)).toEqual(retry.tasks.map((t) => t.id));

    const again = await h.call('tasks.retryFailed', { batchId: batch.batchId });
    expect(again.ok).toBe(false);
    if (!again.ok) {
      expect(again.error.kind).toBe('not-allowed');
      expect(again.error.message).toBe(
        'these 2 failed tasks were retried already; each retry is shown with its failure',
      );
    }
    for (const t of retry.tasks) await savedTask(h, t.id);
  });

  it('asked twice at once, each failure is queued (and billed) once', async () => {
    const batch = await failedBatch(2);
    const answers = await Promise.all([
      h.call('tasks.retryFailed', { batchId: batch.batchId }),
      h.call('tasks.retryFailed', { batchId: batch.batchId }),
    ]);
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    const refused = answers.find((a) => !a.ok);
    expect(refused && !refused.ok && refused.error.message).toMatch(/retried already/);
    const retries = await h.ok<Task[]>('tasks.retries', { ids: batch.tasks.map((t) => t.id) });
    expect(retries).toHaveLength(2);
    for (const t of retries) await savedTask(h, t.id);
    const ledger = h.backend.builtInSandbox()?.ledger() ?? [];
    for (const t of retries) {
      const seconds = (t.request.input as { duration: number }).duration;
      expect(
        ledger.filter((e) => JSON.stringify(e).includes(`"duration":${seconds}`)).length,
      ).toBeGreaterThan(0);
    }
  });

  it('a batch with no failure, or one not in the library, says so', async () => {
    const none = await h.call('tasks.retryFailed', { batchId: 'no-such-batch' });
    expect(!none.ok && none.error.message).toBe('no batch no-such-batch in the library');
    const batch = await h.ok<BatchView>('tasks.queueBatch', { drafts: [SONG] });
    const nothing = await h.call('tasks.retryFailed', { batchId: batch.batchId });
    expect(!nothing.ok && nothing.error.message).toBe(
      'no task of this batch failed, so there is nothing to retry',
    );
    await savedTask(h, batch.tasks[0]!.id);
  });
});
