import { afterEach, describe, expect, it } from 'vitest';
import { LibraryStoreError, type TaskPatch } from '../../src/core/store/index.ts';
import type { TaskEvent } from '../../src/shared/index.ts';
import {
  faceSwapTask,
  fileInput,
  songTask,
  steppingClock,
  tempLibraries,
  urlInput,
} from './store-fixtures.ts';

const libs = tempLibraries();
afterEach(() => libs.cleanup());

const brief = (events: TaskEvent[]) => events.map((e) => [e.from, e.to, e.detail]);

describe('insert and read back', () => {
  it('round-trips a task with its inputs, outputs and first event', () => {
    const store = libs.open(undefined, { now: steppingClock() });
    const created = store.insertTask(
      faceSwapTask({ id: 'task-1', createdAt: '2025-03-01T12:00:00+02:00', parentId: null, favorite: true }),
    );
    expect(created).toMatchObject({
      id: 'task-1',
      state: 'queued',
      family: 'face-swap',
      favorite: true,
      remoteId: null,
      createdAt: '2025-03-01T10:00:00.000Z',
      updatedAt: '2025-03-01T10:00:00.000Z',
      estimateMicros: 10_000,
      outputs: [],
    });
    // the engine's poll bookkeeping is kept beside the task, not in it
    expect(created).not.toHaveProperty('pollCount');
    expect(created).not.toHaveProperty('nextPollAt');
    expect(store.pollSchedule('task-1')).toEqual({ pollCount: 0, nextPollAt: null });
    expect(created.inputs).toEqual([
      urlInput('swap_image', 'https://example.test/a.png'),
      fileInput('target_image', 'inputs/t/b.png'),
    ]);
    expect(store.getTask('task-1')).toEqual(created);
    expect(brief(store.events('task-1'))).toEqual([[null, 'queued', null]]);

    const outputs = store.replaceOutputs('task-1', [
      { kind: 'image', url: 'https://cdn.test/o1.png', field: 'output.image_urls[0]' },
      { kind: 'image', url: 'https://cdn.test/o2.png', field: 'output.image_urls[1]' },
    ]);
    expect(outputs?.map((o) => [o.index, o.state, o.path])).toEqual([
      [0, 'pending', null],
      [1, 'pending', null],
    ]);
    const saved = store.updateOutput('task-1', 1, {
      state: 'saved',
      path: 'outputs/task-1/1.png',
      thumbPath: 'thumbs/task-1/1.webp',
      mime: 'image/png',
      size: 2048,
      sha256: 'cd'.repeat(32),
      width: 512,
      height: 256,
    });
    expect(saved).toMatchObject({
      index: 1,
      state: 'saved',
      path: 'outputs/task-1/1.png',
      width: 512,
      error: null,
    });
    expect(store.updateOutput('task-1', 7, { state: 'saved' })).toBeNull();
    expect(store.getTask('task-1')?.outputs.map((o) => o.state)).toEqual(['pending', 'saved']);

    // Replacing drops the old list.
    store.replaceOutputs('task-1', [
      { kind: 'audio', url: 'https://cdn.test/a.mp3', field: 'output.audio_url' },
    ]);
    expect(store.getTask('task-1')?.outputs.map((o) => [o.kind, o.state])).toEqual([['audio', 'pending']]);
  });

  it('gives a random id and the clock time when none is given', () => {
    const store = libs.open(undefined, { now: () => new Date('2025-05-05T05:05:05.000Z') });
    const t = store.insertTask(songTask());
    expect(t.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.createdAt).toBe('2025-05-05T05:05:05.000Z');
    expect(t.family).toBe('song');
  });

  it('refuses a duplicate id, an unknown parent, a wrong family and a bad request', () => {
    const store = libs.open();
    store.insertTask(songTask({ id: 'a' }));
    expect(() => store.insertTask(songTask({ id: 'a' }))).toThrow(/already exists/);
    expect(() => store.insertTask(songTask({ parentId: 'missing' }))).toThrow(/parentId missing/);
    expect(() => store.insertTask(songTask({ family: 'face-swap' }))).toThrow(/family face-swap/);
    const bad = { ...songTask(), request: { model: 'x', task_type: 'y', input: 'nope' } };
    expect(() => store.insertTask(bad as never)).toThrow(LibraryStoreError);
    expect(store.countTasks().total).toBe(1);
  });

  it('finds a task by its remote id', () => {
    const store = libs.open();
    const t = store.insertTask(songTask());
    store.transition(t.id, 'submitting');
    store.transition(t.id, 'pending', { patch: { remoteId: 'remote-42' } });
    expect(store.getTaskByRemoteId('remote-42')?.id).toBe(t.id);
    expect(store.getTaskByRemoteId('remote-43')).toBeNull();
    expect(store.getTask('nope')).toBeNull();
  });
});

