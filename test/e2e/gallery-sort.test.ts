/**
 * The library's Sort control offers every order the list call takes, in plain words, and the
 * gallery follows each one over the real store: newest, oldest, favourites first, title A to Z
 * (without regard to case), highest cost first (the sandbox bills a song by its seconds) and
 * longest first (a song's length from its file).
 */
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { launchChromium } from './harness/chromium-location.ts';
import { createStudioRig, type StudioPage, type StudioRig } from './harness/studio-rig.ts';
import { openView, waitForApp } from './harness/studio-ui.ts';
import { browserAvailable, rendererDir } from './harness/suite-setup.ts';
import { waitUntil } from './harness/wait-until.ts';

/** Queued in this order: titles, lengths and so costs all disagree with the creation order. */
const SONGS = [
  { title: 'Banana', seconds: 5 },
  { title: 'apple', seconds: 3 },
  { title: 'Cherry', seconds: 4 },
];

function shownTitles(page: Page): Promise<string[]> {
  return page
    .getByTestId('task-card')
    .locator('.card-title')
    .evaluateAll((els) => els.map((el) => el.textContent ?? ''));
}

describe.skipIf(!browserAvailable())('gallery: sort orders', () => {
  let browser: Browser;
  let rig: StudioRig;
  let view: StudioPage;

  beforeAll(async () => {
    [browser, rig] = await Promise.all([
      launchChromium(),
      createStudioRig({ rendererDir: rendererDir(), service: 'service' }),
    ]);
    const saved: Task[] = [];
    for (const song of SONGS) {
      const task = await rig.call('tasks.queue', {
        model: 'service/ace-step',
        taskType: 'txt2audio',
        title: song.title,
        input: { style_prompt: `${song.title} song, ukulele`, duration: song.seconds },
      });
      // one at a time: creation order is the queue order
      saved.push(await rig.waitForTask(task.id, ['saved']));
    }
    await rig.call('tasks.setFavorite', { id: saved[1]!.id, favorite: true });
    view = await rig.openPage(browser);
    await waitForApp(view.page);
    await openView(view.page, 'library');
    await waitUntil(async () => (await view.page.getByTestId('task-card').count()) === 3, 'three cards');
  });

  afterAll(async () => {
    if (view?.problems.length) console.log(`page problems:\n  ${view.problems.join('\n  ')}`);
    await rig?.close();
    await browser?.close();
  });

  it('names every order in plain words', async () => {
    const sort = view.page.getByLabel('Sort', { exact: true });
    expect(await sort.locator('option').allTextContents()).toEqual([
      'Newest first',
      'Oldest first',
      'Favourites first',
      'Title (A to Z)',
      'Highest cost first',
      'Longest first',
    ]);
  });

  const EXPECTED: [label: string, titles: string[]][] = [
    ['Oldest first', ['Banana', 'apple', 'Cherry']],
    ['Favourites first', ['apple', 'Cherry', 'Banana']],
    ['Title (A to Z)', ['apple', 'Banana', 'Cherry']],
    ['Highest cost first', ['Banana', 'Cherry', 'apple']],
    ['Longest first', ['Banana', 'Cherry', 'apple']],
    ['Newest first', ['Cherry', 'apple', 'Banana']],
  ];
  for (const [label, titles] of EXPECTED) {
    it(`shows the library ${label.toLowerCase()}`, async () => {
      const { page } = view;
      await page.getByLabel('Sort', { exact: true }).selectOption({ label });
      await expect.poll(() => shownTitles(page)).toEqual(titles);
    });
  }
});
