/** The errors the engine throws at its callers for a refused action (each message is a sentence for the user). */

/** A task that would take the money spent past the user's budget. */
export class BudgetExceededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetExceededError';
  }
}

/** A task whose price is not published, queued under a budget without the user's word. */
export class PriceUnknownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PriceUnknownError';
  }
}

/** An action the task's state, the library or the engine does not allow now. */
export class TaskActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskActionError';
  }
}

/** The account's task history cannot be read (a service without one, no connection): the message says which. */
export class HistoryUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HistoryUnavailableError';
  }
}