describe('transition', () => {
  it('moves the state, applies the patch and appends the event in one go', () => {
    const store = libs.open(undefined, { now: steppingClock() });
    const t = store.insertTask(songTask());
    const patch: TaskPatch = {
      remoteId: 'r-1',
      remoteStatus: 'processing',
      usage: { type: 'credits', frozen: 2.5, consume: null },
      error: { kind: 'network', message: 'reset', code: null },
      submittedAt: '2025-03-01T10:00:05Z',
      remoteCreatedAt: '2025-03-01T18:00:06+08:00',
      startedAt: '2025-03-01T10:00:07.000Z',
      nextPollAt: 1_740_823_210_000,
      pollCount: 3,
      title: 'Renamed while moving',
    };
    const moved = store.transition(t.id, 'processing', { from: ['queued'], patch, detail: 'accepted' });
    expect(moved).toMatchObject({
      state: 'processing',
      remoteId: 'r-1',
      remoteStatus: 'processing',
      usage: { type: 'credits', frozen: 2.5, consume: null },
      error: { kind: 'network', message: 'reset', code: null },
      submittedAt: '2025-03-01T10:00:05.000Z',
      remoteCreatedAt: '2025-03-01T10:00:06.000Z',
      startedAt: '2025-03-01T10:00:07.000Z',
      endedAt: null,
      title: 'Renamed while moving',
      updatedAt: '2025-03-01T10:00:01.000Z',
    });
    expect(store.pollSchedule(t.id)).toEqual({ nextPollAt: 1_740_823_210_000, pollCount: 3 });
    expect(store.getTask(t.id)).toEqual(moved);
    const events = store.events(t.id);
    expect(brief(events)).toEqual([
      [null, 'queued', null],
      ['queued', 'processing', 'accepted'],
    ]);
    expect(events[1]?.at).toBe('2025-03-01T10:00:01.000Z');

    // null clears; undefined keeps.
    const cleared = store.transition(t.id, 'completed', {
      patch: { error: null, nextPollAt: null, endedAt: '2025-03-01T10:01:00Z' },
    });
    expect(cleared).toMatchObject({ error: null, remoteId: 'r-1' });
    expect(store.pollSchedule(t.id)).toEqual({ nextPollAt: null, pollCount: 3 });
  });

  it('with a `from` guard that does not hold, changes nothing and returns null', () => {
    const store = libs.open();
    const t = store.insertTask(songTask());
    expect(store.transition(t.id, 'submitting', { from: ['queued'] })?.state).toBe('submitting');
    const before = store.getTask(t.id);
    expect(
      store.transition(t.id, 'submitting', { from: ['queued'], patch: { title: 'x' }, detail: 'again' }),
    ).toBeNull();
    expect(store.getTask(t.id)).toEqual(before);
    expect(brief(store.events(t.id))).toEqual([
      [null, 'queued', null],
      ['queued', 'submitting', null],
    ]);
    expect(store.transition('missing', 'failed')).toBeNull();
    expect(store.events('missing')).toEqual([]);
  });

  it('a failing patch (remote id already used) rolls back the state and the event', () => {
    const store = libs.open();
    const a = store.insertTask(songTask());
    const b = store.insertTask(songTask());
    store.transition(a.id, 'pending', { patch: { remoteId: 'same' } });
    expect(() => store.transition(b.id, 'pending', { patch: { remoteId: 'same' } })).toThrow(/UNIQUE/);
    expect(store.getTask(b.id)?.state).toBe('queued');
    expect(store.events(b.id)).toHaveLength(1);
    expect(store.countTasks().byState).toMatchObject({ queued: 1, pending: 1 });
  });

  it('rejects an unknown state or a malformed patch before touching anything', () => {
    const store = libs.open();
    const t = store.insertTask(songTask());
    expect(() => store.transition(t.id, 'lost' as never)).toThrow(/Unknown task state/);
    expect(() => store.transition(t.id, 'failed', { patch: { pollCount: -1 } })).toThrow(/pollCount/);
    expect(() => store.transition(t.id, 'failed', { patch: { startedAt: 'yesterday' } })).toThrow(
      /startedAt/,
    );
    expect(() => store.transition(t.id, 'failed', { patch: { bogus: 1 } as never })).toThrow(/task patch/);
    expect(store.getTask(t.id)?.state).toBe('queued');
    expect(store.events(t.id)).toHaveLength(1);
  });

  it('commits a durable transition like any other', () => {
    const store = libs.open();
    const t = store.insertTask(songTask());
    expect(store.transition(t.id, 'submitting', { from: ['queued'], durable: true })?.state).toBe(
      'submitting',
    );
    const nested = store.transaction(() => store.transition(t.id, 'pending', { durable: true }));
    expect(nested?.state).toBe('pending');
    expect(store.getTask(t.id)?.state).toBe('pending');
  });
});

