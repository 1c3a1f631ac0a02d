/**
 * The composer from the keyboard, and the song form's details:
 * - Ctrl+Enter queues from a field;
 * - a marker inserted with its button is taken back by Ctrl+Z (the textarea's own undo);
 * - a malformed marker is listed above the lyrics, clear of the Queue bar in an 800 x 600
 *   window, and clicking it selects the marker in the text, scrolled into view;
 * - each listed problem and warning (a tag sent as written) scrolls to its own mark;
 * - quick styles are toggles (aria-pressed) that never add a style twice;
 * - the seed field shows all ten digits of a seed;
 * - the lyrics placeholder is prose in another type than the lyrics, not lyrics.
 */
import { describe, expect, it } from 'vitest';
import type { StudioPage } from './harness/studio-rig.ts';
import { openStudio } from './harness/studio-session.ts';
import { openComposeTab } from './harness/studio-ui.ts';
import { browserAvailable } from './harness/suite-setup.ts';

interface PageTextArea {
  value: string;
  selectionStart: number;
  selectionEnd: number;
  scrollTop: number;
  scrollWidth: number;
  clientWidth: number;
  setSelectionRange(start: number, end: number): void;
}

describe.skipIf(!browserAvailable())('the composer from the keyboard, and the song form', () => {
  let view: StudioPage;

  openStudio({ service: 'service', page: { viewport: { width: 800, height: 600 } } }, (opened) => {
    ({ view } = opened);
  });

  it('Ctrl+Enter in a field queues the song', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Song');
    const prompt = panel.getByLabel('Style prompt', { exact: true });
    await prompt.fill('slow blues, harmonica');
    await page.getByLabel('Duration in seconds').fill('3');
    await prompt.focus();
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => view.bridge.queuedTasks().length).toBe(1);
    expect(view.bridge.queuedTasks()[0]).toMatchObject({ taskType: 'txt2audio' });
  });

  it('a marker inserted with its button is undone by Ctrl+Z', async () => {
    const { page } = view;
    const lyrics = page.getByRole('tabpanel').getByLabel('Lyrics', { exact: false }).first();
    await lyrics.fill('');
    await lyrics.pressSequentially('first line');
    await page.getByRole('button', { name: 'Insert [chorus]' }).click();
    expect(await lyrics.inputValue()).toBe('first line\n[chorus]\n');
    // the caret is after the marker, in the textarea, ready to type
    const caret = await lyrics.evaluate((el) => {
      const area = el as unknown as PageTextArea;
      const doc = (globalThis as unknown as { document: { activeElement: unknown } }).document;
      return { focused: doc.activeElement === el, at: area.selectionStart };
    });
    expect(caret).toEqual({ focused: true, at: 'first line\n[chorus]\n'.length });
    // one step takes the marker back; the typing before it is still there, and redo brings it again
    await page.keyboard.press('Control+z');
    expect(await lyrics.inputValue()).toBe('first line');
    await page.keyboard.press('Control+Shift+z');
    expect(await lyrics.inputValue()).toBe('first line\n[chorus]\n');
  });

  it('a malformed marker is listed above the lyrics, clear of the Queue bar, and clicking it selects it', async () => {
    const { page } = view;
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the song`);
    lines[0] = '[verse]';
    lines[31] = '[chorus';
    const text = lines.join('\n');
    const lyrics = page.getByRole('tabpanel').getByLabel('Lyrics', { exact: false }).first();
    await lyrics.fill(text);
    const list = page.getByTestId('lyrics-problems');
    await list.waitFor();
    const box = (await list.boundingBox())!;
    const bar = (await page.locator('.queue-bar').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(bar.y);

    await lyrics.evaluate((el) => {
      const area = el as unknown as PageTextArea;
      area.setSelectionRange(0, 0);
      area.scrollTop = 0;
    });
    await page.getByTestId('lyrics-problem').getByRole('button').click();
    const state = await lyrics.evaluate((el) => {
      const area = el as unknown as PageTextArea;
      return { start: area.selectionStart, end: area.selectionEnd, scrollTop: area.scrollTop };
    });
    const at = text.indexOf('[chorus');
    expect([state.start, state.end]).toEqual([at, at + '[chorus'.length]);
    expect(state.scrollTop).toBeGreaterThan(0);
    expect(
      await lyrics.evaluate(
        (el) =>
          el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
      ),
    ).toBe(true);
  });

  it('a field reached by Tab scrolls fully into view above the Queue bar (review s7b, defect 10)', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Image edit');
    const prompt = panel.getByLabel('Prompt', { exact: true });
    const isFocused = () =>
      prompt.evaluate(
        (el) =>
          el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
      );
    // the view scrolled so that the prompt's last 9 px sit under the Queue bar (as the review saw)
    const under = async () => {
      const field = (await prompt.boundingBox())!;
      return field.y + field.height - (await page.locator('.queue-bar').boundingBox())!.y;
    };
    const by = (await under()) - 9;
    await prompt.evaluate((el, dy) => {
      type Box = { scrollHeight: number; clientHeight: number; scrollTop: number; parentElement: Box | null };
      let box = (el as unknown as Box).parentElement;
      while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement;
      if (box) box.scrollTop += dy;
    }, by);
    expect(await under()).toBeGreaterThan(0);
    await panel.locator('input, textarea, button, select').first().focus();
    for (let i = 0; i < 40 && !(await isFocused()); i++) await page.keyboard.press('Tab');
    expect(await isFocused()).toBe(true);
    const box = (await prompt.boundingBox())!;
    const bar = (await page.locator('.queue-bar').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(bar.y);
    await openComposeTab(page, 'Song');
  });

  it('quick styles toggle: pressed while in the prompt, never added twice', async () => {
    const { page } = view;
    const panel = page.getByRole('tabpanel');
    const prompt = panel.getByLabel('Style prompt', { exact: true });
    await prompt.fill('slow blues');
    const jazz = panel.getByRole('button', { name: 'Style: jazz' });
    expect(await jazz.getAttribute('aria-pressed')).toBe('false');
    await jazz.click();
    expect(await prompt.inputValue()).toBe('slow blues, jazz');
    expect(await jazz.getAttribute('aria-pressed')).toBe('true');
    await jazz.click();
    expect(await prompt.inputValue()).toBe('slow blues');
    expect(await jazz.getAttribute('aria-pressed')).toBe('false');
    // typed by hand, in another case: the chip shows it, and takes it out rather than adding it
    await prompt.fill('Jazz, brushes');
    expect(await jazz.getAttribute('aria-pressed')).toBe('true');
    await jazz.click();
    expect(await prompt.inputValue()).toBe('brushes');
  });

  it('quick styles are one tab stop: arrows move between them, Tab goes on to the next field', async () => {
    const { page } = view;
    const panel = page.getByRole('tabpanel');
    const chips = panel.getByRole('group', { name: 'Quick styles' }).getByRole('button');
    const focusedName = () =>
      page.evaluate(() => {
        const el = (
          globalThis as unknown as {
            document: { activeElement: { getAttribute(n: string): string | null } | null };
          }
        ).document.activeElement;
        return el?.getAttribute('aria-label') ?? el?.getAttribute('id') ?? null;
      });
    await panel.getByLabel('Style prompt', { exact: true }).focus();
    // Tab lands on the chip used last (jazz, clicked above)
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Style: jazz');
    await page.keyboard.press('Home');
    expect(await focusedName()).toBe('Style: pop');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await focusedName()).toBe('Style: lo-fi');
    await page.keyboard.press('End');
    expect(await focusedName()).toBe(await chips.last().getAttribute('aria-label'));
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowLeft');
    expect(await focusedName()).toBe(await chips.last().getAttribute('aria-label'));
    // one of them is in the tab order
    expect(
      await chips.evaluateAll(
        (all) => all.filter((b) => (b as unknown as { tabIndex: number }).tabIndex === 0).length,
      ),
    ).toBe(1);
    // Tab goes on past the chips to the next control: "One task per line", then the negative prompt
    await page.keyboard.press('Tab');
    expect(await page.getByTestId('prompt-lines').locator('input[type="checkbox"]:focus').count()).toBe(1);
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').getAttribute('data-field')).toBe('negative_prompt');
    await page.keyboard.press('Shift+Tab');
    // Shift+Tab comes back to the chip last moved to
    await page.keyboard.press('Shift+Tab');
    expect(await focusedName()).toBe(await chips.last().getAttribute('aria-label'));
  });

  it('"Refer to" inserts a picture\'s name with one space either side, never two', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Image edit');
    const prompt = panel.getByLabel('Prompt', { exact: true });
    await prompt.fill('put the hat from');
    await prompt.press('End');
    await panel.getByRole('button', { name: 'Insert image2 into the prompt' }).click();
    await page.keyboard.type(' on the person in ');
    await panel.getByRole('button', { name: 'Insert image1 into the prompt' }).click();
    expect(await prompt.inputValue()).toBe('put the hat from image2 on the person in image1');
    // in the middle of a word pair: a space each side
    await prompt.evaluate((el) =>
      (el as unknown as { setSelectionRange(a: number, b: number): void }).setSelectionRange(3, 3),
    );
    await panel.getByRole('button', { name: 'Insert image3 into the prompt' }).click();
    expect(await prompt.inputValue()).toBe('put image3 the hat from image2 on the person in image1');
    await openComposeTab(page, 'Song');
  });

  it('red only for what blocks: a tag sent as written is drawn and listed in the warning colour', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Song');
    const lyrics = panel.getByRole('textbox', { name: /^Lyrics/ });
    await lyrics.fill('[Male Vocal]\nla la\n[verse\nla');
    /** The computed colour `value` (a CSS colour or var()) gives in this page. */
    const colourOf = (value: string) =>
      page.evaluate((v) => {
        const doc = (
          globalThis as unknown as {
            document: {
              createElement(t: string): { style: { color: string } };
              body: { append(e: unknown): void };
            };
          }
        ).document;
        const probe = doc.createElement('span');
        probe.style.color = v;
        doc.body.append(probe);
        const got = (
          globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }
        ).getComputedStyle(probe).color;
        (probe as unknown as { remove(): void }).remove();
        return got;
      }, value);
    const style = (selector: string, property: string) =>
      panel
        .locator(selector)
        .first()
        .evaluate(
          (el, name) =>
            (
              globalThis as unknown as {
                getComputedStyle(e: unknown): { getPropertyValue(n: string): string };
              }
            )
              .getComputedStyle(el)
              .getPropertyValue(name),
          property,
        );
    const warning = await colourOf('var(--warning)');
    const danger = await colourOf('var(--danger)');
    expect(warning).not.toBe(danger);
    const unknownMark = panel.locator('mark', { hasText: '[Male Vocal]' });
    expect(await unknownMark.count()).toBe(1);
    expect(
      await unknownMark.evaluate((el) => (el as unknown as { className: string }).className),
    ).not.toContain('lyrics-problem');
    expect(await style('mark:has-text("[Male Vocal]")', 'text-decoration-color')).toBe(warning);
    expect(await style('[data-testid="lyrics-warnings"]', 'color')).toBe(warning);
    // the broken marker blocks: red
    expect(await style('mark:has-text("[verse")', 'text-decoration-color')).toBe(danger);
    expect(await style('[data-testid="lyrics-problems"]', 'color')).toBe(danger);
    await lyrics.fill('');
  });

  it('each listed problem and warning scrolls the lyrics to its own mark', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Song');
    const lyrics = panel.getByRole('textbox', { name: /^Lyrics/ });
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the song`);
    lines[2] = '[Male Vocal]';
    lines[19] = '[chorus';
    lines[33] = '[Whisper]';
    await lyrics.fill(lines.join('\n'));
    /** Clicks a listed item with the textarea scrolled to the other end first; true when its mark is in view. */
    const scrollsTo = async (item: string, text: string, startAtBottom: boolean) => {
      await lyrics.evaluate((el, bottom) => {
        const area = el as unknown as PageTextArea & { scrollHeight: number };
        area.scrollTop = bottom ? area.scrollHeight : 0;
      }, startAtBottom);
      await panel.getByTestId(item).filter({ hasText: text }).getByRole('button').click();
      return lyrics.evaluate((el, tag) => {
        const area = el as unknown as PageTextArea & { clientHeight: number; parentElement: unknown };
        const marks = (
          area.parentElement as { querySelectorAll(s: string): { textContent: string; offsetTop: number }[] }
        ).querySelectorAll('mark');
        const mark = [...marks].find((m) => m.textContent === tag)!;
        return mark.offsetTop >= area.scrollTop && mark.offsetTop < area.scrollTop + area.clientHeight;
      }, text);
    };
    expect(await scrollsTo('lyrics-warning', '[Male Vocal]', true)).toBe(true);
    expect(await scrollsTo('lyrics-problem', '[chorus', false)).toBe(true);
    expect(await scrollsTo('lyrics-warning', '[Whisper]', false)).toBe(true);
    await lyrics.fill('');
  });

  it('the lyrics placeholder is prose in another type, not lyrics', async () => {
    const { page } = view;
    const lyrics = page.getByRole('tabpanel').getByLabel('Lyrics', { exact: false }).first();
    await lyrics.fill('');
    const placeholder = (await lyrics.getAttribute('placeholder')) ?? '';
    expect(placeholder).toMatch(/^Optional/);
    expect(placeholder).not.toMatch(/^\[/);
    const styles = await lyrics.evaluate((el) => {
      const win = globalThis as unknown as {
        getComputedStyle(e: unknown, pseudo?: string): { fontStyle: string; fontFamily: string };
      };
      const own = win.getComputedStyle(el);
      const hint = win.getComputedStyle(el, '::placeholder');
      return { ownFont: own.fontFamily, hintFont: hint.fontFamily, hintStyle: hint.fontStyle };
    });
    expect(styles.hintStyle).toBe('italic');
    expect(styles.hintFont).not.toBe(styles.ownFont);
  });

  it('the seed field shows all ten digits', async () => {
    const { page } = view;
    const panel = await openComposeTab(page, 'Image edit');
    const seed = panel.getByLabel('Seed', { exact: false });
    await seed.fill('2147483646');
    const fits = await seed.evaluate((el) => {
      const input = el as unknown as PageTextArea & { value: string };
      const win = globalThis as unknown as {
        getComputedStyle(e: unknown): {
          fontWeight: string;
          fontSize: string;
          fontFamily: string;
          paddingLeft: string;
          paddingRight: string;
        };
        document: {
          createElement(tag: 'canvas'): {
            getContext(kind: '2d'): { font: string; measureText(t: string): { width: number } };
          };
        };
      };
      const style = win.getComputedStyle(el);
      const context = win.document.createElement('canvas').getContext('2d');
      // (the `font` shorthand may hold tabular-nums, which a canvas refuses)
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = context.measureText(input.value).width;
      // the content box, less room for the number field's arrows (about 16 px)
      const room =
        input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight) - 16;
      return { text, room };
    });
    expect(fits.room).toBeGreaterThanOrEqual(fits.text);
  });
});
