/**
 * The generic form: any catalog entry's fields, each rendered by its widget (field-widgets.tsx)
 * from the catalog's declarations, with its message from the live check. The caller keeps the
 * values (the Other tab's JSON, an operation's values) and lays the fields out.
 */

import { WIDGETS, type WidgetProps } from './field-widgets.tsx';
import type { FormField } from './form-fields.ts';

export interface CatalogFieldsProps {
  fields: readonly FormField[];
  /** A field's value now. */
  valueOf(name: string): unknown;
  /** Sets fields of the input; undefined leaves one out. */
  set(patch: Record<string, unknown>): void;
  /** The message beside a field, by input field name. */
  message(name: string): string | null;
  /** The `data-field` of a field's control (`input.<name>` in the Other tab). */
  dataField?: (name: string) => string;
  media?: WidgetProps['media'];
  /** A key that changes with the entry, so a field of another entry starts afresh. */
  keyPrefix: string;
}

/** The widget kinds put beside the main fields (settings rather than words). */
export const SIDE_WIDGETS = new Set(['number', 'choice', 'seed', 'aspect-ratio', 'toggle']);

/** A form's fields split into words and media (main) and settings (side). */
export function splitFields(fields: readonly FormField[]): { main: FormField[]; side: FormField[] } {
  return {
    main: fields.filter((f) => !SIDE_WIDGETS.has(f.widget.kind)),
    side: fields.filter((f) => SIDE_WIDGETS.has(f.widget.kind)),
  };
}

export function CatalogFields(props: CatalogFieldsProps) {
  const dataField = props.dataField ?? ((name: string) => name);
  return (
    <>
      {props.fields.map((field) => {
        const Widget = WIDGETS[field.widget.kind];
        return (
          <Widget
            key={`${props.keyPrefix}:${field.name}`}
            field={field}
            dataField={dataField(field.name)}
            value={props.valueOf(field.name)}
            valueOf={props.valueOf}
            error={props.message(field.name)}
            set={props.set}
            media={props.media}
          />
        );
      })}
    </>
  );
}
