/**
 * Keeping going from a saved song, in the library detail's actions:
 * - Extend opens the From a result tab with the song in its slot (by title, as a library result),
 *   the right handle dragged on the waveform sets right_extend_duration, the handles and the
 *   numbers stay in step (keyboard too), the price follows the catalog's rule for extend, and
 *   Queue sends a task whose stored request has the `$output` resolved (the service's URL of the
 *   song, or its library file) and whose parent is the song;
 * - Edit and Remix open filled in from the song and queue an `edit` and an `audio2audio` made
 *   from it.
 * The song is made through the contract's own `tasks.queue` and run by the real engine and sandbox.
 */
import { describe, expect, it } from 'vitest';
import { costLine } from '../../src/renderer/src/model/money-text.ts';
import type { Task } from '../../src/shared/index.ts';
import { chooseAction, expectResolvedFrom, lineageOf, queueFromForm } from './harness/result-actions.ts';
import { saveSongs } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { slot } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SONG = {
  title: 'Harbour song',
  style: 'sea shanty, accordion, stomping',
  lyrics: '[verse]\nheave away',
};

describe.skipIf(!browserAvailable())('keep going from a song: extend, edit, remix', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let song: Task;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        [song] = await saveSongs(rig, [{ ...SONG, seconds: 3 }]);
      },
    },
    (opened) => {
      ({ rig, view } = opened);
    },
  );

  it('Extend: the song as source, the right handle dragged, the price followed, queued from the song', async () => {
    const { page } = view;
    await chooseAction(page, song, 'Extend');
    const tab = page.getByRole('tab', { name: 'From a result', exact: true });
    expect(await tab.getAttribute('aria-selected')).toBe('true');
    const panel = page.getByRole('tabpanel');
    expect(await panel.getByRole('radio', { name: 'Extend' }).isChecked()).toBe(true);

    // the song is in the slot by its title: a library result, not a path
    const source = slot(page, 'source_audio');
    expect(await source.getAttribute('data-status')).toBe('ok');
    expect(await source.getByTestId('slot-name').textContent()).toBe(SONG.title);
    expect(await source.getByTestId('slot-reason').textContent()).toMatch(
      /^Ready · A result in your library · 3 s$/,
    );
    expect(await page.getByTestId('parent-note').textContent()).toBe(`Made from “${SONG.title}”`);
    expect(await panel.getByLabel('Style of the new part', { exact: false }).inputValue()).toBe(SONG.style);
    expect(await panel.getByLabel('Title', { exact: false }).first().inputValue()).toBe(
      `${SONG.title} (extended)`,
    );

    // its waveform is drawn between the handles
    await panel.locator('[data-testid="extend-wave"][data-ready="true"]').waitFor();
    const right = panel.getByRole('slider', { name: 'Seconds to add after the song' });
    const left = panel.getByRole('slider', { name: 'Seconds to add before the song' });
    const after = panel.getByLabel('Seconds after', { exact: false });
    const before = panel.getByLabel('Seconds before', { exact: false });
    expect(await right.getAttribute('aria-valuenow')).toBe('10');
    expect(await after.inputValue()).toBe('10');

    const priceOf = (seconds: number) =>
      costLine('ace-step', 'extend', {
        audio: 'the song',
        style_prompt: SONG.style,
        left_extend_duration: 0,
        right_extend_duration: seconds,
      });
    const expectPrice = async (seconds: number) => {
      const cost = priceOf(seconds);
      const estimate = await page.getByTestId('cost-estimate').textContent();
      expect(estimate).toContain(cost.amount ?? 'unknown');
      expect(await panel.getByTestId('extend-summary').textContent()).toContain(
        `Price: ${cost.amount ?? 'unknown'}`,
      );
    };
    await expectPrice(10);

    // drag the right handle outwards: more seconds after, in step with the number
    const box = (await right.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 90, box.y + box.height / 2, { steps: 10 });
    await page.mouse.up();
    const dragged = Number(await right.getAttribute('aria-valuenow'));
    expect(dragged).toBeGreaterThan(14);
    expect(await after.inputValue()).toBe(String(dragged));
    expect(await panel.getByTestId('extend-summary').textContent()).toContain(`Adds ${dragged} s after`);
    await expectPrice(dragged);

    // the keyboard: the left handle moves out with ArrowLeft, Home takes it back
    await left.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await left.getAttribute('aria-valuenow')).toBe('2');
    expect(await before.inputValue()).toBe('2');
    await page.keyboard.press('Home');
    expect(await before.inputValue()).toBe('0');
    // and a number typed moves its handle
    await after.fill('25');
    expect(await right.getAttribute('aria-valuenow')).toBe('25');
    await expectPrice(25);
    await panel
      .getByRole('textbox', { name: 'Lyrics for the new part (optional)' })
      .fill('[chorus]\nhome again');

    const call = await queueFromForm(view);
    expect(call.args).toMatchObject({
      taskType: 'extend',
      parentId: song.id,
      parentOutput: 0,
      input: { audio: { $output: { taskId: song.id, index: 0 } }, right_extend_duration: 25 },
    });
    const queued = call.value as Task;
    const stored = (await rig.call('tasks.get', { id: queued.id }))!;
    expect(lineageOf(stored)).toEqual({ parentId: song.id, parentOutput: 0 });
    expect(stored.request.input).toMatchObject({
      right_extend_duration: 25,
      left_extend_duration: 0,
      lyrics: '[chorus]\nhome again',
    });
    expectResolvedFrom(stored, 'audio', song);
    const saved = await rig.waitForTask(queued.id, ['saved']);
    expect(saved.outputs[0]?.kind).toBe('audio');
  });

  it('Edit: the song now and its new words, queued as an edit of it', async () => {
    const { page } = view;
    await chooseAction(page, song, 'Edit');
    const panel = page.getByRole('tabpanel');
    expect(await panel.getByRole('radio', { name: 'Song edit' }).isChecked()).toBe(true);
    expect(await slot(page, 'source_audio').getByTestId('slot-name').textContent()).toBe(SONG.title);
    expect(await panel.getByLabel('Style of the song now', { exact: false }).inputValue()).toBe(SONG.style);
    expect(await panel.getByRole('textbox', { name: 'Lyrics of the song now (optional)' }).inputValue()).toBe(
      SONG.lyrics,
    );
    // what should change starts empty: a copy of the song's own would queue a billed edit of nothing
    const newLyrics = panel.getByRole('textbox', { name: 'New lyrics (optional)' });
    expect(await newLyrics.inputValue()).toBe('');
    expect(await panel.getByLabel('New style', { exact: false }).first().inputValue()).toBe('');
    expect(await page.getByTestId('queue-reason').textContent()).toBe(
      'Not ready: Write a new style or new lyrics: the edit changes nothing yet',
    );
    if (process.env.LYRICS_SHOTS_DIR) {
      for (const theme of ['light', 'dark'] as const) {
        await rig.call('settings.update', { theme });
        await page.emulateMedia({ colorScheme: theme });
        for (const size of [
          { width: 800, height: 600 },
          { width: 1920, height: 1080 },
        ]) {
          await page.setViewportSize(size);
          await newLyrics.scrollIntoViewIfNeeded();
          await page.screenshot({
            path: `${process.env.LYRICS_SHOTS_DIR}/song-edit-${theme}-${size.width}.png`,
          });
        }
      }
      await rig.call('settings.update', { theme: 'system' });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await newLyrics.fill('[verse]\nsail away');
    const call = await queueFromForm(view);
    expect(call.args).toMatchObject({
      taskType: 'edit',
      parentId: song.id,
      parentOutput: 0,
      input: { edit_lyrics: '[verse]\nsail away', lyrics: SONG.lyrics },
    });
    const stored = (await rig.call('tasks.get', { id: (call.value as Task).id }))!;
    expect(lineageOf(stored)).toEqual({ parentId: song.id, parentOutput: 0 });
    expectResolvedFrom(stored, 'audio', song);
    await rig.waitForTask(stored.id, ['saved']);
  });

  it('Remix: the song as the style audio with a new prompt', async () => {
    const { page } = view;
    await chooseAction(page, song, 'Remix');
    const panel = page.getByRole('tabpanel');
    expect(await panel.getByRole('radio', { name: 'Remix' }).isChecked()).toBe(true);
    await panel.getByLabel('New style prompt', { exact: false }).fill('slow jazz ballad, brushes');
    const call = await queueFromForm(view);
    expect(call.args).toMatchObject({
      taskType: 'audio2audio',
      parentId: song.id,
      parentOutput: 0,
      input: {
        style_audio: { $output: { taskId: song.id, index: 0 } },
        style_prompt: 'slow jazz ballad, brushes',
      },
    });
    const stored = (await rig.call('tasks.get', { id: (call.value as Task).id }))!;
    expect(lineageOf(stored)).toEqual({ parentId: song.id, parentOutput: 0 });
    expectResolvedFrom(stored, 'style_audio', song);
    await rig.waitForTask(stored.id, ['saved']);
  });
});
