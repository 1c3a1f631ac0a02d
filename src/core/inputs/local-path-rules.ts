/**
 * Which local paths from outside (a dropped or queued input file, an export destination, the
 * library folder) the app may touch at all, decided before any file system call touches them.
 *
 * - On Windows a UNC path (`\\server\share\x.png`, `//server/share`) makes even a `stat()`
 *   connect to that server and hand it the user's NTLM hash; device paths (`\\?\`, `\\.\`,
 *   `\\?\UNC\`, `\??\`, names such as `CON`, `NUL` or `COM1`) reach devices, not files. Both are
 *   refused. A value starting with two separators is refused on every platform (on macOS and
 *   Linux `//server/share` is no network path, but nobody means it as a local one either).
 * - On Linux `/proc`, `/sys` and `/dev` hold special files (a read may never end, a write may
 *   hang the app): they are refused as a source or a destination.
 *
 * Pure: the platform's path module and platform name are parameters, so the Windows rules are
 * tested with `path.win32` on any machine.
 */
import nodePath, { type PlatformPath } from 'node:path';

/** A path the app refuses to touch; `message` names the field and says why. */
export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
  readonly field: string | null;
  constructor(message: string, field: string | null = null) {
    super(message);
    this.field = field;
  }
}

/** `\\?\`, `\\.\`, `//?/`, `//./` (and `\\?\UNC\` under them): the Win32 device namespaces. */
const DEVICE_NAMESPACE = /^[\\/]{2}[?.](?:[\\/]|$)/;
/** `\??\`: the NT object namespace, which Win32 calls pass through as is. */
const NT_OBJECT_NAMESPACE = /^[\\/]\?\?(?:[\\/]|$)/;
/** Any other value starting with two separators: a UNC path (`\\server\share`, `//server/share`). */
const UNC_PREFIX = /^[\\/]{2}/;
/** File names Windows maps to devices in every folder, with or without an extension. */
const WINDOWS_DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)$/i;
/** Linux folders of special files (processes, kernel objects, devices). */
const LINUX_SPECIAL_TREES = ['/proc', '/sys', '/dev'];

function isWindowsPathApi(pathApi: PlatformPath): boolean {
  return pathApi.sep === '\\';
}

/** Why a value is a network or device path by its first characters; null when it is neither. */
function prefixProblem(value: string): string | null {
  if (DEVICE_NAMESPACE.test(value) || NT_OBJECT_NAMESPACE.test(value)) {
    return 'is a device path (\\\\?\\, \\\\.\\ or \\??\\), not a file on this computer';
  }
  if (UNC_PREFIX.test(value)) {
    return 'is a network (UNC) path; only files and folders on this computer are accepted';
  }
  return null;
}

/** The name Windows looks up as a device: the segment before its first dot, without trailing spaces or a colon. */
function deviceNameOf(segment: string): string {
  return (segment.split('.')[0] ?? '').replace(/:$/, '').trimEnd();
}

/** Why a Windows path names a device by one of its segments (`C:\x\NUL.txt`); null when none does. */
function windowsDeviceNameProblem(value: string): string | null {
  for (const segment of value.split(/[\\/]/)) {
    const withoutDrive = segment.replace(/^[A-Za-z]:/, '');
    if (WINDOWS_DEVICE_NAME.test(deviceNameOf(withoutDrive))) {
      return `names the Windows device ${JSON.stringify(deviceNameOf(withoutDrive))}, not a file`;
    }
  }
  return null;
}

/**
 * Why the app must not touch `value` as a local path, or null when it may (whether it exists, is
 * absolute or is readable is for the caller to find out). Checks the value as given and as the
 * platform resolves it (a relative path resolved against a network working folder is refused too).
 */
export function localPathProblem(value: string, pathApi: PlatformPath = nodePath): string | null {
  if (value.includes('\0')) return 'contains a NUL character';
  const windows = isWindowsPathApi(pathApi);
  for (const candidate of [value, pathApi.resolve(value)]) {
    const problem = prefixProblem(candidate) ?? (windows ? windowsDeviceNameProblem(candidate) : null);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * Why an absolute, resolved path lies in a tree of special files (Linux `/proc`, `/sys`, `/dev`);
 * null when it does not. Pass the real path (after realpath) so a link into such a tree is caught.
 */
export function specialTreeProblem(
  absolutePath: string,
  platform: NodeJS.Platform = process.platform,
): string | null {
  if (platform !== 'linux') return null;
  const tree = LINUX_SPECIAL_TREES.find((t) => absolutePath === t || absolutePath.startsWith(`${t}/`));
  return tree ? `is under ${tree}, which holds special files, not ordinary files and folders` : null;
}

/** Throws UnsafePathError (`<field>: <value> is …`) when `localPathProblem` refuses the value. */
export function assertLocalPath(value: string, field: string, pathApi: PlatformPath = nodePath): void {
  const problem = localPathProblem(value, pathApi);
  if (problem !== null) throw new UnsafePathError(`${field}: ${JSON.stringify(value)} ${problem}`, field);
}
