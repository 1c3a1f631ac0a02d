/**
 * A declared column table: for each field of a record the store hands out (a task, an input, an
 * output), the column(s) that hold it, the zod schema each stored value must pass when read back,
 * how the field is written, and what a patch may set it to. The SELECT lists, the row checks, the
 * row → record mapping, the INSERT column lists and the SET clauses of patches all come from it,
 * so a new field is one entry here plus its migration.
 */
import type { SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import { checkedInput } from './checked-input.ts';
import { CorruptTaskRowError } from './store-errors.ts';

export type SqlRow = Record<string, unknown>;
export type Params = Record<string, SQLInputValue>;

/** The SET part of an UPDATE. */
export interface SetClause {
  /** `col = $col` items, in the table's order, so the same fields always give the same SQL. */
  assignments: string[];
  params: Params;
}

/** One field of the record `T` and the column(s) holding it. */
export interface FieldColumns<T, K extends keyof T = keyof T> {
  readonly field: K;
  /** The columns read back for the field, each with the schema its stored value must pass. */
  readonly columns: Readonly<Record<string, z.ZodType>>;
  /** Further columns `write` fills: copies kept for search or sums, never read back. */
  readonly alsoWrites: readonly string[];
  /** The checked stored values → the field. `id` names the record in an error. */
  read(stored: SqlRow, id: string): T[K];
  /** The field → the values of all its columns (`columns` and `alsoWrites`). */
  write(value: T[K]): Params;
  /** What a patch may set the field to; null when no patch changes it. */
  readonly patch: z.ZodType<T[K]> | null;
}

type Stored<C extends Record<string, z.ZodType>> = { [Name in keyof C]: z.infer<C[Name]> };

/** The two ways to declare a field of `T`; `columnsOf<Task>()` fixes `T` once for a whole table. */
export function columnsOf<T>() {
  return {
    /** A field held as is in one column (`write` may normalise the value, e.g. a time to UTC). */
    plain<K extends keyof T>(
      field: K,
      column: string,
      stored: z.ZodType<T[K]>,
      options: { patch?: z.ZodType<T[K]>; write?: (value: T[K]) => SQLInputValue } = {},
    ): FieldColumns<T, K> {
      const write = options.write ?? ((value: T[K]) => value as SQLInputValue);
      return {
        field,
        columns: { [column]: stored },
        alsoWrites: [],
        read: (row) => row[column] as T[K],
        write: (value) => ({ [column]: write(value) }),
        patch: options.patch ?? null,
      };
    },
    /** A field spread over several columns, or stored in another form (JSON text, 0/1). */
    mapped<K extends keyof T, C extends Record<string, z.ZodType>>(spec: {
      field: K;
      columns: C;
      alsoWrites?: readonly string[];
      read: (stored: Stored<C>, id: string) => T[K];
      write: (value: T[K]) => Params;
      patch?: z.ZodType<T[K]>;
    }): FieldColumns<T, K> {
      return {
        field: spec.field,
        columns: spec.columns,
        alsoWrites: spec.alsoWrites ?? [],
        read: (row, id) => spec.read(row as Stored<C>, id),
        write: spec.write,
        patch: spec.patch ?? null,
      };
    },
  };
}

function issueText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(row)'}: ${i.message}`).join('; ');
}

/** Checks a stored value; a failure becomes a CorruptTaskRowError naming the task and `what`. */
export function parseStored<T>(schema: z.ZodType<T>, value: unknown, taskId: string, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new CorruptTaskRowError(taskId, `${what}: ${issueText(parsed.error)}`);
  return parsed.data;
}

/** A JSON text column, parsed and checked. */
export function parseJsonColumn<T>(schema: z.ZodType<T>, raw: string, taskId: string, column: string): T {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new CorruptTaskRowError(taskId, `${column} is not valid JSON (${(error as Error).message})`);
  }
  return parseStored(schema, value, taskId, column);
}

export class ColumnTable<T, K extends keyof T> {
  readonly #fields: readonly FieldColumns<T, K>[];
  readonly #byField: ReadonlyMap<K, FieldColumns<T, K>>;
  readonly #rowSchema: z.ZodType<SqlRow>;
  readonly #patchSchema: z.ZodType<Partial<Pick<T, K>>>;
  /** Every column read back, the table's own key columns first. */
  readonly columns: readonly string[];

  /** `keyColumns`: columns read back and checked that are no field of `T` (a sort key). */
  constructor(fields: readonly FieldColumns<T, K>[], keyColumns: Readonly<Record<string, z.ZodType>> = {}) {
    this.#fields = fields;
    this.#byField = new Map(fields.map((f) => [f.field, f]));
    const shape: Record<string, z.ZodType> = {};
    for (const f of fields) Object.assign(shape, f.columns);
    Object.assign(shape, keyColumns);
    this.#rowSchema = z.object(shape);
    this.columns = Object.keys(shape);
    const patchable = fields.flatMap((f) => (f.patch ? [[f.field, f.patch.optional()] as const] : []));
    this.#patchSchema = z.strictObject(Object.fromEntries(patchable)) as z.ZodType as z.ZodType<
      Partial<Pick<T, K>>
    >;
  }

  /** The SELECT list of every column read back, each prefixed with `alias.` when given. */
  selectList(alias?: string): string {
    return this.columns.map((c) => (alias ? `${alias}.${c}` : c)).join(', ');
  }

  /** Checks a row and maps it to the fields; a bad value throws CorruptTaskRowError naming `what`. */
  read(row: SqlRow, taskId: string, what: string): Pick<T, K> {
    const stored = parseStored(this.#rowSchema, row, taskId, what);
    const record: Partial<Pick<T, K>> = {};
    for (const f of this.#fields) record[f.field] = f.read(stored, taskId);
    return record as Pick<T, K>;
  }

  /** The columns the given fields write, in the table's order. */
  columnsWrittenBy(fields: readonly K[]): string[] {
    const wanted = new Set(fields);
    return this.#fields
      .filter((f) => wanted.has(f.field))
      .flatMap((f) => [...Object.keys(f.columns), ...f.alsoWrites]);
  }

  /** The values of every column the given fields write (for an INSERT). */
  write<W extends K>(values: Pick<T, W>): Params {
    const params: Params = {};
    for (const [field, value] of Object.entries(values) as [W, T[W]][]) {
      const f = this.#byField.get(field);
      if (!f) throw new Error(`No column holds the field ${String(field)}`);
      Object.assign(params, f.write(value));
    }
    return params;
  }

  /**
   * A patch (checked: only patchable fields, each against its schema; `what` names it in the
   * error) → the SET clause of the fields present. `undefined` keeps a field, `null` clears it.
   */
  patchClause(patch: Partial<Pick<T, K>>, what: string): SetClause {
    const checked: Partial<Pick<T, K>> = checkedInput(this.#patchSchema, patch, what);
    const clause: SetClause = { assignments: [], params: {} };
    for (const f of this.#fields) {
      const value = checked[f.field];
      if (f.patch === null || value === undefined) continue;
      for (const [column, stored] of Object.entries(f.write(value as T[K]))) {
        clause.assignments.push(`${column} = $${column}`);
        clause.params[column] = stored;
      }
    }
    return clause;
  }
}

/** `INSERT INTO table (a, b) VALUES ($a, $b)`. */
export function insertSql(table: string, columns: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `$${c}`).join(', ')})`;
}
