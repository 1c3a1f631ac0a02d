/**
 * The player bar's controls on the real audio element: seeking on the waveform (mouse and
 * keyboard), previous / next through the songs of the library list in its order (a face swap
 * between them is passed over), on to the next song when one ends, loop (the song starts again
 * instead), and the volume, kept across a restart of the page and shared with the detail panel's
 * waveform.
 */
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { queueFaceSwap } from './harness/face-swap-task.ts';
import { barAudio, detailAudio, playerBar, songPath } from './harness/player-ui.ts';
import { makeSongs } from './harness/song-tasks.ts';
import type { StudioPage } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, openView, trackPlayedMedia, waitForApp } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SONG_SECONDS = 4;

describe.skipIf(!browserAvailable())("the player bar's controls", () => {
  let view: StudioPage;
  /** In the library's order (newest first): third, second, (the face swap), first. */
  let first: Task;
  let second: Task;
  let third: Task;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        [first] = await makeSongs(rig, ['First light'], SONG_SECONDS);
        const swap = await queueFaceSwap(
          rig,
          'Beach swap',
          { name: 'target.png', width: 320, height: 240 },
          { name: 'face.png', width: 160, height: 160, colour: { r: 210, g: 150, b: 110 } },
        );
        await rig.waitForTask(swap.id, ['saved']);
        [second, third] = await makeSongs(rig, ['Second wind', 'Third rail'], SONG_SECONDS);
      },
      page: { beforeLoad: trackPlayedMedia },
    },
    (opened) => {
      ({ view } = opened);
    },
  );

  async function playFromCard(page: Page, song: Task): Promise<void> {
    await card(page, song.id)
      .getByRole('button', { name: `Play ${song.title}`, exact: true })
      .click();
    await playerBar(page)
      .and(page.locator(`[data-task-id="${song.id}"][data-playing="true"]`))
      .waitFor();
  }

  async function playingSong(page: Page): Promise<string | null> {
    return playerBar(page).getAttribute('data-task-id');
  }

  it('seeks where the waveform is clicked, and with the keyboard on it', async () => {
    const { page } = view;
    await openView(page, 'library');
    await playFromCard(page, second);
    const bar = playerBar(page);
    await bar.getByRole('button', { name: 'Pause', exact: true }).click();
    await bar.and(page.locator('[data-playing="false"]')).waitFor();
    const wave = bar.getByTestId('player-bar-wave');
    // the waveform is drawn (canvases in wavesurfer's shadow root)
    await expect.poll(() => wave.locator('canvas').count()).toBeGreaterThan(0);

    const box = (await wave.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.85, box.y + box.height / 2);
    await expect
      .poll(async () => (await barAudio(page))?.currentTime ?? 0)
      .toBeGreaterThan(SONG_SECONDS * 0.85 - 0.3);
    expect((await barAudio(page))!.currentTime).toBeLessThan(SONG_SECONDS * 0.85 + 0.3);
    await expect.poll(() => bar.getByTestId('player-bar-time').textContent()).toBe('0:03 / 0:04');
    expect(await wave.getAttribute('aria-valuenow')).toBe('3');

    await wave.focus();
    await page.keyboard.press('Home');
    await expect.poll(async () => (await barAudio(page))?.currentTime).toBe(0);
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await barAudio(page))?.currentTime).toBe(SONG_SECONDS);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await barAudio(page))?.currentTime).toBe(0);
    expect((await barAudio(page))?.paused).toBe(true);
    expect(await playingSong(page)).toBe(second.id);
  });

  it("goes to the next and the previous song in the library list's order, passing over other tasks", async () => {
    const { page } = view;
    const bar = playerBar(page);
    const previous = bar.getByRole('button', { name: 'Previous song' });
    const next = bar.getByRole('button', { name: 'Next song' });
    await playFromCard(page, second);

    await next.click(); // the face swap between them is not a song
    await bar.and(page.locator(`[data-task-id="${first.id}"][data-playing="true"]`)).waitFor();
    await expect.poll(async () => (await barAudio(page))?.src).toContain(songPath(first));
    expect(await bar.getByRole('button', { name: `Show details: ${first.title}` }).count()).toBe(1);
    expect(await next.isDisabled()).toBe(true); // the last song of the list

    await previous.click();
    await bar.and(page.locator(`[data-task-id="${second.id}"]`)).waitFor();
    await previous.click();
    await bar.and(page.locator(`[data-task-id="${third.id}"][data-playing="true"]`)).waitFor();
    await expect.poll(async () => (await barAudio(page))?.src).toContain(songPath(third));
    await expect.poll(async () => (await barAudio(page))?.currentTime ?? 0).toBeGreaterThan(0.2);
    expect(await previous.isDisabled()).toBe(true); // the first song of the list
    expect(await next.isDisabled()).toBe(false);
  });

  it('goes on to the next song when one ends', async () => {
    const { page } = view;
    await playFromCard(page, second);
    // to the end while it plays: the next song of the list (past the face swap) starts
    await playerBar(page).getByTestId('player-bar-wave').focus();
    await page.keyboard.press('End');
    await playerBar(page)
      .and(page.locator(`[data-task-id="${first.id}"][data-playing="true"]`))
      .waitFor({ timeout: 2_000 });
    await expect.poll(async () => (await barAudio(page))?.src).toContain(songPath(first));
    await expect.poll(async () => (await barAudio(page))?.currentTime ?? 0).toBeGreaterThan(0.2);
  });

  it('loops: at its end the song starts again instead of the next one', async () => {
    const { page } = view;
    const bar = playerBar(page);
    await playFromCard(page, third);
    const loop = bar.getByRole('button', { name: 'Loop' });
    expect(await loop.getAttribute('aria-pressed')).toBe('false');
    await loop.click();
    expect(await loop.getAttribute('aria-pressed')).toBe('true');
    expect((await barAudio(page))?.loop).toBe(true);

    // seek close to the end, then see the position come round to the start
    const wave = bar.getByTestId('player-bar-wave');
    const box = (await wave.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.9, box.y + box.height / 2);
    await expect
      .poll(async () => (await barAudio(page))?.currentTime ?? 0)
      .toBeGreaterThan(SONG_SECONDS * 0.9 - 0.4);
    await expect
      .poll(async () => (await barAudio(page))?.currentTime ?? SONG_SECONDS, { timeout: 5_000 })
      .toBeLessThan(1);
    const after = (await barAudio(page))!;
    expect(after.paused).toBe(false);
    expect(after.src).toContain(songPath(third));
    expect(await playingSong(page)).toBe(third.id);
    await expect.poll(async () => (await barAudio(page))?.currentTime ?? 0).toBeGreaterThan(0.3);
    expect(await playingSong(page)).toBe(third.id);

    await loop.click();
    expect((await barAudio(page))?.loop).toBe(false);
  });

  it('keeps the volume across a restart of the page', async () => {
    const { page } = view;
    const bar = playerBar(page);
    const volume = bar.getByRole('slider', { name: 'Volume' });
    expect(await volume.inputValue()).toBe('100');
    await volume.fill('30');
    await expect.poll(async () => (await barAudio(page))?.volume).toBeCloseTo(0.3, 5);
    // and with the keyboard
    await volume.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await barAudio(page))?.volume).toBeCloseTo(0.25, 5);

    await page.reload();
    await waitForApp(page);
    expect(await bar.count()).toBe(0);
    await openView(page, 'library');
    await playFromCard(page, first);
    expect(await volume.inputValue()).toBe('25');
    expect(await volume.getAttribute('aria-valuetext')).toBe('25%');
    await expect.poll(async () => (await barAudio(page))?.volume).toBeCloseTo(0.25, 5);

    // the detail panel's waveform plays at the same volume: it plays through the bar (one player)
    await card(page, second.id)
      .getByRole('button', { name: `Open ${second.title}` })
      .click();
    const detail = page.locator('[data-testid="detail-panel"] [data-testid="waveform-player"]');
    await detail.and(page.locator('[data-ready="true"]')).waitFor({ timeout: 15_000 });
    await detail.getByRole('button', { name: 'Play' }).click();
    await detail.and(page.locator('[data-playing="true"]')).waitFor();
    await bar.and(page.locator(`[data-task-id="${second.id}"][data-playing="true"]`)).waitFor();
    await expect.poll(async () => (await barAudio(page))?.volume).toBeCloseTo(0.25, 5);
    await volume.fill('60');
    await expect.poll(async () => (await barAudio(page))?.volume).toBeCloseTo(0.6, 5);
    expect(await detailAudio(page)).toBeNull();
    expect(view.problems).toEqual([]);
  });
});