describe('patches without a state change', () => {
  it('patchTask changes fields and updated_at but appends no event', () => {
    const store = libs.open(undefined, { now: steppingClock() });
    const t = store.insertTask(songTask());
    const patched = store.patchTask(t.id, { nextPollAt: 123, pollCount: 1, remoteStatus: 'pending' });
    expect(patched).toMatchObject({
      state: 'queued',
      remoteStatus: 'pending',
    });
    expect(store.pollSchedule(t.id)).toEqual({ nextPollAt: 123, pollCount: 1 });
    expect(patched?.updatedAt).not.toBe(t.updatedAt);
    expect(store.events(t.id)).toHaveLength(1);
    expect(store.patchTask('missing', { pollCount: 1 })).toBeNull();
  });

  it('setPollSchedule writes only the engine’s bookkeeping: updated_at stays, no event', () => {
    const store = libs.open(undefined, { now: steppingClock() });
    const t = store.insertTask(songTask());
    expect(store.setPollSchedule(t.id, { nextPollAt: 5_000, pollCount: 2 })).toBe(true);
    expect(store.pollSchedule(t.id)).toEqual({ nextPollAt: 5_000, pollCount: 2 });
    expect(store.setPollSchedule(t.id, { nextPollAt: null })).toBe(true);
    expect(store.pollSchedule(t.id)).toEqual({ nextPollAt: null, pollCount: 2 });
    expect(store.getTask(t.id)).toEqual(t);
    expect(store.events(t.id)).toHaveLength(1);
    expect(() => store.setPollSchedule(t.id, { pollCount: -1 })).toThrow(/pollCount/);
    expect(store.setPollSchedule('missing', { pollCount: 1 })).toBe(false);
    expect(store.pollSchedule('missing')).toBeNull();
  });

  it('setFavorite and rename', () => {
    const store = libs.open();
    const t = store.insertTask(songTask({ title: 'Old title' }));
    expect(store.setFavorite(t.id, true)?.favorite).toBe(true);
    expect(store.setFavorite(t.id, false)?.favorite).toBe(false);
    expect(store.setFavorite('missing', true)).toBeNull();
    expect(store.rename(t.id, 'Brand new name')?.title).toBe('Brand new name');
    // The full-text index follows the rename.
    expect(store.listTasks({ search: 'brand' }).items.map((i) => i.id)).toEqual([t.id]);
    expect(store.listTasks({ search: 'old' }).items).toEqual([]);
    expect(store.events(t.id)).toHaveLength(1);
  });
});

