/**
 * Compare any two or more results (issue 22, item 5), in the window over the real backend and
 * sandbox: the selection toolbar's Compare says why it is unavailable (one ticked, two kinds),
 * two pictures open a split dragged or moved from the keyboard and a side-by-side layout (two of
 * one title told apart by number, variations by place and seed), two
 * songs are switched A/B in the app's one player keeping the position, two videos play in step
 * under one control; Escape goes back with the focus on Compare. Three pictures: Left and Right
 * choose the two the split shows (swapping when one side is given the other's), the controls on
 * one row at 800 x 600, 1280 x 800 and 1920 x 1080. Pictures at 800 x 600 and 1920 x 1080 in both
 * themes with SHOTS=1 (npm run shots).
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { waitUntil } from '../support/wait-until.ts';
import { PICTURE_SIZES, SHOT_SIZES } from './harness/look-check.ts';
import { inEachTheme } from './harness/page-boxes.ts';
import { saveSongs } from './harness/song-tasks.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import {
  clearSelectionButton,
  openLibraryWith,
  playedMediaState,
  trackPlayedMedia,
} from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

const SHOTS = join(import.meta.dirname, '../../test-results/screenshots');

async function saveQueued(rig: StudioRig, draft: Parameters<StudioRig['call']>[1] & object): Promise<Task> {
  const task = await rig.call('tasks.queue', draft as never);
  return rig.waitForTask(task.id, ['saved'], 60_000);
}

const compare = (page: Page) => page.getByTestId('compare-open');

async function tick(page: Page, titles: readonly string[]): Promise<void> {
  const clear = clearSelectionButton(page);
  if (await clear.isVisible()) await clear.click();
  for (const title of titles) await page.getByRole('checkbox', { name: `Select ${title}` }).check();
}

/** Why Compare is unavailable, as it is read with it. */
async function whyNot(page: Page): Promise<string | null> {
  const button = compare(page);
  if ((await button.getAttribute('aria-disabled')) !== 'true') return null;
  const id = await button.getAttribute('aria-describedby');
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
}

async function openCompare(page: Page, titles: readonly string[]): Promise<void> {
  await tick(page, titles);
  await compare(page).click();
  await page.getByTestId('compare-view').waitFor();
}

