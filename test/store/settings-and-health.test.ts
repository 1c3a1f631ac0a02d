import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { songTask, tempLibraries } from './store-fixtures.ts';

const libs = tempLibraries();
afterEach(() => libs.cleanup());

describe('settings', () => {
  it('stores JSON values by key, overwrites, deletes and checks with a schema', () => {
    const store = libs.open();
    expect(store.getSetting('budget')).toBeNull();
    store.setSetting('budget', 5_000_000);
    store.setSetting('ui', { theme: 'dark', columns: [1, 2] });
    expect(store.getSetting<number>('budget')).toBe(5_000_000);
    expect(store.getSetting('ui', z.object({ theme: z.string() }))).toEqual({ theme: 'dark' });
    expect(() => store.getSetting('ui', z.number())).toThrow(/Setting ui/);
    store.setSetting('budget', null);
    expect(store.getSetting('budget')).toBeNull();
    store.setSetting('budget', 7);
    expect(store.deleteSetting('budget')).toBe(true);
    expect(store.deleteSetting('budget')).toBe(false);
    expect(store.getSetting('budget')).toBeNull();
    expect(() => store.setSetting('bad', undefined)).toThrow(/cannot be stored/);
  });
});

describe('integrityCheck', () => {
  it("is 'ok' on a healthy library and names what drifted otherwise", () => {
    const dir = libs.dir();
    const store = libs.open(dir);
    const t = store.insertTask(songTask({ style: 'ambient drone' }));
    store.transition(t.id, 'saved');
    expect(store.integrityCheck()).toBe('ok');

    const raw = libs.raw(dir);
    raw.exec("UPDATE task_totals SET tasks = tasks + 5 WHERE state = 'saved'");
    expect(store.integrityCheck()).toMatch(/task totals: 1 group\(s\) differ/);
    raw.exec("UPDATE task_totals SET tasks = tasks - 5 WHERE state = 'saved'");
    expect(store.integrityCheck()).toBe('ok');

    // Take the task's words out of the full-text index behind the store's back.
    raw.exec(
      `INSERT INTO tasks_fts (tasks_fts, rowid, title, prompt, lyrics)
       SELECT 'delete', seq, title, prompt, lyrics FROM tasks`,
    );
    expect(store.integrityCheck()).toMatch(/full-text index/);
  });
});
