/**
 * The small rules of the backend: which service the settings call for, and which task changes
 * are news worth a notification.
 */
import { describe, expect, it } from 'vitest';
import { readPersistedSettings } from '../../src/core/settings/index.ts';
import { chooseService, TaskFinishWatch } from '../../src/main/backend/index.ts';
import { DEFAULT_SETTINGS, type Task, type TaskState } from '../../src/shared/index.ts';
import { expectSurvivesIpc } from './backend-fixtures.ts';

describe('chooseService', () => {
  const base = { demoMode: false, baseUrl: 'https://api.example.org', serviceProfile: 'custom' } as const;
  const hosted = { demoMode: false, baseUrl: '', serviceProfile: 'hosted' } as const;
  it.each([
    [{ ...base, demoMode: true }, true, 'sandbox'],
    [{ ...base, demoMode: true }, false, 'sandbox'],
    [DEFAULT_SETTINGS, false, 'sandbox'],
    [base, true, 'remote'],
    [{ ...base, baseUrl: '' }, true, 'none'],
    [base, false, 'none'],
    // the hosted service's address is known: a key is all it needs
    [hosted, true, 'remote'],
    [hosted, false, 'none'],
  ] as const)('%j with key=%s -> %s', (settings, hasKey, expected) => {
    expect(chooseService(settings, hasKey)).toBe(expected);
  });
});

describe('readPersistedSettings', () => {
  it('gives the defaults for nothing and for a non-object', () => {
    expect(readPersistedSettings(undefined)).toEqual({ settings: DEFAULT_SETTINGS, warnings: [] });
    const arr = readPersistedSettings([1, 2]);
    expect(arr.settings).toEqual(DEFAULT_SETTINGS);
    expect(arr.warnings[0]).toMatch(/does not hold an object/);
  });

  it('keeps valid fields and ignores unknown ones', () => {
    const r = readPersistedSettings({
      baseUrl: 'https://x.example',
      budgetMicros: 5,
      junk: true,
      budget: 'x',
    });
    expect(r.settings).toMatchObject({ baseUrl: 'https://x.example' });
    // the budget an earlier version kept in the file is read, to be moved into the library
    expect(r.settings).not.toHaveProperty('budgetMicros');
    expect(r.budgetMicros).toBe(5);
    expect(r.warnings).toEqual([]);
    const bad = readPersistedSettings({ baseUrl: 'javascript:alert(1)', budgetMicros: -1 });
    expect(bad.settings).toMatchObject({ baseUrl: '' });
    expect(bad.budgetMicros).toBeUndefined();
    expect(bad.warnings).toHaveLength(2);
  });

  it('reads a base URL stored before profiles existed as a custom service, unless it is the hosted one', () => {
    expect(readPersistedSettings({ baseUrl: 'https://proxy.example' }).settings.serviceProfile).toBe(
      'custom',
    );
    expect(readPersistedSettings({ baseUrl: 'https://api.piapi.ai' }).settings.serviceProfile).toBe('hosted');
    expect(readPersistedSettings({}).settings.serviceProfile).toBe('hosted');
  });

  it('refuses a model override that is not a model id, or names an unknown catalog entry or task type', () => {
    // keyed by catalog entry; an earlier version's task-type key reads as the entry it named
    const r = readPersistedSettings({ modelOverrides: { 'image-edit': 'Qubico/qwen-edit-image' } });
    expect(r.settings.modelOverrides).toEqual({ 'qwen-image/image-edit': 'Qubico/qwen-edit-image' });
    expect(r.warnings).toEqual([]);
    const upscale = {
      'video-toolkit/upscale': 'Qubico/video-toolkit-v2',
      upscale: 'Qubico/image-toolkit-v2',
    };
    expect(readPersistedSettings({ modelOverrides: upscale }).settings.modelOverrides).toEqual({
      'video-toolkit/upscale': 'Qubico/video-toolkit-v2',
      'image-toolkit/upscale': 'Qubico/image-toolkit-v2',
    });
    // flux1-dev/txt2img is a catalog entry since 0cabed5; flux1-dev-advanced is none
    expect(readPersistedSettings({ modelOverrides: { 'flux1-dev/txt2img': 'Qubico/x' } }).warnings).toEqual(
      [],
    );
    const unknown = readPersistedSettings({ modelOverrides: { 'flux1-dev-advanced/txt2img': 'Qubico/x' } });
    expect(unknown.warnings).toHaveLength(1);
    expect(unknown.warnings[0]).toContain('is not a model and task type the app knows');
    expect(unknown.settings.modelOverrides).toEqual({});
    expect(readPersistedSettings({ modelOverrides: { 'image-edit': 'no vendor' } }).warnings).toHaveLength(1);
    expect(readPersistedSettings({ modelOverrides: { nope: 'Qubico/x' } }).warnings).toHaveLength(1);
  });
});

function task(id: string, state: TaskState): Task {
  return { id, state } as Task;
}

describe('TaskFinishWatch', () => {
  it('reports a task reaching an end once, not on later edits', () => {
    const watch = new TaskFinishWatch(() => null);
    expect(watch.observe([{ taskId: 'a', task: task('a', 'processing') }])).toEqual([]);
    expect(watch.observe([{ taskId: 'a', task: task('a', 'saved') }]).map((t) => t.id)).toEqual(['a']);
    expect(watch.observe([{ taskId: 'a', task: task('a', 'saved') }])).toEqual([]);
  });

  it('reports uncertain, failed and expired, not cancelled', () => {
    const watch = new TaskFinishWatch(() => null);
    for (const id of ['u', 'f', 'e', 'c']) watch.observe([{ taskId: id, task: task(id, 'pending') }]);
    const news = watch.observe([
      { taskId: 'u', task: task('u', 'uncertain') },
      { taskId: 'f', task: task('f', 'failed') },
      { taskId: 'e', task: task('e', 'expired') },
      { taskId: 'c', task: task('c', 'cancelled') },
    ]);
    expect(news.map((t) => t.id)).toEqual(['u', 'f', 'e']);
  });

  it('asks when an unseen task entered its state', () => {
    const now = Date.parse('2025-01-01T00:01:00Z');
    const entered: Record<string, string> = { fresh: '2025-01-01T00:00:55Z', old: '2025-01-01T00:00:00Z' };
    const watch = new TaskFinishWatch(
      (id) => entered[id] ?? null,
      () => now,
    );
    const news = watch.observe([
      { taskId: 'fresh', task: task('fresh', 'saved') },
      { taskId: 'old', task: task('old', 'saved') },
      { taskId: 'gone', task: null },
    ]);
    expect(news.map((t) => t.id)).toEqual(['fresh']);
  });
});

describe('the IPC check the backend tests run on every result and event', () => {
  it('refuses what Electron cannot carry unchanged: class instances, functions, errors with fields', () => {
    class Point {
      x = 1;
    }
    expect(() => expectSurvivesIpc({ ok: true, value: new Point() }, 'a class')).toThrow();
    expect(() => expectSurvivesIpc({ ok: true, value: () => 1 }, 'a function')).toThrow(/cannot cross/);
    expect(() => expectSurvivesIpc(Object.assign(new Error('x'), { kind: 'k' }), 'an error')).toThrow();
    expect(() =>
      expectSurvivesIpc({ ok: true, value: { a: [1, 'b', null], d: { e: true } } }, 'plain'),
    ).not.toThrow();
  });
});
