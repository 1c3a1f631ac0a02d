/**
 * Export never overwrites and never follows a planted link: each task gets a new folder
 * (`name (2)` when taken) and every file is created new. Special files are refused as a
 * destination or a source (a FIFO would block the copy for ever; /proc and /sys are not places
 * for files), with a clear message, and nothing hangs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import { exportTasks, numberedName } from '../../src/core/library/index.ts';
import { MODELS, type Task } from '../../src/shared/index.ts';
import { openEngine, removeDir, tempDir } from './engine-fixtures.ts';

const linux = process.platform === 'linux';

let dir: string;
let lib: string;
let dest: string;
let engine: TaskEngine;
let task: Task;

/** A queued task with one saved output file in its own folder. */
async function taskWithOutput(e: TaskEngine, bytes = 'RIFF-audio'): Promise<Task> {
  const t = await e.queueTask({
    model: MODELS.audio,
    taskType: 'txt2audio',
    input: { style_prompt: 'calm piano', lyrics: '[verse]\nhello', duration: 8 },
  });
  const folder = join(lib, '2025', '01', t.id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'output-1.wav'), bytes);
  e.store.replaceOutputs(t.id, [{ kind: 'audio', url: 'https://x.example/o', field: 'audio' }]);
  e.store.updateOutput(t.id, 0, { state: 'saved', path: `2025/01/${t.id}/output-1.wav` });
  return e.store.getTask(t.id) as Task;
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

beforeEach(async () => {
  dir = await tempDir('mts-export-');
  lib = join(dir, 'lib');
  dest = join(dir, 'export');
  engine = await openEngine(lib, null);
  task = await taskWithOutput(engine);
});

afterEach(async () => {
  await engine.close();
  await removeDir(dir);
});

describe('export never overwrites', () => {
  it('a second export of the same task goes to a new folder; the first stays as it was', async () => {
    const first = await exportTasks(lib, [task], dest);
    const firstFolder = first.tasks[0]?.folder as string;
    writeFileSync(join(firstFolder, 'output-1.wav'), 'edited by the user');
    const second = await exportTasks(lib, [task], dest);
    expect(second.tasks[0]?.folder).toBe(`${firstFolder} (2)`);
    expect(readFileSync(join(firstFolder, 'output-1.wav'), 'utf8')).toBe('edited by the user');
    expect(readFileSync(join(`${firstFolder} (2)`, 'output-1.wav'), 'utf8')).toBe('RIFF-audio');
    expect(second.tasks[0]?.files.sort()).toEqual(['output-1.wav', 'task.json']);
  });

  it('does not write through a link planted where a file of the export will go', async () => {
    const first = await exportTasks(lib, [task], dest);
    const folder = first.tasks[0]?.folder as string;
    await removeDir(folder);
    mkdirSync(folder);
    writeFileSync(join(dir, 'victim.txt'), 'precious');
    symlinkSync(join(dir, 'victim.txt'), join(folder, 'task.json'));
    symlinkSync(join(dir, 'victim.txt'), join(folder, 'output-1.wav'));
    const again = await exportTasks(lib, [task], dest);
    expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('precious');
    expect(again.tasks[0]?.folder).toBe(`${folder} (2)`);
  });

  it('does not write into a folder reached through a link planted as the task’s folder', async () => {
    const name = (await exportTasks(lib, [task], join(dir, 'probe'))).tasks[0]?.folder
      .split('/')
      .pop() as string;
    mkdirSync(dest);
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(dest, name));
    const result = await exportTasks(lib, [task], dest);
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual([]);
    expect(result.tasks[0]?.folder).toBe(join(dest, `${name} (2)`));
  });

  it('names a task’s folder without direction controls: it reads as the command line prints the title', async () => {
    // U+202E turns what follows around where a name is shown with its direction ("photoexe.png")
    engine.store.rename(task.id, 'photo\u202egnp.exe\u2066 \u200fnote\u2069');
    const renamed = engine.store.getTask(task.id) as Task;
    const result = await exportTasks(lib, [renamed], dest);
    const [folder] = readdirSync(dest);
    expect(folder).toBe(`photognp-exe-note-${task.id.slice(0, 8)}`);
    expect(result.tasks[0]?.folder).toBe(join(dest, folder as string));
    expect(readdirSync(join(dest, folder as string)).sort()).toEqual(['output-1.wav', 'task.json']);
  });

  it('numbers names before the extension', () => {
    expect(numberedName('output-1.wav', 1)).toBe('output-1.wav');
    expect(numberedName('output-1.wav', 2)).toBe('output-1 (2).wav');
    expect(numberedName('task.json', 3)).toBe('task (3).json');
    expect(numberedName('README', 2)).toBe('README (2)');
  });
});

describe.skipIf(!linux)('export refuses special files (Linux)', () => {
  it('refuses a destination under /proc/self with a clear message', async () => {
    await expect(exportTasks(lib, [task], '/proc/self/fd')).rejects.toThrow(
      /destDir: "\/proc\/self\/fd" is under \/proc, which holds special files/,
    );
    await expect(exportTasks(lib, [task], '/sys/kernel/export-here')).rejects.toThrow(/is under \/sys/);
  });

  it('refuses a destination reached through a link into /proc', async () => {
    symlinkSync('/proc/self', join(dir, 'innocent'));
    await expect(exportTasks(lib, [task], join(dir, 'innocent'))).rejects.toThrow(/is under \/proc/);
  });

  it('refuses a FIFO as the destination', async () => {
    mkfifo(join(dir, 'pipe'));
    await expect(exportTasks(lib, [task], join(dir, 'pipe'))).rejects.toThrow(/exists and is not a folder/);
  });

  it('refuses a FIFO in the library as a source instead of blocking on it', async () => {
    const fifo = join(lib, '2025', '01', task.id, 'output-1.wav');
    await removeDir(fifo);
    mkfifo(fifo);
    await expect(exportTasks(lib, [task], dest)).rejects.toThrow(/not a regular file/);
    expect(existsSync(dest)).toBe(false); // refused before anything was written
  }, 5_000);
});
