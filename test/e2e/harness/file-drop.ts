/**
 * Dropping real local files on a drop zone, the way a user drags them in from the desktop:
 * the bytes are read from disk in node, a `DataTransfer` holding Files with those names and
 * bytes is built inside the page, and dragenter → dragover → drop are dispatched on the target.
 * The on-disk path is registered first, so `window.studio.pathForFile(file)` answers it as
 * Electron's webUtils would (see studio-bridge.ts).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { JSHandle, Locator, Page } from '@playwright/test';
import { registerFilePaths } from './studio-bridge.ts';
import { contentTypeOf } from './studio-server.ts';

/** The part of the page's DataTransfer used here (node's types have no DOM). */
interface PageDataTransfer {
  items: { add(file: File): unknown };
}

export interface LocalFile {
  path: string;
  /** Name the File carries; the file's base name by default. */
  name?: string;
  /** MIME type the File carries; from the extension by default (as the OS would). */
  type?: string;
}

/** Builds a DataTransfer in the page holding the given local files. */
export async function dataTransferOf(
  page: Page,
  files: readonly LocalFile[],
): Promise<JSHandle<PageDataTransfer>> {
  const payload = await Promise.all(
    files.map(async (file) => {
      const name = file.name ?? basename(file.path);
      const bytes = await readFile(file.path);
      const type =
        file.type ?? (contentTypeOf(name) === 'application/octet-stream' ? '' : contentTypeOf(name));
      return { name, type, base64: bytes.toString('base64'), path: file.path };
    }),
  );
  await registerFilePaths(
    page,
    payload.map(({ name, path }) => ({ name, path })),
  );
  return page.evaluateHandle(
    (entries) => {
      const { DataTransfer } = globalThis as unknown as { DataTransfer: new () => PageDataTransfer };
      const transfer = new DataTransfer();
      for (const { name, type, base64 } of entries) {
        const binary = atob(base64);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
        transfer.items.add(new File([bytes], name, { type }));
      }
      return transfer;
    },
    payload.map(({ name, type, base64 }) => ({ name, type, base64 })),
  );
}

/** Drags the files over `target` and drops them there. */
export async function dropFiles(page: Page, target: Locator, files: readonly LocalFile[]): Promise<void> {
  const dataTransfer = await dataTransferOf(page, files);
  try {
    await target.dispatchEvent('dragenter', { dataTransfer });
    await target.dispatchEvent('dragover', { dataTransfer });
    await target.dispatchEvent('drop', { dataTransfer });
  } finally {
    await dataTransfer.dispose();
  }
}

/**
 * Picks the files through a file input (the keyboard path: "Browse…"), registering their
 * paths the same way. Chromium gives such Files no path either.
 */
export async function chooseFiles(page: Page, input: Locator, files: readonly LocalFile[]): Promise<void> {
  await registerFilePaths(
    page,
    files.map((file) => ({ name: file.name ?? basename(file.path), path: file.path })),
  );
  await input.setInputFiles(files.map((file) => file.path));
}
