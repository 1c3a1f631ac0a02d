import { existsSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../support/wait-until.ts';
import { songTask, tempLibraries } from './store-fixtures.ts';

const libs = tempLibraries();
afterEach(() => libs.cleanup());

describe('durability and concurrency', () => {
  it('keeps everything across close and reopen', () => {
    const dir = libs.dir();
    const first = libs.open(dir);
    const t = first.insertTask(songTask({ style: 'late night synthwave' }));
    first.transition(t.id, 'saved', { patch: { endedAt: '2025-01-01T00:00:00Z' } });
    first.setFavorite(t.id, true);
    first.setSetting('k', { a: 1 });
    const before = first.getTask(t.id);
    first.close();
    first.close(); // closing twice is harmless

    const second = libs.open(dir);
    expect(second.getTask(t.id)).toEqual(before);
    expect(second.events(t.id)).toHaveLength(2);
    expect(second.listTasks({ search: 'synthwave' }).items.map((i) => i.id)).toEqual([t.id]);
    expect(second.getSetting('k')).toEqual({ a: 1 });
    expect(second.countTasks().byState.saved).toBe(1);
    expect(second.integrityCheck()).toBe('ok');
  });

  it('a second connection sees committed changes, never uncommitted ones (WAL)', () => {
    const dir = libs.dir();
    const writer = libs.open(dir);
    const reader = libs.open(dir);
    expect(existsSync(`${writer.file}-wal`)).toBe(true);

    const t = writer.insertTask(songTask());
    expect(reader.getTask(t.id)?.state).toBe('queued');

    writer.transaction(() => {
      writer.transition(t.id, 'submitting');
      // Inside the writer's open transaction the reader still sees the committed state, without waiting.
      expect(reader.getTask(t.id)?.state).toBe('queued');
      expect(reader.countTasks().byState.submitting).toBe(0);
    });
    expect(reader.getTask(t.id)?.state).toBe('submitting');
    expect(reader.events(t.id)).toHaveLength(2);

    // And the other way round.
    reader.transition(t.id, 'pending', { from: ['submitting'] });
    expect(writer.getTask(t.id)?.state).toBe('pending');
  });

  it('a second writer waits for the lock, then gives up with a clear SQLite error after busy_timeout', () => {
    const dir = libs.dir();
    const holder = libs.open(dir);
    const impatient = libs.open(dir, { busyTimeoutMs: 50 });
    const t = holder.insertTask(songTask());
    holder.transaction(() => {
      holder.patchTask(t.id, { pollCount: 1 });
      const started = Date.now();
      expect(() => impatient.transition(t.id, 'failed')).toThrow(/locked|busy/i);
      expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    });
    // Nothing of the refused write happened, and the store that was refused still works.
    expect(impatient.getTask(t.id)).toMatchObject({ state: 'queued' });
    expect(impatient.pollSchedule(t.id)?.pollCount).toBe(1);
    expect(impatient.transition(t.id, 'failed')?.state).toBe('failed');
  });

  it('copies the WAL into the database file once writes pause, or when asked', async () => {
    const idle = libs.open(libs.dir(), { idleCheckpointMs: 20 });
    const manual = libs.open(libs.dir(), { idleCheckpointMs: 0 });
    const size = (file: string) => statSync(file).size;
    const idleBefore = size(idle.file);
    const manualBefore = size(manual.file);
    for (let i = 0; i < 30; i++) {
      idle.insertTask(songTask({ lyrics: 'x'.repeat(2000) }));
      manual.insertTask(songTask({ lyrics: 'x'.repeat(2000) }));
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(size(idle.file)).toBeGreaterThan(idleBefore);
    expect(size(manual.file)).toBe(manualBefore);
    manual.checkpoint();
    expect(size(manual.file)).toBeGreaterThan(manualBefore);
  });

  it("merges the search index's segments in steps once writes pause, never inside a write (migration 23)", async () => {
    const dir = libs.dir();
    const store = libs.open(dir, { idleCheckpointMs: 20 });
    const raw = libs.raw(dir);
    const segments = () =>
      Number(raw.prepare('SELECT count(DISTINCT segid) AS n FROM tasks_fts_idx').get()?.n);
    // FTS5's automerge merged 64 pages per level of the index inside the write that crossed 64
    // written pages (20-30 ms of CPU at a million tasks): the store merges on its own instead
    expect(raw.prepare("SELECT v FROM tasks_fts_config WHERE k = 'automerge'").get()?.v).toBe(0);
    for (let i = 0; i < 12; i++) store.insertTask(songTask({ title: `take ${i}` })); // a segment each
    expect(segments()).toBeGreaterThanOrEqual(12);
    await waitUntil(() => segments() < 4, 'the segments merged once writes paused');
    expect(store.listTasks({ search: 'take' }).items).toHaveLength(12);
    expect(store.integrityCheck()).toBe('ok');
  });

  it('a step of the search index merging never waits for another connection holding the write lock', () => {
    const dir = libs.dir();
    const holder = libs.open(dir);
    const other = libs.open(dir); // busy_timeout 5 s
    for (let i = 0; i < 6; i++) holder.insertTask(songTask());
    holder.transaction(() => {
      holder.patchTask(holder.nextQueued(1)[0]?.id as string, { pollCount: 1 });
      const started = performance.now();
      expect(other.mergeSearchIndex()).toBe(false);
      expect(performance.now() - started).toBeLessThan(1000);
    });
    expect(other.mergeSearchIndex()).toBe(true); // the six segments, merged once the lock is free
    expect(other.integrityCheck()).toBe('ok');
  });
});
