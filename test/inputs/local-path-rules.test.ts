/**
 * Network (UNC) and device paths are refused before anything touches them: on Windows a stat()
 * of `\\host\share\x.png` hands the user's NTLM hash to that host. The rule is pure (it takes
 * the platform's path module), so the Windows rules are tested with path.win32 on any machine;
 * the input checks use it on this platform before any file system call.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  InputValidationError,
  localPathProblem,
  specialTreeProblem,
  validateInput,
} from '../../src/core/inputs/index.ts';

const UNC = /network \(UNC\) path/;
const DEVICE = /device path/;

describe('localPathProblem with path.win32', () => {
  it.each([
    ['\\\\host\\share\\x.png', UNC],
    ['\\\\host\\share', UNC],
    ['//host/share/x.png', UNC],
    ['/\\host\\share\\x.png', UNC],
    ['\\\\?\\C:\\Users\\me\\x.png', DEVICE],
    ['\\\\?\\UNC\\host\\share\\x.png', DEVICE],
    ['\\\\.\\PhysicalDrive0', DEVICE],
    ['//?/C:/x.png', DEVICE],
    ['//./pipe/x', DEVICE],
    ['\\??\\C:\\x.png', DEVICE],
    ['\\??\\UNC\\host\\share\\x.png', DEVICE],
    ['C:\\Users\\me\\CON', /Windows device "CON"/],
    ['C:\\Users\\me\\nul.png', /Windows device "nul"/],
    ['C:\\x\\COM1.txt', /Windows device "COM1"/],
    ['C:\\x\\lpt9 .png', /Windows device "lpt9"/],
    ['CONOUT$', /Windows device/],
    ['C:\\x\\a\u0000.png', /NUL character/],
  ])('refuses %j', (value, why) => {
    expect(localPathProblem(value, path.win32)).toMatch(why);
  });

  it.each([
    ['C:\\Users\\me\\Pictures\\x.png'],
    ['D:/photos/holiday.jpg'],
    ['C:\\Users\\me\\console.png'],
    ['C:\\Users\\me\\com10.png'],
    ['C:\\Users\\me\\CONFIG\\x.png'],
  ])('accepts the local path %j', (value) => {
    expect(localPathProblem(value, path.win32)).toBeNull();
  });
});

describe('localPathProblem with path.posix', () => {
  it.each([
    ['//host/share/x.png', UNC],
    ['\\\\host\\share\\x.png', UNC],
    ['//?/C:/x.png', DEVICE],
    ['\\\\.\\pipe\\x', DEVICE],
    ['/home/me/x.png\u0000', /NUL character/],
  ])('refuses %j', (value, why) => {
    expect(localPathProblem(value, path.posix)).toMatch(why);
  });

  it.each([['/home/me/Pictures/x.png'], ['/tmp/CON'], ['/home/me/nul.png'], ['/srv//share/x.png']])(
    'accepts the local path %j (device names mean nothing here)',
    (value) => {
      expect(localPathProblem(value, path.posix)).toBeNull();
    },
  );
});

describe('specialTreeProblem', () => {
  it('refuses /proc, /sys and /dev on Linux only', () => {
    expect(specialTreeProblem('/proc/self/fd/0', 'linux')).toMatch(/under \/proc/);
    expect(specialTreeProblem('/sys', 'linux')).toMatch(/under \/sys/);
    expect(specialTreeProblem('/dev/zero', 'linux')).toMatch(/under \/dev/);
    expect(specialTreeProblem('/process/x', 'linux')).toBeNull();
    expect(specialTreeProblem('/proc/x', 'darwin')).toBeNull();
  });
});

describe('input files from outside', () => {
  it.each([['//evil-host/share/face.png'], ['file://evil-host/share/face.png']])(
    'refuses %j as a network path, not as a missing file (it was never looked up)',
    async (value) => {
      const refusal = validateInput(value, { field: 'target_image', kind: 'image' });
      await expect(refusal).rejects.toBeInstanceOf(InputValidationError);
      await expect(refusal).rejects.toThrow(
        /^target_image: .*(network \(UNC\) path|not a usable local file URL)/,
      );
      await expect(refusal).rejects.not.toThrow(/file not found/);
    },
  );

  it('still takes raw Base64 that starts with "//" (MP3 frames do) as Base64, not as a path', async () => {
    const mp3Frame = Buffer.from([0xff, 0xfb, 0x90, 0x64, ...new Array(400).fill(0)]);
    const value = mp3Frame.toString('base64');
    expect(value.startsWith('//')).toBe(true);
    const checked = await validateInput(value, { field: 'audio', kind: 'audio' }).catch((e: Error) => e);
    expect(String((checked as Error).message ?? '')).not.toMatch(/UNC/);
  });
});