describe('transactions', () => {
  it('commits all or nothing, and a nested call joins the outer one', () => {
    const store = libs.open();
    const kept = store.insertTask(songTask());
    expect(() =>
      store.transaction(() => {
        store.insertTask(songTask({ id: 'inside' }));
        store.transition(kept.id, 'cancelled');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.getTask('inside')).toBeNull();
    expect(store.getTask(kept.id)?.state).toBe('queued');
    expect(store.events(kept.id)).toHaveLength(1);

    const result = store.transaction(() => {
      store.insertTask(songTask({ id: 'outer' }));
      expect(() =>
        store.transaction(() => {
          store.insertTask(songTask({ id: 'inner' }));
          throw new Error('inner fails');
        }),
      ).toThrow('inner fails');
      return store.transaction(() => store.transition('outer', 'submitting')?.state);
    });
    expect(result).toBe('submitting');
    expect(store.getTask('outer')?.state).toBe('submitting');
    expect(store.getTask('inner')).toBeNull();
  });

  it('refuses an async callback and rolls it back', () => {
    const store = libs.open();
    expect(() =>
      store.transaction(async () => {
        store.insertTask(songTask({ id: 'async' }));
      }),
    ).toThrow(/synchronous/);
    expect(store.getTask('async')).toBeNull();
    // The store is still usable afterwards.
    expect(store.insertTask(songTask({ id: 'after' })).id).toBe('after');
  });
});

describe('delete', () => {
  it('cascades inputs and outputs, returns their files and keeps the event log', () => {
    const store = libs.open();
    const t = store.insertTask(faceSwapTask({ id: 'gone' }));
    const rerun = store.insertTask(faceSwapTask({ id: 'rerun', parentId: 'gone' }));
    expect(rerun.parentId).toBe('gone');
    store.replaceOutputs(t.id, [{ kind: 'image', url: 'https://cdn.test/x.png', field: 'output.image_url' }]);
    store.updateOutput(t.id, 0, {
      state: 'saved',
      path: 'outputs/gone/0.png',
      thumbPath: 'thumbs/gone/0.webp',
    });

    const removed = store.deleteTask(t.id);
    expect(removed.deleted).toBe(true);
    expect(removed.inputs.filter((i) => i.source === 'file').map((i) => i.value)).toEqual(['inputs/t/b.png']);
    expect(removed.outputs.map((o) => [o.path, o.thumbPath])).toEqual([
      ['outputs/gone/0.png', 'thumbs/gone/0.webp'],
    ]);
    expect(store.getTask(t.id)).toBeNull();

    const db = libs.raw(store.file.replace(/[/\\]library\.sqlite$/, ''));
    expect(db.prepare("SELECT count(*) AS n FROM task_inputs WHERE task_id = 'gone'").get()?.n).toBe(0);
    expect(db.prepare("SELECT count(*) AS n FROM task_outputs WHERE task_id = 'gone'").get()?.n).toBe(0);
    expect(brief(store.events(t.id))).toEqual([
      [null, 'queued', null],
      ['queued', 'queued', 'deleted'],
    ]);
    // The re-run survives and forgets its original.
    expect(store.getTask('rerun')?.parentId).toBeNull();
    expect(store.deleteTask(t.id)).toEqual({ deleted: false, inputs: [], outputs: [] });
    expect(store.integrityCheck()).toBe('ok');
  });
});
