/**
 * v14: an older library's songs counted as billed (issue 20, item 4). Migration 12 counted every
 * task of an older library at its estimate, since its `usage.consume` was in a unit in doubt; but
 * a usage of type `llm` (ace-step) is exact: one unit is one micro-dollar (billed-cost.ts). So a
 * task the service ended (it has a remote id and a final state) whose stored usage is `llm` gets
 * the billed cost the engine records today: reported = consume, checked against the estimate
 * (more than a factor of two apart: flagged and the larger counted), `cost_json` the whole
 * TaskCost. Tasks with another usage type, still running, or without usage keep their estimate.
 * The task_totals triggers (migration 12) follow billed_micros.
 * NEVER edit: its SQL is hashed.
 */
export const V14_LLM_BILLED_SONGS = `
UPDATE tasks SET
  billed_micros = c.micros,
  cost_json = json_object(
    'micros', c.micros,
    'reportedMicros', c.reported,
    'publishedMicros', c.published,
    'microsPerPoint', 1,
    'pointValueFrom', 'usage type',
    'flagged', json(CASE WHEN c.flagged THEN 'true' ELSE 'false' END))
FROM (
  SELECT id AS task_id, reported, published, flagged,
    CASE WHEN flagged THEN max(reported, published) ELSE reported END AS micros
  FROM (
    SELECT id, reported, published,
      coalesce(reported > 0 AND published > 0 AND (reported > published * 2 OR reported * 2 < published), 0)
        AS flagged
    FROM (
      SELECT id, round(json_extract(usage_json, '$.consume'), 3) AS reported, estimate_micros AS published
      FROM tasks
      WHERE billed_micros IS NULL AND remote_id IS NOT NULL
        AND state IN ('completed', 'downloading', 'saved', 'expired', 'failed', 'cancelled')
        AND json_valid(usage_json) AND json_extract(usage_json, '$.type') = 'llm'
        AND json_type(usage_json, '$.consume') IN ('integer', 'real')
        AND json_extract(usage_json, '$.consume') >= 0))) AS c
WHERE tasks.id = c.task_id;
`;
