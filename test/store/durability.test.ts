import { existsSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
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
});
