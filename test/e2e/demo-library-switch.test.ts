/**
 * Leaving demo mode (issue 11, items 3 and 12). Demo results live in a library of their own; the
 * window says so, shows no cost of them as billed ("Demo: not billed"), and Settings names both
 * libraries. Turning demo mode off shows the user's library at once (no reload): the demo cards,
 * rows, detail and player go, and a notice says which library is shown and how to see the demo
 * results again; turning it back on from that notice shows them again.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import type { PageWindow } from './harness/page-dom.ts';
import type { StudioPage, StudioRig } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { activityRow, card, fillSong, openView, queue } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

/** Every word the page shows or names (text, titles, labels) that says money was charged or spent. */
async function moneySpentWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as PageWindow;
    const body = document.querySelector('body') as unknown as { innerText: string };
    const texts = [body.innerText];
    for (const el of Array.from(document.querySelectorAll('[title], [aria-label], [aria-valuetext]'))) {
      for (const name of ['title', 'aria-label', 'aria-valuetext']) texts.push(el.getAttribute(name) ?? '');
    }
    return texts.flatMap((t) => t.match(/[^.\n]*\b(charged|spent)\b[^.\n]*/gi) ?? []);
  });
}

describe.skipIf(!browserAvailable())('leaving demo mode', () => {
  let rig: StudioRig;
  let view: StudioPage;
  let demoSong: Task;

  openStudio({ service: 'demo' }, (opened) => {
    ({ rig, view } = opened);
  });

  it('says where demo results live, and bills none of them', async () => {
    const { page } = view;
    await fillSong(page, { style: 'demo switch test, glockenspiel', seconds: 4 });
    await queue(page);
    demoSong = await rig.waitForTask(view.bridge.queuedTasks().at(-1)!.id, ['saved']);
    expect(await page.getByTestId('demo-banner').textContent()).toContain('demo library of their own');

    await openView(page, 'activity');
    const row = activityRow(page, demoSong.id);
    await row.and(page.locator('[data-state="saved"]')).waitFor();
    expect(await row.locator('.activity-cost').textContent()).toBe('Demo: not billed');
    expect(await row.textContent()).not.toMatch(/\$\d/);
    // demo mode never says charged or spent, in words or in a title
    expect(await moneySpentWords(page)).toEqual([]);

    await openView(page, 'library');
    await card(page, demoSong.id).waitFor();
    await page.getByTestId('library-total').filter({ hasText: '1 task in the demo library' }).waitFor();
    await card(page, demoSong.id)
      .getByRole('button', { name: `Open ${demoSong.title}` })
      .click();
    const cost = page.getByTestId('cost-estimate-detail');
    expect(await cost.textContent()).toMatch(/^Demo: not billed \(a real task would cost about \$0\.002\)$/);
    expect(await moneySpentWords(page)).toEqual([]);

    await openView(page, 'settings');
    expect(await page.getByTestId('library-in-use').textContent()).toBe(
      join(rig.userDataDir, 'demo-library'),
    );
    expect(await page.getByTestId('library-dir').textContent()).toBe(join(rig.userDataDir, 'library'));
    expect(
      await page
        .locator('.settings-section')
        .filter({ has: page.getByTestId('library-in-use') })
        .textContent(),
    ).toContain('shown again when demo mode is off');
    // the spending summary: what the demo tasks would have cost, never "spent"
    expect(await page.getByTestId('cost-summary').textContent()).toMatch(
      /^Demo mode: nothing is billed. Its 1 task would have cost about \$0\.002/,
    );
    expect(await moneySpentWords(page)).toEqual([]);
  });

  it('turning demo mode off shows your library at once and says how to see the demo results again', async () => {
    const { page } = view;
    // the demo song is playing and open in the detail when the library changes
    await openView(page, 'library');
    await card(page, demoSong.id).getByTestId('song-play').click();
    await page.getByTestId('player-bar').waitFor();
    await card(page, demoSong.id)
      .getByRole('button', { name: `Open ${demoSong.title}` })
      .click();
    await page.getByTestId('detail-panel').waitFor();

    await openView(page, 'settings');
    await page.getByRole('switch', { name: 'Demo mode (built-in sandbox)' }).click();
    const notice = page.getByTestId('library-notice');
    await notice.waitFor();
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain(
      `Demo mode is off: now showing your library (${join(rig.userDataDir, 'library')})`,
    );
    expect(text).toContain('turn demo mode on to see them again');
    await page.getByTestId('demo-banner').waitFor({ state: 'detached' });
    expect(await page.getByTestId('library-in-use').count()).toBe(0);

    // the library the window shows is the new one, without a reload
    await page.getByTestId('player-bar').waitFor({ state: 'detached' });
    await openView(page, 'library');
    await page
      .getByTestId('library-total')
      .filter({ hasText: /^0 tasks$/ })
      .waitFor();
    expect(await card(page, demoSong.id).count()).toBe(0);
    expect(await page.getByTestId('detail-panel').count()).toBe(0);
    await openView(page, 'activity');
    expect(await activityRow(page, demoSong.id).count()).toBe(0);
    expect(await rig.tasks()).toEqual([]);
  });

  it('"Turn demo mode on" in the notice shows the demo results again', async () => {
    const { page } = view;
    await page.getByTestId('library-notice').getByRole('button', { name: 'Turn demo mode on' }).click();
    await page.getByTestId('demo-banner').waitFor();
    await page.getByTestId('library-notice').waitFor({ state: 'detached' });
    await activityRow(page, demoSong.id).and(page.locator('[data-state="saved"]')).waitFor();
    await openView(page, 'library');
    await card(page, demoSong.id).waitFor();
    expect(await page.getByTestId('task-card').count()).toBe(1);
  });
});
