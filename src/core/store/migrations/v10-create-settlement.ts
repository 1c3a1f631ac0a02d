/**
 * v10: what the service's task history showed about a create whose answer was lost
 * (`settlement_json`, a TaskSettlement: still looking, never created, which of several, or
 * history out of reach). NULL for every task until the engine first looks.
 * NEVER edit: its SQL is hashed.
 */
export const V10_CREATE_SETTLEMENT = `
ALTER TABLE tasks ADD COLUMN settlement_json TEXT;
`;
