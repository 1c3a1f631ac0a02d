/**
 * The Image, Video and 3D tabs: what to make, chosen among the catalog's entries of the tab's
 * kind (grouped by what they start from: text, a picture, a video), each with its price beside
 * it, and the chosen entry as the generic form: its media fields as the tab's slots (checked the
 * moment they are filled), its other fields by their widgets. Nothing here names a model: a new
 * entry of the kind is listed by the catalog (kind-tabs.ts).
 */
import '../../styles/kind-tabs.css';
import { useId } from 'react';
import type { TaskTypeEntry } from '../../../../shared/index.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { useCompose } from '../../state/compose-state.ts';
import { useStudio } from '../../state/studio-state.ts';
import { CatalogFields, splitFields } from './catalog-form/CatalogFields.tsx';
import { type FormField, formFields, jsonWith, valuesOfJson } from './catalog-form/form-fields.ts';
import {
  entryGroups,
  entryPriceWords,
  entryShortLabel,
  type KindTab,
  kindEntryOf,
  mediaSlotsOf,
  withEntry,
} from './kind-tabs.ts';
import { fieldMessage, useFormProblems } from './use-form-problems.ts';

/** The entries of the tab as radio choices, each with its price, grouped by what they start from. */
function EntryPicker({ tab, chosen, error }: { tab: KindTab; chosen: TaskTypeEntry; error: string | null }) {
  const id = useId();
  const form = useCompose((s) => s.kinds[tab]);
  const setKind = useCompose((s) => s.setKind);
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  const values = valuesOfJson(form.json.trim() === '' ? '{}' : form.json) ?? {};
  return (
    <fieldset className="entry-picker" aria-describedby={`${id}-about`}>
      <legend className="field-label">What to make</legend>
      {entryGroups(tab).map((group) => (
        <fieldset key={group.source} className="entry-group" data-testid="entry-group">
          <legend className="operation-group-name">{group.label}</legend>
          {group.entries.map((entry) => (
            <label key={entry.id} className="entry-option" data-entry={entry.id}>
              <input
                type="radio"
                name={`${id}-entry`}
                value={entry.id}
                checked={entry.id === chosen.id}
                data-field={entry.id === chosen.id ? 'entry' : undefined}
                onChange={() => setKind(tab, withEntry(form, entry))}
              />
              <span className="entry-option-name">{entryShortLabel(entry)}</span>
              <span className="entry-option-price" data-testid="entry-price">
                {entryPriceWords(entry, entry.id === chosen.id ? values : {}, demo)}
              </span>
            </label>
          ))}
        </fieldset>
      ))}
      <p id={`${id}-about`} className="field-hint" data-testid="entry-description">
        {chosen.label}
        {chosen.description ? `: ${chosen.description}` : ''}
      </p>
      <FieldMessage id={`${id}-message`} error={error} announce={false} />
    </fieldset>
  );
}

export function KindTabForm({ tab }: { tab: KindTab }) {
  const form = useCompose((s) => s.kinds[tab]);
  const setKind = useCompose((s) => s.setKind);
  const errors = useCompose((s) => s.errors[tab]);
  const { shown } = useFormProblems(tab);
  const entry = kindEntryOf(tab, form);
  if (!entry) return <p className="field-hint">The catalog has nothing of this kind.</p>;
  const message = (field: string) => fieldMessage(errors, shown, field);
  const values = valuesOfJson(form.json.trim() === '' ? '{}' : form.json) ?? {};
  const slots = mediaSlotsOf(tab, entry);
  const { main, side } = splitFields(formFields(entry));
  const common = {
    valueOf: (name: string) => values[name],
    set: (patch: Record<string, unknown>) => {
      const current = useCompose.getState().kinds[tab];
      const json = jsonWith(current.json, patch);
      if (json !== null) setKind(tab, { ...current, json });
    },
    message,
    media: (field: FormField, error: string | null) => {
      const held = slots.find((s) => s.field === field.name);
      if (!held) return null;
      return (
        <MediaSlot
          key={`${entry.id}:${held.slot}`}
          field={held.slot}
          label={field.rule.label}
          description={field.rule.help}
          optional={!field.rule.required}
          error={message(held.slot) ?? error}
        />
      );
    },
    keyPrefix: entry.id,
  };
  return (
    <div className="form-grid form-grid-side-first kind-tab" data-testid="kind-tab" data-entry={entry.id}>
      <div className="form-side">
        <EntryPicker tab={tab} chosen={entry} error={message('entry')} />
      </div>
      <div className="form-main">
        <div className="catalog-form" data-testid="catalog-form" data-entry={entry.id}>
          <div className={`catalog-form-columns${side.length > 0 ? '' : ' catalog-form-one'}`}>
            <div className="catalog-form-main">
              <CatalogFields {...common} fields={main} />
            </div>
            {side.length > 0 ? (
              <div className="catalog-form-side">
                <CatalogFields {...common} fields={side} />
              </div>
            ) : null}
          </div>
        </div>
      </div>
    </div>
  );
}
