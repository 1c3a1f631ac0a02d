/**
 * Scenario 3: lyrics with section markers (a malformed one is flagged with its line), a song
 * queued while offline — the OS says offline AND the service is really unreachable (its sandbox
 * stopped) — stays local (the ledger stays empty), is sent once the network and the service are
 * back, completes, and plays in the detail view: the waveform is drawn and the audio element's
 * currentTime advances after Play.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import {
  activityRow,
  card,
  fillSong,
  openView,
  playedMediaState,
  queue,
  trackPlayedMedia,
} from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const LYRICS_WITH_TYPO = [
  '[verse]',
  'Salt on the window, light on the bay',
  '[chorus',
  'Hold on, hold on',
  '',
].join('\n');

describe.skipIf(!browserAvailable())('a song queued offline', () => {
  let rig: StudioRig;
  let view: StudioPage;

  openStudio({ service: 'service', page: { beforeLoad: trackPlayedMedia } }, (opened) => {
    ({ rig, view } = opened);
  });

  it('flags a malformed marker with its line and inserts markers from the toolbar', async () => {
    const { page } = view;
    await fillSong(page, { style: 'harbour folk, accordion, warm', lyrics: LYRICS_WITH_TYPO, seconds: 6 });
    const problems = page.getByTestId('lyrics-problem');
    await problems.first().waitFor();
    expect(await problems.count()).toBe(1);
    expect(await problems.first().getAttribute('data-line')).toBe('3');
    expect(await problems.first().textContent()).toContain('[chorus');

    // Fix the line, then add a bridge with the toolbar at the end.
    const lyrics = page.getByLabel('Lyrics', { exact: false }).first();
    await lyrics.fill(LYRICS_WITH_TYPO.replace('[chorus', '[chorus]'));
    await page.getByTestId('lyrics-problems').waitFor({ state: 'detached' });
    await lyrics.focus();
    await page.keyboard.press('End');
    await lyrics.evaluate((el) => {
      const area = el as unknown as { value: string; setSelectionRange(a: number, b: number): void };
      area.setSelectionRange(area.value.length, area.value.length);
    });
    await page.getByRole('button', { name: 'Insert [bridge]' }).click();
    expect(await lyrics.inputValue()).toMatch(/Hold on, hold on\n+\[bridge\]\n?$/);
  });

  it('queues while offline without sending anything, then sends and completes when back online', async () => {
    const { page } = view;
    // Offline for real: the OS signal and a service that refuses connections.
    rig.backend.setNetworkOnline(false);
    await rig.stopService();
    await page.getByTestId('offline-banner').waitFor();
    expect(await page.getByTestId('offline-banner').textContent()).toContain(
      'tasks will be sent when the network returns',
    );
    expect(await page.getByTestId('queue-reason').textContent()).toContain('sent when the network returns');

    await queue(page);
    const queued = view.bridge.queuedTasks().at(-1)!;
    expect(queued.state).toBe('queued');
    await openView(page, 'activity');
    await activityRow(page, queued.id).and(page.locator('[data-state="queued"]')).waitFor();

    // Nothing leaves the machine while offline.
    await new Promise((r) => setTimeout(r, 800));
    expect(await rig.ledger()).toEqual([]);
    expect((await rig.call('tasks.get', { id: queued.id }))?.state).toBe('queued');

    // Back online: the service is reachable again and the OS says so.
    await rig.restartService();
    rig.backend.setNetworkOnline(true);
    await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
    const saved = await rig.waitForTask(queued.id, ['saved']);
    const ledger = await rig.ledger();
    expect(ledger).toHaveLength(1);
    const sent = (ledger[0]!.body as { input: Record<string, unknown> }).input;
    expect(sent).toMatchObject({ style_prompt: 'harbour folk, accordion, warm', duration: 6 });
    expect(String(sent.lyrics)).toContain('[chorus]\nHold on, hold on');
    expect(String(sent.lyrics)).toContain('[bridge]');
    const wav = await readFile(join(rig.libraryDir, saved.outputs[0]!.path!));
    expect(wav.subarray(8, 12).toString('latin1')).toBe('WAVE');
    await activityRow(page, queued.id).and(page.locator('[data-state="saved"]')).waitFor();
  });

  it('opens the song: the waveform is drawn and Play advances the audio', async () => {
    const { page } = view;
    const [task] = await rig.tasks();
    await openView(page, 'library');
    await card(page, task!.id)
      .getByRole('button', { name: `Open ${task!.title}` })
      .click();
    const player = page.locator('[data-testid="detail-panel"] [data-testid="waveform-player"]');
    await player.and(page.locator('[data-ready="true"]')).waitFor({ timeout: 15_000 });
    // wavesurfer draws into canvases inside its shadow root (Playwright's CSS engine pierces it).
    const canvases = player.getByTestId('waveform').locator('canvas');
    await expect.poll(() => canvases.count()).toBeGreaterThan(0);
    const drawn = await canvases.first().evaluate((c) => {
      const canvas = c as unknown as { width: number; height: number };
      return canvas.width * canvas.height;
    });
    expect(drawn).toBeGreaterThan(0);
    expect(await player.getByTestId('player-time').textContent()).toMatch(/0:00 \/ 0:0[5-7]/);

    await player.getByRole('button', { name: 'Play' }).click();
    await player.and(page.locator('[data-playing="true"]')).waitFor();
    await expect
      .poll(async () => (await playedMediaState(page))?.currentTime ?? 0, { timeout: 5_000 })
      .toBeGreaterThan(0.3);
    const media = await playedMediaState(page);
    expect(media?.paused).toBe(false);
    // wavesurfer fetched the WAV from the library (then plays it from a blob of those bytes).
    expect(rig.server.mediaRequests).toContain(task!.outputs[0]!.path);
    await player.getByRole('button', { name: 'Pause' }).click();
    await player.and(page.locator('[data-playing="false"]')).waitFor();
  });

  it('tells a service that does not answer apart from being offline, naming its address', async () => {
    const { page } = view;
    await rig.stopService();
    // the network is fine: only the service's address does not answer
    const waiting = await rig.call('tasks.queue', {
      model: 'ace-step',
      taskType: 'txt2audio',
      input: { style_prompt: 'waits for the service', duration: 5 },
    });
    await page.getByTestId('offline-banner').waitFor();
    const banner = (await page.getByTestId('offline-banner').textContent()) ?? '';
    expect(banner).toMatch(/The service at http:\/\/127\.0\.0\.1:\d+ cannot be reached/);
    expect(banner).not.toContain("You're offline");
    await rig.restartService();
    await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 15_000 });
    await rig.waitForTask(waiting.id, ['saved']);
  });
});
