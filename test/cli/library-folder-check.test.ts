/**
 * The CLI's library folder (`--library`, MEDIA_TASK_LIBRARY) is refused when it is a network
 * (UNC) or device path, before anything touches it: a usage error, not a stat() of the path.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/cli-args.ts';
import { checkLibraryFolder } from '../../src/cli/library-folder-check.ts';

describe('checkLibraryFolder', () => {
  // spelled `/` + a temporary folder: on Linux a check that failed to refuse it would stay in there
  const unc = `/${join(tmpdir(), 'mts-unc-library')}`;
  it.each([[unc], ['\\\\evil-host\\share\\library'], [`//.${join(tmpdir(), 'mts-device-library')}`]])(
    'refuses %j as a usage error naming the problem',
    (dir) => {
      expect(() => checkLibraryFolder(dir)).toThrow(UsageError);
      expect(() => checkLibraryFolder(dir)).toThrow(/(network \(UNC\)|device) path/);
    },
  );
});
