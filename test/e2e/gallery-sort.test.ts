/**
 * The library's Sort control offers every order the list call takes, in plain words, and the
 * gallery follows each one over the real store: newest, oldest, favourites first, title A to Z
 * (without regard to case), highest cost first (the sandbox bills a song by its seconds) and
 * longest first (a song's length from its file).
 */
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { saveSongs } from './harness/song-tasks.ts';
import type { StudioPage } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { openLibraryWith } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

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
  let view: StudioPage;

  openStudio(
    {
      service: 'service',
      prepare: async (rig) => {
        const saved = await saveSongs(
          rig,
          SONGS.map((song) => ({ ...song, style: `${song.title} song, ukulele` })),
        );
        await rig.call('tasks.setFavorite', { id: saved[1]!.id, favorite: true });
      },
    },
    async (opened) => {
      ({ view } = opened);
      await openLibraryWith(view.page, 3);
    },
  );

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
