/**
 * The last window pieces of keeping going from a result:
 * - "Queue again from an export…" in the Library: a song exported to a folder (Export selected),
 *   its task.json answered to main's file dialog, what it would queue shown (model, price,
 *   the boards it goes on, inputs), Queue pressed, a new task queued whose parent is the song, and a toast saying so; a
 *   file that is not a task.json refused in plain words; the exported WAV itself (issue 22, item 2) read and
 *   queued the same way, a picture the app did not make refused saying why; a task.json someone else wrote, naming
 *   pictures outside its folder and a webhook: nothing read from there, a file to pick for each,
 *   the webhook shown and off, Queue unavailable until the files are picked, Cancel queues
 *   nothing; a task with no published price under a budget says so in the summary;
 * - Extend from the player bar opens the Extend form with the playing song, as the detail's does;
 * - the detail of the extend queued from it says how the song was sent (the service's link).
 * The song is made through the contract's own `tasks.queue` and run by the real engine and sandbox.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Task, TaskFilePreview } from '../../src/shared/index.ts';
import { waitUntil } from '../support/wait-until.ts';
import { chooseFiles } from './harness/file-drop.ts';
import { writePicture } from './harness/local-media.ts';
import { PICTURE_SIZES, SHOT_SIZES } from './harness/look-check.ts';
import { inEachTheme } from './harness/page-boxes.ts';
import { playerBar } from './harness/player-ui.ts';
import { saveSongs } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, openView, queueButton, slot } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const TITLE = 'Lighthouse song';
const SHOTS = '/tmp/keep-going-shots';

describe.skipIf(!browserAvailable())(
  'keep going from the window: import, player Extend, how it was sent',
  () => {
    let rig: StudioRig;
    let view: StudioPage;
    let song: Task;
    let extended: Task;

    openStudio(
      {
        service: 'service',
        prepare: async (rig) => {
          [song] = await saveSongs(rig, [
            { title: TITLE, style: 'folk, fiddle', lyrics: '[verse]\nthe light turns', seconds: 3 },
          ]);
        },
      },
      (opened) => {
        ({ rig, view } = opened);
      },
    );

    it('queues a task again from an exported task.json, as a re-run of the song, on its board', async () => {
      const { page } = view;
      const board = await rig.call('boards.create', { name: 'Sea songs' });
      await rig.call('boards.add', { id: board.id, selection: { ids: [song.id] } });
      await openView(page, 'library');
      await card(page, song.id)
        .getByRole('checkbox', { name: `Select ${TITLE}` })
        .check();
      await page.getByRole('button', { name: 'Export selected' }).click();
      await page
        .locator('[data-testid="toast"][data-tone="success"]')
        .filter({ hasText: 'Exported 1 task' })
        .waitFor();
      await page.getByRole('button', { name: 'Clear selection' }).click();
      const [folder] = await readdir(rig.exportDir);
      rig.dialogs.file = join(rig.exportDir, folder!, 'task.json');

      const importCalls = () => view.bridge.calls.filter((c) => c.name === 'tasks.queueTaskFile');
      await page.getByRole('button', { name: 'Queue again from an export…' }).click();
      const dialog = page.getByTestId('task-file-dialog');
      await dialog.waitFor();
      expect(rig.dialogs.asked).toContain('Queue again from an export: a task.json or a file the app made');
      const summary = await dialog.getByTestId('task-file-summary').textContent();
      expect(summary).toContain(`Song from text “${TITLE}”`);
      const read = view.bridge.calls.find((c) => c.name === 'tasks.readTaskFile');
      const model = (read!.value as TaskFilePreview).model;
      expect(model).toMatch(/\/ace-step$/);
      expect(summary).toContain(`Model${model} (txt2audio)`);
      expect(await dialog.getByTestId('task-file-price').textContent()).toBe('$0.0015 (3 s x $0.0005/s)');
      // the boards the new task is put on, as the CLI's summary names them
      expect(await dialog.getByTestId('task-file-boards').textContent()).toBe('Sea songs');
      expect(importCalls()).toHaveLength(0);
      await dialog.getByRole('button', { name: 'Queue', exact: true }).click();
      const call = await waitUntil(() => importCalls()[0], 'the tasks.queueTaskFile call');
      expect(call.ok, `tasks.queueTaskFile answered: ${JSON.stringify(call.error)}`).toBe(true);
      expect(call.args).toMatchObject({ files: {}, keepWebhook: false, acceptUnknownPrice: false });
      await dialog.waitFor({ state: 'hidden' });
      const queued = call.value as Task;
      await page
        .locator('[data-testid="toast"][data-tone="success"]')
        .filter({ hasText: `Queued “${TITLE}” again from the export` })
        .waitFor();
      const stored = (await rig.call('tasks.get', { id: queued.id }))!;
      expect(stored.id).not.toBe(song.id);
      // the model shown is the one sent
      expect(stored).toMatchObject({ parentId: song.id, parentOutput: null, taskType: 'txt2audio', model });
      expect(stored.request.input).toMatchObject({ style_prompt: 'folk, fiddle', duration: 3 });
      const onBoard = await rig.call('tasks.list', { board: board.id, limit: 10 });
      expect(onBoard.items.map((t) => t.id)).toContain(queued.id);
      await rig.waitForTask(queued.id, ['saved']);

      // a file that is not a task.json: nothing queued, the reason in words
      const bad = join(rig.filesDir, 'task.json');
      await writeFile(bad, 'not json at all');
      rig.dialogs.file = bad;
      await page.getByRole('button', { name: 'Queue again from an export…' }).click();
      const refusal = page
        .locator('[data-testid="toast"][data-tone="error"]')
        .filter({ hasText: 'Nothing was queued from the export.' });
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('task.json: is not JSON');

      // a result file the app exported (the song's WAV, its parameters inside): the same summary and word
      const exported = join(rig.exportDir, folder!);
      const wav = (await readdir(exported)).find((f) => f.endsWith('.wav'));
      rig.dialogs.file = join(exported, wav!);
      await page.getByRole('button', { name: 'Queue again from an export…' }).click();
      await dialog.waitFor();
      expect(await dialog.getByTestId('task-file-recall').textContent()).toBe(
        `the WAV comment of ${wav} (task “${TITLE}” in this library)`,
      );
      expect(await dialog.getByTestId('task-file-summary').textContent()).toContain(`Re-run of“${TITLE}”`);
      await mkdir(SHOTS, { recursive: true });
      for (const size of PICTURE_SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await inEachTheme(page, async (theme) => {
          await page.screenshot({ path: `${SHOTS}/result-file-dialog-${size.name}-${theme}.png` });
        });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      await dialog.getByRole('button', { name: 'Queue', exact: true }).click();
      const fromWav = await waitUntil(() => importCalls()[1], 'the tasks.queueTaskFile call of the WAV');
      expect(fromWav.ok, `tasks.queueTaskFile answered: ${JSON.stringify(fromWav.error)}`).toBe(true);
      await dialog.waitFor({ state: 'hidden' });
      // the notice names the file it came from (this WAV is no export's task.json)
      await page
        .locator('[data-testid="toast"][data-tone="success"]')
        .filter({ hasText: `Queued “${TITLE}” again from ${wav}` })
        .waitFor();
      const again = (await rig.call('tasks.get', { id: (fromWav.value as Task).id }))!;
      expect(again).toMatchObject({ parentId: song.id, parentOutput: null, taskType: 'txt2audio' });

      // a picture the app did not make: why it cannot be queued again
      rig.dialogs.file = await writePicture(rig.filesDir, 'holiday.png', 40, 30);
      await page.getByRole('button', { name: 'Queue again from an export…' }).click();
      const stranger = page
        .locator('[data-testid="toast"][data-tone="error"]')
        .filter({ hasText: 'holiday.png' });
      await stranger.waitFor();
      expect(await stranger.textContent()).toContain(
        'holiday.png: this picture has no Media Task Studio parameters in it and no result in this library has its checksum, so it cannot be recalled or queued again',
      );
      expect(importCalls()).toHaveLength(2);
      await rig.waitForTask(again.id, ['saved']);
    });

    it('a task.json someone else wrote reads no picture outside its folder and shows its webhook, off', async () => {
      const { page } = view;
      const outside = await writePicture(rig.filesDir, 'private.png', 120, 90);
      const folder = join(rig.filesDir, 'received');
      await mkdir(folder, { recursive: true });
      await writeFile(
        join(folder, 'task.json'),
        JSON.stringify({
          title: 'A present',
          request: {
            model: 'service/image-toolkit',
            task_type: 'face-swap',
            input: { target_image: outside, swap_image: '../private.png' },
            config: { webhook_config: { endpoint: 'https://collector.example/hook?user=7', secret: 's' } },
          },
        }),
      );
      rig.dialogs.file = join(folder, 'task.json');
      const before = (await rig.call('tasks.count', {})).total;
      const queueCalls = () => view.bridge.calls.filter((c) => c.name === 'tasks.queueTaskFile');
      const calls = queueCalls().length;
      await openView(page, 'library');
      await page.getByRole('button', { name: 'Queue again from an export…' }).click();
      const dialog = page.getByTestId('task-file-dialog');
      await dialog.waitFor();
      const target = dialog.locator('[data-testid="task-file-input"][data-field="target_image"]');
      expect(await target.textContent()).toContain(
        `needs a file you pick (its value in the task.json names ${JSON.stringify(outside)}, outside the export folder`,
      );
      expect(await dialog.getByTestId('task-file-webhook').textContent()).toContain(
        'https://collector.example/hook?user=7',
      );
      const keep = dialog.getByRole('checkbox', { name: 'Send this webhook too' });
      expect(await keep.isChecked()).toBe(false);
      const queue = dialog.getByRole('button', { name: 'Queue', exact: true });
      expect(await queue.isDisabled()).toBe(true);
      expect(await dialog.getByTestId('task-file-missing').textContent()).toBe(
        'Pick a file for target_image, swap_image first.',
      );
      const mine = await writePicture(rig.filesDir, 'mine.png', 100, 80);
      await chooseFiles(page, dialog.getByTestId('task-file-pick-target_image'), [{ path: mine }]);
      expect(await target.textContent()).toContain('Picked: mine.png');
      await mkdir(SHOTS, { recursive: true });
      for (const size of SHOT_SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        await inEachTheme(page, async (theme) => {
          await page.screenshot({ path: `${SHOTS}/task-file-dialog-${size.name}-${theme}.png` });
        });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(queueCalls()).toHaveLength(calls);
      expect((await rig.call('tasks.count', {})).total).toBe(before);
    });

    it('Extend in the player bar opens the Extend form with the song playing', async () => {
      const { page } = view;
      await openView(page, 'library');
      await card(page, song.id)
        .getByRole('button', { name: `Play ${TITLE}`, exact: true })
        .click();
      const bar = playerBar(page);
      await bar.and(page.locator(`[data-task-id="${song.id}"]`)).waitFor();
      await bar.getByRole('button', { name: 'Extend', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Compose' }).waitFor();
      expect(
        await page.getByRole('tab', { name: 'From a result', exact: true }).getAttribute('aria-selected'),
      ).toBe('true');
      const panel = page.getByRole('tabpanel');
      expect(await panel.getByRole('radio', { name: 'Extend' }).isChecked()).toBe(true);
      expect(await slot(page, 'source_audio').getByTestId('slot-name').textContent()).toBe(TITLE);
      expect(await page.getByTestId('parent-note').textContent()).toBe(`Made from “${TITLE}”`);

      const queueCalls = () => view.bridge.calls.filter((c) => c.name === 'tasks.queue');
      await queueButton(page).click();
      const confirm = page.getByTestId('confirm-dialog');
      await waitUntil(
        async () => queueCalls().length > 0 || (await confirm.isVisible()),
        'the queue call or its price question',
      );
      if (queueCalls().length === 0) await confirm.getByRole('button', { name: 'Queue anyway' }).click();
      const call = await waitUntil(() => queueCalls()[0], 'the tasks.queue call');
      expect(call.ok, `tasks.queue answered: ${JSON.stringify(call.error)}`).toBe(true);
      expect(call.args).toMatchObject({ taskType: 'extend', parentId: song.id, parentOutput: 0 });
      extended = await rig.waitForTask((call.value as Task).id, ['saved']);
    });

    it("the extend's detail says the song was sent as the service's link", async () => {
      const { page } = view;
      const events = await rig.call('tasks.events', { id: extended.id });
      expect(events.find((e) => e.to === 'queued')?.detail).toContain("sent as the service's URL");
      await openView(page, 'library');
      await card(page, extended.id)
        .getByRole('button', { name: `Open ${extended.title}` })
        .click();
      const detail = page.locator(`[data-testid="detail-panel"][data-task-id="${extended.id}"]`);
      const sent = detail.getByTestId('sent-source');
      await sent.waitFor();
      expect(await sent.allTextContents()).toEqual(["The song was sent as the service's link."]);

      // the song itself was made from nothing: no such line
      await card(page, song.id)
        .getByRole('button', { name: `Open ${TITLE}` })
        .click();
      const songDetail = page.locator(`[data-testid="detail-panel"][data-task-id="${song.id}"]`);
      await songDetail.getByTestId('made-into').waitFor();
      expect(await songDetail.getByTestId('sent-source').count()).toBe(0);
    });

    it('an export with no published price under a budget says so before it is queued', async () => {
      const { page } = view;
      const photo = await writePicture(rig.filesDir, 'harbour.png', 320, 240);
      const queued = await rig.call('tasks.queue', {
        model: 'service/image-toolkit',
        taskType: 'upscale',
        title: 'Harbour upscaled',
        input: { image: photo, scale: 2 },
      });
      const upscale = await rig.waitForTask(queued.id, ['saved']);
      // exported to the folder the dialog answers (the rig's export folder)
      await rig.call('tasks.export', { ids: [upscale.id] });
      const folder = (await readdir(rig.exportDir)).find((f) => f.endsWith(upscale.id.slice(0, 8)));
      rig.dialogs.file = join(rig.exportDir, folder!, 'task.json');
      await rig.call('settings.update', { budgetMicros: 100_000_000 });
      try {
        const importCalls = () => view.bridge.calls.filter((c) => c.name === 'tasks.queueTaskFile');
        const before = importCalls().length;
        await openView(page, 'library');
        await page.getByRole('button', { name: 'Queue again from an export…' }).click();
        const dialog = page.getByTestId('task-file-dialog');
        await dialog.waitFor();
        expect(await dialog.getByTestId('task-file-price').textContent()).toBe(
          'Unknown: no published price for upscale',
        );
        expect(importCalls()).toHaveLength(before);
        await dialog.getByRole('button', { name: 'Queue', exact: true }).click();
        const call = await waitUntil(() => importCalls()[before], 'the tasks.queueTaskFile call');
        expect(call.args).toMatchObject({ acceptUnknownPrice: true });
        expect(call.ok, `tasks.queueTaskFile answered: ${JSON.stringify(call.error)}`).toBe(true);
        const stored = (await rig.call('tasks.get', { id: (call.value as Task).id }))!;
        expect(stored).toMatchObject({ parentId: upscale.id, parentOutput: null, taskType: 'upscale' });
        await page
          .locator('[data-testid="toast"][data-tone="success"]')
          .filter({ hasText: 'Queued “Harbour upscaled” again from the export' })
          .waitFor();
        await rig.waitForTask(stored.id, ['saved']);
      } finally {
        await rig.call('settings.update', { budgetMicros: null });
      }
    });
  },
);
