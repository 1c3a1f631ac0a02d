/**
 * The player keeps playing: a song started from its library card plays in the player bar at the
 * bottom of the window, and its real audio element goes on advancing while the user moves to
 * Compose, Activity and Settings and back; the bar's title opens the song's detail. One player
 * (issue 21, item 9): the detail's waveform shows and drives the bar's audio (seek, play, pause),
 * never a second element; Play in another song's detail moves the bar to it. A song
 * deleted from the library leaves the player; Close stops it; a song whose file is gone says so.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { barAudio, detailAudio, playerBar, songPath } from './harness/player-ui.ts';
import { makeSongs } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { card, openView, type StudioView, trackPlayedMedia } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

describe.skipIf(!browserAvailable())('the player keeps playing', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let first: Task;
  let second: Task;
  let lost: Task;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        [first, second, lost] = await makeSongs(rig, ['Harbour lights', 'Night ferry', 'Lost tape'], 12);
      },
      page: { beforeLoad: trackPlayedMedia },
    },
    (opened) => {
      ({ rig, view } = opened);
    },
  );

  it('shows a play button named with the title and the length on every song card', async () => {
    const { page } = view;
    await openView(page, 'library');
    for (const song of [first, second]) {
      const songCard = card(page, song.id);
      await songCard.getByRole('button', { name: `Play ${song.title}`, exact: true }).waitFor();
      expect(await songCard.locator('.card-duration').textContent()).toMatch(/^0:1[12]$/);
    }
    // nothing is loaded yet: no bar
    expect(await playerBar(page).count()).toBe(0);
  });

  it('goes on playing while the user moves between the views', async () => {
    const { page } = view;
    await card(page, first.id)
      .getByRole('button', { name: `Play ${first.title}`, exact: true })
      .click();
    const bar = playerBar(page);
    await bar.and(page.locator(`[data-task-id="${first.id}"][data-playing="true"]`)).waitFor();
    expect(await bar.getByRole('button', { name: `Show details: ${first.title}` }).isVisible()).toBe(true);
    // the card's button now pauses the song it plays
    await card(page, first.id)
      .getByRole('button', { name: `Pause ${first.title}`, exact: true })
      .waitFor();
    await expect.poll(async () => (await barAudio(page))?.currentTime ?? 0).toBeGreaterThan(0.2);
    expect((await barAudio(page))?.src).toContain(songPath(first));

    const views: StudioView[] = ['compose', 'activity', 'settings', 'library'];
    for (const where of views) {
      await openView(page, where);
      const before = (await barAudio(page))!.currentTime;
      await expect
        .poll(async () => (await barAudio(page))?.currentTime ?? 0, { timeout: 5_000 })
        .toBeGreaterThan(before + 0.4);
      const now = await barAudio(page);
      expect(now?.paused).toBe(false);
      expect(now?.src).toContain(songPath(first));
      expect(await bar.getAttribute('data-playing')).toBe('true');
      expect(await bar.getByTestId('player-bar-time').textContent()).toMatch(/^0:\d\d \/ 0:1[12]$/);
    }
  });

  it("opens the playing song's detail from the bar's title, from any view", async () => {
    const { page } = view;
    await openView(page, 'compose');
    await playerBar(page)
      .getByRole('button', { name: `Show details: ${first.title}` })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Library', exact: true }).waitFor();
    await page.locator(`[data-testid="detail-panel"][data-task-id="${first.id}"]`).waitFor();
    expect((await barAudio(page))?.paused).toBe(false);
  });

  it("one player: the detail's waveform drives the bar (same audio, same position)", async () => {
    const { page } = view;
    const bar = playerBar(page);
    // the bar plays the first song; its detail's waveform shows the bar's song and place
    await openView(page, 'library');
    await card(page, first.id)
      .getByRole('button', { name: `Open ${first.title}` })
      .click();
    const detail = page.locator(
      `[data-testid="detail-panel"][data-task-id="${first.id}"] [data-testid="waveform-player"]`,
    );
    await detail.and(page.locator('[data-ready="true"]')).waitFor({ timeout: 15_000 });
    await bar.and(page.locator(`[data-task-id="${first.id}"][data-playing="true"]`)).waitFor();
    await detail.and(page.locator('[data-playing="true"]')).waitFor();

    // seek in the detail's waveform, three quarters in: the bar's audio goes there
    const wave = detail.getByTestId('waveform');
    const waveBox = (await wave.boundingBox())!;
    await wave.click({ position: { x: waveBox.width * 0.75, y: waveBox.height / 2 } });
    await expect.poll(async () => (await barAudio(page))?.currentTime ?? 0).toBeGreaterThan(7);
    const at = (await barAudio(page))!;
    expect(at.paused).toBe(false);
    expect(at.src).toContain(songPath(first));
    await expect
      .poll(async () => await bar.getByTestId('player-bar-time').textContent())
      .toMatch(/^0:(0[89]|1\d)/);
    // the detail's clock is the bar's, and no second element ever played
    expect(await detail.getByTestId('player-time').textContent()).toMatch(/^0:(0[89]|1\d)/);
    expect(await detailAudio(page)).toBeNull();

    // Pause in the detail pauses the bar; Play in the bar shows in the detail
    await detail.getByRole('button', { name: 'Pause' }).click();
    await bar.and(page.locator('[data-playing="false"]')).waitFor();
    await detail.and(page.locator('[data-playing="false"]')).waitFor();
    await bar.getByRole('button', { name: 'Play', exact: true }).click();
    await detail.and(page.locator('[data-playing="true"]')).waitFor();

    // another song's detail: it shows at rest, and its Play moves the bar to it
    await card(page, second.id)
      .getByRole('button', { name: `Open ${second.title}` })
      .click();
    const other = page.locator(
      `[data-testid="detail-panel"][data-task-id="${second.id}"] [data-testid="waveform-player"]`,
    );
    await other.and(page.locator('[data-ready="true"][data-playing="false"]')).waitFor({ timeout: 15_000 });
    await other.getByRole('button', { name: 'Play' }).click();
    await bar.and(page.locator(`[data-task-id="${second.id}"][data-playing="true"]`)).waitFor();
    await other.and(page.locator('[data-playing="true"]')).waitFor();
    await expect.poll(async () => (await barAudio(page))?.src).toContain(songPath(second));
    expect(await detailAudio(page)).toBeNull();
  });

  it('lets go of a song deleted from the library', async () => {
    const { page } = view;
    await expect.poll(async () => (await barAudio(page))?.src).toContain(songPath(second));
    // deleted elsewhere (the CLI, say): the task's removal event reaches the window
    await rig.call('tasks.delete', { selection: { ids: [second.id] } });
    await rig.call('tasks.deleteForever', { selection: { ids: [second.id] } });
    await playerBar(page).waitFor({ state: 'detached' });
    expect((await barAudio(page))?.paused).toBe(true);
  });

  it('closes: the audio stops and the bar goes away', async () => {
    const { page } = view;
    await card(page, first.id)
      .getByRole('button', { name: `Play ${first.title}`, exact: true })
      .click();
    await playerBar(page).and(page.locator('[data-playing="true"]')).waitFor();
    await playerBar(page).getByRole('button', { name: 'Close player' }).click();
    await playerBar(page).waitFor({ state: 'detached' });
    expect((await barAudio(page))?.paused).toBe(true);
    expect(view.problems).toEqual([]);
  });

  it('says so in the bar when a song cannot be played', async () => {
    const { page } = view;
    await rm(join(rig.libraryDir, lost.outputs[0]!.path!));
    await card(page, lost.id)
      .getByRole('button', { name: `Play ${lost.title}`, exact: true })
      .click();
    const problem = playerBar(page).getByRole('alert');
    await problem.waitFor();
    expect(await problem.textContent()).toBe(
      'Could not play this song: its file is missing or not a sound this app can play.',
    );
    expect(await playerBar(page).getAttribute('data-playing')).toBe('false');
  });
});
