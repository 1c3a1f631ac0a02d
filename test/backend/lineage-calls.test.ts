/**
 * The calls for keeping going from a result, through `backend.handle` with the real engine and
 * the built-in sandbox: a batch of face swaps from dropped files (a file the user never gave is
 * refused naming the draft), its summary and cancel, a result used as an input with its lineage
 * both ways, and a task.json import through the file dialog (null when cancelled).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BatchCancelView,
  BatchSummary,
  BatchView,
  ExportResult,
  Task,
  TaskLineage,
} from '../../src/shared/index.ts';
import { type Harness, openBackend, removeDir, tempDir, waitUntil, writePng } from './backend-fixtures.ts';

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

async function saved(id: string): Promise<Task> {
  return waitUntil(async () => {
    const t = await h.ok<Task | null>('tasks.get', { id });
    return t?.state === 'saved' ? t : null;
  });
}

const swapDraft = (target: unknown, face: string) => ({
  model: 'image-toolkit',
  taskType: 'face-swap',
  input: { target_image: target, swap_image: face },
});

describe('batches and lineage through the contract', () => {
  it('queues a batch of dropped pictures; a picture not given is refused naming its draft', async () => {
    const face = await writePng(join(dir, 'face.png'), 64, 64);
    const targets = await Promise.all([1, 2, 3].map((i) => writePng(join(dir, `t${i}.png`), 80 + i * 8, 60)));
    for (const f of [face, targets[0], targets[2]]) h.backend.grantDroppedFile(f as string);
    const refused = await h.call('tasks.queueBatch', { drafts: targets.map((t) => swapDraft(t, face)) });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error).toMatchObject({ kind: 'not-given', field: 'target_image' });
      expect(refused.error.message).toMatch(
        /^draft 2 of 3: target_image: this file was not given to the app/,
      );
    }
    h.backend.grantDroppedFile(targets[1] as string);
    const batch = await h.ok<BatchView>('tasks.queueBatch', {
      drafts: targets.map((t) => swapDraft(t, face)),
    });
    expect(batch.tasks.map((t) => t.batchId)).toEqual([batch.batchId, batch.batchId, batch.batchId]);
    const open = await h.ok<BatchSummary[]>('tasks.batches', {});
    expect(open.map((b) => b.batchId)).toContain(batch.batchId);
    for (const t of batch.tasks) await saved(t.id);
    const [summary] = await h.ok<BatchSummary[]>('tasks.batches', { batchId: batch.batchId });
    expect(summary).toMatchObject({ total: 3, done: 3, taskType: 'face-swap', title: 'Face swap' });
    expect(await h.ok<BatchCancelView>('tasks.cancelBatch', { batchId: batch.batchId })).toEqual({
      batchId: batch.batchId,
      cancelled: 0,
      cancelledAfterUncertain: 0,
      alreadySent: 0,
      ended: 3,
      uncertain: 0,
    });
    const unknown = await h.call('tasks.cancelBatch', { batchId: 'nope' });
    expect(unknown.ok === false && unknown.error.kind).toBe('not-allowed');

    // a result of the batch upscaled: its lineage both ways
    const first = batch.tasks[0] as Task;
    const up = await h.ok<Task>('tasks.queue', {
      model: 'image-toolkit',
      taskType: 'upscale',
      input: { image: { $output: { taskId: first.id, index: 0 } }, scale: 2 },
    });
    expect([up.parentId, up.parentOutput]).toEqual([first.id, 0]);
    const lineage = await h.ok<TaskLineage>('tasks.lineage', { id: up.id });
    expect(lineage.madeFrom.map((i) => [i.id, i.batchId])).toEqual([[first.id, batch.batchId]]);
    expect((await h.ok<TaskLineage>('tasks.lineage', { id: first.id })).madeInto.map((i) => i.id)).toEqual([
      up.id,
    ]);
    const missing = await h.call('tasks.lineage', { id: 'nope' });
    expect(missing.ok === false && missing.error).toMatchObject({ kind: 'not-found', field: 'id' });
    await saved(up.id);
  });

  it('imports a task.json chosen in the file dialog; null when the dialog is cancelled', async () => {
    const face = await writePng(join(dir, 'face2.png'), 64, 64);
    const target = await writePng(join(dir, 'target2.png'), 90, 70);
    h.backend.grantDroppedFile(face);
    h.backend.grantDroppedFile(target);
    const task = await h.ok<Task>('tasks.queue', { ...swapDraft(target, face), title: 'To export' });
    await saved(task.id);
    h.dialogs.folder = join(dir, 'exports');
    const exported = await h.ok<ExportResult>('tasks.export', { ids: [task.id] });
    h.dialogs.file = null;
    expect(await h.ok('tasks.importTaskFile', {})).toBeNull();
    h.dialogs.file = join(exported.tasks[0]?.folder ?? '', 'task.json');
    const again = await h.ok<Task>('tasks.importTaskFile', {});
    expect(again).toMatchObject({
      title: 'To export',
      state: 'queued',
      parentId: task.id,
      parentOutput: null,
    });
    expect(h.dialogs.asked.at(-1)).toBe('Import a task (task.json from an export)');
    await saved(again.id);
  });
});
