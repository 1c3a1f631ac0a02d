/**
 * Local paths the page hands the backend (a library folder, an export destination, a file to
 * check) are refused when they are network (UNC) or device paths, before anything touches them,
 * and an export destination among special files (/proc, /sys, a FIFO) is refused with a clear
 * message instead of hanging the backend. Through `backend.handle`, as the page calls it.
 * The network paths are spelled `/` + this test's own folder (`//tmp/mts-…`): on Linux such a
 * path is local, so code that failed to refuse it would still only write inside that folder.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaCheck, StudioSettings, Task } from '../../src/shared/index.ts';
import { type Harness, openBackend, removeDir, SONG, tempDir } from './backend-fixtures.ts';

let dir: string;
let h: Harness;
let song: Task;
/** `//tmp/mts-outside-…/<rest>`: a UNC path by its spelling, inside this test's folder on Linux. */
const unc = (rest: string) => `/${join(dir, rest)}`;

beforeAll(async () => {
  dir = await tempDir('mts-outside-');
  h = await openBackend(dir);
  await h.ok('engine.status');
  h.backend.setNetworkOnline(false); // queued only: nothing needs the sandbox
  song = await h.ok<Task>('tasks.queue', SONG);
});

afterAll(async () => {
  await h?.backend.close();
  await removeDir(dir);
});

async function refusal(name: string, args: unknown) {
  const r = await h.call(name, args);
  expect(r.ok).toBe(false);
  if (r.ok) throw new Error(`${name} was not refused`);
  return r.error;
}

describe('network and device paths from the page', () => {
  it('refuses a UNC library folder and keeps the library it has', async () => {
    const before = await h.ok<StudioSettings>('settings.get');
    for (const libraryDir of [unc('library'), '\\\\evil-host\\share\\library']) {
      const error = await refusal('settings.update', { libraryDir });
      expect(error).toMatchObject({ kind: 'invalid-input', field: 'libraryDir' });
      expect(error.message).toMatch(/^libraryDir: .* is a network \(UNC\) path/);
    }
    expect((await h.ok<StudioSettings>('settings.get')).libraryDir).toBe(before.libraryDir);
  });

  it('refuses a UNC or device export destination, typed or chosen in the dialog', async () => {
    const typed = await refusal('tasks.export', { ids: [song.id], destDir: unc('out') });
    expect(typed).toMatchObject({ kind: 'invalid-input', field: 'destDir' });
    expect(typed.message).toMatch(/network \(UNC\) path/);
    const device = await refusal('tasks.export', { ids: [song.id], destDir: `//.${join(dir, 'pipe-out')}` });
    expect(device.message).toMatch(/device path/);
    h.dialogs.folder = unc('chosen');
    const chosen = await refusal('tasks.export', { ids: [song.id] });
    expect(chosen).toMatchObject({ kind: 'unsafe-path', field: 'destDir' });
    expect(chosen.message).toMatch(/network \(UNC\) path/);
  });

  it('media.check answers that a UNC file is a network path (it was never looked up)', async () => {
    // even a UNC path the window was given (a drop from a network share) is never touched
    h.backend.grantDroppedFile(unc('face.png'));
    const check = await h.ok<MediaCheck>('media.check', {
      field: 'target_image',
      value: unc('face.png'),
      kind: 'image',
    });
    expect(check.ok).toBe(false);
    expect(check.message).toMatch(/^target_image: .* is a network \(UNC\) path/);
  });
});

describe.skipIf(process.platform !== 'linux')('special files as an export destination', () => {
  it('refuses /proc/self with a clear message, and the next call still answers', async () => {
    // the page cannot name it at all; chosen in the dialog, it is refused as a special file
    expect(await refusal('tasks.export', { ids: [song.id], destDir: '/proc/self/fd/0' })).toMatchObject({
      kind: 'not-given',
      field: 'destDir',
    });
    h.dialogs.folder = '/proc/self/fd/0';
    const error = await refusal('tasks.export', { ids: [song.id] });
    expect(error).toMatchObject({ kind: 'unsafe-path', field: 'destDir' });
    expect(error.message).toMatch(/is under \/proc, which holds special files/);
    const page = await h.ok<{ items: unknown[] }>('tasks.list', {});
    expect(page.items.length).toBeGreaterThan(0);
    h.dialogs.folder = join(dir, 'fine');
    const ok = await h.ok<{ folder: string }>('tasks.export', { ids: [song.id] });
    expect(ok.folder).toBe(join(dir, 'fine'));
  });
});