describe.skipIf(!browserAvailable())('compare any two results of a selection', () => {
  let rig: StudioRig;
  let view: StudioPage;
  const made = new Map<string, Task>();

  openStudio(
    {
      service: 'service',
      page: { beforeLoad: trackPlayedMedia },
      prepare: async (rig) => {
        const songs = await saveSongs(rig, [
          { title: 'Song one', seconds: 8 },
          { title: 'Song two', seconds: 8, style: 'bright guitars, upbeat' },
        ]);
        const pictures = [
          await saveQueued(rig, {
            model: 'service/flux1-schnell',
            taskType: 'txt2img',
            title: 'Red kite',
            input: { prompt: 'a red kite over a field' },
          }),
          await saveQueued(rig, {
            model: 'service/flux1-schnell',
            taskType: 'txt2img',
            title: 'Blue kite',
            input: { prompt: 'a blue kite over the sea' },
          }),
          await saveQueued(rig, {
            model: 'service/flux1-schnell',
            taskType: 'txt2img',
            title: 'Green kite',
            input: { prompt: 'a green kite over a hill' },
          }),
        ];
        const videos = [
          await saveQueued(rig, {
            model: 'service/video-gen',
            taskType: 'txt2video',
            title: 'Waves',
            input: { prompt: 'waves rolling onto a beach', duration: 3 },
          }),
          await saveQueued(rig, {
            model: 'service/video-gen',
            taskType: 'txt2video',
            title: 'Clouds',
            input: { prompt: 'clouds over hills', duration: 3 },
          }),
        ];
        for (const t of [...songs, ...pictures, ...videos]) made.set(t.title, t);
      },
    },
    async (opened) => {
      ({ rig, view } = opened);
      await openLibraryWith(view.page, 7);
    },
  );

  it('says why Compare is unavailable, and splits two pictures by drag, keyboard or side by side', async () => {
    const { page } = view;
    await tick(page, ['Red kite']);
    expect(await compare(page).count()).toBe(0); // one result: nothing to compare it with
    await tick(page, ['Red kite', 'Song one']);
    expect(await whyNot(page)).toBe('Compare results of one kind: these are pictures and songs');
    await compare(page).click({ force: true });
    expect(await page.getByTestId('compare-view').count()).toBe(0);

    await openCompare(page, ['Red kite', 'Blue kite']);
    expect(await page.getByRole('heading', { name: 'Compare 2 pictures' }).isVisible()).toBe(true);
    const frame = page.getByTestId('before-after-frame');
    expect(
      await frame.getByRole('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt'))),
    ).toEqual(['Red kite', 'Blue kite']);
    const split = page.getByRole('slider', { name: 'Split between Red kite and Blue kite' });
    expect(await split.inputValue()).toBe('50');
    await split.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await split.inputValue()).toBe('48');
    const box = (await frame.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.up();
    expect(Number(await split.inputValue())).toBeLessThan(25);
    const clip = await frame
      .getByRole('img', { name: 'Blue kite' })
      .evaluate((img) => (img as unknown as { style: { clipPath: string } }).style.clipPath);
    expect(clip).toBe(`inset(0px 0px 0px ${await split.inputValue()}%)`);

    await page.getByRole('button', { name: 'Side by side' }).click();
    expect(await page.getByTestId('compare-picture').count()).toBe(2);
    await page.keyboard.press('Escape');
    await page.getByTestId('task-card').first().waitFor();
    await waitUntil(
      () =>
        page.evaluate(() => {
          const doc = (
            globalThis as unknown as {
              document: { activeElement: { getAttribute(n: string): string | null } | null };
            }
          ).document;
          return doc.activeElement?.getAttribute('data-testid') === 'compare-open';
        }),
      'the focus back on Compare',
    );
  });

  it('with three pictures, Left and Right choose the two the split shows; one row of controls', async () => {
    const { page } = view;
    await openCompare(page, ['Red kite', 'Blue kite', 'Green kite']);
    expect(await page.getByRole('heading', { name: 'Compare 3 pictures' }).isVisible()).toBe(true);
    const left = page.getByLabel('Left', { exact: true });
    const right = page.getByLabel('Right', { exact: true });
    const path = (title: string) => made.get(title)!.outputs[0]!.path!;
    /** What the split shows: each picture's name and whether its source is that task's file. */
    const shown = async () => {
      const imgs = await page
        .getByTestId('before-after-frame')
        .getByRole('img')
        .evaluateAll((els) =>
          els.map((i) => ({ alt: i.getAttribute('alt') ?? '', src: i.getAttribute('src') ?? '' })),
        );
      const labels = await page.locator('.before-after-label').allTextContents();
      const range = await page.locator('.before-after-range span').textContent();
      return { imgs, labels, range };
    };
    const expectSplit = async (a: string, b: string) => {
      await expect.poll(async () => (await shown()).imgs.map((i) => i.alt)).toEqual([a, b]);
      const now = await shown();
      expect(now.imgs[0]!.src.endsWith(path(a)), now.imgs[0]!.src).toBe(true);
      expect(now.imgs[1]!.src.endsWith(path(b)), now.imgs[1]!.src).toBe(true);
      expect(now.labels).toEqual([a, b]);
      expect(now.range).toBe(`Split between ${a} and ${b}`);
      expect(await left.inputValue()).toBe(String(['Red kite', 'Blue kite', 'Green kite'].indexOf(a)));
      expect(await right.inputValue()).toBe(String(['Red kite', 'Blue kite', 'Green kite'].indexOf(b)));
    };
    await expectSplit('Red kite', 'Blue kite');
    await right.selectOption({ label: '3. Green kite' });
    await expectSplit('Red kite', 'Green kite');
    await left.selectOption({ label: '2. Blue kite' });
    await expectSplit('Blue kite', 'Green kite');
    // Left given the picture Right shows: the two change places (never one picture split with itself)
    await left.selectOption({ label: '3. Green kite' });
    await expectSplit('Green kite', 'Blue kite');
    // the layout's buttons and both choosers share one row at 1280 x 800
    const tops = await page
      .locator('.compare-toolbar')
      .locator('button, select')
      .evaluateAll((els) =>
        els.map((el) => {
          const r = (
            el as unknown as { getBoundingClientRect(): { y: number; height: number } }
          ).getBoundingClientRect();
          return Math.round(r.y + r.height / 2);
        }),
      );
    // one row: the middles of buttons and selects (a few pixels apart in height) within 6 px
    expect(Math.max(...tops) - Math.min(...tops), JSON.stringify(tops)).toBeLessThan(6);
    // side by side shows all three; back to the split, the choice is kept
    await page.getByRole('button', { name: 'Side by side' }).click();
    expect(
      await page
        .getByTestId('compare-picture')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id'))),
    ).toEqual(['Red kite', 'Blue kite', 'Green kite'].map((t) => made.get(t)!.id));
    await page.getByRole('button', { name: 'Split', exact: true }).click();
    await expectSplit('Green kite', 'Blue kite');
    await page.keyboard.press('Escape');
    await page.getByTestId('task-card').first().waitFor();
  });

  it('two pictures of one title are told apart in the compare', async () => {
    const { page } = view;
    const blue = made.get('Blue kite')!;
    await rig.call('tasks.rename', { id: blue.id, title: 'Red kite' });
    try {
      await page.getByTestId('task-card').filter({ hasText: 'Red kite' }).nth(1).waitFor();
      for (const task of [made.get('Red kite')!, blue]) {
        await page
          .locator(`[data-testid="task-card"][data-task-id="${task.id}"]`)
          .getByRole('checkbox')
          .check();
      }
      await compare(page).click();
      await page.getByTestId('compare-view').waitFor();
      const split = page.getByRole('slider', { name: /^Split between Red kite/ });
      expect(await split.count()).toBe(1);
      expect(
        await page.getByTestId('compare-view').locator('.before-after-range span').textContent(),
      ).toMatch(/^Split between Red kite \([12]\) and Red kite \([12]\)$/);
      await page.keyboard.press('Escape');
      await page.getByTestId('task-card').first().waitFor();
      await clearSelectionButton(page).click();
    } finally {
      await rig.call('tasks.rename', { id: blue.id, title: 'Blue kite' });
    }
  });

  it('a title with a direction control is shown without it, isolated from the words around it', async () => {
    const { page } = view;
    const blue = made.get('Blue kite')!;
    // U+202E turns what follows around: shown as it is, this title reads "Blue kiteexe.png"
    await rig.call('tasks.rename', { id: blue.id, title: 'Blue kite\u202egnp.exe' });
    try {
      const card = page.locator(`[data-testid="task-card"][data-task-id="${blue.id}"]`);
      const title = card.locator('.card-title');
      await expect.poll(() => title.textContent()).toBe('Blue kitegnp.exe');
      const isolation = (el: unknown) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { unicodeBidi: string } }).getComputedStyle(
          el,
        ).unicodeBidi;
      expect(['isolate', 'plaintext']).toContain(await title.evaluate(isolation));
      await page.getByRole('checkbox', { name: 'Select Red kite' }).check();
      await card.getByRole('checkbox').check();
      await compare(page).click();
      const range = page.getByTestId('compare-view').locator('.before-after-range span');
      expect(await range.textContent()).toBe('Split between Red kite and Blue kitegnp.exe');
      expect(await range.locator('bdi').allTextContents()).toEqual(['Red kite', 'Blue kitegnp.exe']);
      for (const label of await page.locator('.before-after-label').all())
        expect(['isolate', 'plaintext']).toContain(await label.evaluate(isolation));
      // the window's title is the app's own, whatever the tasks are called
      expect(await page.title()).toBe('Media Task Studio');
      await page.keyboard.press('Escape');
      await card.locator('.card-thumb').click();
      const heading = page.getByTestId('detail-panel').locator('.detail-title');
      expect(await heading.textContent()).toBe('Blue kitegnp.exe');
      expect(['isolate', 'plaintext']).toContain(await heading.evaluate(isolation));
      await page.getByRole('button', { name: 'Close details' }).click();
      await clearSelectionButton(page).click();
    } finally {
      await rig.call('tasks.rename', { id: blue.id, title: 'Blue kite' });
    }
  });

  it('switches two songs A/B in the one player, keeping the position', async () => {
    const { page } = view;
    await openCompare(page, ['Song one', 'Song two']);
    const [one, two] = [made.get('Song one')!, made.get('Song two')!];
    const song = (t: Task) => page.locator(`[data-testid="compare-song"][data-task-id="${t.id}"]`);
    await song(one).click();
    const playing = (t: Task) => async () => {
      const media = await playedMediaState(page);
      return media && !media.paused && media.src.endsWith(t.outputs[0]!.path!) ? media : null;
    };
    await waitUntil(async () => ((await playing(one)())?.currentTime ?? 0) > 1.5, 'song one past 1.5 s');
    expect(await song(one).getAttribute('aria-pressed')).toBe('true');
    const before = (await playedMediaState(page))!.currentTime;
    // the keyboard's way: 2 chooses B while the switch has the focus
    await song(one).focus();
    await page.keyboard.press('2');
    const after = await waitUntil(playing(two), 'song two playing');
    expect(after.currentTime).toBeGreaterThanOrEqual(before);
    expect(after.currentTime).toBeLessThan(before + 1.5);
    expect(await song(two).getAttribute('aria-pressed')).toBe('true');
    expect(await song(one).getAttribute('aria-pressed')).toBe('false');
    // one audio engine: the player bar shows the song heard
    expect(await page.getByTestId('player-bar').getAttribute('data-task-id')).toBe(two.id);
    await page.getByTestId('compare-songs').getByRole('button', { name: 'Pause', exact: true }).click();
    await page.keyboard.press('Escape');
  });

  it('plays two videos in step under one control', async () => {
    const { page } = view;
    await openCompare(page, ['Waves', 'Clouds']);
    const times = () =>
      page
        .getByTestId('compare-video')
        .locator('video')
        .evaluateAll((vs) =>
          vs.map((v) => {
            const video = v as unknown as { currentTime: number; paused: boolean };
            return { t: video.currentTime, paused: video.paused };
          }),
        );
    await page.getByRole('button', { name: 'Play all' }).click();
    await waitUntil(
      async () => (await times()).every((v) => !v.paused && v.t > 0.6),
      'both videos playing past 0.6 s',
    );
    const [a, b] = await times();
    expect(Math.abs(a!.t - b!.t)).toBeLessThan(0.25);
    await page.getByRole('button', { name: 'Pause all' }).click();
    await waitUntil(async () => (await times()).every((v) => v.paused), 'both paused');
    const seek = page.getByRole('slider', { name: 'Position of all videos' });
    await seek.focus();
    await page.keyboard.press('Home');
    await waitUntil(async () => (await times()).every((v) => v.t < 0.05), 'both back at the start');
    // one moved to Recently deleted by another hand (retention's run, the CLI): it leaves the compare
    const clouds = made.get('Clouds')!;
    const moved = await rig.call('tasks.delete', { selection: { ids: [clouds.id] } });
    try {
      await expect
        .poll(() => page.getByTestId('compare-view').textContent())
        .toContain('These results are no longer in the library to compare.');
      expect(await page.getByTestId('compare-video').count()).toBe(0);
    } finally {
      await rig.call('tasks.restore', { deletedAt: moved.deletedAt });
    }
    await page.keyboard.press('Escape');
    await openLibraryWith(page, 7);
  });

  it('at 800 x 600 and 1920 x 1080 three pictures have their controls on one row; pictures with SHOTS=1', async () => {
    // a long title makes its chooser as wide as it may be
    const green = made.get('Green kite')!;
    await rig.call('tasks.rename', {
      id: green.id,
      title: 'Green kite over the long hill at dusk, second try',
    });
    try {
      await checkSizes();
    } finally {
      await rig.call('tasks.rename', { id: green.id, title: 'Green kite' });
    }
  });

  async function checkSizes(): Promise<void> {
    for (const s of SHOT_SIZES) {
      const shot = await rig.openPage(view.page.context().browser()!, {
        viewport: { width: s.width, height: s.height },
      });
      try {
        await openLibraryWith(shot.page, 7);
        // each card's kind is whole (it was cut to "Image…" beside the cost, even at 1920 wide)
        const kinds = await shot.page.locator('.card-type').evaluateAll((els) =>
          els.map((el) => {
            const e = el as unknown as { textContent: string; scrollWidth: number; clientWidth: number };
            const box = el as unknown as { scrollHeight: number; clientHeight: number };
            return {
              text: e.textContent,
              cut: e.scrollWidth > e.clientWidth || box.scrollHeight > box.clientHeight,
            };
          }),
        );
        expect(
          kinds.filter((k) => k.cut),
          s.name,
        ).toEqual([]);
        expect(kinds.map((k) => k.text)).toContain('Image from text (Flux schnell)');
        await openCompare(shot.page, [
          'Red kite',
          'Blue kite',
          'Green kite over the long hill at dusk, second try',
        ]);
        const pieces = await shot.page
          .locator('.compare-toolbar')
          .locator('button, select')
          .evaluateAll((els) =>
            els.map((el) => {
              const r = (
                el as unknown as {
                  getBoundingClientRect(): { x: number; y: number; width: number; height: number };
                }
              ).getBoundingClientRect();
              return { middle: Math.round(r.y + r.height / 2), right: r.x + r.width };
            }),
          );
        const middles = pieces.map((p) => p.middle);
        expect(
          Math.max(...middles) - Math.min(...middles),
          `${s.name}: ${JSON.stringify(pieces)}`,
        ).toBeLessThan(6);
        for (const p of pieces) expect(p.right).toBeLessThanOrEqual(s.width);
        if (!PICTURE_SIZES.includes(s)) continue;
        await inEachTheme(shot.page, (theme) =>
          shot.page
            .screenshot({ path: join(SHOTS, `compare-three-${s.name}-${theme}.png`) })
            .then(() => undefined),
        );
        await shot.page.getByRole('button', { name: 'Back to the library' }).click();
        for (const [name, titles] of [
          ['pictures', ['Red kite', 'Blue kite']],
          ['songs', ['Song one', 'Song two']],
          ['videos', ['Waves', 'Clouds']],
        ] as const) {
          await openCompare(shot.page, titles);
          if (name === 'songs') await shot.page.locator('[data-testid="compare-song"]').first().click();
          await inEachTheme(shot.page, (theme) =>
            shot.page
              .screenshot({ path: join(SHOTS, `compare-${name}-${s.name}-${theme}.png`) })
              .then(() => undefined),
          );
          if (name === 'songs')
            await shot.page
              .getByTestId('compare-songs')
              .getByRole('button', { name: 'Pause', exact: true })
              .click();
          await shot.page.getByRole('button', { name: 'Back to the library' }).click();
        }
      } finally {
        await shot.close();
      }
    }
  }
});
