/**
 * The words of a media slot: its title and what its buttons, file chooser, web address box and
 * preview say. A hand-made slot is named by its own label ("Browse for Face image", "Replace
 * Target image"): two pictures of one tab are told apart by it. A slot that shows a catalog
 * field takes the field's label as its title ("The video") and its buttons' words from its media
 * kind ("Choose a video…", "Replace video"), which read as a person says them whatever article
 * the label starts with. Pure.
 */
import { mediaKind } from '../../../../shared/index.ts';
import { SLOT_RULES, type SlotField } from './compose-slots.ts';

export interface SlotWords {
  /** The slot's legend. */
  title: string;
  /** The button of an empty slot, which opens the file chooser. */
  browse: string;
  replace: string;
  remove: string;
  /** The hidden file input's name. */
  chooser: string;
  /** The web address box's name. */
  url: string;
  /** The preview picture's alternative text. */
  preview: string;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The words of `field`'s slot; `fieldLabel` when it shows a catalog field (a kind tab's slot). */
export function slotWords(field: SlotField, fieldLabel?: string): SlotWords {
  const rule = SLOT_RULES[field];
  if (fieldLabel === undefined) {
    return {
      title: rule.label,
      browse: `Browse for ${rule.label}`,
      replace: `Replace ${rule.label}`,
      remove: `Remove ${rule.label}`,
      chooser: `Choose a file for ${rule.label}`,
      url: `${rule.label} URL`,
      preview: `Preview of ${rule.label}`,
    };
  }
  const kind = mediaKind(rule.kind);
  return {
    title: fieldLabel,
    browse: `Choose ${kind.words.chosen}…`,
    replace: `Replace ${kind.label}`,
    remove: `Remove ${kind.label}`,
    chooser: `${capitalised(kind.label)} file`,
    url: `${capitalised(kind.label)} URL`,
    preview: `Preview of the ${kind.label}`,
  };
}
