/**
 * The packaging configuration cannot be exercised here (no Electron binary), so it is checked:
 * electron-builder.yml against electron-builder's own JSON schema (app-builder-lib/scheme.json)
 * with ajv, and through electron-builder's own validateConfiguration; the targets, the native
 * files kept out of the asar, and the icon (at least 512 x 512).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { APP_NAME } from '../../src/core/library/index.ts';
import { APP_ID } from '../../src/main/platform/app-identity.ts';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
};

type Config = Record<string, unknown> & {
  win: { target: { target: string }[] };
  mac: { target: { target: string }[] };
  linux: { target: string[] };
  asarUnpack?: string[];
  files: string[];
  icon: string;
};

const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Config;
const scheme = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(scheme);
const quietLogger = { isEnabled: false, add() {} };

describe('electron-builder.yml', () => {
  it('passes electron-builder JSON schema', () => {
    const valid = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it("passes electron-builder's own validation", async () => {
    await expect(validateConfiguration(structuredClone(config), quietLogger)).resolves.toBeUndefined();
  });

  it('is refused by both checks when an option is misspelled', async () => {
    const wrong = { ...structuredClone(config), asarUnpak: ['x'] };
    expect(validate(wrong)).toBe(false);
    await expect(validateConfiguration(wrong, quietLogger)).rejects.toThrow(/asarUnpak/);
  });

  it('builds the installers the app ships, under the id the app gives Windows for its notifications', () => {
    expect(config.appId).toMatch(/^[a-z0-9.-]+$/);
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe('Media Task Studio');
    expect(config.win.target.map((t) => t.target)).toContain('nsis');
    expect(config.mac.target.map((t) => t.target)).toContain('dmg');
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
  });

  it('packs the built app with only the wasm32 sharp build, nothing unpacked from the asar', () => {
    // the app's three builds, never all of out/ (it also holds the browser tests' build and benchmark caches)
    expect(config.files).toEqual(
      expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**']),
    );
    expect(config.files).not.toContain('out/**');
    expect(config.files).toEqual(
      expect.arrayContaining([
        '!**/node_modules/@img/sharp-{darwin,linux,linuxmusl,win32,freebsd,webcontainers}-*/**',
        '!**/node_modules/@img/sharp-libvips-*/**',
      ]),
    );
    expect(config.asarUnpack).toBeUndefined();
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      main: string;
      homepage?: string;
      productName?: string;
      author?: { email?: string };
      scripts: Record<string, string>;
    };
    expect(pkg.main).toBe('./out/main/index.js');
    // Electron names the user-data folder after productName: the same one the CLI uses
    expect(pkg.productName).toBe(APP_NAME);
    // a .deb needs both (electron-builder refuses to build one without them)
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.author?.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(pkg.scripts.dist).toBe('electron-vite build && electron-builder');
  });

  it('has an icon of at least 512 x 512', async () => {
    const icon = join(root, config.icon);
    expect(existsSync(icon)).toBe(true);
    const meta = await sharp(icon).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBeGreaterThanOrEqual(512);
    expect(meta.height).toBeGreaterThanOrEqual(512);
  });
});
