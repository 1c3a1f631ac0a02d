/**
 * The engine's polling schedule made fast, for a backend the tests run (the backend tests' and
 * the browser tests' rig): short tests, the schedule logic still the engine's.
 */
export const FAST_POLLING = {
  minIntervalMs: 40,
  maxIntervalMs: 300,
  elapsedFraction: 0.05,
  firstFetchNoHistoryMs: 40,
  jitter: 0.1,
};
