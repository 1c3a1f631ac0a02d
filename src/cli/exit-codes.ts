/** Exit codes of `media-task`, so scripts can tell outcomes apart. */
export const EXIT = {
  ok: 0,
  /** Something unexpected (a bug or the machine). */
  internal: 1,
  /** The command line or an input was wrong; nothing was sent. */
  badInput: 2,
  /** The service refused the API key. */
  auth: 3,
  /** The service failed the task, refused it, could not be reached, or its answer was lost. */
  serviceFailure: 4,
  /** Another process has the library open. */
  libraryBusy: 5,
  /** The service refused because the account's plan does not allow it (HTTP 403). */
  planRefused: 6,
} as const;
